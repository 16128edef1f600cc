package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/sessiongate/sessiongate/internal/atomicfile"
)

// fileTxn applies the file changes of one install or uninstall and can
// put every one back, so a failure half way leaves the git hooks and the
// configs as they were (install either completes or changes nothing).
type fileTxn struct {
	undo []func() error
}

// mkdirAll creates dir and remembers the folders it created.
func (t *fileTxn) mkdirAll(dir string) error {
	var created []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil || filepath.Dir(d) == d {
			break
		}
		created = append(created, d)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	t.undo = append(t.undo, func() error {
		for _, d := range created { // deepest first
			_ = os.Remove(d) // only when empty
		}
		return nil
	})
	return nil
}

// write replaces p atomically; undo restores its bytes and mode, or
// removes it when it did not exist.
func (t *fileTxn) write(p string, b []byte, mode fs.FileMode) error {
	if err := t.mkdirAll(filepath.Dir(p)); err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	old, err := os.ReadFile(p)
	existed := err == nil
	oldMode := mode
	if st, err := os.Lstat(p); err == nil {
		oldMode = st.Mode().Perm()
	}
	if err := atomicfile.Write(p, b, mode); err != nil {
		return err
	}
	t.undo = append(t.undo, func() error {
		if existed {
			return atomicfile.Write(p, old, oldMode)
		}
		return os.Remove(p)
	})
	return nil
}

// rename moves a file; undo moves it back.
func (t *fileTxn) rename(from, to string) error {
	if err := os.Rename(from, to); err != nil {
		return err
	}
	t.undo = append(t.undo, func() error { return os.Rename(to, from) })
	return nil
}

// remove deletes a regular file; undo writes it back with its mode.
func (t *fileTxn) remove(p string) error {
	old, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	st, err := os.Lstat(p)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil {
		return err
	}
	t.undo = append(t.undo, func() error { return atomicfile.Write(p, old, st.Mode().Perm()) })
	return nil
}

// rollback undoes every change, newest first, and reports what could not
// be put back.
func (t *fileTxn) rollback() error {
	var errs []error
	for i := len(t.undo) - 1; i >= 0; i-- {
		if err := t.undo[i](); err != nil {
			errs = append(errs, err)
		}
	}
	t.undo = nil
	return errors.Join(errs...)
}

// applyFilePlans writes or removes each planned file in the transaction.
func applyFilePlans(t *fileTxn, plans []filePlan) ([]Change, error) {
	var out []Change
	for _, p := range plans {
		switch {
		case p.remove:
			if err := t.remove(p.path); err != nil {
				return out, err
			}
			dir := filepath.Dir(p.path)
			if entries, err := os.ReadDir(dir); err == nil && len(entries) == 0 {
				if os.Remove(dir) == nil {
					t.undo = append(t.undo, func() error { return os.MkdirAll(dir, 0o755) })
				}
			}
		case p.out != nil:
			if err := t.write(p.path, p.out, p.mode); err != nil {
				return out, err
			}
		}
		out = append(out, Change{Path: p.path, Action: p.action, Note: p.note})
	}
	return out, nil
}

// sameJSON compares two JSON values by meaning, not formatting.
func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return bytes.Equal(xb, yb)
}
