package hooks

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/config"
	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/ancestry"
	"github.com/sessiongate/sessiongate/internal/termprogress"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/shellline"
	"github.com/sessiongate/sessiongate/stopnote"
	"github.com/sessiongate/sessiongate/store"
)

// Exit codes of a hook run.
const (
	ExitAllow = 0
	ExitBlock = 1
	ExitUsage = 2
)

// Runtime runs one hook in one process: open the repository, config and
// database, ask the engine, print the verdict. It never reads or hashes
// the protocol document: the session's pinned spec comes from the database.
type Runtime struct {
	Dir    string // the hook's working directory (git runs hooks at the work tree root)
	DBPath string // --db; "" means SESSIONGATE_DB, then the repository default
	Getenv func(string) string
	Stdin  io.Reader
	Stderr io.Writer
	// LeaveOpen lets Run skip closing the database while its WAL is small:
	// set it when the process exits right after Run. Closing the last
	// connection checkpoints the WAL into the database with fsyncs (tens of
	// milliseconds on a busy disk); an unclosed WAL stays valid, but the next
	// process to open the database reads it whole to rebuild its index, so
	// past walCloseBytes Run closes (and so checkpoints) after all.
	LeaveOpen bool
	// Parent is the id of the process that ran the hook script (git; the
	// script execs this binary): pre-commit hands its decision to the same
	// git's commit-msg and post-commit scripts (handoff.go). 0: no handoff.
	Parent int
	// Chain returns the process ancestry (tests); nil reads the real one.
	Chain func() []ancestry.Process
}

func (rt *Runtime) getenv(k string) string {
	if rt.Getenv == nil {
		return os.Getenv(k)
	}
	return rt.Getenv(k)
}

// verb says what a hook guards, for messages.
var verb = map[string]string{
	session.HookPreCommit:  "commit",
	session.HookCommitMsg:  "commit",
	session.HookPostCommit: "commit",
	session.HookPrePush:    "push",
	// Record-only: they run after git did the work and never block.
	session.HookPostMerge:   "merge",
	session.HookPostRewrite: "rewrite",
}

