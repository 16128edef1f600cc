//go:build unix

package reliability

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// cliCase is one bad invocation: the exit code it must get and a piece of
// the message that names what is wrong or the fix.
type cliCase struct {
	name  string
	args  []string
	stdin string
	code  int
	msg   string
}

// TestBadInputMatrix runs every surface's bad input against the real
// binary and a real `serve`: each case must get its exit code or HTTP status
// and a message naming the problem, and never panic, hang or half-write
// (the database passes integrity_check and holds exactly the sessions the
// setup made).
func TestBadInputMatrix(t *testing.T) {
	r := newRepo(t)
	out := r.run(t, binary, "session", "start", "--objective", "bad input matrix")
	active := startedRE.FindStringSubmatch(out)
	if active == nil {
		t.Fatalf("no session id in %q", out)
	}
	const unknownID = "3f1c2b9e-0000-4000-8000-000000000000"
	var cases []cliCase
	add := func(name string, code int, msg string, args ...string) {
		cases = append(cases, cliCase{name: name, args: args, code: code, msg: msg})
	}

	// Unknown flags on every command.
	for _, c := range [][]string{
		{"version"}, {"init"}, {"protocol", "show"}, {"protocol", "lint"}, {"session", "start"}, {"session", "status"},
		{"session", "gate"}, {"session", "advance"}, {"session", "evidence"}, {"session", "end"}, {"session", "list"},
		{"session", "show"}, {"session", "terminate"}, {"session", "delete"}, {"install"}, {"uninstall"}, {"doctor"},
		{"verify"}, {"snapshot", "id"}, {"snapshot", "export"}, {"mcp"}, {"serve"}, {"demo"},
	} {
		add(strings.Join(c, " ")+" --no-such-flag", 2, "unknown flag", append(c, "--no-such-flag")...)
	}
	// Unknown commands.
	for _, c := range [][]string{{"frobnicate"}, {"session", "frobnicate"}, {"snapshot", "show", "x"}, {"protocol", "bogus"}} {
		add(strings.Join(c, " "), 2, "unknown command", c...)
	}
	// Malformed session ids wherever an id is taken.
	badIDs := []string{"abc", "../../etc/passwd", "00000000-0000-0000-0000-00000000000g", strings.Repeat("a", 1000), "x'; DROP TABLE sessions;--", "3f1c2b9e00004000800000000000000000"}
	for _, id := range badIDs {
		for _, c := range [][]string{{"status"}, {"gate"}, {"advance"}, {"end", "--summary", "s"}} {
			add("session "+c[0]+" --session "+clip(id), 2, "invalid session id", append(append([]string{"session"}, c...), "--session", id)...)
		}
		add("session evidence --session "+clip(id), 2, "invalid session id", "session", "evidence", "--session", id, "--type", "manual", "--value", "x")
		add("session show "+clip(id), 2, "invalid session id", "session", "show", id)
		add("session terminate "+clip(id), 2, "invalid session id", "session", "terminate", id, "--reason", "r")
		add("session delete "+clip(id), 2, "invalid session id", "session", "delete", id, "--yes")
	}
	// Well-formed ids of no session.
	for _, c := range [][]string{{"session", "status", "--session", unknownID}, {"session", "gate", "--session", unknownID},
		{"session", "show", unknownID}, {"session", "terminate", unknownID, "--reason", "r"}, {"session", "delete", unknownID, "--yes"},
		{"snapshot", "export", unknownID}} {
		add(strings.Join(c[:2], " ")+" unknown id", 2, "not found", c...)
	}
	// Evidence.
	ev := func(name, msg string, extra ...string) {
		add("evidence "+name, 2, msg, append([]string{"session", "evidence"}, extra...)...)
	}
	ev("unknown type", "evidence_type", "--type", "screenshot", "--value", "x")
	ev("no type", "--type is required", "--value", "x")
	ev("empty value", "empty", "--type", "manual", "--value", "   ")
	ev("unknown phase", "unknown phase", "--phase", "NO_SUCH_PHASE", "--type", "manual", "--value", "x")
	ev("path outside", "outside", "--type", "file_path", "--value", "../outside.txt")
	ev("absolute path", "absolute", "--type", "file_path", "--value", "/etc/passwd")
	ev("missing file", "does not exist", "--type", "file_path", "--value", "nope.txt")
	ev("content_hash missing file", "does not exist", "--type", "content_hash", "--value", "nope.txt")
	ev("commit sha not hex", "not a hex commit", "--type", "commit_sha", "--value", "not-a-sha")
	ev("step too long", "step", "--type", "manual", "--value", "x", "--step", strings.Repeat("s", 300))
	ev("step not UTF-8", "step", "--type", "manual", "--value", "x", "--step", "\xff\xfe")
	ev("condition on unconditional phase", "condition", "--type", "manual", "--value", "x", "--step", "condition")
	// Start.
	add("start no objective", 2, "objective is required", "session", "start")
	add("start blank objective", 2, "objective is required", "session", "start", "--objective", "  \t ")
	add("start huge objective", 2, "2000", "session", "start", "--objective", strings.Repeat("o", 3000))
	add("start non-UTF-8 objective", 2, "UTF-8", "session", "start", "--objective", "fix \xff\xfe")
	add("start unknown commit", 2, "commit", "session", "start", "--objective", "o", "--starting-commit", "0123456789abcdef0123456789abcdef01234567")
	add("start commit is an option", 2, "commit", "session", "start", "--objective", "o", "--starting-commit", "--all")
	// Text that is printed back later: escape sequences never reach a terminal.
	add("start objective with an escape sequence", 2, "control character ESC", "session", "start", "--objective", "fix \x1b[2J\x1b]0;owned\x07 it")
	add("start objective with a bidi override", 2, "control character U+202E", "session", "start", "--objective", "fix \u202etxt.exe")
	add("terminate reason of 100 KB", 2, "keep it under 2000", "session", "terminate", active[1], "--reason", strings.Repeat("r", 100<<10))
	add("terminate reason with an escape sequence", 2, "control character", "session", "terminate", active[1], "--reason", "done\x1b[1A")
	add("end summary with an escape sequence", 2, "control character", "session", "end", "--summary", "did it\x1b[31m")
	add("advance force reason with an escape sequence", 2, "control character", "session", "advance", "--force", "--reason", "skip\x1b[2K")
	add("completion for an unknown shell", 2, "unknown command \"tcsh\"", "completion", "tcsh")
	// Advance, end, terminate, delete.
	add("advance force without reason", 2, "reason", "session", "advance", "--force")
	add("advance to unknown phase", 2, "NO_SUCH", "session", "advance", "--to", "NO_SUCH")
	add("end without summary", 2, "summary", "session", "end")
	add("terminate without reason", 2, "reason", "session", "terminate", active[1])
	add("delete without --yes", 2, "--yes", "session", "delete", active[1])
	add("gate unknown phase", 2, "unknown phase", "session", "gate", "--phase", "NO_SUCH")
	// List.
	for _, s := range []string{"BOGUS", "complete,nope", "'; --"} {
		add("list --state "+s, 2, "unknown state", "session", "list", "--state", s)
	}
	for _, l := range []string{"0", "-1", "10001", "many"} {
		code, msg := 2, "--limit"
		if l == "many" {
			msg = "invalid argument"
		}
		add("list --limit "+l, code, msg, "session", "list", "--limit", l)
	}
	// Protocol documents.
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	noSections := write("nosections.md", []byte("# Just a readme\n\nNothing here.\n"))
	huge := write("huge.md", bytes.Repeat([]byte("x"), 2<<20))
	deep := write("deep.md", []byte("# P\n\n## Session Start\n\n### Phase 1: A\n\n"+strings.Repeat("> ", 200)+"x\n"))
	badGate := write("badgate.md", []byte("# P\n\n## Session Start\n\n### Phase 1: A (BLOCKING)\n\n<!-- gate: file_exist x -->\n\n## Session End\n\n### Phase 1: B\n"))
	noPhases := write("nophases.md", []byte("# P\n\n## Session Start\n\nNothing.\n\n## Session End\n\nNothing.\n"))
	nul := write("nul.md", []byte("# P\n\n## Session Start\n\n### Phase 1: A (BLOCKING)\n\n<!-- gate: command \"make\x00 test\" -->\n\n## Session End\n\n### Phase 1: B\n"))
	for _, c := range []struct{ name, path, msg string }{
		{"no phases", noPhases, "nophases.md:3: the protocol has no phases"}, {"NUL in a gate command", nul, "nul.md:7: NUL byte at column 25"},
		{"no sections", noSections, "no Session"}, {"2 MiB", huge, "1 MiB"}, {"200 nested quotes", deep, "nest"}, {"bad gate kind", badGate, "unknown check kind"},
	} {
		add("protocol lint "+c.name, 1, c.msg, "protocol", "lint", "--protocol", c.path)
		add("protocol show "+c.name, 1, c.msg, "protocol", "show", "--protocol", c.path)
	}
	add("protocol missing", 2, "does not exist", "protocol", "show", "--protocol", filepath.Join(dir, "nope.md"))
	add("protocol is a directory", 2, "directory", "protocol", "show", "--protocol", dir)
	fifo := filepath.Join(dir, "fifo.md")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero.md")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, path, msg string }{{"/dev/zero", "/dev/zero", "character device"}, {"a link to /dev/zero", zero, "character device"}, {"a FIFO", fifo, "a FIFO"}} {
		add("protocol lint of "+c.name, 2, c.msg, "protocol", "lint", "--protocol", c.path)
		add("session start under "+c.name, 2, c.msg, "--protocol", c.path, "session", "start", "--objective", "o")
	}
	// Databases.
	junk := write("junk.db", bytes.Repeat([]byte("not a database "), 400))
	add("db is junk", 2, "Move it aside", "--db", junk, "session", "list")
	damaged := filepath.Join(dir, "damaged.db")
	r.run(t, binary, "--db", damaged, "session", "list")
	if b, err := os.ReadFile(damaged); err == nil && len(b) > 8192 {
		for i := 4096; i < len(b); i++ {
			b[i] = 'A' // keep the header, ruin every b-tree page
		}
		write("damaged.db", b)
		os.Remove(damaged + "-wal")
		os.Remove(damaged + "-shm")
		add("db is malformed", 2, "Move it aside", "--db", damaged, "session", "list")
	} else {
		t.Fatalf("fresh database %s: %v (%d bytes)", damaged, err, len(b))
	}
	add("db is a directory", 2, dir, "--db", dir, "session", "list")
	add("db folder cannot exist", 2, "/proc/nope", "--db", "/proc/nope/sg.db", "session", "list")
	// Verify, snapshots, hooks, install.
	add("verify unknown revision", 2, "nosuchrev", "verify", "nosuchrev..HEAD")
	add("verify range is an option", 2, "bad revision range", "verify", "--", "-x")
	add("hook unknown", 2, "unknown hook", "hook", "pre-frobnicate")
	add("install unknown MCP client", 2, "unknown MCP client", "install", "--mcp", "emacs")
	cases = append(cases,
		cliCase{name: "snapshot id of non-JSON", args: []string{"snapshot", "id"}, stdin: "{not json", code: 2, msg: "JSON"},
		cliCase{name: "snapshot id of nothing", args: []string{"snapshot", "id"}, stdin: "", code: 2, msg: "JSON"},
		cliCase{name: "evidence from empty stdin", args: []string{"session", "evidence", "--type", "tool_output", "--value", "-"}, stdin: "", code: 2, msg: "empty"},
	)

	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(binary, c.args...)
			cmd.Dir, cmd.Env = r.root, r.env
			cmd.Stdin = strings.NewReader(c.stdin)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			done := make(chan error, 1)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			go func() { done <- cmd.Wait() }()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				_ = cmd.Process.Kill()
				t.Fatalf("hung: %v", c.args)
			}
			code := cmd.ProcessState.ExitCode()
			all := stderr.String() + stdout.String()
			if strings.Contains(all, "panic:") || strings.Contains(all, "goroutine ") {
				t.Fatalf("panicked: %s", all)
			}
			if code != c.code || !strings.Contains(all, c.msg) {
				t.Fatalf("exit %d, want %d with %q\nstderr: %s\nstdout: %s", code, c.code, c.msg, clip(stderr.String()), clip(stdout.String()))
			}
		})
	}
	httpCases := badHTTP(t, r, active[1], unknownID)
	have := stored(t, r.db)
	if len(have) != 1 || have[active[1]] != 1 {
		t.Errorf("bad input changed the sessions: %v", have)
	}
	t.Logf("bad-input matrix: %d CLI cases, %d HTTP/MCP cases", len(cases), httpCases)
}

