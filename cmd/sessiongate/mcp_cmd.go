package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/server"
	"github.com/sessiongate/sessiongate/server/mcpserver"
	"github.com/sessiongate/sessiongate/store"
)

func newMCPCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "mcp",
		Short: "Run the MCP server over stdio (for clients that spawn it)",
		Long: `Run the MCP server over stdio: JSON-RPC on standard input and output, logs on
standard error. MCP clients spawn it in the repository, e.g.
  {"command": "sessiongate", "args": ["mcp"], "cwd": "/path/to/repo"}
Tools: session_start, validate_gate, advance_phase, record_evidence,
session_end, get_blocked_reason. See docs/mcp.md.`,
		Args: args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			ctx := c.Context()
			opts, err := a.serverOptions(ctx)
			if err != nil {
				return err
			}
			// Gate repeats held back (session/gaterepeat.go) go on record
			// before the database closes.
			defer opts.Engine.FlushGateRepeats(context.WithoutCancel(ctx))
			srv := mcpserver.New(mcpserver.Options{Engine: opts.Engine, Repo: opts.Repo, LoadSpec: opts.LoadSpec, Protocol: opts.Protocol, Version: opts.Version, Logger: opts.Logger, BeforeEnd: opts.BeforeEnd})
			// Closing stdin on shutdown unblocks the reader; stdout stays open.
			in, ok := a.stdin.(io.ReadCloser)
			if !ok {
				in = io.NopCloser(a.stdin)
			}
			if err := mcpserver.RunStdio(ctx, srv, in, a.stdout); err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
				return fmt.Errorf("mcp over stdio: %w", err)
			}
			return nil
		},
	}
}

func newServeCmd(a *app) *cobra.Command {
	var addr, tokenFile string
	var index indexFlags
	var indexEvery time.Duration
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve MCP (stateless Streamable HTTP at /mcp) on 127.0.0.1",
		Long: `Serve the MCP endpoint at http://ADDR/mcp (stateless Streamable HTTP, JSON
responses, no Mcp-Session-Id) and the dashboard on the same port. Only loopback
addresses are accepted; requests with a non-loopback Host or a cross-site Origin
get 403. With --token-file, /mcp requires "Authorization: Bearer <token>".
With --db postgres://... and --index REPO (repeatable), the server also keeps the
team database current from those repositories' records refs, every
--index-interval (see sessiongate index).`,
		Args: args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			ctx := c.Context()
			var token string
			if tokenFile != "" {
				var err error
				if token, err = readToken(tokenFile); err != nil {
					return usage(err)
				}
			}
			var runIndex func(context.Context, io.Writer) error
			if len(index.sources) > 0 {
				if indexEvery < time.Second {
					return usage(fmt.Errorf("--index-interval %v: want at least 1s", indexEvery))
				}
				var err error
				if runIndex, err = a.indexer(ctx, &index); err != nil {
					return err
				}
			}
			opts, err := a.serverOptions(ctx)
			if err != nil {
				return err
			}
			// Gate repeats held back (session/gaterepeat.go) go on record
			// before the database closes.
			defer opts.Engine.FlushGateRepeats(context.WithoutCancel(ctx))
			opts.Token = token
			if runIndex != nil {
				go indexLoop(ctx, runIndex, indexEvery, opts.Logger)
			}
			if db, ok := a.db.(*store.DB); ok {
				go optimizeLoop(ctx, db, time.Hour, opts.Logger)
			}
			ln, err := server.Listen(addr, false)
			if err != nil {
				return usage(err)
			}
			s := server.New(opts)
			url := "http://" + ln.Addr().String()
			fmt.Fprintf(a.stdout, "sessiongate %s serving %s (MCP at %s%s)\n", versionString(), url, url, server.MCPPath)
			if token != "" {
				fmt.Fprintf(a.stdout, "MCP requires Authorization: Bearer <token from %s>\n", tokenFile)
			}
			if err := s.Serve(ctx, ln); err != nil {
				return fmt.Errorf("serve %s: %w", url, err)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:7420", "address to listen on (loopback only)")
	cmd.Flags().StringVar(&tokenFile, "token-file", "", "file holding a bearer token that /mcp then requires")
	index.add(cmd, true)
	cmd.Flags().DurationVar(&indexEvery, "index-interval", time.Minute, "how often --index reads the records refs again")
	return cmd
}

// optimizeLoop keeps the SQLite planner's statistics fresh while the
// server runs (store.DB.Optimize): now, then every interval. Hooks never
// pay it; the dashboard's plans do not depend on it (TestQueryPlansAtScale).
func optimizeLoop(ctx context.Context, db *store.DB, every time.Duration, logger *slog.Logger) {
	for {
		start := time.Now()
		if err := db.Optimize(ctx); err != nil && ctx.Err() == nil {
			logger.Warn("store statistics", "error", err)
		} else if took := time.Since(start); took > time.Second {
			logger.Info("store statistics refreshed", "took", took.Round(time.Millisecond))
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(every):
		}
	}
}

// readToken reads a bearer token from a file; a missing or empty file is an error.
func readToken(path string) (string, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("--token-file %s does not exist", path)
	}
	if err != nil {
		return "", fmt.Errorf("read --token-file: %w", err)
	}
	tok := strings.TrimSpace(string(b))
	if tok == "" {
		return "", fmt.Errorf("--token-file %s is empty: put the token on its first line", path)
	}
	if strings.ContainsAny(tok, " \t\r\n") {
		return "", fmt.Errorf("--token-file %s: the token must be one word without spaces or line breaks", path)
	}
	return tok, nil
}