// Run runs hook with git's arguments and returns the exit code.
//
// Hooks must be fast: the repository is located from the .git entry
// without running git when the layout allows, post-commit's git command
// (HEAD and its tree) runs while the database opens, and pre-commit reads
// the tree being committed from the index's cache tree instead of running
// git write-tree when it can.
func (rt *Runtime) Run(ctx context.Context, hook string, args []string) int {
	if _, ok := verb[hook]; !ok {
		fmt.Fprintf(rt.Stderr, "sessiongate: unknown hook %q (want %s)\n", hook, strings.Join(Hooks, ", "))
		return ExitUsage
	}
	if rt.noCommitInProgress(hook) {
		return rt.passNoCommit()
	}
	if hook == session.HookPostRewrite && rewrittenBy(args, rt.getenv) == "amend" {
		// git commit --amend ran post-commit on the new commit already:
		// recording it again would double the amend's hook cost.
		if rt.Stdin != nil {
			io.Copy(io.Discard, rt.Stdin)
		}
		return ExitAllow
	}
	if hook == session.HookPostMerge || hook == session.HookPostRewrite {
		return rt.recordOnly(ctx, hook)
	}
	repo, err := gitrepo.OpenHook(ctx, rt.Dir, rt.getenv)
	if err != nil {
		fmt.Fprintf(rt.Stderr, "sessiongate: %s blocked: %v\n", hook, err)
		return ExitBlock
	}
	repo.SetHookRun() // this process serves this one run
	var early *gitJob
	if hook == session.HookPostCommit {
		early = headJob(ctx, repo)
	}
	cfg, err := config.Load(repo.Root())
	if err != nil {
		rt.blocked(hook, "", "the repository's config cannot be read: "+err.Error(),
			"fix the file (`sessiongate doctor` checks it)", "", "")
		return ExitBlock
	}
	if hook == session.HookPreCommit {
		if code, stop := rt.checkPathShadow(repo.Root()); stop {
			return code
		}
	}
	db, err := store.OpenSingle(ctx, rt.dbPath(repo))
	if err != nil {
		return rt.failMode(hook, cfg, err)
	}
	defer rt.closeDB(db)
	rt.foldStops(ctx, db, repo)
	eng := session.NewEngine(db, cfg.Engine(), func(ctx context.Context, wt string) (session.Repo, error) {
		if wt == repo.Root() {
			return repo, nil
		}
		return gitrepo.Open(ctx, wt)
	})
	// git hands hooks the user's terminal as stderr: long command gates
	// show their progress there, and stay quiet in logs and pipes.
	if p := termprogress.For(rt.Stderr); p != nil {
		eng.Progress = p
	}
	req := session.HookRequest{
		Repo:      repo,
		SessionID: strings.TrimSpace(rt.getenv("SESSIONGATE_SESSION")),
		Policy: session.HookPolicy{
			RequireSession: cfg.RequireSession,
			PreCommit:      cfg.Hooks.PreCommit,
			PrePush:        cfg.Hooks.PrePush,
			BypassEnv:      cfg.BypassEnv,
		},
	}
	if cfg.BypassEnv != "" {
		req.Bypass = strings.TrimSpace(rt.getenv(cfg.BypassEnv))
	}
	if hook != session.HookCommitMsg {
		rev := ""
		if hook == session.HookPostCommit {
			rev = "HEAD"
		}
		req.Who = sync.OnceValue(func() *session.Actor {
			a := rt.actor(repo.Root(), rev)
			if rev == "HEAD" { // the commit git just made: loose
				byGit := a.Author
				a.Author = func(ctx context.Context) string {
					if head, _, err := repo.Head(ctx); err == nil && head != "" {
						if who, ok := gitrepo.ReadLooseAuthor(repo.CommonDir(), head); ok {
							return who
						}
					}
					return byGit(ctx)
				}
			}
			return a
		})
		req.Adoption = rt.getenv(EnvAdoption) != ""
	} else {
		// Read only when the commit message is refused: a refusal in a
		// session says why a person's commit is the session's (F3, round 61).
		req.Who = sync.OnceValue(func() *session.Actor { return rt.actor(repo.Root(), "") })
	}
	var d *session.HookDecision
	switch hook {
	case session.HookPreCommit:
		repo.SetIndexFile(rt.indexPath(repo))
		// The engine asks after its gates ran, so a gate that changed the
		// index is seen (git invalidates the cache tree it touched).
		req.Tree = func(ctx context.Context) (string, error) {
			if tree, ok := repo.CachedTree(); ok {
				return tree, nil
			}
			return writeTree(ctx, repo.Root())
		}
		req.Amend = func() bool {
			chain := rt.Chain
			if chain == nil {
				chain = ancestry.Chain
			}
			return amendingGit(chain())
		}
		d, err = eng.PreCommit(ctx, req)
		rt.writeHandoff(repo, err == nil && d.Allowed && d.Handoff, dTrailers(d))
	case session.HookCommitMsg:
		d, err = eng.CommitMsg(ctx, req)
		if err == nil && d.Allowed && len(d.Trailers) > 0 {
			err = rt.trailers(ctx, repo, args, d.Trailers)
		}
	case session.HookPostCommit:
		var out string
		if out, err = early.wait(); err == nil {
			f := strings.Fields(out)
			if len(f) < 2 {
				return rt.failMode(hook, cfg, fmt.Errorf("git rev-parse HEAD: unexpected output %q", out))
			}
			req.Commit, req.CommitTree = f[0], f[1]
			if len(f) == 3 { // one parent; merges list every commit reconciliation checks
				req.CommitParent = f[2]
			}
			req.Replay = replayOf(repo.GitDir(), rt.Chain)
			req.CommitFiles = func(ctx context.Context) ([]string, error) {
				out, err := git(ctx, repo.Root(), "diff-tree", "--no-commit-id", "--name-only", "-r", "-z", "--root", "HEAD")
				return splitNUL(out), err
			}
			d, err = eng.PostCommit(ctx, req)
		}
	case session.HookPrePush:
		// The protected-file check reads the index itself when it can (as
		// pre-commit does), instead of git rev-parse and git diff --cached.
		repo.SetIndexFile(rt.indexPath(repo))
		pushed := rt.pushedRefs(ctx, repo.Root())
		req.DeletesOnly = deletesOnly(pushed)
		for _, f := range pushed {
			if strings.Trim(f[1], "0") != "" {
				req.Pushed = append(req.Pushed, f[1])
			}
		}
		if !req.DeletesOnly {
			rt.foldRecordStops(ctx, db, repo, cfg)
			// The push options git sends: the config's (a -c reaches the
			// hook as GIT_CONFIG_PARAMETERS); `push -o` reaches no hook.
			// get-all exits 1 when there are none.
			opts, _ := git(ctx, repo.Root(), "config", "--get-all", "push.pushOption")
			req.CISkip = shellline.CISkipOption(opts)
		}
		d, err = eng.PrePush(ctx, req)
		if err == nil && d.Allowed && !req.DeletesOnly {
			rt.pushRecords(ctx, repo, cfg, args, pushed)
		}
	}
	if err != nil {
		return rt.failMode(hook, cfg, err)
	}
	return rt.report(d, cfg)
}

