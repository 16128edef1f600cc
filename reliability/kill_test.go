//go:build unix

package reliability

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

var startedRE = regexp.MustCompile(`(?m)^session ([0-9a-f-]{36}) started`)

// TestKillCLIWriter: a loop of `sessiongate session start` is killed with
// SIGKILL at a random moment each round; every session whose id the CLI
// printed (it prints after the commit) must be in the database, once.
func TestKillCLIWriter(t *testing.T) {
	r := newRepo(t)
	n := rounds(5, 60)
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	acked := map[string]bool{}
	for i := 0; i < n; i++ {
		cmd := exec.Command("sh", "-c", `while :; do "$SG" session start --objective "kill round" || exit 3; done`)
		cmd.Dir, cmd.Env = r.root, append(r.env, "SG="+binary)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		var out lockedBuffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// A loaded machine can take longer for one start than any fixed
		// window: wait for the first acknowledged write of the round, then
		// kill at a random moment of the next few.
		for deadline := time.Now().Add(10 * time.Second); !startedRE.MatchString(out.String()) && time.Now().Before(deadline); {
			time.Sleep(5 * time.Millisecond)
		}
		time.Sleep(time.Duration(rng.IntN(300)) * time.Millisecond)
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
		if strings.Contains(out.String(), "database") && !startedRE.MatchString(out.String()) {
			t.Fatalf("round %d: writer failed: %s", i, out.String())
		}
		for _, m := range startedRE.FindAllStringSubmatch(out.String(), -1) {
			acked[m[1]] = true
		}
	}
	have := stored(t, r.db)
	lost, dup := 0, 0
	for id := range acked {
		switch have[id] {
		case 0:
			lost++
		case 1:
		default:
			dup++
		}
	}
	t.Logf("kill -9 CLI writer: %d rounds, %d acknowledged writes, %d lost, %d duplicated, integrity ok", n, len(acked), lost, dup)
	if lost != 0 || dup != 0 || len(acked) == 0 {
		t.Fatalf("%d acknowledged, %d lost, %d duplicated", len(acked), lost, dup)
	}
}

var mcpURLRE = regexp.MustCompile(`\(MCP at (http://[^)]+)\)`)
var sessionIDRE = regexp.MustCompile(`session_id\\?":\\?"([0-9a-f-]{36})`)

