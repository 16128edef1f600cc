package quietlint

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigSample reads every lint config file found under the folders
// of SESSIONGATE_CONFIG_SAMPLE (colon-separated: the module cache,
// site-packages, node_modules, checkouts) as an honest project's, running
// each linter from the file's folder: the false-flag measure of round 21
// c1, run by hand:
//
//	SESSIONGATE_CONFIG_SAMPLE=$(go env GOMODCACHE):/usr/lib/python3/dist-packages go test ./quietlint -run TestConfigSample -v
func TestConfigSample(t *testing.T) {
	roots := os.Getenv("SESSIONGATE_CONFIG_SAMPLE")
	if roots == "" {
		t.Skip("SESSIONGATE_CONFIG_SAMPLE=DIR[:DIR...] runs the honest-config sample")
	}
	lines := map[string]string{
		".pylintrc": "pylint .", "pylintrc": "pylint .", "pyproject.toml": "pylint . && ruff check .", "setup.cfg": "pylint . && flake8 .",
		"tox.ini": "pylint . && flake8 .", ".flake8": "flake8 .", "ruff.toml": "ruff check .", ".ruff.toml": "ruff check .",
		"eslint.config.js": "eslint .", "eslint.config.mjs": "eslint .", "eslint.config.cjs": "eslint .", ".eslintrc": "eslint .",
		".eslintrc.json": "eslint .", ".eslintrc.js": "eslint .", ".eslintrc.yml": "eslint .", ".eslintrc.yaml": "eslint .",
		".shellcheckrc": "shellcheck x.sh", ".golangci.yml": "golangci-lint run", ".golangci.yaml": "golangci-lint run",
		".markdownlint.json": "markdownlint .", ".markdownlint.yaml": "markdownlint .", ".markdownlint.yml": "markdownlint .",
		".markdownlint-cli2.jsonc": "markdownlint-cli2 .", ".markdownlint-cli2.yaml": "markdownlint-cli2 .", ".markdownlint.jsonc": "markdownlint .",
	}
	var files, flagged int
	for _, root := range filepath.SplitList(roots) {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() && d.Name() == "cache" && strings.HasSuffix(filepath.Dir(p), "pkg/mod") {
				return filepath.SkipDir
			}
			line, ok := lines[d.Name()]
			if d.IsDir() || !ok {
				return nil
			}
			files++
			dir := filepath.Dir(p)
			if got := ConfigCannotFail(line, dir, root, "", nil); len(got) > 0 {
				flagged++
				t.Logf("flagged: %s", got[0].Message())
			}
			return nil
		})
	}
	t.Logf("%d config files read, %d found unable to fail", files, flagged)
}
