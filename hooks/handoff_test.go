package hooks_test

import (
	"cmp"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/store"
)

// handoffFile is where pre-commit leaves its handoff (hooks/handoff.go).
const handoffFile = "sessiongate-commit"

// rawTokens reads a session's event tokens straight from the database, with
// no engine call (which would reconcile first).
func (r *repo) rawTokens(id string) string {
	r.t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(r.root, ".git", "sessiongate", "sessiongate.db"))
	if err != nil {
		r.t.Fatal(err)
	}
	defer db.Close()
	evs, err := db.ListEvents(context.Background(), id, 0, 0)
	if err != nil {
		r.t.Fatal(err)
	}
	var toks []string
	for _, e := range evs {
		toks = append(toks, e.Token)
	}
	return strings.Join(toks, " ")
}

// A commit that passed pre-commit starts the binary once: commit-msg adds
// the trailers pre-commit handed over, post-commit leaves the commit to
// reconciliation, and the next engine call records it as the session's.
func TestHandoffStartsTheBinaryOnce(t *testing.T) {
	r := newRepo(t)
	r.sg(r.root, "install")
	id := r.startWorking(r.root)
	writeFile(t, filepath.Join(r.root, "a.txt"), "hello\n")
	r.git("add", "a.txt")
	if res := r.commit(r.root, nil, "-m", "work"); res.code != 0 {
		t.Fatalf("commit: exit %d\n%s%s", res.code, res.out, res.err)
	}
	head := r.head(r.root)
	if got := r.git("log", "-1", "--format=%(trailers:key=Session-Id,valueonly)"); got != id {
		t.Errorf("Session-Id trailer %q, want %q", got, id)
	}
	if b, err := os.ReadFile(filepath.Join(r.root, ".git", handoffFile)); err != nil || len(b) != 0 {
		t.Errorf("post-commit did not empty the handoff: %q, %v", b, err)
	}
	toks := r.rawTokens(id)
	if !strings.Contains(toks, "hook:pre-commit:pass") {
		t.Errorf("pre-commit did not record its pass: %s", toks)
	}
	for _, tok := range []string{"hook:commit-msg", "hook:post-commit"} {
		if strings.Contains(toks, tok) {
			t.Errorf("the binary ran for %s although pre-commit handed off: %s", tok, toks)
		}
	}
	r.sg(r.root, "session", "status", "--session", id)
	s := r.show(id)
	if len(s.Violations) != 0 {
		t.Errorf("the commit was recorded as a violation: %+v", s.Violations)
	}
	if !strings.Contains(r.rawTokens(id), "reconcile:commit") {
		t.Errorf("the next engine call did not record commit %s: %s", head, r.rawTokens(id))
	}
}

// A handoff forged for a --no-verify commit (the agent execs git from a
// shell whose pid it wrote) skips post-commit, and the next engine call
// still finds the BYPASS: the handoff delays the finding, never hides it.
func TestHandoffForgedStillFindsBypass(t *testing.T) {
	r := newRepo(t)
	r.sg(r.root, "install")
	id := r.startWorking(r.root)
	writeFile(t, filepath.Join(r.root, "bad.txt"), "FORBIDDEN\n")
	r.git("add", "bad.txt")
	before := r.head(r.root)
	res := r.run(r.root, nil, "sh", "-c", `printf 'v2u %s\n' $$ > .git/`+handoffFile+`; exec git commit -q --no-verify -m forged`)
	if res.code != 0 || r.head(r.root) == before {
		t.Fatalf("forged commit did not land: %s%s", res.out, res.err)
	}
	if strings.Contains(res.err, "BYPASS") {
		t.Fatalf("post-commit ran; the forged handoff was not used, so this test proves nothing:\n%s", res.err)
	}
	s := r.show(id) // an engine call: it reconciles first
	if len(s.Violations) != 1 || s.Violations[0].Code != "BYPASS" || s.Violations[0].Severity != "CRITICAL" {
		t.Fatalf("violations after the next engine call: %+v", s.Violations)
	}
}

