package compliance_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// world is one scenario's repository and what happened in it.
type world struct {
	t     *testing.T
	root  string   // the work tree (symlinks resolved, as git reports it)
	env   []string // environment of every git and sessiongate process
	base  string   // the default branch tip the session's commits are verified from
	agent agent
	id    string // the session id
	// acceptNA: a person accepts the session's pending not-applicable
	// marks after it ends (session accept-na at a terminal).
	acceptNA bool
	// noSerena: the repository configures no serena MCP server (fixture
	// repos do otherwise, in .mcp.json).
	noSerena bool
	// personHooks: the colleague's clone (person) has sessiongate's hooks.
	personHooks bool
	out         outcome
	// deviated: the non-compliant agent has skipped its one thing; a block
	// before that point says nothing about whether the skip is caught.
	deviated bool
	reqs     map[string]map[string]string // phase -> requirement text -> id (from protocol show)
	skip     skip                         // what the scenario's agent leaves out
	// transcript is the Claude Code transcript the agent's hooks name
	// ("" when the agent talks to sessiongate only through the CLI or MCP).
	transcript string
	calls      int // tool calls written to the transcript
	// readByCat: the agent reads the handoff with cat in its shell (seen
	// by sessiongate) instead of recording its content hash.
	readByCat bool
	// buildsDist: the work adds dist/ to .gitignore and builds into it.
	buildsDist bool
	// literal: only the MUSTs, by the document's own commands (scenario.literal).
	literal bool
	// crlfDocs: a Windows editor's line ends in every Markdown file written
	// (TestFieldWindowsTeamProtocol).
	crlfDocs bool
	// work26 replaces the fixture flow's code change (a round 26
	// ordinary task: honest26_test.go).
	work26 func(w *world)
	// qaReport, when set, writes the fixture flow's QA report its way
	// from the test run's output and exit status (TestR62H359...).
	qaReport func(out string, code int) string
	// logNotes, when set, is the fixture flow's session log notes.
	logNotes string
}

// deviate marks the point where a non-compliant agent skips its one thing.
func (w *world) deviate() { w.deviated = true }

// outcome is what the scenario reached.
type outcome struct {
	complete  bool   // session_end returned COMPLETE
	verifyOK  bool   // `sessiongate verify BASE..HEAD` exited 0
	verify    string // verify's first problem
	stoppedBy string // the first thing that stopped the agent
	forced    bool   // a gate was forced (FORCED_ADVANCE; the benchmark's agents never force)
	// violations the session recorded (code: message), read after the end.
	violations []string
	// failedGates are the phases whose latest gate result recorded a
	// failed check though the session went on (a gate that could not
	// block, shown as skipped): on a compliant session each is a false FAIL.
	failedGates []string
	// notClean are the mandatory phases whose gate ran and checked nothing
	// (decision NOTHING_CHECKED): the session is "COMPLETE, not clean".
	notClean []string
	deviated bool // the non-compliant agent reached the point where it skips its one thing
	padded   bool // the agent recorded evidence for something it did not do
	// naPending: verify failed only on not-applicable marks no person
	// accepted (issue 25.4): neither a pass nor a block of the session.
	naPending bool
}

// stop ends a scenario's flow early; run recovers it.
type stop struct{ reason string }

// halt records why the agent could not go on and unwinds the flow.
func (w *world) halt(format string, a ...any) {
	// The table goes into docs: no machine-local paths in it.
	msg := strings.ReplaceAll(fmt.Sprintf(format, a...), w.root, "<repo>")
	w.out.stoppedBy = oneLine(msg, 160)
	panic(stop{w.out.stoppedBy})
}

// cleanEnv is the test process's environment without anything that would
// leak into the repositories under test.
func cleanEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GIT_") || strings.HasPrefix(k, "SESSIONGATE_") || strings.HasPrefix(k, "PRE_COMMIT") {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// newWorld makes an empty repository with a bare origin and a git identity.
func newWorld(t *testing.T) *world {
	t.Helper()
	return newWorldAt(t, t.TempDir())
}

// newWorldAt is newWorld in base (a project template's folder).
func newWorldAt(t *testing.T, base string) *world {
	t.Helper()
	w := worldAt(t, base)
	w.gitIn(base, "init", "-q", "--bare", "-b", "main", "origin.git")
	w.git("init", "-q", "-b", "main")
	w.git("remote", "add", "origin", filepath.Join(base, "origin.git"))
	w.root = w.git("rev-parse", "--show-toplevel")
	return w
}

