package session

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/testrun"
)

// A developer's own flag: a local config file marked assume-unchanged (or
// skip-worktree) before the session, edited for the developer's machine,
// is a file git hides (HiddenFiles), and a test run while working then
// recorded no tree and could not answer QA though the session never
// touched it (round 26 c9's open row; round 27, c7,
// TestDeveloperFlagBeforeStart27). The start records such files with a
// hash of their work-tree content; a run later leaves one out while its
// content is the same.
//
// A flag an earlier session set is not the developer's (round 28, c4;
// review c11 item 2: stub, flag, abandon, start again), and the history a
// start reads goes with the database (round 29, c1: a flag set on a .sh
// after the database was deleted, a stub .txt the test script sources,
// both honoured and held only by the end's refusal of every flag, which
// blocked the developer's local config.yaml too). Each end records the
// flagged files with their content (hidden_at_end). At a start, a flagged
// file is honoured as the developer's only when its index entry is HEAD's
// blob (the flag hides a local edit of a committed file) and
//   - the previous session's start honoured it and its end held the same
//     content as now (carried unchanged), or
//   - it was flagged before any session (or the database is gone) or
//     after the previous session's recorded end, and the tests do not load
//     it: not a code file by suffix, not a file a runner loads by name
//     (testrun.LoadsItself), not named by the QA commands or by a code
//     file or runner config of HEAD (a test script that sources it;
//     flagLoaded).
// A flag set or a file edited during the previous session is not honoured.
// A file the previous start did not honour stays so while it is flagged.
// The QA gate and the end leave out a file honoured at the start whose
// content and index entry are unchanged (honouredFlags); any other flag
// is refused there, the file named.

// maxHiddenAtStart bounds the files the start records.
const maxHiddenAtStart = 64

// tokHiddenAtEnd is the event a session's end, termination or expiry
// records with the files an update-index flag hides then.
const tokHiddenAtEnd = "session:hidden_at_end"

// flaggedFiles lists the files an update-index flag hides, each with the
// sha256 of its work-tree content; nil when none, too many (ok false) or
// unreadable.
func flaggedFiles(ctx context.Context, repo Repo) (map[string]string, bool) {
	hidden, err := repo.HiddenFiles(ctx)
	if err != nil {
		return nil, false
	}
	out := map[string]string{}
	for p, how := range hidden {
		if !strings.Contains(how, "(git update-index)") {
			continue // a clean filter: judged at each run
		}
		if len(out) == maxHiddenAtStart {
			return nil, false
		}
		out[p] = fileSHA(repo.Root(), p)
	}
	return out, true
}

// hiddenAtStart splits the files an update-index flag hides at the start
// into those honoured as the developer's (with their content's sha256)
// and those not (bySession, sorted), each with why (refused).
func (e *Engine) hiddenAtStart(ctx context.Context, repo Repo) (honoured map[string]string, bySession []string, refused map[string]string) {
	now, ok := flaggedFiles(ctx, repo)
	if !ok || len(now) == 0 {
		return nil, nil, nil
	}
	prev := e.previousSession(ctx, repo)
	honoured, refused = map[string]string{}, map[string]string{}
	var pStart, pEnd map[string]string
	var pBy []string
	endKnown := false
	if prev != nil {
		pStart, pBy = e.readHiddenStartRecord(ctx, prev.ID)
		if pEnd, endKnown = e.readHiddenAtEnd(ctx, prev.ID); !endKnown {
			pEnd = now // superseded now, or ended before ends recorded flags
		}
	}
	offHead := indexOffHead(ctx, repo, slices.Sorted(maps.Keys(now)))
	for _, f := range slices.Sorted(maps.Keys(now)) {
		h := now[f]
		switch {
		case h == "":
			refused[f] = "unreadable"
		case offHead[f]:
			refused[f] = "its index entry is not HEAD's: the flag hides a staged change, which a commit takes"
		case slices.Contains(pBy, f):
			refused[f] = "the previous session's start did not honour it"
		case pStart[f] != "" && pStart[f] == pEnd[f] && pEnd[f] == h:
			honoured[f] = h // carried unchanged
		case prev == nil || endKnown && (pEnd[f] == "" || pEnd[f] == pStart[f]):
			// Before any session (or the database was deleted), or
			// flagged or edited after the previous session ended.
			if why := flagLoaded(ctx, repo, e.Config.Commands, f, "HEAD"); why != "" {
				refused[f] = why
			} else {
				honoured[f] = h
			}
		default:
			refused[f] = "flagged or edited during the previous session"
		}
	}
	bySession = slices.Sorted(maps.Keys(refused))
	if len(honoured) == 0 {
		honoured = nil
	}
	if len(refused) == 0 {
		refused = nil
	}
	return honoured, bySession, refused
}