// A stale handoff (another git process's) is ignored: --no-verify is found
// by post-commit at once, as without a handoff.
func TestHandoffStaleIgnored(t *testing.T) {
	r := newRepo(t)
	r.sg(r.root, "install")
	r.startWorking(r.root)
	writeFile(t, filepath.Join(r.root, "a.txt"), "hello\n")
	r.git("add", "a.txt")
	if res := r.commit(r.root, nil, "-m", "work"); res.code != 0 {
		t.Fatalf("commit: %s", res.err)
	}
	writeFile(t, filepath.Join(r.root, ".git", handoffFile), "v1 1\nSession-Id: stale\n")
	writeFile(t, filepath.Join(r.root, "b.txt"), "FORBIDDEN\n")
	r.git("add", "b.txt")
	res := r.commit(r.root, nil, "--no-verify", "-m", "skip")
	if !strings.Contains(res.err, "CRITICAL BYPASS violation recorded") {
		t.Errorf("post-commit did not report the bypass at once:\n%s", res.err)
	}
}

// When the protocol runs a gate at commit-msg, pre-commit hands nothing
// over and commit-msg starts the binary.
func TestHandoffNotWithCommitMsgGates(t *testing.T) {
	r := newRepo(t)
	proto := strings.Replace(testProtocol, `<!-- gate: command "sh check-staged.sh {staged:*.txt}" hooks=pre-commit -->`,
		`<!-- gate: command "sh check-staged.sh {staged:*.txt}" hooks=pre-commit,commit-msg -->`, 1)
	if proto == testProtocol {
		t.Fatal("test protocol changed: no pre-commit gate to extend")
	}
	writeFile(t, filepath.Join(r.root, "SESSION-PROTOCOL.md"), proto)
	r.git("commit", "-q", "-am", "gate commit-msg too")
	r.sg(r.root, "install")
	id := r.startWorking(r.root)
	writeFile(t, filepath.Join(r.root, "a.txt"), "hello\n")
	r.git("add", "a.txt")
	if res := r.commit(r.root, nil, "-m", "work"); res.code != 0 {
		t.Fatalf("commit: exit %d\n%s%s", res.code, res.out, res.err)
	}
	toks := r.rawTokens(id)
	for _, tok := range []string{"hook:commit-msg:trailer", "hook:post-commit:pass"} {
		if !strings.Contains(toks, tok) {
			t.Errorf("events lack %s (the binary should run when commit-msg has gates): %s", tok, toks)
		}
	}
}

// No handoff when an editor runs between pre-commit and commit-msg (the
// session may change meanwhile) or when the index is outside the git dir
// (its folder may be shared): commit-msg and post-commit start the binary.
func TestHandoffOnlyWithoutEditorInsideGitDir(t *testing.T) {
	for _, c := range []struct {
		name string
		env  []string
		args []string
	}{
		{"editor", []string{"GIT_EDITOR=true"}, []string{"-e", "-m", "work"}},
		{"index outside the git dir", nil, []string{"-m", "work"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newRepo(t)
			r.sg(r.root, "install")
			id := r.startWorking(r.root)
			writeFile(t, filepath.Join(r.root, "a.txt"), "hello\n")
			env := c.env
			if c.env == nil {
				idx := filepath.Join(t.TempDir(), "index")
				if err := os.WriteFile(idx, []byte(readFile(t, filepath.Join(r.root, ".git", "index"))), 0o644); err != nil {
					t.Fatal(err)
				}
				env = []string{"GIT_INDEX_FILE=" + idx}
				r.run(r.root, env, "git", "add", "a.txt")
				defer func() {
					if _, err := os.Stat(filepath.Join(filepath.Dir(idx), handoffFile)); err == nil {
						t.Errorf("a handoff was written beside an index outside the git dir")
					}
				}()
			} else {
				r.git("add", "a.txt")
			}
			if res := r.commit(r.root, env, c.args...); res.code != 0 {
				t.Fatalf("commit: exit %d\n%s%s", res.code, res.out, res.err)
			}
			toks := r.rawTokens(id)
			for _, tok := range []string{"hook:commit-msg:trailer", "hook:post-commit:pass"} {
				if !strings.Contains(toks, tok) {
					t.Errorf("events lack %s (the binary should run): %s", tok, toks)
				}
			}
		})
	}
}

// A commit left to reconciliation is recorded in its session even when the
// next call starts a new session, which supersedes (abandons) the old one.
func TestHandoffCommitRecordedBeforeSupersede(t *testing.T) {
	r := newRepo(t)
	r.sg(r.root, "install")
	id := r.startWorking(r.root)
	writeFile(t, filepath.Join(r.root, "a.txt"), "hello\n")
	r.git("add", "a.txt")
	if res := r.commit(r.root, nil, "-m", "work"); res.code != 0 {
		t.Fatalf("commit: %s", res.err)
	}
	if strings.Contains(r.rawTokens(id), "reconcile:commit") {
		t.Fatal("the commit was recorded before any call: the handoff was not used, so this test proves nothing")
	}
	r.sg(r.root, "session", "start", "--objective", "the next one")
	if toks := r.rawTokens(id); !strings.Contains(toks, "reconcile:commit") {
		t.Errorf("the superseded session lost its last commit: %s", toks)
	}
}

