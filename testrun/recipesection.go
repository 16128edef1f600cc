package testrun

import (
	"fmt"
	"strings"

	"github.com/sessiongate/sessiongate/shellline"
)

// One reading of a test command's recipe for the QA gate and for CI
// (round 28, c2): the gate (InputChanges: the work tree against the start
// commit) and verify's rerun guard (the base against the tip) both list a
// recipe's sections with RecipeSections and judge each with
// SectionChange. Before, verify failed any change to a Makefile, justfile
// or Taskfile the rerun ran, so a check added inline to the test recipe
// passed the gate and was a false FAIL in CI.

// RecipeSections are the sections of the recipe file a target reads: the
// target itself ("target:TOOL:NAME", always first) and, for make, each
// variable its lines expand ("var:NAME"). body is the target's
// ScriptBody.
func RecipeSections(t shellline.ScriptTarget, body string) []string {
	out := []string{"target:" + t.Tool + ":" + t.Name}
	if t.Tool != "make" {
		return out
	}
	for _, l := range strings.Split(body, "\n") {
		for _, m := range makeVarRE.FindAllStringSubmatch(l, -1) {
			if s := "var:" + m[1]; !containsString(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

func containsString(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// SectionOf is the text of one section of a file (sectionOf's names:
// "target:TOOL:NAME", "var:NAME", "[x" an INI/TOML section).
func SectionOf(b []byte, section string) string { return sectionOf(b, section) }

// SectionChange judges one section of a file a test command reads, as it
// was and as it is now (deleted: the file is gone). A runner's settings
// (a task's status:, just's set shell) are judged apart from its commands;
// then any removed or changed line weakens (net: only lines removed on
// balance, or a test command dropped, as for a script a target calls),
// and an added line only when it can make the run prove less
// (compareInput). ok is false when the section is the same.
func SectionChange(p, section, was, now string, deleted, net bool, dead, isCode func(string) bool, read func(string) (string, bool)) (InputChange, bool) {
	if was == now {
		return InputChange{}, false
	}
	what := p
	switch {
	case strings.HasPrefix(section, "target:"):
		parts := strings.SplitN(section, ":", 3)
		what = fmt.Sprintf("%s's %q %s", p, parts[2], recipeWord(parts[1]))
		why, wasCmds, nowCmds := RecipeSettings(was, now)
		if why != "" {
			return InputChange{what, why, true}, true
		}
		was, now = wasCmds, nowCmds
		if was == now {
			return InputChange{}, false
		}
	case strings.HasPrefix(section, "var:"):
		what = fmt.Sprintf("%s's variable %s", p, strings.TrimPrefix(section, "var:"))
	case section != "":
		what = fmt.Sprintf("%s's %s section", p, strings.TrimPrefix(strings.TrimSuffix(section, "]"), "["))
	}
	return compareInput(what, was, now, false, deleted, net, dead, isCode, read), true
}

// Weakens reports whether the change makes the run prove less.
func (c InputChange) Weakens() bool { return c.weakens }

// Path is the file the change is in.
func (c InputChange) Path() string { return c.path }

// What says what changed and how it weighs.
func (c InputChange) What() string { return c.what }
