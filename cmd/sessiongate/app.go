package main

import (
	"context"
	"errors"
	"fmt"
	"github.com/sessiongate/sessiongate/internal/boundedread"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/sessiongate/sessiongate/agenthook"
	"github.com/sessiongate/sessiongate/config"
	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/hooks"
	"github.com/sessiongate/sessiongate/internal/termprogress"
	"github.com/sessiongate/sessiongate/postgres"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/server"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/stopnote"
	"github.com/sessiongate/sessiongate/store"
)

// app holds the lazily opened parts a command needs.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer

	dbFlag, protocolFlag string

	repo   *gitrepo.Repo
	cfg    *config.Config
	db     session.Store
	read   server.ReadModel // the same database's dashboard reads
	dbFile string           // the SQLite database path once opened, for messages
	engine *session.Engine
}

func (a *app) close() {
	if a.db != nil {
		a.db.Close()
	}
}

// gitRepo opens the repository around the working directory.
func (a *app) gitRepo(ctx context.Context) (*gitrepo.Repo, error) {
	if a.repo != nil {
		return a.repo, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return nil, usage(err)
	}
	r, err := gitrepo.Open(ctx, wd)
	if err != nil {
		return nil, usage(fmt.Errorf("%w (run sessiongate inside a git repository)", err))
	}
	a.repo = r
	return r, nil
}

func (a *app) config(ctx context.Context) (*config.Config, error) {
	if a.cfg != nil {
		return a.cfg, nil
	}
	r, err := a.gitRepo(ctx)
	if err != nil {
		return nil, err
	}
	c, err := config.Load(r.Root())
	if err != nil {
		return nil, usage(err)
	}
	a.cfg = c
	return c, nil
}

// dbPath resolves --db, SESSIONGATE_DB, then the repository's common dir,
// and says which setting it came from (for messages).
func (a *app) dbPath(ctx context.Context) (p, setting string, err error) {
	if a.dbFlag != "" {
		return a.dbFlag, "--db", nil
	}
	if p := os.Getenv("SESSIONGATE_DB"); p != "" {
		return p, "SESSIONGATE_DB", nil
	}
	r, err := a.gitRepo(ctx)
	if err != nil {
		return "", "", err
	}
	return filepath.Join(r.CommonDir(), "sessiongate", "sessiongate.db"), "the default database", nil
}

// store opens what --db / SESSIONGATE_DB names: a postgres:// or
// postgresql:// URL is the PostgreSQL store (a team database), anything
// else an SQLite file.
func (a *app) store(ctx context.Context) (session.Store, error) {
	if a.db != nil {
		return a.db, nil
	}
	p, setting, err := a.dbPath(ctx)
	if err != nil {
		return nil, err
	}
	if postgres.IsURL(p) {
		// The error names the setting and the URL without its password.
		db, err := postgres.Open(ctx, p)
		if err != nil {
			// A *ServerError already says what to do (retry after a
			// restart; the password only when the server said 28P01).
			var se *postgres.ServerError
			if errors.As(err, &se) {
				return nil, usage(fmt.Errorf("%s: %w", setting, err))
			}
			return nil, usage(fmt.Errorf("%s: %w (check the URL's host, port, user and database)", setting, err))
		}
		a.db, a.read = db, db
		return db, nil
	}
	db, err := store.Open(ctx, p)
	if err != nil {
		if store.IsCorrupt(err) {
			return nil, usage(fmt.Errorf("%w\n%s", err, store.CorruptHint(p)))
		}
		if store.IsDiskFull(err) {
			return nil, usage(err) // the message says where and what to do
		}
		return nil, usage(fmt.Errorf("%w (check the path and its permissions, or pass --db)", err))
	}
	a.dbFile = p
	a.db, a.read = db, db
	// Stops let through while the database was locked are recorded by
	// whichever process opens it next, this command included.
	if _, err := stopnote.Fold(ctx, db, p); err != nil {
		fmt.Fprintf(a.stderr, "sessiongate: warning: %v\n", err)
	}
	return db, nil
}

// foldPendingStops opens the store only when a note of unchecked stops
// waits beside it (one stat otherwise), for commands that need no
// database (verify, records push): the stops are recorded before they
// judge or publish.
func (a *app) foldPendingStops(ctx context.Context) {
	p, _, err := a.dbPath(ctx)
	if err != nil || postgres.IsURL(p) || !stopnote.Pending(p) {
		return
	}
	if _, err := a.store(ctx); err != nil {
		fmt.Fprintf(a.stderr, "sessiongate: warning: a note of unchecked stops waits beside %s, which cannot be opened: %v\n", p, err)
	}
}

