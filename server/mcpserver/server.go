package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"github.com/sessiongate/sessiongate/repopath"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/session"
)

// instructions is what an MCP client shows its model about this server.
const instructions = `sessiongate enforces this repository's session protocol (SESSION-PROTOCOL.md).
Call session_start with your objective first; it returns a session_id. Pass that
session_id to every other tool: there is no connection state, so the handle is
the session. Satisfy each phase's gate (record_evidence, then validate_gate),
move on with advance_phase, and finish with session_end. get_blocked_reason says
what a blocked phase needs. Read session://{session_id}/state for everything
recorded about a session, and sessiongate://protocol for the protocol itself.`

// Options wire the MCP server to the engine.
type Options struct {
	Engine *session.Engine
	// Repo is the worktree sessions start in (session_start's default).
	Repo session.Repo
	// LoadSpec returns the current protocol (through the engine's cache).
	LoadSpec func(ctx context.Context) (*protocolspec.Spec, error)
	// Protocol returns the current protocol document as it is on disk (its
	// display name and bytes), served as the sessiongate://protocol resource.
	Protocol func(ctx context.Context) (name string, content []byte, err error)
	Version  string
	Logger   *slog.Logger
	// BeforeEnd, when set, runs before session_end ends a session: the
	// CLI's `session end` records there the unchecked stops no fold
	// judged (stopnote.FoldRecords), and so must this server, which
	// folded only what waited at its start.
	BeforeEnd func(ctx context.Context)
}

// New builds the one MCP server sessiongate runs, over stdio
// (sessiongate mcp) and over stateless Streamable HTTP (/mcp). Nothing in it
// depends on the connection: every tool names its session by session_id
// (SEP-2567), so tools/list and resources/list are the same for everyone.
func New(opts Options) *mcp.Server { return newServer(opts, true) }

// newServer is New, with the tools/list cache or without it (the plain SDK
// server the tests compare the cache and its shortcut with).
func newServer(opts Options, cacheList bool) *mcp.Server {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	version := opts.Version
	if version == "" {
		version = "dev"
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "sessiongate", Title: "sessiongate", Version: version}, &mcp.ServerOptions{
		Instructions: instructions,
		// The SDK logs every stateless connect and disconnect at Info.
		Logger: slog.New(logFloor{opts.Logger.Handler(), slog.LevelWarn}),
		// Tools and resources never change at run time and nothing is
		// subscribable, so no listChanged or subscribe; no logging either:
		// a stateless server has no connection to log to.
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}, Resources: &mcp.ResourceCapabilities{}},
		// Never issue an Mcp-Session-Id, even if the server is mounted on a
		// stateful handler: the session handle is the tool argument.
		GetSessionID: func() string { return "" },
	})
	m := &handlers{opts: opts}
	m.addTools(srv)
	m.addResources(srv)
	if cacheList {
		srv.AddReceivingMiddleware(cacheToolsList(srv))
	}
	return srv
}

// handlers carries the options into the tool and resource handlers.
type handlers struct {
	opts Options
}

func (m *handlers) engine() (*session.Engine, error) {
	if m.opts.Engine == nil {
		return nil, errors.New("sessiongate has no session engine configured: run it with `sessiongate mcp` or `sessiongate serve` inside a repository")
	}
	return m.opts.Engine, nil
}

// toolError turns an engine error into the message a model sees with
// isError=true, adding what to do where the engine's own message does not.
// It never becomes a JSON-RPC error: the caller made a valid call that
// the protocol refused, and the model should read why. An internal failure
// (the database, the disk, git) is also logged at Error level with the tool
// and session, for the operator: the model cannot fix it.
func (m *handlers) toolError(ctx context.Context, tool, sessionID string, err error) error {
	msg := err.Error()
	switch {
	case errors.Is(err, session.ErrInvalidID):
		msg += ": pass the session_id that session_start returned"
	case errors.Is(err, repopath.ErrOutsideRepo):
		msg += ": name a file inside the repository with a path relative to its root"
	case errors.Is(err, session.ErrNotFound), errors.Is(err, session.ErrExpired),
		errors.Is(err, session.ErrTerminated), errors.Is(err, session.ErrEnded):
		// The engine's message already says to start a new session.
	}
	if class := session.Classify(err); class == session.ClassInternal {
		m.opts.Logger.ErrorContext(ctx, "mcp tool failed", "tool", tool, "session", sessionID, "err", err)
	} else {
		m.opts.Logger.DebugContext(ctx, "mcp tool refused", "tool", tool, "session", sessionID, "class", class.String(), "err", err)
	}
	return fmt.Errorf("%s: %s", tool, msg)
}

// logFloor drops records below a level.
type logFloor struct {
	slog.Handler
	min slog.Level
}

func (h logFloor) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}

// Handle drops a record whose error is a cancellation (the SDK logs one
// when a stdio server is stopped by a signal, which is no error), telling
// it by the error's type, not by the SDK's wording.
func (h logFloor) Handle(ctx context.Context, r slog.Record) error {
	cancelled := false
	r.Attrs(func(a slog.Attr) bool {
		if err, ok := a.Value.Any().(error); ok && errors.Is(err, context.Canceled) {
			cancelled = true
		}
		return !cancelled
	})
	if cancelled {
		return nil
	}
	return h.Handler.Handle(ctx, r)
}

func (h logFloor) WithAttrs(as []slog.Attr) slog.Handler {
	return logFloor{h.Handler.WithAttrs(as), h.min}
}

func (h logFloor) WithGroup(name string) slog.Handler {
	return logFloor{h.Handler.WithGroup(name), h.min}
}
