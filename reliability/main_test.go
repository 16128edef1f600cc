// Package reliability holds the suite that kills sessiongate's writers with
// SIGKILL at random moments and runs them concurrently, then checks that no
// acknowledged write was lost, nothing was written twice and the database
// passes integrity_check. `go test ./reliability` runs a short mode (CI);
// `go test ./reliability -run . -args -full` runs the figures of
// docs/reliability.md.
package reliability

import (
	"bytes"
	"context"
	"database/sql"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/testbin"
	"github.com/sessiongate/sessiongate/internal/testshare"
	"github.com/sessiongate/sessiongate/internal/tmpleak"
	_ "modernc.org/sqlite"
)

var full = flag.Bool("full", false, "run the full reliability figures (>= 50 kill rounds, >= 2,000 concurrent operations)")

// binary is sessiongate built once for the package.
var binary string

func TestMain(m *testing.M) {
	flag.Parse()
	testshare.Apply()
	// A temp folder of the package's own, removed at the end; a leak
	// fails CI (tmpleak).
	os.Exit(tmpleak.Run(func() int { return buildAndRun(m) }))
}

func buildAndRun(m *testing.M) int {
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") != "" {
			fmt.Fprintln(os.Stderr, "git is required under CI=true")
			return 1
		}
		fmt.Fprintln(os.Stderr, "reliability tests skipped: git not found")
		return 0
	}
	dir, err := os.MkdirTemp("", "sessiongate-rel-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	// 0755 so tests can run it as an unprivileged user.
	_ = os.Chmod(dir, 0o755)
	binary = filepath.Join(dir, "sessiongate")
	if err := testbin.Build(binary, "../cmd/sessiongate", nil); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return m.Run()
}

// rounds is n in full mode, else short.
func rounds(short, n int) int {
	if *full {
		return n
	}
	return short
}

// cleanEnv drops the caller's git and sessiongate settings.
func cleanEnv(home string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GIT_") || strings.HasPrefix(k, "SESSIONGATE_") || k == "HOME" {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "HOME="+home, "GIT_AUTHOR_NAME=rel", "GIT_AUTHOR_EMAIL=rel@example.invalid",
		"GIT_COMMITTER_NAME=rel", "GIT_COMMITTER_EMAIL=rel@example.invalid")
}

// repo is a real repository with the starter protocol and a database path.
type repo struct {
	root, db string
	env      []string
}

func newRepo(t *testing.T) *repo {
	t.Helper()
	root := t.TempDir()
	r := &repo{root: root, db: filepath.Join(t.TempDir(), "sg.db"), env: cleanEnv(t.TempDir())}
	r.env = append(r.env, "SESSIONGATE_DB="+r.db)
	r.run(t, "git", "init", "-q", "-b", "main")
	r.run(t, "git", "commit", "-q", "--allow-empty", "-m", "init")
	r.run(t, binary, "init")
	return r
}

func (r *repo) run(t *testing.T, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = r.root, r.env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out.String())
	}
	return out.String()
}

// stored returns the ids of every session in the database, with counts, and
// fails the test unless integrity_check says ok.
func stored(t *testing.T, db string) map[string]int {
	t.Helper()
	conn, err := sql.Open("sqlite", "file:"+db+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx := context.Background()
	var ok string
	if err := conn.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&ok); err != nil || ok != "ok" {
		t.Fatalf("integrity_check: %q %v", ok, err)
	}
	rows, err := conn.QueryContext(ctx, "SELECT id FROM sessions")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	ids := map[string]int{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids[id]++
	}
	return ids
}
