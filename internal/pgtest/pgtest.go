// Package pgtest starts a throwaway PostgreSQL cluster for tests: initdb
// and pg_ctl from Debian's postgresql package, listening only on a Unix
// socket in a temporary folder, with password authentication so a wrong
// password can be tested. initdb and postgres refuse to run as root, so
// under root (CI) they run as the unprivileged user "nobody", which owns
// the cluster's folder.
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// ErrMissing: the PostgreSQL server programs are not installed.
var ErrMissing = errors.New("PostgreSQL server programs (initdb, pg_ctl) not found: install Debian's postgresql package")

// User and Password of the cluster's superuser.
const (
	User     = "sessiongate"
	Password = "test-secret-pw"
)

// Server is a running throwaway cluster.
type Server struct {
	Base   string // the folder holding data/, the socket and the log
	Socket string // the socket folder
	bin    string
	cred   *credential // nil when not root
	n      atomic.Int64
}

// FindBin returns the folder of initdb and pg_ctl: $PG_BIN, the PATH, or
// the newest /usr/lib/postgresql/<version>/bin.
func FindBin() (string, error) {
	if d := os.Getenv("PG_BIN"); d != "" {
		return d, nil
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		if _, err := exec.LookPath("pg_ctl"); err == nil {
			return filepath.Dir(p), nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, nil
		}
	}
	return "", ErrMissing
}

func version(binDir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return v
}