// serverOptions opens the repository of the working directory, its store
// and engine, and wires them into the server. The protocol is read on each
// call (the engine caches the parse by content hash), so an edited protocol
// applies to the next session_start; the lock keeps the app's lazy fields
// safe under concurrent HTTP requests.
func (a *app) serverOptions(ctx context.Context) (server.Options, error) {
	r, err := a.gitRepo(ctx)
	if err != nil {
		return server.Options{}, err
	}
	e, err := a.sessionEngine(ctx)
	if err != nil {
		return server.Options{}, err
	}
	mcpserver.TuneGC() // a long-running server: see mcpserver.TuneGC
	e.Progress = nil   // gates run for callers, not for a person at this terminal
	logger := slog.New(slog.NewTextHandler(a.stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	e.Logger = logger
	// A server checks gates call after call, some at once: open each
	// worktree once, and share repositories safely.
	e.OpenRepo = gitrepo.CachedOpen()
	var mu sync.Mutex
	opts := server.Options{
		Engine:    e,
		ReadModel: a.read,
		Repo:      r,
		Version:   versionString(),
		Logger:    logger,
		LoadSpec: func(ctx context.Context) (*protocolspec.Spec, error) {
			mu.Lock()
			defer mu.Unlock()
			spec, err := a.loadSpec(ctx)
			if err != nil {
				return nil, err
			}
			// A config naming phases the protocol lacks disables gates
			// silently: refuse it here as the CLI's session start does.
			if err := a.checkConfigPhases(ctx, spec); err != nil {
				return nil, err
			}
			return spec, nil
		},
		Protocol: func(ctx context.Context) (string, []byte, error) {
			mu.Lock()
			defer mu.Unlock()
			return a.readProtocol(ctx, "")
		},
	}
	// session_end records the unchecked stops no fold judged first, as
	// `session end` does (one at a time: the app's lazy state is shared).
	var foldMu sync.Mutex
	opts.BeforeEnd = func(ctx context.Context) {
		foldMu.Lock()
		defer foldMu.Unlock()
		a.foldRecordedStops(ctx)
	}
	// A missing or broken protocol is not fatal: session_start reports it
	// to the agent, which can fix the document and call again.
	if _, err := opts.LoadSpec(ctx); err != nil {
		logger.Warn("protocol not loaded; session_start will fail until it is fixed", "err", err)
	}
	return opts, nil
}
