package verify

import (
	"context"
	"fmt"
	"path"
	"slices"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/testrun"
)

// The rerun guard judges pytest's configs as the QA gate does (round 30,
// c10): pytest.ini, tox.ini's [pytest], setup.cfg's [tool:pytest] and
// pyproject.toml's [tool.pytest...] in the folders the base's commands
// run in, read at the base and the tip from git objects and handed to
// the gate's own testrun.ConfigChange. Before, any change to pytest.ini
// or tox.ini (and any change to the pytest section of the other two)
// failed verify: `markers = slow: slow tests`, which the gate notes, was
// a false FAIL in CI. addopts -k, --deselect, a narrowed testpaths or a
// deleted config still fail.

// pytestConfigWeakenings judges, over base..tip, the pytest configs in
// the folders dirs.
func pytestConfigWeakenings(ctx context.Context, repo *gitrepo.Repo, base, tip string, dirs []string) ([]weakening, error) {
	cfgs := testrun.RunnerConfigs([]string{"pytest"}, dirs)
	var paths []string
	for _, c := range cfgs {
		if !slices.Contains(paths, c.Path) {
			paths = append(paths, c.Path)
		}
	}
	was, err := repo.BlobsAt(ctx, base, paths)
	if err != nil {
		return nil, fmt.Errorf("rerun guard: read the pytest configs at the base: %w", err)
	}
	now, err := repo.BlobsAt(ctx, tip, paths)
	if err != nil {
		return nil, fmt.Errorf("rerun guard: read the pytest configs at the tip: %w", err)
	}
	tipRead := func(p string) (string, bool) {
		b, err := repo.BlobsAt(ctx, tip, []string{p})
		if err != nil || b[p] == nil || len(b[p]) > 256<<10 {
			return "", false
		}
		return string(b[p]), true
	}
	var out []weakening
	for _, c := range cfgs {
		if ch, ok := testrun.ConfigChange(c.Path, c.Section, was[c.Path], now[c.Path], nil, nil, tipRead); ok && ch.Weakens() {
			out = append(out, weakening{c.Path, ch.What()})
		}
	}
	return out, nil
}

// pyDir is the folder of p as the commands' folders name it ("" the root).
func pyDir(p string) string {
	if d := path.Dir(p); d != "." {
		return d
	}
	return ""
}