func clip(s string) string {
	if len(s) > 300 {
		return s[:300] + "..."
	}
	return s
}

// badHTTP runs the MCP and dashboard cases against a real `serve` and
// returns how many ran.
func badHTTP(t *testing.T, r *repo, active, unknownID string) int {
	cmd := exec.Command(binary, "serve", "--addr", "127.0.0.1:0")
	cmd.Dir, cmd.Env = r.root, r.env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = cmd.Process.Signal(syscall.SIGINT)
		_ = cmd.Wait()
		if strings.Contains(stderr.String(), "panic") {
			t.Errorf("serve panicked: %s", stderr.String())
		}
	}()
	mcpURL := waitURL(t, stdout)
	base := strings.TrimSuffix(mcpURL, "/mcp")
	call := func(tool, args string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, tool, args)
	}
	type httpCase struct {
		name, method, path, body string
		header                   map[string]string
		status                   int
		want                     string
	}
	long := strings.Repeat("o", 3000)
	cases := []httpCase{
		// Tool failures are isError results naming the problem.
		{"start empty objective", "POST", "/mcp", call("session_start", `{"objective":""}`), nil, 200, "objective is required"},
		{"start huge objective", "POST", "/mcp", call("session_start", `{"objective":"`+long+`"}`), nil, 200, "2000"},
		{"gate bad id", "POST", "/mcp", call("validate_gate", `{"session_id":"abc"}`), nil, 200, "invalid session id"},
		{"gate unknown id", "POST", "/mcp", call("validate_gate", `{"session_id":"`+unknownID+`"}`), nil, 200, "not found"},
		{"gate unknown phase", "POST", "/mcp", call("validate_gate", `{"session_id":"`+active+`","phase":"NOPE"}`), nil, 200, "unknown phase"},
		{"advance force no reason", "POST", "/mcp", call("advance_phase", `{"session_id":"`+active+`","force":true}`), nil, 200, "reason"},
		{"evidence bad type", "POST", "/mcp", call("record_evidence", `{"session_id":"`+active+`","phase":"CONTEXT_RETRIEVAL","evidence_type":"photo","evidence":"x"}`), nil, 200, "isError"},
		{"evidence empty", "POST", "/mcp", call("record_evidence", `{"session_id":"`+active+`","phase":"CONTEXT_RETRIEVAL","evidence_type":"manual","evidence":" "}`), nil, 200, "empty"},
		{"evidence traversal", "POST", "/mcp", call("record_evidence", `{"session_id":"`+active+`","phase":"CONTEXT_RETRIEVAL","evidence_type":"file_path","evidence":"../../etc/passwd"}`), nil, 200, "outside"},
		{"evidence unknown phase", "POST", "/mcp", call("record_evidence", `{"session_id":"`+active+`","phase":"NOPE","evidence_type":"manual","evidence":"x"}`), nil, 200, "unknown phase"},
		{"end no summary", "POST", "/mcp", call("session_end", `{"session_id":"`+active+`"}`), nil, 200, "summary"},
		{"blocked bad id", "POST", "/mcp", call("get_blocked_reason", `{"session_id":"../x"}`), nil, 200, "invalid session id"},
		{"arguments wrong type", "POST", "/mcp", call("validate_gate", `{"session_id":42}`), nil, 200, "session_id"},
		// Protocol misuse is a JSON-RPC error.
		{"unknown tool", "POST", "/mcp", call("rm_rf", `{}`), nil, 200, "rm_rf"},
		{"not JSON", "POST", "/mcp", `{"jsonrpc":`, nil, 400, "-32700"},
		{"unknown method", "POST", "/mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/frobnicate"}`, nil, 400, "-32601"},
		{"wrong content type", "POST", "/mcp", call("session_start", `{}`), map[string]string{"Content-Type": "text/plain"}, 415, ""},
		{"rebinding Host", "POST", "/mcp", call("session_start", `{"objective":"x"}`), map[string]string{"Host": "evil.example"}, 403, "Host"},
		{"cross-site Origin", "POST", "/mcp", call("session_start", `{"objective":"x"}`), map[string]string{"Origin": "http://evil.example"}, 403, "Origin"},
		// Dashboard and API parameters.
		{"sessions bad state", "GET", "/sessions?state=BOGUS", "", nil, 400, "unknown state"},
		{"api bad limit", "GET", "/api/sessions?limit=0", "", nil, 400, "limit"},
		{"api huge limit", "GET", "/api/sessions?limit=100000", "", nil, 400, "limit"},
		// A wrong date is refused by the API and the pages; the pages only
		// leave out a half-typed one (a prefix of YYYY-MM-DD).
		{"bad from day", "GET", "/api/sessions?from=2026-13-45", "", nil, 400, "bad from date"},
		{"bad from day on the page", "GET", "/sessions?from=2026-13-45", "", nil, 400, "from"},
		{"half-typed from day on the page", "GET", "/sessions?from=2026-1", "", nil, 200, "Sessions"},
		{"query not UTF-8", "GET", "/sessions?q=%ff%fe", "", nil, 400, "UTF-8"},
		{"query control char", "GET", "/sessions?branch=a%00b", "", nil, 400, "control"},
		{"query too long", "GET", "/sessions?q=" + strings.Repeat("q", 300), "", nil, 400, "at most"},
		{"bad severity", "GET", "/violations?severity=APOCALYPTIC", "", nil, 400, "severity"},
		{"bad cursor", "GET", "/api/sessions?cursor=zzzz", "", nil, 400, ""},
		{"session bad id", "GET", "/sessions/not-a-uuid", "", nil, 400, "invalid session id"},
		{"api session unknown", "GET", "/api/sessions/" + unknownID, "", nil, 404, ""},
		{"terminate from another site", "POST", "/sessions/" + active + "/terminate", "reason=x", map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "cross-site"}, 403, ""},
		{"terminate cross-site", "POST", "/sessions/" + active + "/terminate", "reason=x", map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Origin": "http://evil.example"}, 403, ""},
		{"static traversal", "GET", "/static/..%2f..%2fetc%2fpasswd", "", nil, 404, ""},
		{"oversized header", "GET", "/", "", map[string]string{"X-Big": strings.Repeat("h", 100<<10)}, 431, ""},
	}
	hc := &http.Client{Timeout: 20 * time.Second}
	for _, c := range cases {
		t.Run("http "+c.name, func(t *testing.T) {
			req, err := http.NewRequest(c.method, base+c.path, strings.NewReader(c.body))
			if err != nil {
				t.Fatal(err)
			}
			if c.body != "" {
				req.Header.Set("Content-Type", "application/json")
			}
			req.Header.Set("Accept", "application/json, text/event-stream")
			for k, v := range c.header {
				if k == "Host" {
					req.Host = v
				} else {
					req.Header.Set(k, v)
				}
			}
			resp, err := hc.Do(req)
			if err != nil {
				t.Fatalf("%s %s: %v", c.method, c.path, err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != c.status || !strings.Contains(string(b), c.want) {
				t.Fatalf("status %d, want %d with %q: %s", resp.StatusCode, c.status, c.want, clip(string(b)))
			}
			if c.path == "/mcp" && c.status == 200 && !strings.HasPrefix(c.want, "-3") && !strings.Contains(c.name, "unknown tool") && !strings.Contains(string(b), `"isError":true`) {
				t.Fatalf("tool failure is not an isError result: %s", clip(string(b)))
			}
		})
	}
	return len(cases)
}