// flagJudge is a Repo that compares index entries with HEAD and searches
// HEAD's files (gitrepo.Repo).
type flagJudge interface {
	IndexOffHead(ctx context.Context, paths []string) (map[string]bool, error)
	NamedIn(ctx context.Context, rev, needle, self string, globs []string) (bool, error)
}

// indexOffHead is flagJudge.IndexOffHead; every path when it cannot tell.
func indexOffHead(ctx context.Context, repo Repo, paths []string) map[string]bool {
	if fj, ok := repo.(flagJudge); ok {
		if m, err := fj.IndexOffHead(ctx, paths); err == nil {
			return m
		}
	}
	all := map[string]bool{}
	for _, p := range paths {
		all[p] = true
	}
	return all
}

// loaderGlobs are HEAD's files whose naming a file means the tests may
// load it: code, shell scripts, make and runner configs.
var loaderGlobs = func() []string {
	g := []string{"*Makefile", "*makefile", "*.mk", "*package.json", "*pyproject.toml", "*setup.cfg", "*tox.ini", "*pytest.ini", "*justfile", "*Taskfile.yml", "*Rakefile", "*Gemfile"}
	for _, x := range codeExts {
		g = append(g, "*"+x)
	}
	return g
}()

// flagLoaded says why the tests may load f ("" when nothing shows they
// do): a code file by suffix or a file runners load by name, or a file
// whose name the QA commands or a code file of rev ("HEAD", or "" for the
// work tree's tracked files) hold (`. scripts/names.txt` in the test
// script). A file the search cannot judge counts.
func flagLoaded(ctx context.Context, repo Repo, commands map[string]string, f, rev string) string {
	if loadsAsCode(f) {
		return "runners load it as code"
	}
	for _, d := range strings.Split(path.Dir(f), "/") {
		if slices.Contains(testDataDirs, d) {
			return "it is in " + d + "/, where tests find their data by folder (a glob, go's testdata)"
		}
	}
	base := path.Base(f)
	for _, id := range slices.Sorted(maps.Keys(commands)) {
		if strings.Contains(commands[id], base) {
			return "the " + id + " command names it"
		}
		// A script's own folder: it may read its neighbours by a glob
		// (`for f in scripts/*.txt; do . "$f"; done`). Not the root's.
		for _, w := range strings.Fields(commands[id]) {
			w = path.Clean(strings.Trim(w, `"'`))
			if d := path.Dir(w); d != "." && !strings.HasPrefix(w, "/") && !strings.HasPrefix(w, "..") && loadsAsCode(w) && strings.HasPrefix(f, d+"/") {
				return "it is in " + d + "/, beside " + w + ", which the " + id + " command runs"
			}
		}
	}
	fj, ok := repo.(flagJudge)
	if !ok {
		return "the files that may load it could not be searched"
	}
	named, err := fj.NamedIn(ctx, rev, base, f, loaderGlobs)
	switch {
	case err != nil:
		return "the files that may load it could not be searched: " + err.Error()
	case named:
		return "a code file or test script names " + base
	}
	// Review 29 (c8): the app opens data/orders.json as
	// os.path.join("data", kind + ".json"), so neither the path nor the
	// name is in any file, and a stub flagged there before the session
	// made the QA run pass on code HEAD fails. A quoted folder name or
	// stem in a code file is such a built path.
	for _, n := range builtNameNeedles(f) {
		named, err := fj.NamedIn(ctx, rev, n, f, loaderGlobs)
		switch {
		case err != nil:
			return "the files that may load it could not be searched: " + err.Error()
		case named:
			return "a code file names " + n + ", which a path built at runtime reaches " + f + " by"
		}
	}
	return ""
}

