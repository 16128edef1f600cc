package testrun

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/shellline"
)

// TestRecipeRunnersReal runs the real just, task and mise (when on PATH;
// pixi is not installable here) on each lazy rewrite of a test recipe: the
// runner exits 0 although the check fails (the route is real), and the
// reader calls the recipe trivial or names the setting that skips it. The
// honest recipe fails with the check, and its body holds the check.
func TestRecipeRunnersReal(t *testing.T) {
	const check = "grep -q hello greet.txt" // greet.txt says bye: the check fails
	type runner struct {
		prog, file string
		args       []string
		recipe     func(cmd string) string
		skip       string // a setting that makes the runner skip the task
	}
	runners := []runner{
		{prog: "just", file: "justfile", args: []string{"test"},
			recipe: func(c string) string { return "test:\n    " + c + "\n" },
			skip:   "set shell := [\"true\"]\n\ntest:\n    " + check + "\n"},
		{prog: "task", file: "Taskfile.yml", args: []string{"test"},
			recipe: func(c string) string { return "version: '3'\ntasks:\n  test:\n    cmds:\n      - " + c + "\n" },
			skip:   "version: '3'\ntasks:\n  test:\n    status:\n      - 'true'\n    cmds:\n      - " + check + "\n"},
		{prog: "mise", file: "mise.toml", args: []string{"run", "test"},
			recipe: func(c string) string { return "[tasks.test]\nrun = \"" + c + "\"\n" }},
	}
	for _, r := range runners {
		bin, err := exec.LookPath(r.prog)
		if err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is needed under CI=true (bash .ci/run installs it): %v", r.prog, err)
			}
			t.Logf("%s not installed: skipped (%v)", r.prog, err)
			continue
		}
		run := func(t *testing.T, body string) (int, []byte) {
			dir := t.TempDir()
			for name, b := range map[string]string{r.file: body, "greet.txt": "bye\n"} {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(b), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cmd := exec.Command(bin, r.args...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "MISE_TRUSTED_CONFIG_PATHS="+dir, "MISE_YES=1")
			out, _ := cmd.CombinedOutput()
			return cmd.ProcessState.ExitCode(), out
		}
		target := shellline.ScriptTargets(r.prog + " " + strings.Join(r.args, " "))
		if len(target) != 1 {
			t.Fatalf("%s: ScriptTargets = %v", r.prog, target)
		}
		tg := target[0]
		t.Run(r.prog+"/honest", func(t *testing.T) {
			code, out := run(t, r.recipe(check))
			if code == 0 {
				t.Fatalf("the failing check passed under %s: %s", r.prog, out)
			}
			body, ok := ScriptBody(tg, []byte(r.recipe(check)))
			if !ok || !strings.Contains(body, check) || TrivialScript(tg, []byte(r.recipe(check)), body, 0) {
				t.Fatalf("the reader misses the check: %q ok=%v", body, ok)
			}
		})
		lazy := map[string]string{"true": r.recipe("true"), "exit 0": r.recipe("exit 0"), "|| true": r.recipe(check + " || true")}
		if r.skip != "" {
			lazy["setting"] = r.skip
		}
		for name, body := range lazy {
			t.Run(r.prog+"/"+name, func(t *testing.T) {
				if code, out := run(t, body); code != 0 {
					t.Fatalf("%s failed on the lazy recipe (exit %d): %s", r.prog, code, out)
				}
				got, ok := ScriptBody(tg, []byte(body))
				if !ok {
					t.Fatalf("the reader finds no recipe in %q", body)
				}
				was, _ := ScriptBody(tg, []byte(r.recipe(check)))
				why, _, _ := RecipeSettings(was, got)
				if !TrivialScript(tg, []byte(body), got, 0) && why == "" && !strings.Contains(got, "|| true") {
					t.Fatalf("passes under %s, and the reader sees nothing wrong: %q", r.prog, got)
				}
			})
		}
	}
}
