package verify

import (
	"slices"
	"testing"
)

// TestRerunGuardRecipeRunners: a rerun command that runs a task runner
// (`just test`, `task test`, `mise run test`, `pixi run test`) makes the
// guard read that runner's recipe files, as `make test` makes it read the
// Makefile (pass 27 c5): a range that rewrote the recipe to `true` was not
// diffed at all. Other files of the same name shape are not recipes.
func TestRerunGuardRecipeRunners(t *testing.T) {
	for _, tc := range []struct{ line, tool string }{
		{"just test", "just"}, {"task test", "task"}, {"mise run test", "mise"}, {"pixi run test", "pixi"},
		{"env CI=1 just test", "just"},
	} {
		tools, _ := toolsOf(tc.line)
		if !slices.Contains(tools, tc.tool) {
			t.Errorf("toolsOf(%q) = %v, want %s", tc.line, tools, tc.tool)
		}
		if len(toolConfigs[tc.tool]) == 0 {
			t.Errorf("no recipe files for %s", tc.tool)
		}
	}
	for p, want := range map[string]string{
		"justfile": "just", "sub/Justfile": "just", ".justfile": "just",
		"Taskfile.yml": "task", "taskfile.dist.yaml": "task",
		"mise.toml": "mise", ".config/mise/config.toml": "mise", "mise-tasks/test": "mise", ".mise/tasks/test": "mise",
		"pixi.toml": "pixi",
		"Makefile":  "", "pyproject.toml": "", "docs/tasks/x.md": "", "Cargo.toml": "",
	} {
		if got := recipeTool(p); got != want {
			t.Errorf("recipeTool(%q) = %q, want %q", p, got, want)
		}
	}
}
