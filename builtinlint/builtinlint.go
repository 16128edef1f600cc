package builtinlint

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/cmdoutput"
	"github.com/sessiongate/sessiongate/gateenv"
	"github.com/sessiongate/sessiongate/internal/linttrust"
	"github.com/sessiongate/sessiongate/protocolspec"
)

// The built-in Quality Checks gate lints markdown with markdownlint-cli2.
// It used to run `npx markdownlint-cli2`, which downloads the package where
// the project has none: offline that failed (an honest session blocked by
// the network), online it ran whatever version the registry served. The
// gate runs the project's installed linter instead (node_modules/.bin, then
// PATH) and never installs anything; with none installed it fails and says
// what to install. It does not pass: a lint gate that passes without a
// linter is a gate that passes without the work.

// prefix is how the built-in gate's line starts (protocolspec/builtin.go).
const prefix = "npx markdownlint-cli2 "

// missing is the message of a built-in lint gate with no linter.
const missing = "markdownlint-cli2 is not installed in this project (node_modules/.bin) or on PATH, so the built-in lint gate cannot lint the changed markdown: " +
	"install it (npm install --save-dev markdownlint-cli2), or give this phase the project's own linter in sessiongate.yaml (commands: %s: ...)"

// Line returns the line the built-in lint gate runs: the
// installed markdownlint-cli2 instead of npx. ok is false when none is
// installed. Lines of other checks come back unchanged.
func Line(c protocolspec.Check, root string, env []string, line string) (string, bool) {
	if !c.Builtin || !strings.HasPrefix(line, prefix) {
		return line, true
	}
	rest := strings.TrimPrefix(line, prefix)
	if !hasConfig(root) {
		rest = `--config "$` + lintBaselineVar + `" ` + rest
	}
	local := filepath.Join(root, "node_modules", ".bin", "markdownlint-cli2")
	if st, err := os.Stat(local); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
		// Relative to the gate's folder (the root): no machine path in the line.
		return "./node_modules/.bin/markdownlint-cli2 " + rest, true
	}
	if _, err := gateenv.LookPath(env, "markdownlint-cli2"); err == nil {
		return "markdownlint-cli2 " + rest, true
	}
	return line, false
}

// The built-in gate is sessiongate's reading of "lint the markdown", not
// rules a team chose. Where the project has no markdownlint configuration,
// markdownlint's defaults would fail nearly every document people write:
// the real team's protocols and session logs in ../shared/fixtures hold 231
// errors under them, 224 of which are MD013 (lines over 80 characters) and
// MD060 (table column style, new in markdownlint 0.39); with those two off,
// both session logs are clean and what is left are real list errors. So
// the gate lints with a baseline that turns those two off, written for the
// run outside the work tree (the agent cannot edit it first) and passed by
// a variable so the recorded line carries no machine path. A project with
// its own configuration is linted by it alone.
var lintBaseline = []byte("{\n  \"MD013\": false,\n  \"MD060\": false\n}\n")

const lintBaselineVar = "SESSIONGATE_MARKDOWNLINT_BASELINE"

// hasConfig reports whether the project has a markdownlint
// configuration at its root.
func hasConfig(root string) bool {
	for _, name := range cmdoutput.MarkdownlintConfigs {
		if name == ".markdownlintignore" {
			continue
		}
		if _, err := os.Lstat(filepath.Join(root, name)); err == nil {
			return true
		}
	}
	return false
}

// Env writes the baseline for one run of the built-in lint gate
// and returns the variable that names it (none when the gate is another
// check or the project has its own configuration) and what removes it.
func Env(c protocolspec.Check, root string) (kv []string, done func(), err error) {
	done = func() {}
	if !c.Builtin || !strings.HasPrefix(c.Arg, prefix) || hasConfig(root) {
		return nil, done, nil
	}
	f, err := os.CreateTemp("", "sessiongate-*.markdownlint.jsonc")
	if err != nil {
		return nil, done, fmt.Errorf("write the lint baseline: %w", err)
	}
	_, werr := f.Write(lintBaseline)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		os.Remove(f.Name())
		return nil, done, fmt.Errorf("write the lint baseline: %w", werr)
	}
	return []string{lintBaselineVar + "=" + f.Name()}, func() { os.Remove(f.Name()) }, nil
}

// MissingMsg is the message of a built-in lint gate of phase with no linter.
func MissingMsg(phase string) string { return fmt.Sprintf(missing, phase) }

// Untrusted says why a linter the gate runs is not the package
// installed before the session started, or installed during it as the
// tarballs package-lock.json names ("" when it is): a stub in the
// gitignored node_modules/.bin that prints a clean summary would pass the
// gate without linting (issue 25 route 6, linttrust). The built-in lint
// gate's markdownlint-cli2 (from node_modules/.bin or PATH), and every
// program any command gate runs by linttrust's pattern (npx, npm exec,
// node_modules/.bin: markdownlint-cli2, eslint, prettier, any program
// package-lock.json gives a package) from the project's node_modules.
func Untrusted(c protocolspec.Check, root string, env []string, since time.Time, opts ...linttrust.Option) string {
	const fix = "install the project's own (npm ci: an install during the session is proven against the tarballs package-lock.json names, in npm's cache)"
	if c.Builtin && strings.HasPrefix(c.Arg, prefix) {
		bin := linttrust.Bin(root, linttrust.Name)
		if bin == "" {
			p, err := gateenv.LookPath(env, linttrust.Name)
			if err != nil {
				return ""
			}
			bin = p
		}
		if err := linttrust.Check(root, bin, since, opts...); err != nil {
			return "the built-in lint gate does not run this markdownlint-cli2: " + err.Error() +
				"; " + fix + ", or give the phase the project's own linter in sessiongate.yaml"
		}
		return ""
	}
	for _, l := range linttrust.Linters(root, c.Arg) {
		// Not installed in the project: npx fetches the registry's
		// package, which is no stub of the agent's.
		bin := linttrust.Bin(root, l.Program)
		if bin == "" {
			continue
		}
		if err := linttrust.CheckPackage(root, bin, l.Package, since, opts...); err != nil {
			return fmt.Sprintf("the gate does not run this %s: %v; %s", l.Program, err, fix)
		}
	}
	return ""
}