// Start creates and starts a cluster in a new folder under parent (which
// must exist). Close stops it and removes the folder.
func Start(parent string) (_ *Server, err error) {
	bin, err := FindBin()
	if err != nil {
		return nil, err
	}
	base, err := os.MkdirTemp(parent, "pg-")
	if err != nil {
		return nil, err
	}
	s := &Server{Base: base, Socket: filepath.Join(base, "s"), bin: bin}
	defer func() {
		if err != nil {
			os.RemoveAll(base)
		}
	}()
	if err := os.Mkdir(s.Socket, 0o700); err != nil {
		return nil, err
	}
	pwfile := filepath.Join(base, "pw")
	if err := os.WriteFile(pwfile, []byte(Password+"\n"), 0o600); err != nil {
		return nil, err
	}
	if os.Geteuid() == 0 {
		// initdb and postgres refuse root: run them as nobody, who must
		// own the cluster's folder and reach it.
		u, err := user.Lookup("nobody")
		if err != nil {
			return nil, fmt.Errorf("running as root, and there is no user nobody to run PostgreSQL as: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if s.cred, err = newCredential(uid, gid); err != nil {
			return nil, err
		}
		for _, p := range []string{base, s.Socket, pwfile} {
			if err := os.Chown(p, uid, gid); err != nil {
				return nil, err
			}
		}
		if err := reachable(base); err != nil {
			return nil, err
		}
	}
	if out, err := s.run("initdb", "-D", s.data(), "-U", User, "--pwfile", pwfile, "--auth=scram-sha-256",
		"--encoding=UTF8", "--locale=C", "--no-sync"); err != nil {
		return nil, fmt.Errorf("initdb: %w\n%s", err, out)
	}
	if err := s.Restart(); err != nil {
		return nil, err
	}
	return s, nil
}

// reachable checks that every folder above dir is traversable by others,
// so the unprivileged server can reach its folder; it changes nothing
// outside the cluster's own folder.
func reachable(dir string) error {
	for d := filepath.Dir(dir); d != "/" && d != "."; d = filepath.Dir(d) {
		st, err := os.Stat(d)
		if err != nil {
			return err
		}
		if st.Mode().Perm()&0o001 == 0 {
			return fmt.Errorf("PostgreSQL runs as user nobody (tests run as root) and cannot reach %s: %s is not traversable by others; set TMPDIR to a folder that is (e.g. /tmp)", dir, d)
		}
	}
	return nil
}

func (s *Server) data() string { return filepath.Join(s.Base, "data") }

func (s *Server) run(name string, args ...string) ([]byte, error) {
	cmd := exec.Command(filepath.Join(s.bin, name), args...)
	cmd.Dir = s.Base
	cmd.Env = append(os.Environ(), "LC_ALL=C", "LANG=C")
	if s.cred != nil {
		s.cred.apply(cmd)
		cmd.Env = append(cmd.Env, "HOME="+s.Base)
	}
	return cmd.CombinedOutput()
}

// Restart starts the server (after Stop). fsync is off (the machine does
// not crash in a test) but commits are synchronous, so a committed
// transaction survives an immediate stop.
func (s *Server) Restart() error {
	opts := "-c listen_addresses='' -c unix_socket_directories=" + s.Socket +
		" -c fsync=off -c full_page_writes=off -c max_connections=200"
	if out, err := s.run("pg_ctl", "start", "-w", "-t", "60", "-D", s.data(), "-l", filepath.Join(s.Base, "log"), "-o", opts); err != nil {
		log, _ := os.ReadFile(filepath.Join(s.Base, "log"))
		return fmt.Errorf("pg_ctl start: %w\n%s\n%s", err, out, log)
	}
	return nil
}

// Stop stops the server: mode "immediate" aborts it like a crash (no
// shutdown checkpoint), "fast" disconnects clients and rolls back.
func (s *Server) Stop(mode string) error {
	if out, err := s.run("pg_ctl", "stop", "-w", "-t", "60", "-m", mode, "-D", s.data()); err != nil {
		return fmt.Errorf("pg_ctl stop: %w\n%s", err, out)
	}
	return nil
}

// Close stops the server and removes its folder.
func (s *Server) Close() error {
	err := s.Stop("immediate")
	return errors.Join(err, os.RemoveAll(s.Base))
}

// URL is the connection URL of database db with the given password.
func (s *Server) URL(db, password string) string {
	u := url.URL{Scheme: "postgres", User: url.UserPassword(User, password), Path: "/" + db}
	u.RawQuery = url.Values{"host": {s.Socket}, "sslmode": {"disable"}}.Encode()
	return u.String()
}

// NewDB creates a fresh database and returns its URL.
func (s *Server) NewDB(ctx context.Context) (string, error) {
	name := fmt.Sprintf("t%d_%d", os.Getpid(), s.n.Add(1))
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, s.URL("postgres", Password))
	if err != nil {
		return "", fmt.Errorf("connect to the test cluster: %w", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		return "", fmt.Errorf("create database %s: %w", name, err)
	}
	return s.URL(name, Password), nil
}

// MainSkip is what a package's TestMain does when the cluster cannot
// start: under CI=true the run fails (exit 1), else the reason is returned
// for the PostgreSQL tests to skip with.
func MainSkip(err error) string {
	msg := "PostgreSQL tests: " + err.Error()
	if os.Getenv("CI") == "true" {
		fmt.Fprintln(os.Stderr, msg+" (CI=true: this is a failure; .ci/run installs postgresql)")
		os.Exit(1)
	}
	fmt.Fprintln(os.Stderr, msg+" (skipping them)")
	return strings.TrimSpace(msg)
}

// Lazy starts one cluster on first use, for a package in which few tests
// need one; its TestMain calls Close after m.Run.
type Lazy struct {
	once sync.Once
	srv  *Server
	err  error
}

// Get returns the cluster, starting it on first use. Without the server
// programs it skips the test, or fails it under CI=true.
func (l *Lazy) Get(t testing.TB) *Server {
	t.Helper()
	l.once.Do(func() { l.srv, l.err = Start(os.TempDir()) })
	if l.err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("PostgreSQL tests: %v (CI=true: .ci/run installs postgresql)", l.err)
		}
		t.Skipf("PostgreSQL tests: %v", l.err)
	}
	return l.srv
}

// Close stops the cluster if it was started.
func (l *Lazy) Close() {
	if l.srv != nil {
		l.srv.Close()
	}
}