// worldAt is the world whose folders are in base (work, home, the bare
// origin.git beside them), with its git identity; it makes no repository.
func worldAt(t *testing.T, base string) *world {
	t.Helper()
	w := &world{t: t, root: filepath.Join(base, "work")}
	home := filepath.Join(base, "home")
	for _, d := range []string{w.root, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	gitconfig := filepath.Join(home, ".gitconfig")
	// No background gc or maintenance: it would race t.TempDir's cleanup.
	w.write(gitconfig, "[user]\n\tname = Agent\n\temail = agent@example.com\n[init]\n\tdefaultBranch = main\n"+
		"[advice]\n\tdetachedHead = false\n[gc]\n\tauto = 0\n[maintenance]\n\tauto = false\n")
	// CLAUDE_CONFIG_DIR: no user MCP config or sub-agents of the machine's
	// user (useTranscript sets its own).
	w.env = append(cleanEnv(), "GIT_CONFIG_GLOBAL="+gitconfig, "GIT_CONFIG_NOSYSTEM=1", "CLAUDE_CONFIG_DIR="+filepath.Join(home, ".claude"))
	return w
}

// write writes a file; a relative path is inside the work tree.
func (w *world) write(p, body string) {
	w.t.Helper()
	if !filepath.IsAbs(p) {
		p = filepath.Join(w.root, p)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		w.t.Fatal(err)
	}
	if w.crlfDocs && strings.HasSuffix(p, ".md") {
		body = strings.ReplaceAll(strings.ReplaceAll(body, "\r\n", "\n"), "\n", "\r\n")
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		w.t.Fatal(err)
	}
}

func (w *world) read(rel string) string {
	w.t.Helper()
	b, err := os.ReadFile(filepath.Join(w.root, rel))
	if err != nil {
		w.t.Fatal(err)
	}
	if w.crlfDocs && strings.HasSuffix(rel, ".md") {
		// An editor shows lines, whatever ends them; write puts CRLF back.
		return strings.ReplaceAll(string(b), "\r\n", "\n")
	}
	return string(b)
}

// result of a process.
type result struct {
	out, err string
	code     int
}

func (r result) text() string { return strings.TrimSpace(r.out + "\n" + r.err) }

func (w *world) exec(dir string, stdin string, name string, args ...string) result {
	w.t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, w.env
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	t0 := time.Now()
	err := cmd.Run()
	if os.Getenv("COMPLIANCE_TRACE") != "" {
		// Wall, then CPU (user+sys of the process and the children it
		// waited for: a gate's command, a hook's git): on a loaded
		// machine the wall is the load's, the CPU is the command's.
		var cpu time.Duration
		if ps := cmd.ProcessState; ps != nil {
			cpu = ps.UserTime() + ps.SystemTime()
		}
		w.t.Logf("TRACE %6.0fms %6.0fms-cpu %s %s", float64(time.Since(t0).Microseconds())/1000, float64(cpu.Microseconds())/1000,
			filepath.Base(name), oneLine(strings.Join(args, " "), 80))
	}
	res := result{out: stdout.String(), err: stderr.String()}
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			w.t.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
		}
		res.code = ee.ExitCode()
	}
	return res
}

// git runs git in the work tree and fails the test on error.
func (w *world) git(args ...string) string {
	w.t.Helper()
	return w.gitIn(w.root, args...)
}

func (w *world) gitIn(dir string, args ...string) string {
	w.t.Helper()
	res := w.exec(dir, "", "git", args...)
	if res.code != 0 {
		w.t.Fatalf("git %s: exit %d\n%s", strings.Join(args, " "), res.code, res.text())
	}
	return strings.TrimSpace(res.out)
}

// sh runs a shell command the way an agent's shell tool does and returns
// its combined output and exit code.
func (w *world) sh(line string) (string, int) {
	w.t.Helper()
	res := w.exec(w.root, "", "sh", "-c", line+" 2>&1")
	return res.out, res.code
}

// sg runs the sessiongate binary in the work tree.
func (w *world) sg(args ...string) result {
	w.t.Helper()
	return w.exec(w.root, "", binary, args...)
}