// walCloseBytes is the WAL size from which a LeaveOpen run closes the
// database anyway: about forty hook runs' writes.
const walCloseBytes = 1 << 20

func (rt *Runtime) closeDB(db *store.DB) {
	if rt.LeaveOpen {
		if st, err := os.Stat(db.Path() + "-wal"); err == nil && st.Size() < walCloseBytes {
			return
		}
	}
	db.Close()
}

// dbPath is --db, SESSIONGATE_DB, else the repository's default.
func (rt *Runtime) dbPath(repo *gitrepo.Repo) string {
	if rt.DBPath != "" {
		return rt.DBPath
	}
	if p := rt.getenv("SESSIONGATE_DB"); p != "" {
		return p
	}
	return filepath.Join(repo.CommonDir(), "sessiongate", "sessiongate.db")
}

// foldStops records the agent stops let through while the database was
// locked (package stopnote): an agent that never runs another agent hook
// still commits through these. A warning only: the hook decides anyway.
func (rt *Runtime) foldStops(ctx context.Context, db *store.DB, repo *gitrepo.Repo) {
	if _, err := stopnote.Fold(ctx, db, rt.dbPath(repo)); err != nil {
		fmt.Fprintf(rt.Stderr, "sessiongate: warning: %v\n", err)
	}
}

// foldRecordStops records the unchecked stops on the records ref, and on
// refs of their own, that no fold judged (their note was deleted), and
// carries the latter onto the records ref the push then sends, as
// `records push` does. A warning only: the push is decided anyway.
func (rt *Runtime) foldRecordStops(ctx context.Context, db *store.DB, repo *gitrepo.Repo, cfg *config.Config) {
	ref := session.DefaultRecordsRef
	if session.IsRecordRef(cfg.SessionRecord) {
		ref = cfg.SessionRecord
	}
	if _, err := stopnote.FoldRecords(ctx, db, rt.dbPath(repo), repo.Root(), ref); err != nil {
		fmt.Fprintf(rt.Stderr, "sessiongate: warning: %v\n", err)
	}
}

// indexPath is the index a commit uses: GIT_INDEX_FILE (git commit -a and
// git commit PATHS build a temporary one), else the worktree's index.
func (rt *Runtime) indexPath(repo *gitrepo.Repo) string {
	p := rt.getenv("GIT_INDEX_FILE")
	if p == "" {
		return filepath.Join(repo.GitDir(), "index")
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(rt.Dir, p)
	}
	return p
}

func dTrailers(d *session.HookDecision) []string {
	if d == nil {
		return nil
	}
	return d.Trailers
}