// commit-msg appends the trailers itself, starting no git, when the
// configuration is plain; a comment character (or any trailer.* key) in
// the configuration leaves them to git interpret-trailers. GIT_TRACE shows
// which git commands the hooks ran.
func TestHandoffTrailersWithoutGit(t *testing.T) {
	for _, tc := range []struct {
		name   string
		config []string
		flags  []string // git -c before commit
		body   string   // "" for the default body
		byGit  bool
	}{
		{"plain", nil, nil, "", false},
		{"plain, git -c another key", nil, []string{"-c", "core.hooksPath=.git/hooks"}, "", false},
		{"comment char", []string{"core.commentChar", ";"}, nil, "", true},
		{"trailer config", []string{"trailer.where", "end"}, nil, "", true},
		{"git -c trailer key", nil, []string{"-c", "trailer.where=end"}, "", true},
		// A "---" line (a Markdown rule) is text: the trailers go after the
		// message, where git log's %(trailers) and sessiongate verify look,
		// not above the line, on either path.
		{"plain, a --- line", nil, nil, "Why.\n---\nNotes.", false},
		{"comment char, a --- line", []string{"core.commentChar", ";"}, nil, "Why.\n---\nNotes.", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t)
			r.sg(r.root, "install")
			id := r.startWorking(r.root)
			if tc.config != nil {
				r.git(append([]string{"config"}, tc.config...)...)
			}
			writeFile(t, filepath.Join(r.root, "a.txt"), "hello\n")
			r.git("add", "a.txt")
			trace := filepath.Join(t.TempDir(), "trace")
			body := cmp.Or(tc.body, "Body of the change.")
			args := append(append([]string{}, tc.flags...), "commit", "-m", "feat: add a", "-m", body)
			if res := r.run(r.root, []string{"GIT_TRACE=" + trace}, "git", args...); res.code != 0 {
				t.Fatalf("commit: exit %d\n%s%s", res.code, res.out, res.err)
			}
			b, err := os.ReadFile(trace)
			if err != nil {
				t.Fatal(err)
			}
			if ran := strings.Contains(string(b), "interpret-trailers"); ran != tc.byGit {
				t.Errorf("git interpret-trailers ran: %v, want %v", ran, tc.byGit)
			}
			want := "feat: add a\n\n" + body + "\n\nSession-Id: " + id
			if got := r.git("log", "-1", "--format=%B"); !strings.HasPrefix(got, want) {
				t.Errorf("message %q, want it to start %q", got, want)
			}
			if got := r.git("log", "-1", "--format=%(trailers:key=Session-Id,valueonly)"); got != id {
				t.Errorf("Session-Id trailer %q, want %q", got, id)
			}
		})
	}
}

// Two commits with the hooks switched off, then one through the handoff
// (post-commit leaves it to reconciliation): the next call finds both
// hookless commits as BYPASS, even though HEAD's parent and grandparent
// are unrecorded and HEAD itself matches a pre-commit pass.
func TestHandoffAfterHooklessCommitsFindsBoth(t *testing.T) {
	r := newRepo(t)
	r.sg(r.root, "install")
	id := r.startWorking(r.root)
	for _, f := range []string{"a.txt", "b.txt"} {
		writeFile(t, filepath.Join(r.root, f), f+"\n")
		r.git("add", f)
		r.git("-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "no hooks "+f)
	}
	writeFile(t, filepath.Join(r.root, "c.txt"), "c\n")
	r.git("add", "c.txt")
	if res := r.commit(r.root, nil, "-m", "with hooks"); res.code != 0 {
		t.Fatalf("commit: exit %d\n%s", res.code, res.err)
	}
	s := r.show(id)
	bypass := 0
	for _, v := range s.Violations {
		if v.Code == "BYPASS" {
			bypass++
		}
	}
	if bypass != 2 {
		t.Errorf("%d BYPASS violations, want 2: %+v", bypass, s.Violations)
	}
}
