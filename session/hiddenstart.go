package session

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
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
// review c11 item 2: stub, flag, abandon, start again). Each end records
// the flagged files (hidden_at_end; a superseded session's end is the next
// start). At a start, a flagged file is honoured only when
//   - no earlier session of this worktree exists (set before any session), or
//   - the previous session's start honoured it and its end held the same
//     content (the developer's flag carried over), or
//   - it was flagged or changed after the previous session's recorded end
//     (between sessions) and runners do not load it as code (a config or
//     data file): a person and an agent acting between sessions look
//     alike, and a code file's flag is the one that hides a fix.
// A file not honoured is listed in hidden_by_session and stays so at later
// starts while it is flagged.

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
// and those an earlier session flagged or changed (bySession, sorted).
func (e *Engine) hiddenAtStart(ctx context.Context, repo Repo) (honoured map[string]string, bySession []string) {
	now, ok := flaggedFiles(ctx, repo)
	if !ok || len(now) == 0 {
		return nil, nil
	}
	prev := e.previousSession(ctx, repo)
	honoured = map[string]string{}
	var pStart, pEnd map[string]string
	var pBy []string
	endKnown := false
	if prev != nil {
		pStart, pBy = e.readHiddenStartRecord(ctx, prev.ID)
		pEnd, endKnown = e.readHiddenAtEnd(ctx, prev.ID)
		if !endKnown {
			pEnd = now // superseded now, or ended before ends recorded flags
		}
	}
	for f, h := range now {
		switch {
		case h == "":
			bySession = append(bySession, f) // unreadable: nothing to compare later
		case prev == nil:
			honoured[f] = h
		case slices.Contains(pBy, f):
			bySession = append(bySession, f)
		case pStart[f] != "" && pStart[f] == pEnd[f] && pEnd[f] == h:
			honoured[f] = h
		case endKnown && pEnd[f] == "" || endKnown && pEnd[f] == pStart[f]:
			// Flagged, or edited, after the previous session ended.
			if loadsAsCode(f) {
				bySession = append(bySession, f)
			} else {
				honoured[f] = h
			}
		default:
			bySession = append(bySession, f) // flagged or edited in the previous session
		}
	}
	slices.Sort(bySession)
	if len(honoured) == 0 {
		honoured = nil
	}
	return honoured, bySession
}

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
