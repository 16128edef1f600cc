package main

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/sessiongate/sessiongate/identity"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/internal/pgtest"
	"github.com/sessiongate/sessiongate/postgres"
	"github.com/sessiongate/sessiongate/recordref"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/snapshot"
)

// pgCluster is started by the first test that needs PostgreSQL.
var pgCluster pgtest.Lazy

// TestDBSettingPostgresErrors: a wrong password or an unreachable server
// given by --db or SESSIONGATE_DB is exit 2 with a message naming the
// setting, never the password.
func TestDBSettingPostgresErrors(t *testing.T) {
	srv := pgCluster.Get(t)
	good, err := srv.NewDB(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	wrong := strings.Replace(good, pgtest.Password, "wrong-pw-1234", 1)
	unreachable := "postgres://sessiongate:wrong-pw-1234@127.0.0.1:1/x?sslmode=disable&connect_timeout=5"
	dir := repoDir(t)
	for _, c := range []struct {
		name    string
		env     []string
		args    []string
		setting string
		want    string
	}{
		{"flag wrong password", nil, []string{"--db", wrong}, "--db", "password authentication failed"},
		{"env wrong password", []string{"SESSIONGATE_DB=" + wrong}, nil, "SESSIONGATE_DB", "password authentication failed"},
		{"flag unreachable", nil, []string{"--db", unreachable}, "--db", "127.0.0.1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, _, stderr := sgBin(t, dir, c.env, append([]string{"session", "list"}, c.args...)...)
			if code != exitUsage {
				t.Errorf("exit %d, want %d", code, exitUsage)
			}
			if !strings.Contains(stderr, c.setting+": open PostgreSQL store") || !strings.Contains(stderr, c.want) {
				t.Errorf("stderr %q: want it to name %s and say %q", stderr, c.setting, c.want)
			}
			if strings.Contains(stderr, "wrong-pw-1234") {
				t.Errorf("stderr shows the password: %q", stderr)
			}
		})
	}
	// Git hooks never touch the network: a URL there blocks the commit
	// (fail closed) and says why, without the password.
	if code, _, stderr := sg(t, "", "init"); code != 0 {
		t.Fatal(stderr)
	}
	code, _, stderr := sgBin(t, dir, []string{"SESSIONGATE_DB=" + wrong}, "hook", "pre-commit")
	if code != exitBlocked || !strings.Contains(stderr, "that is a PostgreSQL URL") || strings.Contains(stderr, "wrong-pw-1234") {
		t.Errorf("pre-commit with a PostgreSQL SESSIONGATE_DB: exit %d %q", code, stderr)
	}
}

// TestIdentityBothStores starts a session in a clone with an origin and a
// configured user, on SQLite and on PostgreSQL, and finds it by the user,
// host and repository filters of session list.
func TestIdentityBothStores(t *testing.T) {
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			dir := repoDir(t)
			for _, args := range [][]string{
				{"remote", "add", "origin", "https://ann:tok@GitHub.com/o/proj.git"},
				{"config", "user.name", "Ann Lee"},
				{"config", "user.email", "ann@example.com"},
			} {
				if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
					t.Fatalf("git %v: %v %s", args, err, out)
				}
			}
			if backend == "postgres" {
				u, err := pgCluster.Get(t).NewDB(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				t.Setenv("SESSIONGATE_DB", u)
			}
			t.Setenv(identity.EnvHost, "ann-laptop")
			t.Setenv(identity.EnvUser, "")
			if code, _, stderr := sg(t, "", "init"); code != 0 {
				t.Fatal(stderr)
			}
			if code, _, stderr := sg(t, "", "session", "start", "--objective", "identity"); code != 0 {
				t.Fatalf("start: %s", stderr)
			}
			list := func(args ...string) []session.Session {
				t.Helper()
				code, out, stderr := sg(t, "", append([]string{"session", "list", "--json"}, args...)...)
				if code != 0 {
					t.Fatalf("list %v: %s", args, stderr)
				}
				var ss []session.Session
				if err := json.Unmarshal([]byte(out), &ss); err != nil {
					t.Fatal(err)
				}
				return ss
			}
			all := list()
			if len(all) != 1 || all[0].UserName != "Ann Lee" || all[0].UserEmail != "ann@example.com" || all[0].Host != "ann-laptop" {
				t.Fatalf("sessions %+v: want one, run by Ann Lee <ann@example.com> on ann-laptop", all)
			}
			for _, c := range []struct {
				args []string
				n    int
			}{
				{[]string{"--user", "ann@example.com"}, 1},
				{[]string{"--user", "Ann Lee"}, 1},
				{[]string{"--user", "bob@example.com"}, 0},
				{[]string{"--host", "ann-laptop"}, 1},
				{[]string{"--host", "elsewhere"}, 0},
				{[]string{"--repo", "github.com/o/proj"}, 1}, // credentials and case gone
				{[]string{"--repo", dir}, 0},                 // the root is not the key when there is an origin
			} {
				if got := list(c.args...); len(got) != c.n {
					t.Errorf("list %v: %d sessions, want %d", c.args, len(got), c.n)
				}
			}
		})
	}
}