func splitNUL(s string) []string {
	var out []string
	for _, f := range strings.Split(s, "\x00") {
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}

// gitJob is a git command running in the background.
type gitJob struct {
	done chan struct{}
	out  string
	err  error
}

func startGit(ctx context.Context, dir string, args ...string) *gitJob {
	j := &gitJob{done: make(chan struct{})}
	go func() {
		defer close(j.done)
		j.out, j.err = git(ctx, dir, args...)
	}()
	return j
}

// headJob is `git rev-parse HEAD HEAD^{tree} HEAD^@` for post-commit: read
// from the files when HEAD is a loose commit (a commit git just made is),
// else git running while the database opens.
func headJob(ctx context.Context, repo *gitrepo.Repo) *gitJob {
	if head, _, err := repo.Head(ctx); err == nil && head != "" {
		if c, parents, ok := repo.LooseCommit(head); ok {
			j := &gitJob{done: make(chan struct{}), out: strings.Join(append([]string{head, c.Tree}, parents...), "\n")}
			close(j.done)
			return j
		}
	}
	return startGit(ctx, repo.Root(), "rev-parse", "HEAD", "HEAD^{tree}", "HEAD^@")
}

func (j *gitJob) wait() (string, error) {
	<-j.done
	return j.out, j.err
}

// failMode handles a database that cannot be opened or used (or git
// failing under the hook): closed (default) blocks with the error and the
// fix; open lets git proceed.
func (rt *Runtime) failMode(hook string, cfg *config.Config, err error) int {
	fix := "run `sessiongate doctor`; check SESSIONGATE_DB / --db and that the folder and file are writable; a file that is not a sessiongate database must be moved away"
	if cfg.FailMode == "open" {
		fmt.Fprintf(rt.Stderr, "sessiongate: warning: %s allowed without checks (fail_mode: open): %v\n  fix: %s\n", hook, err, fix)
		return ExitAllow
	}
	if hook == session.HookPostCommit {
		fmt.Fprintf(rt.Stderr, "sessiongate: post-commit could not record the commit: %v\n  fix: %s\n", err, fix)
		return ExitBlock
	}
	rt.blocked(hook, "", "sessiongate cannot check this "+verb[hook]+": "+err.Error(),
		fix+" (or set fail_mode: open in sessiongate.yaml to let git proceed when it is unavailable)", "", "")
	return ExitBlock
}

func (rt *Runtime) blocked(hook, gate, why, next, bypassEnv, sess string) {
	w := rt.Stderr
	fmt.Fprintf(w, "sessiongate: %s blocked (%s hook)\n", verb[hook], hook)
	if gate != "" {
		fmt.Fprintf(w, "  gate:    %s\n", gate)
	}
	fmt.Fprintf(w, "  why:     %s\n", why)
	fmt.Fprintf(w, "  next:    %s\n", next)
	if sess != "" {
		fmt.Fprintf(w, "  session: %s\n", sess)
	}
	if bypassEnv != "" && hook != session.HookPostCommit {
		fmt.Fprintf(w, "  escape:  %s=\"<reason>\" git %s ... lets this one through and records a violation\n", bypassEnv, verb[hook])
	}
	if h := rt.cliHint(); h != "" {
		fmt.Fprintf(w, "  cli:     %s\n", h)
	}
}

// report prints a decision and returns its exit code.
func (rt *Runtime) report(d *session.HookDecision, cfg *config.Config) int {
	w := rt.Stderr
	for _, g := range d.Gates {
		if g.Status == session.StatusFail {
			fmt.Fprintf(w, "sessiongate: %s\n", g.Message)
			for _, l := range strings.Split(g.Output, "\n") {
				if l != "" {
					fmt.Fprintf(w, "  | %s\n", l)
				}
			}
		}
	}
	for _, wa := range d.Warnings {
		fmt.Fprintf(w, "sessiongate: warning: %s\n", wa)
	}
	if !d.Allowed {
		sess := ""
		if d.SessionID != "" {
			sess = d.SessionID + " (" + string(d.State) + ")"
		}
		rt.blocked(d.Hook, d.Gate, strings.Join(d.Reasons, "; "), d.NextStep, cfg.BypassEnv, sess)
		return ExitBlock
	}
	for _, v := range d.Violations {
		fmt.Fprintf(w, "sessiongate: %s %s violation recorded: %s\n", v.Severity, v.Code, v.Message)
	}
	if d.Hook == session.HookPostCommit && len(d.Violations) > 0 {
		fmt.Fprintf(w, "  the dashboard and the next session_start show it\n  next: %s\n", d.NextStep)
	}
	if d.Escaped {
		fmt.Fprintf(w, "sessiongate: %s is set: the blocked %s went through (would have blocked at %s: %s)\n",
			cfg.BypassEnv, verb[d.Hook], orDash(d.Gate), strings.Join(d.Reasons, "; "))
	}
	return ExitAllow
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// trailers adds the trailers to the commit message file: git's argument,
// else $GIT_DIR/COMMIT_EDITMSG (the file git always passes).
func (rt *Runtime) trailers(ctx context.Context, repo *gitrepo.Repo, args, trailers []string) error {
	file := ""
	if len(args) > 0 {
		file = args[0]
	}
	if file == "" {
		file = filepath.Join(repo.GitDir(), "COMMIT_EDITMSG")
	}
	if !filepath.IsAbs(file) {
		file = filepath.Join(rt.Dir, file)
	}
	if err := addTrailers(ctx, repo.Root(), file, trailers); err != nil {
		return fmt.Errorf("add trailers to %s: %w", file, err)
	}
	return nil
}

// pushedRefs reads pre-push's stdin: "<local ref> <local sha> <remote
// ref> <remote sha>" per ref. At a terminal stdin is not git's: nil.
// Under the pre-commit framework (PRE_COMMIT=1) git's lines went to the
// framework, which runs its hooks for the first ref that pushes new
// commits and says which in its variables (frameworkPushed).
func (rt *Runtime) pushedRefs(ctx context.Context, root string) [][]string {
	if rt.getenv("PRE_COMMIT") != "" {
		return rt.frameworkPushed(ctx, root)
	}
	if rt.Stdin == nil {
		return nil
	}
	if f, ok := rt.Stdin.(*os.File); ok {
		st, err := f.Stat()
		if err != nil || st.Mode()&os.ModeCharDevice != 0 {
			return nil
		}
	}
	var refs [][]string
	sc := bufio.NewScanner(io.LimitReader(rt.Stdin, 1<<20))
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) == 4 {
			refs = append(refs, f)
		}
	}
	return refs
}