// builtNameNeedles are the quoted forms of f's folder and of its name
// without the suffix that a path built at runtime holds: "data",
// 'data/, /data/ ... and "orders" for data/orders.json. A file at the
// top with a dot name (.env.local) has neither.
func builtNameNeedles(f string) []string {
	var out []string
	if d := path.Base(path.Dir(f)); d != "." && d != "/" {
		for _, q := range []string{`"`, `'`} {
			out = append(out, q+d+q, q+d+"/", "/"+d+q)
		}
		out = append(out, "/"+d+"/")
	}
	base := path.Base(f)
	if stem := strings.TrimSuffix(base, path.Ext(base)); stem != base && stem != "" && !strings.HasPrefix(stem, ".") {
		out = append(out, `"`+stem+`"`, `'`+stem+`'`)
	}
	return out
}

// honouredFlags is what the start honoured (hidden_at_start) that still
// holds (honouredOf): the QA gate and the end leave these out. named
// false skips the search for a name (a run while working, on the agent
// hook's path: the end searches again).
func (e *Engine) honouredFlags(ctx context.Context, repo Repo, s *Session, named bool) map[string]bool {
	if s == nil {
		return nil
	}
	return honouredOf(ctx, repo, e.readHiddenAtStart(ctx, s.ID), e.Config.Commands, named)
}

// honouredOf keeps of the files the start honoured (atStart: path to the
// sha256 of its content then) those with the same work-tree content, an
// index entry still HEAD's, and that no QA command or code file of the
// work tree names now; nil when none. A session that edits the file,
// stages other content under the flag, or makes the test script read it
// loses it.
func honouredOf(ctx context.Context, repo Repo, atStart map[string]string, commands map[string]string, named bool) map[string]bool {
	if len(atStart) == 0 {
		return nil
	}
	off := indexOffHead(ctx, repo, slices.Sorted(maps.Keys(atStart)))
	out := map[string]bool{}
	for f, h := range atStart {
		if !off[f] && fileSHA(repo.Root(), f) == h && (!named || flagLoaded(ctx, repo, commands, f, "") == "") {
			out[f] = true
		}
	}
	return out
}

// testDataDirs are folders whose files tests read by folder, not by a
// name the search could find.
var testDataDirs = []string{"testdata", "fixtures", "__fixtures__", "__snapshots__", "test", "tests", "__tests__", "spec", "golden"}

// codeExts are the suffixes of files runners load as code.
var codeExts = []string{".py", ".sh", ".bash", ".zsh", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".tsx", ".jsx",
	".go", ".rb", ".pl", ".pm", ".php", ".rs", ".java", ".kt", ".c", ".h", ".cc", ".cpp", ".lua", ".bats", ".pth"}

// loadsAsCode: a file a runner loads as code, by suffix or by name
// (testrun.LoadsItself: conftest.py, tox.ini, jest.config.js ...).
func loadsAsCode(f string) bool {
	return slices.Contains(codeExts, strings.ToLower(path.Ext(f))) || testrun.LoadsItself(f)
}

// previousSession is the newest earlier session of repo's worktree, nil
// when none (or the store cannot tell).
func (e *Engine) previousSession(ctx context.Context, repo Repo) *Session {
	r, err := e.Store.RepositoryByRoot(ctx, repo.MainRoot())
	if err != nil {
		return nil
	}
	ss, err := e.Store.ListSessions(ctx, SessionFilter{RepoID: r.ID, Worktree: repo.Root(), Limit: 1})
	if err != nil || len(ss) == 0 {
		return nil
	}
	return ss[0]
}

