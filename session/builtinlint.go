package session

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

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

// builtinLintPrefix is how the built-in gate's line starts (protocolspec/builtin.go).
const builtinLintPrefix = "npx markdownlint-cli2 "

// markdownlintMissing is the message of a built-in lint gate with no linter.
const markdownlintMissing = "markdownlint-cli2 is not installed in this project (node_modules/.bin) or on PATH, so the built-in lint gate cannot lint the changed markdown: " +
	"install it (npm install --save-dev markdownlint-cli2), or give this phase the project's own linter in sessiongate.yaml (commands: %s: ...)"

// builtinLintLine returns the line the built-in lint gate runs: the
// installed markdownlint-cli2 instead of npx. ok is false when none is
// installed. Lines of other checks come back unchanged.
func builtinLintLine(c protocolspec.Check, root string, env []string, line string) (string, bool) {
	if !c.Builtin || !strings.HasPrefix(line, builtinLintPrefix) {
		return line, true
	}
	rest := strings.TrimPrefix(line, builtinLintPrefix)
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

func markdownlintMissingMsg(phase string) string { return fmt.Sprintf(markdownlintMissing, phase) }

// untrustedLinter says why a linter the gate runs is not the package
// installed before the session started ("" when it is): a stub in the
// gitignored node_modules/.bin that prints a clean summary would pass the
// gate without linting (issue 25 route 6, linttrust). The built-in lint
// gate's markdownlint-cli2 (from node_modules/.bin or PATH), and every
// program any command gate runs by linttrust's pattern (npx, npm exec,
// node_modules/.bin: markdownlint-cli2, eslint, prettier, any program
// package-lock.json gives a package) from the project's node_modules.
func untrustedLinter(c protocolspec.Check, root string, env []string, since time.Time) string {
	if c.Builtin && strings.HasPrefix(c.Arg, builtinLintPrefix) {
		bin := linttrust.Bin(root, linttrust.Name)
		if bin == "" {
			p, err := gateenv.LookPath(env, linttrust.Name)
			if err != nil {
				return ""
			}
			bin = p
		}
		if err := linttrust.Check(root, bin, since); err != nil {
			return "the built-in lint gate does not run this markdownlint-cli2: " + err.Error() +
				"; reinstall it (npm ci) and start a new session, or give the phase the project's own linter in sessiongate.yaml"
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
		if err := linttrust.CheckPackage(root, bin, l.Package, since); err != nil {
			return fmt.Sprintf("the gate does not run this %s: %v; reinstall it (npm ci) and start a new session", l.Program, err)
		}
	}
	return ""
}
