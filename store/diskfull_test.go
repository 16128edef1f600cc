package store

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// diskFullHelperEnv makes TestDiskFullHelper open the store it names (and
// write a session when the value ends in "+write"), printing the error:
// the disk-full tests run it in a child whose file size limit is set.
const diskFullHelperEnv = "SESSIONGATE_DISKFULL_HELPER"

func TestDiskFullHelper(t *testing.T) {
	arg := os.Getenv(diskFullHelperEnv)
	if arg == "" {
		t.Skip("helper process for TestOpenDiskFull")
	}
	path, write := strings.CutSuffix(arg, "+write")
	ctx := context.Background()
	db, err := Open(ctx, path)
	if err == nil && write {
		err = db.Update(ctx, func(w session.Writer) error {
			r, err := w.EnsureRepository(ctx, "/r2", "r2")
			if err != nil {
				return err
			}
			return w.CreateSession(ctx, &session.Session{RepoID: r.ID, Worktree: "/r2", State: session.StateWorking, Objective: strings.Repeat("x", 256<<10)})
		})
		db.Close()
	}
	if err != nil {
		os.Stdout.WriteString("ERR " + err.Error() + "\n")
		return
	}
	os.Stdout.WriteString("OK\n")
}

// runLimited runs the helper on path under `ulimit -f kib` (RLIMIT_FSIZE:
// writes past the limit fail with EFBIG; Go ignores SIGXFSZ).
func runLimited(t *testing.T, path string, kib int) string {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh for ulimit -f")
	}
	cmd := exec.Command(sh, "-c", `ulimit -f "$1" && exec "$2" -test.run='^TestDiskFullHelper$' -test.count=1`, "sh", itoa(kib), os.Args[0])
	cmd.Env = append(os.Environ(), diskFullHelperEnv+"="+path)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("helper: %v\n%s", err, out)
	}
	return string(out)
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestOpenDiskFull: a database that cannot be written for want of room
// says "disk full at PATH", not SQLite's "disk I/O error", whether the
// file is new or holds sessions; and what it held is still there after.
func TestOpenDiskFull(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("RLIMIT_FSIZE is Unix")
	}
	t.Run("new file under a file size limit", func(t *testing.T) {
		for _, kib := range []int{1, 4, 64} {
			path := filepath.Join(t.TempDir(), "sessiongate.db")
			out := runLimited(t, path, kib)
			want := "disk full at " + path + " (writing there fails: file too large)"
			if !strings.Contains(out, want) || strings.Contains(out, "disk I/O error") && !strings.Contains(out, "disk full") {
				t.Errorf("ulimit -f %d: %q, want %q", kib, out, want)
			}
		}
	})
	t.Run("existing database keeps its sessions", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "sessiongate.db")
		db := openAt(t, path)
		ctx := context.Background()
		var id string
		if err := db.Update(ctx, func(w session.Writer) error {
			r, err := w.EnsureRepository(ctx, "/r", "r")
			if err != nil {
				return err
			}
			s := &session.Session{RepoID: r.ID, Worktree: "/r", State: session.StateWorking, Objective: "kept"}
			err = w.CreateSession(ctx, s)
			id = s.ID
			return err
		}); err != nil {
			t.Fatal(err)
		}
		db.Close()
		// The limit at the files' current size: a 256 KiB write cannot fit.
		var size int64
		for _, sfx := range []string{"", "-wal", "-shm"} {
			if st, err := os.Stat(path + sfx); err == nil && st.Size() > size {
				size = st.Size()
			}
		}
		out := runLimited(t, path+"+write", int(size>>10)+1)
		if !strings.Contains(out, "disk full at "+path) {
			t.Errorf("write past the limit: %q, want disk full at %s", out, path)
		}
		db = openAt(t, path)
		got, err := db.GetSession(ctx, id)
		if err != nil || got.Objective != "kept" {
			t.Fatalf("after the failed write: %+v, %v", got, err)
		}
		var ok string
		if err := db.writer.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&ok); err != nil || ok != "ok" {
			t.Errorf("integrity_check: %q %v", ok, err)
		}
	})
	t.Run("full file system", func(t *testing.T) {
		dir := t.TempDir()
		// A 1 MiB tmpfs filled to the last byte: ENOSPC as on a real disk.
		// Mounting needs privileges a CI container may not have.
		if err := mountSmallTmpfs(dir); err != nil {
			t.Skipf("cannot mount a small tmpfs here (%v): the file size limit cases above cover the message", err)
		}
		t.Cleanup(func() { unmount(dir) })
		fill, err := os.Create(filepath.Join(dir, "fill"))
		if err != nil {
			t.Fatal(err)
		}
		for {
			if _, err := fill.Write(make([]byte, 64<<10)); err != nil {
				break
			}
		}
		for {
			if _, err := fill.Write(make([]byte, 512)); err != nil {
				break
			}
		}
		fill.Close()
		path := filepath.Join(dir, "sessiongate.db")
		_, err = Open(context.Background(), path)
		if err == nil {
			t.Fatal("Open succeeded on a full file system")
		}
		if !IsDiskFull(err) || !strings.Contains(err.Error(), "disk full at "+path+" (writing there fails: no space left on device)") {
			t.Errorf("error %q, want disk full at %s", err, path)
		}
	})
}

// TestDiskFullLeavesOtherErrors: an I/O error with room to spare, or an
// error that is not SQLite's, is not called a full disk.
func TestDiskFullLeavesOtherErrors(t *testing.T) {
	dir := t.TempDir()
	for _, err := range []error{os.ErrPermission, syscall.EACCES, context.Canceled, coded(10), coded(13), coded(5)} {
		if got := diskFull(err, filepath.Join(dir, "x.db")); got != err {
			t.Errorf("diskFull(%v) = %v with room to spare", err, got)
		}
	}
	if got := diskFull(syscall.ENOSPC, filepath.Join(dir, "x.db")); !IsDiskFull(got) {
		t.Errorf("ENOSPC is not disk full: %v", got)
	}
}

type coded int

func (c coded) Error() string { return "sqlite code " + strconv.Itoa(int(c)) }
func (c coded) Code() int     { return int(c) }