// recordHiddenAtEnd appends the flagged files at s's end (hidden_at_end).
// When they could not be read (ok false) nothing is recorded, and the next
// start reads the flags as set in s; a failed write fails the end's
// transaction like any of its events.
func (e *Engine) recordHiddenAtEnd(ctx context.Context, w Writer, s *Session, files map[string]string, ok bool) error {
	if !ok {
		return nil
	}
	d, _ := json.Marshal(map[string]any{"hidden_at_end": files})
	return w.AppendEvent(ctx, &Event{SessionID: s.ID, Token: tokHiddenAtEnd, Detail: string(d), CreatedAt: e.now()})
}

// flaggedAtEnd is flaggedFiles of s's worktree, for recordHiddenAtEnd.
func (e *Engine) flaggedAtEnd(ctx context.Context, s *Session) (map[string]string, bool) {
	if e.OpenRepo == nil {
		return nil, false
	}
	repo, err := e.OpenRepo(ctx, s.Worktree)
	if err != nil {
		return nil, false
	}
	files, ok := flaggedFiles(ctx, repo)
	if ok && files == nil {
		files = map[string]string{}
	}
	return files, ok
}

// readHiddenAtEnd is what s's end recorded; ok false when nothing was.
func (e *Engine) readHiddenAtEnd(ctx context.Context, id string) (map[string]string, bool) {
	evs, err := e.Store.EventsWith(ctx, id, tokHiddenAtEnd)
	if err != nil || len(evs) == 0 {
		return nil, false
	}
	var d struct {
		Hidden map[string]string `json:"hidden_at_end"`
	}
	if json.Unmarshal([]byte(evs[len(evs)-1].Detail), &d) != nil {
		return nil, false
	}
	return d.Hidden, true
}

// fileSHA is the sha256 of a work-tree file's bytes, "" when unreadable.
func fileSHA(root, p string) string {
	b, err := readWorkFile(root, p)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// readHiddenAtStart is what the session's start honoured (hiddenAtStart).
func (e *Engine) readHiddenAtStart(ctx context.Context, id string) map[string]string {
	h, _ := e.readHiddenStartRecord(ctx, id)
	return h
}

// readHiddenStartRecord is the session's start record of flagged files:
// those honoured and those an earlier session flagged.
func (e *Engine) readHiddenStartRecord(ctx context.Context, id string) (map[string]string, []string) {
	evs, err := startEvent(ctx, e.Store, id, "tool:session_start")
	if err != nil || len(evs) == 0 {
		return nil, nil
	}
	var d struct {
		Hidden    map[string]string `json:"hidden_at_start"`
		BySession []string          `json:"hidden_by_session"`
	}
	if json.Unmarshal([]byte(evs[0].Detail), &d) != nil {
		return nil, nil
	}
	return d.Hidden, d.BySession
}

// excludeLiner is a Repo that reads its exclude files' patterns
// (gitrepo.Repo.ExcludeLines).
type excludeLiner interface {
	ExcludeLines(ctx context.Context) []string
}

// excludesAtStart is the patterns of the per-clone and per-user exclude
// files at the start: clean_worktree counts an untracked file hidden only
// by a line added since (review 28, c9: a person's `*.log` hid the app's
// log, and a line the developer added from another worktree made it count).
func excludesAtStart(ctx context.Context, repo Repo) []string {
	if el, ok := repo.(excludeLiner); ok {
		return el.ExcludeLines(ctx)
	}
	return nil
}

// startHiddenOf reads what the session's start recorded of the files git
// hides (gateEnv.atStart): the developer's flagged files and the exclude
// patterns. A start recorded before excludes_at_start existed gives nil
// patterns: every exclude counts, as before.
func (e *Engine) startHiddenOf(id string) func(ctx context.Context) (map[string]string, []string) {
	return func(ctx context.Context) (map[string]string, []string) {
		evs, err := startEvent(ctx, e.Store, id, "tool:session_start")
		if err != nil || len(evs) == 0 {
			return nil, nil
		}
		var d struct {
			Hidden   map[string]string `json:"hidden_at_start"`
			Excludes []string          `json:"excludes_at_start"`
		}
		if json.Unmarshal([]byte(evs[0].Detail), &d) != nil {
			return nil, nil
		}
		return d.Hidden, d.Excludes
	}
}