// TestIndexCommand: sessiongate index imports a repository's records ref
// into PostgreSQL, a second run imports nothing, an SQLite --db is refused
// and an unreadable source is exit 2 naming it.
func TestIndexCommand(t *testing.T) {
	srv := pgCluster.Get(t)
	u, err := srv.NewDB(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	dir := repoDir(t)
	id := "0a000000-0000-4000-8000-00000000000a"
	p := snapshot.Payload{Schema: snapshot.PayloadSchema, Session: snapshot.Key{EventSource: "sessiongate://proj", ServerID: "sessiongate", SessionID: id},
		Window: snapshot.Window{Kind: "session"}, State: snapshot.State{State: "COMPLETE"}}
	sid, _, err := p.ID()
	if err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(snapshot.Record{Schema: snapshot.RecordSchema, SessionID: id, Envelope: p.Envelope(sid, "test"),
		Snapshots: []snapshot.Payload{p}, Session: &snapshot.SessionMeta{Repository: "proj", Origin: "github.com/o/proj",
			State: "COMPLETE", StartedAt: "2026-11-02T09:00:00Z", UserEmail: "ann@example.com", Host: "h1"}})
	if _, err := recordref.Put(context.Background(), dir, recordref.DefaultRef, []recordref.Record{{SessionID: id, Body: body}}); err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	src := "github.com/o/proj=" + dir
	code, out, stderr := sgBin(t, dir, nil, "--db", u, "index", "--index-cache", cache, src)
	if code != 0 || !strings.Contains(out, "1 imported, 0 unchanged, 0 skipped") {
		t.Fatalf("index: exit %d\n%s%s", code, out, stderr)
	}
	code, out, _ = sgBin(t, dir, nil, "--db", u, "index", "--index-cache", cache, src)
	if code != 0 || !strings.Contains(out, "0 imported") {
		t.Errorf("second index: exit %d %s", code, out)
	}
	code, out, _ = sgBin(t, dir, nil, "--db", u, "session", "list", "--repo", "github.com/o/proj", "--user", "ann@example.com", "--json")
	if code != 0 || !strings.Contains(out, id) {
		t.Errorf("the indexed session is not listed: exit %d %s", code, out)
	}
	code, _, stderr = sgBin(t, dir, nil, "index", "--index-cache", cache, src)
	if code != exitUsage || !strings.Contains(stderr, "needs a PostgreSQL database") {
		t.Errorf("index on SQLite: exit %d %q", code, stderr)
	}
	missing := filepath.Join(t.TempDir(), "nope")
	code, out, stderr = sgBin(t, dir, nil, "--db", u, "index", "--index-cache", cache, missing, src)
	if code != exitUsage || !strings.Contains(out, missing) || !strings.Contains(out, "0 imported") {
		t.Errorf("a missing source: exit %d\n%s%s (want 2, naming it, the other still indexed)", code, out, stderr)
	}

	// serve --index keeps a database current on its own.
	u2, err := srv.NewDB(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(realBinary(t), "serve", "--addr", "127.0.0.1:0", "--db", u2, "--index", src, "--index-cache", t.TempDir(), "--index-interval", "1s")
	cmd.Dir = dir
	var logs strings.Builder
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
	}()
	db, err := postgres.Open(context.Background(), u2)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	deadline := time.Now().Add(60 * time.Second)
	for {
		if _, err := db.GetSession(context.Background(), id); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve --index did not import the record within a minute; its output:\n%s", logs.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// TestIndexKilledResumes kills `sessiongate index` of several repositories
// (indexed at once) with SIGKILL at random moments, then lets a run
// finish: every record of every repository is in the database exactly
// once. SESSIONGATE_KILLS sets the number of kills (the fault goal
// is 50: SESSIONGATE_KILLS=50 go test -run TestIndexKilledResumes
// ./cmd/sessiongate); 6 by default, so CI stays short.
func TestIndexKilledResumes(t *testing.T) {
	srv := pgCluster.Get(t)
	ctx := context.Background()
	u, err := srv.NewDB(ctx)
	if err != nil {
		t.Fatal(err)
	}
	kills := 6
	if v := os.Getenv("SESSIONGATE_KILLS"); v != "" {
		if kills, err = strconv.Atoi(v); err != nil || kills < 1 {
			t.Fatalf("SESSIONGATE_KILLS=%q: want a positive number", v)
		}
	}
	// More kills, more records: every kill must land while work remains.
	// An import batch is 200 records or more, ending at a records commit,
	// and a kill moves the import on by one or two batches of some of the
	// four repositories (about 300 sessions), and never more than three
	// batches (see below): 4 x 48 x 20 = 3,840 records per 6 kills leaves
	// room.
	const repos, per = 4, 20
	commits := 48 * ((kills + 5) / 6)
	id := func(r, i int) string { return fmt.Sprintf("%08x-0000-4000-8000-%012d", r, i) }
	var srcs []string
	for r := range repos {
		dir := repoDir(t)
		for c := range commits {
			var recs []recordref.Record
			for k := range per {
				i := c*per + k + 1
				p := snapshot.Payload{Schema: snapshot.PayloadSchema, Session: snapshot.Key{EventSource: "sessiongate://proj", ServerID: "sessiongate", SessionID: id(r, i)},
					Window: snapshot.Window{Kind: "session"}, State: snapshot.State{State: "COMPLETE"}}
				sid, _, err := p.ID()
				if err != nil {
					t.Fatal(err)
				}
				evs := []snapshot.EventRef{{Seq: 1, Token: "a", At: "2026-11-02T09:00:00Z"}, {Seq: 2, Token: "b", At: "2026-11-02T09:01:00Z"}}
				body, _ := json.Marshal(snapshot.Record{Schema: snapshot.RecordSchema, SessionID: id(r, i), Envelope: p.Envelope(sid, "test"),
					Snapshots: []snapshot.Payload{p}, Events: evs, Session: &snapshot.SessionMeta{Repository: "proj", State: "COMPLETE", StartedAt: "2026-11-02T09:00:00Z"}})
				recs = append(recs, recordref.Record{SessionID: id(r, i), Body: body})
			}
			if _, err := recordref.Put(ctx, dir, recordref.DefaultRef, recs); err != nil {
				t.Fatal(err)
			}
		}
		srcs = append(srcs, fmt.Sprintf("github.com/o/proj%d=%s", r, dir))
	}
	dir := t.TempDir()
	cache := t.TempDir()
	// How long a whole run takes here, into a database of its own: the
	// kills are spread over about twice that.
	scratch, err := srv.NewDB(ctx)
	if err != nil {
		t.Fatal(err)
	}
	timingCache := t.TempDir()
	start := time.Now()
	if code, out, stderr := sgBin(t, dir, nil, append([]string{"--db", scratch, "index", "--index-cache", timingCache}, srcs...)...); code != 0 {
		t.Fatalf("timing run: exit %d %s %s", code, out, stderr)
	}
	whole := time.Since(start)
	// And a run with nothing to import (start, fetches, reads): the
	// kills land after it, in the import.
	start = time.Now()
	if code, out, stderr := sgBin(t, dir, nil, append([]string{"--db", scratch, "index", "--index-cache", timingCache}, srcs...)...); code != 0 {
		t.Fatalf("timing run: exit %d %s %s", code, out, stderr)
	}
	idle := time.Since(start)
	db, err := postgres.Open(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	args := append([]string{"--db", u, "index", "--index-cache", cache}, srcs...)
	rnd := rand.New(rand.NewPCG(uint64(kills), 13))
	var progress []int
	for range kills {
		cmd := exec.Command(realBinary(t), args...)
		cmd.Dir = dir
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Wait until this run has committed a batch (so every run moves
		// on), then kill it at a random moment of about the next two
		// batches: inside a transaction, between two, or in a fetch.
		before, _ := db.CountSessions(ctx, session.SessionFilter{})
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		deadline := time.Now().Add(30 * time.Second)
		for n := before; n == before && time.Now().Before(deadline); n, _ = db.CountSessions(ctx, session.SessionFilter{}) {
			select {
			case <-exited:
				deadline = time.Time{}
			case <-time.After(2 * time.Millisecond):
			}
		}
		// The sleep is scaled by the timing run, but this machine's load
		// can change between the two: the kill comes no later than the
		// commit of the second batch after this one, so a run adds at
		// most three batches (600 records) and every kill leaves work.
		after := before
		if deadline.IsZero() {
			after = -1 // exited: nothing to wait for
		} else {
			after, _ = db.CountSessions(ctx, session.SessionFilter{})
		}
		wake := time.Now().Add(time.Duration(rnd.Int64N(int64(max(time.Millisecond, 2*(whole-idle)*200/time.Duration(repos*commits*per))))))
		for after >= 0 && time.Now().Before(wake) {
			if n, _ := db.CountSessions(ctx, session.SessionFilter{}); n > after+200 {
				break
			}
			select {
			case <-exited:
				after = -1
			case <-time.After(time.Millisecond):
			}
		}
		cmd.Process.Signal(syscall.SIGKILL)
		<-exited
		n, _ := db.CountSessions(ctx, session.SessionFilter{})
		progress = append(progress, n)
	}
	t.Logf("a whole run takes %v (%v with nothing to import); sessions after each of %d kills: %v", whole.Round(time.Millisecond), idle.Round(time.Millisecond), kills, progress)
	if last := progress[len(progress)-1]; last >= repos*commits*per {
		t.Errorf("the import had finished (%d sessions) before the last kill: some kills hit no import; more records are needed", last)
	}
	code, out, stderr := sgBin(t, dir, nil, args...)
	if code != 0 {
		t.Fatalf("final run: exit %d %s %s", code, out, stderr)
	}
	for r := range repos {
		key := fmt.Sprintf("github.com/o/proj%d", r)
		if n, err := db.CountSessions(ctx, session.SessionFilter{Repo: key}); err != nil || n != commits*per {
			t.Errorf("%s: %d sessions after killed runs (%v), want %d; last run: %s", key, n, err, commits*per, out)
		}
		var events int
		for i := 1; i <= commits*per; i++ {
			evs, err := db.ListEvents(ctx, id(r, i), 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			events += len(evs)
		}
		if events != 2*commits*per {
			t.Errorf("%s: %d events, want %d: something was imported twice or lost", key, events, 2*commits*per)
		}
	}
	t.Logf("last run: %s", strings.TrimSpace(out))
}

// TestPostgresRestartMidSession: a session runs on a team database whose
// server is stopped, then restarted. While it is down every command exits
// 2 saying the server at its socket is down or restarting and to retry
// (no raw FATAL, no blame on the password); once it is back the same
// session goes on. The cluster is this test's own: stopping the shared
// one would fail other tests.
func TestPostgresRestartMidSession(t *testing.T) {
	pgCluster.Get(t)                       // skips (or fails under CI) without PostgreSQL
	srv, err := pgtest.Start(os.TempDir()) // t.TempDir() is 0700: the server may run as nobody
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	u, err := srv.NewDB(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	dir := repoDir(t)
	env := []string{"SESSIONGATE_DB=" + u}
	if code, _, stderr := sgBin(t, dir, env, "init"); code != 0 {
		t.Fatal(stderr)
	}
	if code, _, stderr := sgBin(t, dir, env, "session", "start", "--objective", "survive a restart"); code != 0 {
		t.Fatalf("start: %s", stderr)
	}
	if err := srv.Stop("fast"); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"session", "status"}, {"session", "list"}} {
		code, _, stderr := sgBin(t, dir, env, args...)
		if code != exitUsage {
			t.Errorf("%v with the server down: exit %d, want %d: %s", args, code, exitUsage, stderr)
		}
		if !strings.Contains(stderr, "no PostgreSQL server answers at "+srv.Socket) || !strings.Contains(stderr, "retry") {
			t.Errorf("%v: %q does not say the server at %s is down and to retry", args, stderr, srv.Socket)
		}
		for _, bad := range []string{"FATAL", "password", pgtest.Password} {
			if strings.Contains(stderr, bad) {
				t.Errorf("%v: %q contains %q", args, stderr, bad)
			}
		}
	}
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := sgBin(t, dir, env, "session", "status")
	if code != 0 || !strings.Contains(out, "survive a restart") {
		t.Errorf("status after the restart: exit %d\n%s%s", code, out, stderr)
	}
}