// foldRecordedStops records the unchecked stops on the records ref that
// no process judged yet (their note beside the database was deleted):
// run before a session's verdict is settled (session end) or published
// (records push), not on every command (a tree listing each time).
func (a *app) foldRecordedStops(ctx context.Context) {
	r, err := a.gitRepo(ctx)
	if err != nil {
		return
	}
	cfg, err := a.config(ctx)
	if err != nil {
		return
	}
	ref := session.DefaultRecordsRef
	if session.IsRecordRef(cfg.SessionRecord) {
		ref = cfg.SessionRecord
	}
	p, _, err := a.dbPath(ctx)
	if err != nil || !postgres.IsURL(p) && !fileExists(p) {
		return // no database here: nothing was bound, nothing to record into
	}
	db, err := a.store(ctx)
	if err != nil {
		return
	}
	// The note too, not only at opening: an MCP server opened the
	// database before the stop, and its session_end must judge the stop
	// as `session end` does (one rule: an unchecked stop with the end
	// protocol undone is END_PROTOCOL_SKIPPED, even if a COMPLETE end
	// follows; docs/security.md).
	if !postgres.IsURL(p) {
		if _, err := stopnote.Fold(ctx, db, p); err != nil {
			fmt.Fprintf(a.stderr, "sessiongate: warning: %v\n", err)
		}
	}
	if _, err := stopnote.FoldRecords(ctx, db, p, r.Root(), ref); err != nil {
		fmt.Fprintf(a.stderr, "sessiongate: warning: %v\n", err)
	}
}

func (a *app) sessionEngine(ctx context.Context) (*session.Engine, error) {
	if a.engine != nil {
		return a.engine, nil
	}
	db, err := a.store(ctx)
	if err != nil {
		return nil, err
	}
	cfg := config.Default()
	if _, err := a.gitRepo(ctx); err == nil {
		if cfg, err = a.config(ctx); err != nil {
			return nil, err
		}
	}
	ec := cfg.Engine()
	ec.Version = versionString()
	// One process runs one command: a worktree the engine opens several
	// times (reconcile, the protected-file check, the gate) is found once.
	// The repository around the working directory, when the command
	// opened it, is the first.
	var opened []*gitrepo.Repo
	if a.repo != nil {
		opened = append(opened, a.repo)
	}
	a.engine = session.NewEngine(db, ec, gitrepo.CachedOpen(opened...))
	// Run from a hooks-off agent's shell call, the call's commits are
	// judged before this command reconciles them.
	a.engine.BeforeReconcile = agenthook.ShellCommitsJudge(a.engine, os.Getenv)
	// session start warns when sessiongate's git hooks are missing here.
	a.engine.StartNotices = hooks.StartNotices
	// Long command gates show their progress when stderr is a terminal.
	if p := termprogress.For(a.stderr); p != nil {
		a.engine.Progress = p
	}
	return a.engine, nil
}

func openRepo(ctx context.Context, worktree string) (session.Repo, error) {
	return gitrepo.Open(ctx, worktree)
}

// protocolPath resolves --protocol, SESSIONGATE_PROTOCOL, the config's
// protocol key, then SESSION-PROTOCOL.md and .agents/SESSION-PROTOCOL.md at
// the repository root.
func (a *app) protocolPath(ctx context.Context) (string, error) {
	if a.protocolFlag != "" {
		return a.protocolFlag, nil
	}
	if p := os.Getenv("SESSIONGATE_PROTOCOL"); p != "" {
		return p, nil
	}
	r, err := a.gitRepo(ctx)
	if err != nil {
		return "", err
	}
	c, err := a.config(ctx)
	if err != nil {
		return "", err
	}
	cands := []string{"SESSION-PROTOCOL.md", filepath.Join(".agents", "SESSION-PROTOCOL.md")}
	if c.Protocol != "" {
		cands = []string{c.Protocol}
	}
	for _, c := range cands {
		p := filepath.Join(r.Root(), c)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", usage(fmt.Errorf("no protocol found (looked for %v in %s): run sessiongate init, or pass --protocol", cands, r.Root()))
}

// readProtocol returns the protocol's path (as shown to users) and bytes.
func (a *app) readProtocol(ctx context.Context, file string) (string, []byte, error) {
	p := file
	if p == "" {
		var err error
		if p, err = a.protocolPath(ctx); err != nil {
			return "", nil, err
		}
	}
	b, err := boundedread.File(p, boundedread.DefaultLimit)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil, usage(fmt.Errorf("protocol %s does not exist", p))
	}
	if err != nil {
		return "", nil, usage(fmt.Errorf("read protocol: %w", err))
	}
	return displayPath(p), b, nil
}

// loadSpec parses the current protocol through the engine's cache.
func (a *app) loadSpec(ctx context.Context) (*protocolspec.Spec, error) {
	name, b, err := a.readProtocol(ctx, "")
	if err != nil {
		return nil, err
	}
	e, err := a.sessionEngine(ctx)
	if err != nil {
		return nil, err
	}
	spec, err := e.LoadSpec(ctx, name, b)
	if err != nil {
		return nil, blocked("%w", err)
	}
	return spec, nil
}

// displayPath shortens a path relative to the working directory when it is below it.
func displayPath(p string) string {
	wd, err := os.Getwd()
	if err != nil {
		return p
	}
	if rel, err := filepath.Rel(wd, p); err == nil && filepath.IsLocal(rel) {
		return rel
	}
	return p
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
