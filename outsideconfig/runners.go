package outsideconfig

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/sessiongate/sessiongate/internal/ctime"
)

// Round 19 (issue 25): pytest was the only runner looked at above the
// repository. go finds a go.work from the folder it runs in upwards
// (gateenv drops GOWORK, which only makes go look), and a `../go.work`
// that `use`s or `replace`s a module builds something git does not hold;
// mocha takes the first .mocharc above when the project has none; jest,
// with no package.json or jest config in the project, the first above.

// runnerConfigs are, per runner, the files it takes as its config from
// the folder it runs in upwards (the first folder holding one wins).
// project names the file that makes root a project of the runner (a
// monorepo's package.json changed above a Go module is no test config).
var runnerConfigs = []struct {
	runner, project string
	names           []string
}{
	{"go", "go.mod", []string{"go.work"}},
	{"mocha", "package.json", []string{".mocharc.js", ".mocharc.cjs", ".mocharc.mjs", ".mocharc.yaml", ".mocharc.yml", ".mocharc.jsonc", ".mocharc.json"}},
	{"jest", "", []string{"jest.config.js", "jest.config.ts", "jest.config.mjs", "jest.config.cjs", "jest.config.json", "package.json"}},
}

// Runners lists the config files above root that go, mocha or jest run
// in root would take (root holding none of its own) and that were made or
// changed at or after since, as "runner: path".
func Runners(root string, since time.Time) ([]string, error) {
	if since.IsZero() {
		return nil, nil
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("resolve %s: %w", root, err)
	}
	var out []string
	for _, rc := range runnerConfigs {
		if rc.project != "" {
			if p, err := firstIn(abs, []string{rc.project}); err != nil || p == "" {
				continue
			}
		}
		own, err := firstIn(abs, rc.names)
		if err != nil {
			return nil, err
		}
		if own != "" {
			continue // the project's own config wins
		}
		for dir := filepath.Dir(abs); ; dir = filepath.Dir(dir) {
			p, err := firstIn(dir, rc.names)
			if err != nil {
				return nil, err
			}
			if p != "" {
				if t, err := ctime.Of(p); err == nil && !t.Before(since) {
					out = append(out, rc.runner+": "+p)
				}
				break // the runner takes the first it finds
			}
			if dir == filepath.Dir(dir) {
				break
			}
		}
	}
	return out, nil
}

// firstIn is the first of names present in dir ("" when none).
func firstIn(dir string, names []string) (string, error) {
	for _, n := range names {
		p := filepath.Join(dir, n)
		_, err := os.Stat(p)
		switch {
		case err == nil:
			return p, nil
		case errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission):
			continue
		default:
			return "", fmt.Errorf("look up %s: %w", p, err)
		}
	}
	return "", nil
}
