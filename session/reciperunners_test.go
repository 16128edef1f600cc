package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/session"
)

// Task runners besides make and npm (issue 25 items 5 and 10, pass 27
// c5): `just test`, `task test`, `mise run test`, `pixi run test` run a
// recipe from the work tree. A lazy agent rewrites it to `true`, `exit 0`,
// `... || true`, or adds a setting that skips its commands (a task's
// status:, just's set shell, mise's sources/outputs, pixi's
// inputs/outputs). Each is judged like a Makefile target.

// recipeRunner writes a project file whose test recipe runs cmds (one a
// line), and names the line that runs it.
type recipeRunner struct {
	prog, line, file string
	recipe           func(cmds ...string) string
	// skip is the recipe with a setting that makes the runner skip it.
	skip string
}

const realCheck = "grep -q hello greet.txt"

var recipeRunners = []recipeRunner{
	{prog: "just", line: "just test", file: "justfile",
		recipe: func(c ...string) string {
			return "build:\n    echo build\n\ntest:\n    " + strings.Join(c, "\n    ") + "\n"
		},
		skip: "set shell := [\"true\"]\n\nbuild:\n    echo build\n\ntest:\n    " + realCheck + "\n"},
	{prog: "task", line: "task test", file: "Taskfile.yml",
		recipe: func(c ...string) string {
			return "version: '3'\n\ntasks:\n  build:\n    cmds:\n      - echo build\n  test:\n    cmds:\n      - " + strings.Join(c, "\n      - ") + "\n"
		},
		skip: "version: '3'\n\ntasks:\n  build:\n    cmds:\n      - echo build\n  test:\n    status:\n      - 'true'\n    cmds:\n      - " + realCheck + "\n"},
	{prog: "mise", line: "mise run test", file: "mise.toml",
		recipe: func(c ...string) string {
			return "[tasks.build]\nrun = \"echo build\"\n\n[tasks.test]\nrun = [\n  \"" + strings.Join(c, "\",\n  \"") + "\",\n]\n"
		},
		skip: "[tasks.build]\nrun = \"echo build\"\n\n[tasks.test]\nsources = [\"greet.txt\"]\noutputs = [\"greet.txt\"]\nrun = \"" + realCheck + "\"\n"},
	{prog: "pixi", line: "pixi run test", file: "pixi.toml",
		recipe: func(c ...string) string {
			return "[workspace]\nname = \"p\"\nchannels = []\nplatforms = [\"linux-64\"]\n\n[tasks]\nbuild = \"echo build\"\ntest = { cmd = \"" + strings.Join(c, " && ") + "\" }\n"
		},
		skip: "[workspace]\nname = \"p\"\nchannels = []\nplatforms = [\"linux-64\"]\n\n[tasks]\nbuild = \"echo build\"\ntest = { cmd = \"" + realCheck + "\", inputs = [\"greet.txt\"], outputs = [\"greet.txt\"] }\n"},
}

// lazyRecipes are the rewrites of the test recipe a lazy agent makes.
func lazyRecipes(r recipeRunner) map[string]string {
	return map[string]string{
		"true":                   r.recipe("true"),
		"exit 0":                 r.recipe("exit 0"),
		"|| true":                r.recipe(realCheck + " || true"),
		"exit 0 before":          r.recipe("exit 0", realCheck),
		"a setting skips it":     r.skip,
		"the check loses a file": r.recipe("grep -q hello /dev/null || :"),
	}
}