// sgOK runs sessiongate and fails the test (not the scenario) on an error:
// for set-up steps that are not what the benchmark measures.
func (w *world) sgOK(args ...string) string {
	w.t.Helper()
	res := w.sg(args...)
	if res.code != 0 {
		w.t.Fatalf("sessiongate %s: exit %d\n%s", strings.Join(args, " "), res.code, res.text())
	}
	return res.out
}

// commit stages everything and commits as an agent would, through the
// installed hooks; a refused commit stops the flow.
func (w *world) commit(msg string) string {
	w.t.Helper()
	w.git("add", "-A")
	res := w.exec(w.root, "", "git", "commit", "-q", "-m", msg)
	if res.code != 0 {
		w.halt("commit refused: %s", res.text())
	}
	return w.git("rev-parse", "HEAD")
}

// end ends the session, commits the session record and runs verify on the
// session's commits: the two halves of "COMPLETE with a clean verify".
func (w *world) end(summary, notes string, skipQA bool) {
	w.t.Helper()
	s := w.agent.End(summary, notes, skipQA)
	if !s.ok {
		w.halt("end blocked at %s", s.msg)
	}
	w.out.complete = true
	w.readViolations()
	if st := w.git("status", "--porcelain"); st != "" {
		w.git("add", "-A")
		res := w.exec(w.root, "", "git", "commit", "-q", "-m", "chore(session): session record")
		if res.code != 0 {
			w.out.verify = "record commit refused: " + oneLine(res.text(), 120)
			return
		}
	}
	if w.acceptNA {
		w.personAcceptsNA()
	}
	v := w.sg("verify", w.base+"..HEAD", "--json")
	w.out.verifyOK = v.code == 0
	if !w.out.verifyOK {
		w.out.verify = verifyProblem(v)
		w.out.naPending = w.onlyNAPending()
	}
}

// readViolations reads the violations sessiongate recorded for the session:
// a compliant session must come out with none.
func (w *world) readViolations() {
	w.t.Helper()
	var v struct {
		Violations []struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"violations"`
		Phases []struct {
			PhaseID  string `json:"phase_id"`
			Status   string `json:"status"`
			Decision string `json:"decision"`
			Checks   []struct {
				Kind    string `json:"kind"`
				Status  string `json:"status"`
				Message string `json:"message"`
			} `json:"checks"`
		} `json:"phase_results"`
	}
	out := w.sgOK("session", "status", "--session", w.id, "--json")
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		w.t.Fatalf("session status --json: %v", err)
	}
	for _, p := range v.Phases {
		if p.Decision == "NOTHING_CHECKED" { // session.DecisionNothingChecked
			w.out.notClean = append(w.out.notClean, p.PhaseID+" "+p.Status+" (checked nothing)")
		}
		for _, c := range p.Checks {
			if c.Status == "FAIL" {
				w.out.failedGates = append(w.out.failedGates, p.PhaseID+" "+p.Status+" ("+c.Kind+": "+oneLine(c.Message, 80)+")")
				break
			}
		}
	}
	for _, x := range v.Violations {
		w.out.violations = append(w.out.violations, x.Code+": "+oneLine(x.Message, 100))
		if x.Code == "FORCED_ADVANCE" {
			w.out.forced = true
		}
	}
}

// verifyProblem is the first failing commit's first problem.
func verifyProblem(v result) string {
	var rep struct {
		Commits []struct {
			Subject  string   `json:"subject"`
			Status   string   `json:"status"`
			Problems []string `json:"problems"`
		} `json:"commits"`
	}
	if err := json.Unmarshal([]byte(v.out), &rep); err == nil {
		for _, c := range rep.Commits {
			if c.Status == "fail" && len(c.Problems) > 0 {
				return oneLine(c.Problems[0], 160)
			}
		}
	}
	return oneLine(v.text(), 160)
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		s = s[:n-3] + "..."
	}
	return s
}

// runFlow runs a scenario's flow and returns its outcome.
func runFlow(w *world, flow func(*world)) (out outcome) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(stop); !ok {
				panic(r)
			}
		}
		out = w.out
		out.deviated = w.deviated
		if w.agent != nil {
			w.agent.Close()
		}
	}()
	flow(w)
	return
}