// deletesOnly reports whether every pushed ref is a deletion.
func deletesOnly(refs [][]string) bool {
	for _, f := range refs {
		if strings.Trim(f[1], "0") != "" {
			return false
		}
	}
	return len(refs) > 0
}

// frameworkPushed is the ref the pre-commit framework's pre-push names:
// PRE_COMMIT_TO_REF, the local commit pushed, or, when the push sends a
// whole history (the framework then sets no refs), the commit
// PRE_COMMIT_LOCAL_BRANCH names. Without it a session's side branch
// pushed through the framework read as parked work (round 41). The
// framework reads only the first ref that pushes new commits, so a push
// of several refs records that one.
func (rt *Runtime) frameworkPushed(ctx context.Context, root string) [][]string {
	local, remote := rt.getenv("PRE_COMMIT_LOCAL_BRANCH"), rt.getenv("PRE_COMMIT_REMOTE_BRANCH")
	sha := strings.TrimSpace(rt.getenv("PRE_COMMIT_TO_REF"))
	if sha == "" && local != "" && !strings.HasPrefix(local, "-") {
		if out, err := git(ctx, root, "rev-parse", "--verify", "--quiet", local+"^{commit}"); err == nil {
			sha = strings.TrimSpace(out)
		}
	}
	if len(sha) < 40 || strings.Trim(sha, "0123456789abcdef") != "" {
		return nil
	}
	from := strings.TrimSpace(rt.getenv("PRE_COMMIT_FROM_REF"))
	if len(from) != len(sha) {
		from = strings.Repeat("0", len(sha))
	}
	return [][]string{{local, sha, remote, from}}
}

// recordOnly runs post-merge or post-rewrite: the session records the
// commits that landed now instead of at the next sessiongate call. git
// ignores these hooks' exit codes and the work is done, so a failure is a
// warning: reconciliation at the next call records the same commits.
func (rt *Runtime) recordOnly(ctx context.Context, hook string) int {
	if hook == session.HookPostRewrite && rt.Stdin != nil {
		io.Copy(io.Discard, rt.Stdin) // git writes the rewritten list; not needed
	}
	warn := func(err error) int {
		fmt.Fprintf(rt.Stderr, "sessiongate: warning: %s could not record the commits that landed (the next sessiongate call will): %v\n", hook, err)
		return ExitAllow
	}
	repo, err := gitrepo.OpenHook(ctx, rt.Dir, rt.getenv)
	if err != nil {
		return warn(err)
	}
	repo.SetHookRun()
	cfg, err := config.Load(repo.Root())
	if err != nil {
		return warn(err)
	}
	db, err := store.OpenSingle(ctx, rt.dbPath(repo))
	if err != nil {
		return warn(err)
	}
	defer rt.closeDB(db)
	rt.foldStops(ctx, db, repo)
	eng := session.NewEngine(db, cfg.Engine(), func(ctx context.Context, wt string) (session.Repo, error) {
		if wt == repo.Root() {
			return repo, nil
		}
		return gitrepo.Open(ctx, wt)
	})
	req := session.HookRequest{Repo: repo, SessionID: strings.TrimSpace(rt.getenv("SESSIONGATE_SESSION")),
		Policy: session.HookPolicy{RequireSession: cfg.RequireSession, BypassEnv: cfg.BypassEnv}}
	d, err := eng.PostMerge(ctx, req, hook)
	if err != nil {
		return warn(err)
	}
	return rt.report(d, cfg)
}

// rewrittenBy is what post-rewrite was run for ("amend" or "rebase"):
// git's first argument, or the pre-commit framework's variable.
func rewrittenBy(args []string, getenv func(string) string) string {
	if len(args) > 0 {
		return args[0]
	}
	return getenv("PRE_COMMIT_REWRITE_COMMAND")
}
