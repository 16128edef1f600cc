package hooks

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFileTxnRollback: every kind of change a transaction makes is put
// back byte for byte, with its mode, and folders it created go away.
func TestFileTxnRollback(t *testing.T) {
	dir := t.TempDir()
	p := func(rel string) string { return filepath.Join(dir, rel) }
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(p("edited"), []byte("the user's bytes\n"), 0o600))
	must(os.WriteFile(p("moved"), []byte("#!/bin/sh\necho hook\n"), 0o755))
	must(os.WriteFile(p("removed"), []byte("{}\n"), 0o640))

	tx := &fileTxn{}
	must(tx.write(p("edited"), []byte("ours\n"), 0o644))
	must(tx.write(p("new/deeper/file.json"), []byte("{}\n"), 0o644))
	must(tx.rename(p("moved"), p("moved.sessiongate-orig")))
	must(tx.remove(p("removed")))
	if _, err := os.Stat(p("new/deeper/file.json")); err != nil {
		t.Fatalf("the write did not happen: %v", err)
	}
	must(tx.rollback())

	for _, tc := range []struct {
		name, want string
		mode       os.FileMode
	}{
		{"edited", "the user's bytes\n", 0o600},
		{"moved", "#!/bin/sh\necho hook\n", 0o755},
		{"removed", "{}\n", 0o640},
	} {
		b, err := os.ReadFile(p(tc.name))
		if err != nil || string(b) != tc.want {
			t.Errorf("%s after rollback: %q, %v; want %q", tc.name, b, err, tc.want)
			continue
		}
		if st, _ := os.Stat(p(tc.name)); st.Mode().Perm() != tc.mode {
			t.Errorf("%s mode after rollback: %v, want %v", tc.name, st.Mode().Perm(), tc.mode)
		}
	}
	for _, gone := range []string{"new", "moved.sessiongate-orig"} {
		if _, err := os.Lstat(p(gone)); !os.IsNotExist(err) {
			t.Errorf("%s still there after rollback (%v)", gone, err)
		}
	}
}
