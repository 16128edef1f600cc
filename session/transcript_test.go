package session_test

import (
	"context"
	"fmt"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

const transcriptProtocol = "# Session Protocol\n\n## Session Start\n\n### Phase 1: Orientation (BLOCKING)\n\n" +
	"1. The agent MUST read `docs/guide.md` before it changes anything.\n" +
	"2. The agent MUST run `git status` to see the state.\n\n" +
	"## Session End\n\n### Phase 1: Wrap Up (REQUIRED)\n\n1. The agent MUST summarize the session.\n"

const (
	txReqRead = "ORIENTATION.read-docs-guide-md"
	txReqRun  = "ORIENTATION.run-git-status-see"
)

// claudeLines is a Claude Code transcript of one tool call and its result,
// in the shape the real CLI writes (transcript/testdata/claude-2.1.jsonl).
func claudeLines(id, tool, input, result string, isErr bool) string {
	return fmt.Sprintf(`{"type":"assistant","cwd":"","message":{"role":"assistant","content":[{"type":"tool_use","id":%q,"name":%q,"input":%s}]}}`+"\n"+
		`{"type":"user","message":{"role":"user","content":[{"tool_use_id":%q,"type":"tool_result","content":%q,"is_error":%v}]}}`+"\n",
		id, tool, input, id, result, isErr)
}

func appendTo(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

func (e *env) reqStatus(id, req string) session.RequirementStatus {
	e.t.Helper()
	sts, err := e.engine.Requirements(context.Background(), id, "ORIENTATION")
	if err != nil {
		e.t.Fatalf("requirements: %v", err)
	}
	for _, s := range sts {
		if s.ID == req {
			return s
		}
	}
	e.t.Fatalf("no requirement %s in %+v", req, sts)
	return session.RequirementStatus{}
}

func (e *env) claim(id, req, kind, body string) error {
	_, err := e.engine.RecordEvidence(context.Background(), session.EvidenceRequest{ID: id, Requirement: req, Kind: kind, Evidence: body})
	return err
}

func TestTranscriptEvidence(t *testing.T) {
	requireGit(t)
	read := func(p string) string { return fmt.Sprintf(`{"file_path":%q}`, p) }
	bash := func(c string) string { return fmt.Sprintf(`{"command":%q}`, c) }
	type check struct {
		req     string
		status  string
		reason  string // a substring of the status reason
		claimOK *bool  // nil: no claim tried; else whether a manual claim is accepted
	}
	yes, no := true, false
	tests := []struct {
		name     string
		bind     bool                     // the agent named a transcript
		before   func(root string) string // lines already in it when it was named
		after    func(root string) string // lines written during the session
		observed *int                     // a hook-observed `git status` with this exit code
		checks   []check
	}{
		{name: "no transcript: claims work as before", bind: false, checks: []check{
			{txReqRead, session.ReqOpen, "no evidence", &yes},
			{txReqRun, session.ReqOpen, "no evidence", &yes},
		}},
		{name: "Read tool and a run", bind: true, after: func(root string) string {
			return claudeLines("t1", "Read", read(filepath.Join(root, "docs/guide.md")), "1\tguide", false) +
				claudeLines("t2", "Bash", bash("git status"), "On branch main", false)
		}, checks: []check{
			{txReqRead, session.ReqMet, "Read docs/guide.md (call t1)", nil},
			{txReqRun, session.ReqMet, "`git status`", nil},
		}},
		{name: "nothing read: the claim is refused", bind: true, checks: []check{
			{txReqRead, session.ReqOpen, "read docs/guide.md with the Read tool", &no},
			// "run X" with no run in the transcript: claims count as before.
			{txReqRun, session.ReqOpen, "no evidence", &yes},
		}},
		{name: "read before the session named its transcript", bind: true, before: func(root string) string {
			return claudeLines("t0", "Read", read(filepath.Join(root, "docs/guide.md")), "1\tguide", false)
		}, checks: []check{{txReqRead, session.ReqOpen, "shows no read", &no}}},
		{name: "a file of the same name elsewhere", bind: true, after: func(root string) string {
			return claudeLines("t1", "Read", read("/tmp/elsewhere/docs/guide.md"), "1\tx", false) +
				claudeLines("t2", "Read", read(filepath.Join(root, "docs/guide.md.bak")), "1\tx", false)
		}, checks: []check{{txReqRead, session.ReqOpen, "shows no read", &no}}},
		{name: "a failed read", bind: true, after: func(root string) string {
			return claudeLines("t1", "Read", read(filepath.Join(root, "docs/guide.md")), "File does not exist.", true)
		}, checks: []check{{txReqRead, session.ReqOpen, "shows no read", &no}}},
		{name: "shell reads: cat counts, cat into /dev/null does not", bind: true, after: func(root string) string {
			return claudeLines("t1", "Bash", bash("cat docs/guide.md > /dev/null"), "", false) +
				claudeLines("t2", "Bash", bash("cd docs && sed -n '1,40p' guide.md"), "# Guide", false)
		}, checks: []check{{txReqRead, session.ReqMet, "sed -n", nil}}},
		{name: "a failing run contradicts the claim", bind: true, after: func(root string) string {
			return claudeLines("t1", "Bash", bash("git status"), "Exit code 128\nfatal: not a git repository", true)
		}, checks: []check{{txReqRun, session.ReqOpen, "exiting 128", &no}}},
		{name: "a run piped into tail has no status of its own", bind: true, after: func(root string) string {
			return claudeLines("t1", "Bash", bash("git status | tail -1"), "clean", false)
		}, checks: []check{{txReqRun, session.ReqOpen, "exiting -1", &no}}},
		{name: "sessiongate's observed run outranks the transcript", bind: true, observed: new(int), after: func(root string) string {
			return claudeLines("t1", "Bash", bash("git status"), "Exit code 1", true)
		}, checks: []check{{txReqRun, session.ReqMet, "observed", nil}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, transcriptProtocol)
			ctx := context.Background()
			os.MkdirAll(filepath.Join(e.root, "docs"), 0o755)
			os.WriteFile(filepath.Join(e.root, "docs", "guide.md"), []byte("# Guide\n"), 0o644)
			// The repository has it: a file made during the session is
			// not the repository's to read (readOfOwnFile).
			gittest.Git(t, e.root, "add", "docs/guide.md")
			gittest.Git(t, e.root, "commit", "-q", "-m", "guide")
			id := e.start("transcripts")
			path := filepath.Join(t.TempDir(), "projects", "p", "s.jsonl")
			os.MkdirAll(filepath.Dir(path), 0o700)
			if tt.before != nil {
				appendTo(t, path, tt.before(e.root))
			}
			if tt.bind {
				if err := e.engine.BindTranscript(ctx, id, "claude", "agent-1", path); err != nil {
					t.Fatal(err)
				}
			}
			if tt.after != nil {
				appendTo(t, path, tt.after(e.root))
			}
			if tt.observed != nil {
				if _, err := e.engine.RecordObserved(ctx, session.ObservedRequest{ID: id, Source: "claude", Command: "git status", ExitCode: *tt.observed}); err != nil {
					t.Fatal(err)
				}
			}
			for _, c := range tt.checks {
				st := e.reqStatus(id, c.req)
				if st.Status != c.status || !strings.Contains(st.Reason, c.reason) {
					t.Errorf("%s: %s %q, want %s with %q", c.req, st.Status, st.Reason, c.status, c.reason)
				}
				if c.claimOK == nil {
					continue
				}
				err := e.claim(id, c.req, session.EvidenceManual, "I did "+c.req+" and it told me how we work")
				if (err == nil) != *c.claimOK {
					t.Errorf("manual claim for %s: %v, want accepted %v", c.req, err, *c.claimOK)
				}
				if c.req == txReqRead && !*c.claimOK {
					if err := e.claim(id, c.req, session.EvidenceContentHash, "docs/guide.md"); err == nil || !strings.Contains(err.Error(), "Read tool") {
						t.Errorf("content_hash claim for %s: %v, want refused naming the Read tool", c.req, err)
					}
				}
			}
			// Only hashes and references are stored: no tool output.
			evs, _ := e.db.ListEvidence(ctx, id)
			for _, ev := range evs {
				if ev.Origin == session.OriginTranscript && (len(ev.Body) > 0 || strings.Contains(ev.Ref, "On branch") || len(ev.SHA256) != 64) {
					t.Errorf("transcript evidence keeps more than a reference: %+v", ev)
				}
			}
		})
	}
}

// A transcript that shrinks, or whose bytes already read change, is a HIGH
// violation; it is read no more, and claims for reads stay refused.
func TestTranscriptTampered(t *testing.T) {
	requireGit(t)
	for _, tamper := range []string{"truncate", "rewrite", "delete"} {
		t.Run(tamper, func(t *testing.T) {
			e := newEnv(t, transcriptProtocol)
			ctx := context.Background()
			id := e.start("transcripts")
			path := filepath.Join(t.TempDir(), "s.jsonl")
			if err := e.engine.BindTranscript(ctx, id, "claude", "agent-1", path); err != nil {
				t.Fatal(err)
			}
			appendTo(t, path, claudeLines("t1", "Bash", `{"command":"ls"}`, "x", false))
			if st := e.reqStatus(id, txReqRead); st.Status != session.ReqOpen {
				t.Fatalf("before: %+v", st)
			}
			switch tamper {
			case "truncate":
				os.Truncate(path, 5)
			case "rewrite":
				b, _ := os.ReadFile(path)
				os.WriteFile(path, []byte(strings.Replace(string(b), `"ls"`, `"LS"`, 1)), 0o600)
			case "delete":
				os.Remove(path)
			}
			// A forged read appended after the change is not read.
			appendTo(t, path, claudeLines("t2", "Read", fmt.Sprintf(`{"file_path":%q}`, filepath.Join(e.root, "docs/guide.md")), "1\tx", false))
			st := e.reqStatus(id, txReqRead)
			if st.Status != session.ReqOpen || !strings.Contains(st.Reason, "no longer read") {
				t.Errorf("after %s: %+v", tamper, st)
			}
			vs, err := e.db.ListViolations(ctx, session.ViolationFilter{SessionID: id})
			if err != nil || len(vs) != 1 || vs[0].Code != session.CodeTranscriptChanged || vs[0].Severity != "HIGH" {
				t.Errorf("violations %+v (%v), want one HIGH %s", vs, err, session.CodeTranscriptChanged)
			}
			if err := e.claim(id, txReqRead, session.EvidenceManual, "I read it, honestly"); err == nil {
				t.Errorf("a claim was accepted after the transcript changed")
			}
			e.reqStatus(id, txReqRead) // read again: still one violation
			if vs, _ := e.db.ListViolations(ctx, session.ViolationFilter{SessionID: id}); len(vs) != 1 {
				t.Errorf("%d violations after another read, want 1", len(vs))
			}
		})
	}
}

// The built-in gate of "Context Retrieval" checks the content hash of
// .agents/HANDOFF.md, which the phase says to read. Under an agent
// transcript the read decides, and a hash instead of it is refused; without
// one the hash passes as before.
func TestTranscriptContentHashGate(t *testing.T) {
	requireGit(t)
	const protocol = "# Session Protocol\n\n## Session Start\n\n### Phase 1: Context Retrieval (BLOCKING)\n\n" +
		"1. The agent MUST read `.agents/HANDOFF.md` for previous session context.\n\n" +
		"## Session End\n\n### Phase 1: Wrap Up (REQUIRED)\n\n1. The agent MUST summarize the session.\n"
	tests := []struct {
		name     string
		bind     bool
		read     bool
		hashOK   bool // the content_hash claim is accepted
		working  bool
		blockMsg string
	}{
		{"no transcript: the hash passes as before", false, false, true, true, ""},
		{"transcript, no read: the hash is refused", true, false, false, false, "read .agents/HANDOFF.md with the Read tool"},
		{"transcript with the read", true, true, true, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, protocol)
			ctx := context.Background()
			os.MkdirAll(filepath.Join(e.root, ".agents"), 0o755)
			os.WriteFile(filepath.Join(e.root, ".agents", "HANDOFF.md"), []byte("# Handoff\n"), 0o644)
			id := e.start("transcripts")
			path := filepath.Join(t.TempDir(), "s.jsonl")
			if tt.bind {
				if err := e.engine.BindTranscript(ctx, id, "claude", "agent-1", path); err != nil {
					t.Fatal(err)
				}
			}
			if tt.read {
				appendTo(t, path, claudeLines("t1", "Read", fmt.Sprintf(`{"file_path":%q}`, filepath.Join(e.root, ".agents/HANDOFF.md")), "1\t# Handoff", false))
			}
			_, err := e.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Phase: "CONTEXT_RETRIEVAL", Kind: session.EvidenceContentHash, Evidence: ".agents/HANDOFF.md"})
			if (err == nil) != tt.hashOK {
				t.Errorf("content_hash claim: %v, want accepted %v", err, tt.hashOK)
			}
			res, err := e.engine.Advance(ctx, session.AdvanceRequest{ID: id, Target: "WORKING"})
			if err != nil {
				t.Fatal(err)
			}
			if (res.State == session.StateWorking) != tt.working {
				t.Fatalf("state %s, want WORKING %v: %+v", res.State, tt.working, res.Blocked)
			}
			if tt.blockMsg != "" && (res.Blocked == nil || !strings.Contains(res.Blocked.Reason, tt.blockMsg)) {
				t.Errorf("blocked %+v, want the reason to name %q", res.Blocked, tt.blockMsg)
			}
			if tt.blockMsg != "" && (len(res.NextSteps) == 0 || res.NextSteps[0].Action != session.StepUseTool) {
				t.Errorf("next steps %+v, want the read first", res.NextSteps)
			}
		})
	}
}

