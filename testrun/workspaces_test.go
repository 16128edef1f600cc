package testrun

import (
	"context"
	"maps"
	"slices"
	"testing"
)

func TestWorkspaceDirs(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name  string
		files map[string]string
		dir   string
		want  []string
	}{
		{"npm list", map[string]string{"package.json": `{"workspaces": ["packages/*"]}`, "packages/a/package.json": "{}", "packages/b/package.json": "{}", "tools/x/package.json": "{}"}, "", []string{"packages/a", "packages/b"}},
		{"yarn object", map[string]string{"package.json": `{"workspaces": {"packages": ["apps/**"]}}`, "apps/web/package.json": "{}", "apps/web/sub/package.json": "{}"}, "", []string{"apps/web", "apps/web/sub"}},
		{"pnpm yaml with a negation", map[string]string{"package.json": `{}`, "pnpm-workspace.yaml": "packages:\n  - 'pkgs/*'\n  - '!pkgs/old'\n", "pkgs/a/package.json": "{}", "pkgs/old/package.json": "{}"}, "", []string{"pkgs/a"}},
		{"from a folder", map[string]string{"front/package.json": `{"workspaces": ["./libs/*"]}`, "front/libs/ui/package.json": "{}", "libs/ui/package.json": "{}"}, "front", []string{"front/libs/ui"}},
		{"none", map[string]string{"package.json": `{"scripts": {"test": "jest"}}`, "a/package.json": "{}"}, "", nil},
		{"node_modules left out", map[string]string{"package.json": `{"workspaces": ["**"]}`, "node_modules/x/package.json": "{}"}, "", nil},
	} {
		have := map[string]bool{}
		for f := range c.files {
			have[f] = true
		}
		repo := treeRepo{start: c.files, tree: c.files}
		if got := WorkspaceDirs(ctx, repo, "T", c.dir, have); !slices.Equal(got, c.want) {
			t.Errorf("%s: WorkspaceDirs = %q, want %q (files %q)", c.name, got, c.want, slices.Sorted(maps.Keys(c.files)))
		}
	}
}