// TestKillServeUnderLoad: `sessiongate serve` takes session_start calls from
// 8 HTTP clients and is killed with SIGKILL at a random moment; every
// session a client got back must be in the database.
func TestKillServeUnderLoad(t *testing.T) {
	r := newRepo(t)
	n := rounds(3, 50)
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 2))
	var mu sync.Mutex
	acked := map[string]bool{}
	calls := 0
	for i := 0; i < n; i++ {
		cmd := exec.Command(binary, "serve", "--addr", "127.0.0.1:0")
		cmd.Dir, cmd.Env = r.root, r.env
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		stdout, _ := cmd.StdoutPipe()
		cmd.Stderr = io.Discard
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		url := waitURL(t, stdout)
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for c := 0; c < 8; c++ {
			wg.Add(1)
			go func(c int) {
				defer wg.Done()
				hc := &http.Client{Timeout: 5 * time.Second}
				for k := 0; ; k++ {
					select {
					case <-stop:
						return
					default:
					}
					body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"session_start","arguments":{"objective":"client %d"}}}`, k, c)
					req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
					req.Header.Set("Content-Type", "application/json")
					req.Header.Set("Accept", "application/json, text/event-stream")
					resp, err := hc.Do(req)
					if err != nil {
						return // the server is gone
					}
					b, err := io.ReadAll(resp.Body)
					resp.Body.Close()
					if err != nil || resp.StatusCode != 200 {
						return
					}
					m := sessionIDRE.FindSubmatch(b)
					if m == nil || bytes.Contains(b, []byte(`"isError":true`)) {
						t.Errorf("session_start answered without a session: %s", b)
						return
					}
					mu.Lock()
					acked[string(m[1])] = true
					calls++
					mu.Unlock()
				}
			}(c)
		}
		// Wait for this round's first acknowledged call (a loaded machine
		// can take longer than any fixed window), then kill at a random
		// moment of the calls after it.
		before := func() int { mu.Lock(); defer mu.Unlock(); return calls }
		for n0, deadline := before(), time.Now().Add(10*time.Second); before() == n0 && time.Now().Before(deadline); {
			time.Sleep(5 * time.Millisecond)
		}
		time.Sleep(time.Duration(rng.IntN(400)) * time.Millisecond)
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
		close(stop)
		wg.Wait()
	}
	have := stored(t, r.db)
	lost := 0
	for id := range acked {
		if have[id] != 1 {
			lost++
		}
	}
	t.Logf("kill -9 serve under 8 clients: %d rounds, %d acknowledged writes, %d lost or duplicated, integrity ok", n, len(acked), lost)
	if lost != 0 || len(acked) == 0 {
		t.Fatalf("%d acknowledged, %d lost or duplicated", len(acked), lost)
	}
}

func waitURL(t *testing.T, stdout io.Reader) string {
	t.Helper()
	got := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if m := mcpURLRE.FindStringSubmatch(sc.Text()); m != nil {
				got <- m[1]
				break
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
	}()
	select {
	case u := <-got:
		return u
	case <-time.After(20 * time.Second):
		t.Fatal("serve printed no MCP URL within 20s")
	}
	return ""
}

// TestConcurrentWriters: 8 CLI writer processes at once; no errors, every
// acknowledged session stored exactly once.
func TestConcurrentWriters(t *testing.T) {
	r := newRepo(t)
	per := rounds(20, 250)
	var wg sync.WaitGroup
	outs := make([]bytes.Buffer, 8)
	errs := make([]error, 8)
	// One environment for all writers: appending to r.env from each
	// goroutine would share (and race on) its backing array.
	env := append(append([]string(nil), r.env...), "SG="+binary)
	start := time.Now()
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			cmd := exec.Command("sh", "-c", fmt.Sprintf(`i=0; while [ $i -lt %d ]; do "$SG" session start --objective "writer %d" || exit 3; i=$((i+1)); done`, per, w))
			cmd.Dir, cmd.Env = r.root, env
			cmd.Stdout, cmd.Stderr = &outs[w], &outs[w]
			errs[w] = cmd.Run()
		}(w)
	}
	wg.Wait()
	elapsed := time.Since(start)
	acked := map[string]int{}
	for w := range outs {
		if errs[w] != nil {
			t.Errorf("writer %d failed: %v\n%s", w, errs[w], lastLines(outs[w].String(), 5))
		}
		for _, m := range startedRE.FindAllStringSubmatch(outs[w].String(), -1) {
			acked[m[1]]++
		}
	}
	have := stored(t, r.db)
	lost, dup := 0, 0
	for id, k := range acked {
		if k != 1 || have[id] != 1 {
			if have[id] == 0 {
				lost++
			} else {
				dup++
			}
		}
	}
	t.Logf("8 concurrent CLI writers: %d operations in %s, %d errors, %d lost, %d duplicated", len(acked), elapsed.Round(time.Millisecond), countErr(errs), lost, dup)
	if len(acked) != 8*per || lost != 0 || dup != 0 {
		t.Fatalf("%d of %d acknowledged, %d lost, %d duplicated", len(acked), 8*per, lost, dup)
	}
}

func countErr(errs []error) int {
	n := 0
	for _, e := range errs {
		if e != nil {
			n++
		}
	}
	return n
}

func lastLines(s string, n int) string {
	l := strings.Split(strings.TrimSpace(s), "\n")
	if len(l) > n {
		l = l[len(l)-n:]
	}
	return strings.Join(l, "\n")
}

// lockedBuffer is a bytes.Buffer the test reads while a process writes it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