// TestTranscriptInheritedOnSupersede: the transcript binding race. The
// agent hook binds the transcript to the worktree's session before a shell
// line runs; a line that starts a session itself and then claims and
// advances (`sessiongate session start && sessiongate session evidence
// ... && sessiongate session advance`) ran in a new session no transcript
// was bound to, so its claims counted. The new session now inherits the
// superseded session's transcripts, read from where the file ends then.
func TestTranscriptInheritedOnSupersede(t *testing.T) {
	requireGit(t)
	read := func(root string) string {
		return claudeLines("t1", "Read", fmt.Sprintf(`{"file_path":%q}`, filepath.Join(root, "docs/guide.md")), "1\tguide", false)
	}
	tests := []struct {
		name    string
		bind    bool // the hook had bound a transcript to the first session
		readAt  string
		claimOK bool
		status  string
	}{
		{"bound: the one-line start cannot claim the read", true, "", false, session.ReqOpen},
		{"bound: a read after the new start meets it", true, "after", false, session.ReqMet},
		{"bound: a read before the new start does not count", true, "before", false, session.ReqOpen},
		{"no hook transcript: claims as before", false, "", true, session.ReqOpen},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, transcriptProtocol)
			ctx := context.Background()
			os.MkdirAll(filepath.Join(e.root, "docs"), 0o755)
			os.WriteFile(filepath.Join(e.root, "docs", "guide.md"), []byte("# Guide\n"), 0o644)
			// The repository has it: a file made during the session is
			// not the repository's to read (readOfOwnFile).
			gittest.Git(t, e.root, "add", "docs/guide.md")
			gittest.Git(t, e.root, "commit", "-q", "-m", "guide")
			first := e.start("hook-created")
			path := filepath.Join(t.TempDir(), "projects", "p", "s.jsonl")
			os.MkdirAll(filepath.Dir(path), 0o700)
			appendTo(t, path, claudeLines("t0", "Bash", `{"command":"ls"}`, "x", false))
			if tt.bind {
				if err := e.engine.BindTranscript(ctx, first, "claude", "agent-1", path); err != nil {
					t.Fatal(err)
				}
			}
			if tt.readAt == "before" {
				appendTo(t, path, read(e.root))
			}
			id := e.start("started from the agent's shell")
			if tt.readAt == "after" {
				appendTo(t, path, read(e.root))
			}
			ts, err := e.db.SessionTranscripts(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if (len(ts) == 1 && ts[0].Path == path) != tt.bind {
				t.Fatalf("transcripts of the new session: %+v, want inherited %v", ts, tt.bind)
			}
			if tt.readAt != "after" {
				err := e.claim(id, txReqRead, session.EvidenceManual, "I read docs/guide.md and it told me how we work")
				if (err == nil) != tt.claimOK {
					t.Fatalf("claim: %v, want accepted %v", err, tt.claimOK)
				}
			}
			if st := e.reqStatus(id, txReqRead); st.Status != tt.status && !(tt.claimOK && st.Status == session.ReqMet) {
				t.Errorf("requirement %s: %s %q, want %s", txReqRead, st.Status, st.Reason, tt.status)
			}
		})
	}
}