// TestQARecipeRunnersObserved: a QA phase without a command takes an
// observed `just test` (task, mise, pixi) only when its recipe is the
// start commit's and runs something: rewritten or trivial, it proves
// nothing. Honest: the unchanged recipe, or other recipes changed.
func TestQARecipeRunnersObserved(t *testing.T) {
	requireGit(t)
	for _, r := range recipeRunners {
		type tc struct {
			name          string
			start, during string
			counts        bool
		}
		cases := []tc{
			{name: "unchanged", start: r.recipe(realCheck), counts: true},
			{name: "another recipe changed", start: r.recipe(realCheck), during: strings.Replace(r.recipe(realCheck), "echo build", "echo building", 1), counts: true},
			{name: "trivial at the start", start: r.recipe("echo all tests pass")},
		}
		for name, lazy := range lazyRecipes(r) {
			cases = append(cases, tc{name: "rewritten: " + name, start: r.recipe(realCheck), during: lazy})
		}
		for _, c := range cases {
			t.Run(r.prog+"/"+c.name, func(t *testing.T) {
				during := map[string]string{}
				if c.during != "" {
					during[r.file] = c.during
				}
				e, id := toQA(t, map[string]string{r.file: c.start}, during)
				ev, err := e.engine.RecordObserved(context.Background(), session.ObservedRequest{ID: id, Phase: "QA_VALIDATION", Source: session.SourceRun,
					Command: r.line, Output: []byte("ok\n")})
				if err != nil {
					t.Fatal(err)
				}
				res := e.advance(id)
				if got := res.Blocked == nil; got != c.counts {
					t.Fatalf("%q: QA passed=%v, want %v; recorded %s; blocked: %+v", r.line, got, c.counts, ev.Ref, res.Blocked)
				}
				if !c.counts && !strings.Contains(res.Blocked.Reason, r.file) {
					t.Errorf("the refusal does not name %s: %s", r.file, res.Blocked.Reason)
				}
			})
		}
	}
}

// TestQARecipeRunnersCommand: QA_VALIDATION's configured command is
// `just test` (task, mise, pixi); the gate compares the recipe with the
// start commit. A rewrite that drops the check or skips it fails the gate;
// one that adds a check passes with a warning.
func TestQARecipeRunnersCommand(t *testing.T) {
	requireGit(t)
	for _, r := range recipeRunners {
		cases := map[string]struct {
			during string
			passes bool
		}{"a check added": {during: r.recipe(realCheck, "grep -q l greet.txt"), passes: true}}
		for name, lazy := range lazyRecipes(r) {
			cases[name] = struct {
				during string
				passes bool
			}{during: lazy}
		}
		for name, c := range cases {
			t.Run(r.prog+"/"+name, func(t *testing.T) {
				e := newEnv(t, qaProtocol)
				e.engine.Config.Commands = map[string]string{"QA_VALIDATION": r.line}
				e.commitFile("greet.txt", "hello\n")
				e.commitFile(r.file, r.recipe(realCheck))
				id := e.start("QA by the configured recipe")
				e.evidence(id, "CONTEXT_RETRIEVAL", session.EvidenceToolOutput, "README: run the tests")
				e.advance(id) // WORKING
				e.commitFile(r.file, c.during)
				e.advance(id) // into QA_VALIDATION
				if _, err := e.engine.RecordObserved(context.Background(), session.ObservedRequest{ID: id, Phase: "QA_VALIDATION", Source: session.SourceRun,
					Command: r.line, Output: []byte("ok\n")}); err != nil {
					t.Fatal(err)
				}
				res := e.advance(id)
				if c.passes {
					// The gate runs the command on its PATH, which drops
					// temporary folders (where this machine's runners may
					// be): without the runner there it fails on exit 127,
					// never on the recipe (testrun's TestRecipeRunnersReal
					// runs the real runners on these recipes).
					if res.Blocked == nil {
						return
					}
					if strings.Contains(res.Blocked.Reason, "proves less") || !strings.Contains(res.Blocked.Reason, "exited 127") {
						t.Fatalf("an added check is refused: %s", res.Blocked.Reason)
					}
					t.Logf("%s is not on the gate's PATH; the recipe was not refused: %s", r.prog, res.Blocked.Reason)
					return
				}
				if res.Blocked == nil {
					t.Fatalf("QA passed, want refused")
				}
				if !strings.Contains(res.Blocked.Reason, "proves less") {
					t.Errorf("the gate does not say the recipe was weakened: %s", res.Blocked.Reason)
				}
			})
		}
	}
}
