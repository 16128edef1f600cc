// Package outsideconfig finds test-runner configuration above the
// repository that the runner reads from inside it. pytest looks for its
// config (pytest.ini, .pytest.ini, pyproject.toml, tox.ini, setup.cfg)
// from the folder it runs in upwards and takes the first, so a repository
// without one reads a `../pytest.ini` with `addopts = -k "not test_greet"`;
// and it loads every conftest.py above the rootdir, where a
// `pytest_collection_modifyitems` can drop every test. Neither file is in
// git, and the project's own files (testrun.InputChanges) are unchanged.
// A file there that predates the session is someone's set-up (a repository
// nested in a larger checkout) and is left alone; one made or changed
// since the session started is reported.
package outsideconfig

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/internal/ctime"
)

// pytestConfigs are the files pytest takes as its config, in its order,
// with the section each must hold (nil: any content).
var pytestConfigs = []struct {
	name    string
	section []byte
}{
	{"pytest.ini", nil},
	{".pytest.ini", nil},
	{"pyproject.toml", []byte("[tool.pytest.ini_options]")},
	{"tox.ini", []byte("[pytest]")},
	{"setup.cfg", []byte("[tool:pytest]")},
}

// pytestConfigIn names dir's pytest config file ("" when none).
func pytestConfigIn(dir string) (string, error) {
	for _, c := range pytestConfigs {
		p := filepath.Join(dir, c.name)
		b, err := boundedread.File(p, boundedread.DefaultLimit)
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
			continue
		} else if err != nil {
			return "", fmt.Errorf("read %s: %w", p, err)
		}
		if c.section == nil || bytes.Contains(b, c.section) {
			return p, nil
		}
	}
	return "", nil
}

// Pytest lists the files above root that pytest run in root reads and
// that were made or changed (by change time, ctime) at or after since:
// the config it would take when root has none, and conftest.py files.
func Pytest(root string, since time.Time) ([]string, error) {
	if since.IsZero() {
		return nil, nil
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("resolve %s: %w", root, err)
	}
	own, err := pytestConfigIn(abs)
	if err != nil {
		return nil, err
	}
	needConfig := own == ""
	var out []string
	changed := func(p string) {
		if t, err := ctime.Of(p); err == nil && !t.Before(since) {
			out = append(out, p)
		}
	}
	for dir := filepath.Dir(abs); ; dir = filepath.Dir(dir) {
		changed(filepath.Join(dir, "conftest.py"))
		if needConfig {
			cfg, err := pytestConfigIn(dir)
			if err != nil {
				return nil, err
			}
			if cfg != "" {
				changed(cfg)
				needConfig = false // pytest takes the first it finds
			}
		}
		if dir == filepath.Dir(dir) {
			return out, nil
		}
	}
}
