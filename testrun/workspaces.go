package testrun

import (
	"context"
	"encoding/json"
	"path"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// WorkspaceDirs lists the workspace packages of the package at dir (""
// the root), as folders from the repository's root: the folders holding a
// package.json that its package.json's "workspaces" (a list, or yarn's
// {"packages": [...]}) or pnpm-workspace.yaml's packages: match. `npm
// test --workspaces` at dir runs each one's test script (round 56, helper
// 334's F6: the whole suite of a workspaces monorepo read as a filter).
func WorkspaceDirs(ctx context.Context, repo Repo, tree, dir string, have map[string]bool) []string {
	var globs []string
	if b, err := repo.ReadAt(ctx, tree, path.Join(dir, "package.json")); err == nil {
		var pkg struct {
			Workspaces json.RawMessage `json:"workspaces"`
		}
		if json.Unmarshal(b, &pkg) == nil && len(pkg.Workspaces) > 0 {
			var list []string
			var obj struct {
				Packages []string `json:"packages"`
			}
			if json.Unmarshal(pkg.Workspaces, &list) == nil {
				globs = list
			} else if json.Unmarshal(pkg.Workspaces, &obj) == nil {
				globs = obj.Packages
			}
		}
	}
	if b, err := repo.ReadAt(ctx, tree, path.Join(dir, "pnpm-workspace.yaml")); err == nil {
		var ws struct {
			Packages []string `yaml:"packages"`
		}
		if yaml.Unmarshal(b, &ws) == nil {
			globs = append(globs, ws.Packages...)
		}
	}
	if len(globs) == 0 {
		return nil
	}
	var out []string
	for f := range have {
		if path.Base(f) != "package.json" || SkippedDir(f) {
			continue
		}
		d := path.Dir(f)
		rel := d
		if dir != "" {
			var ok bool
			if rel, ok = strings.CutPrefix(d, dir+"/"); !ok {
				continue
			}
		}
		if rel == "." || rel == d && dir == "" && d == "." {
			continue // the root package is not one of its workspaces
		}
		in := false
		for _, g := range globs {
			neg := strings.HasPrefix(g, "!")
			if workspaceMatch(strings.TrimPrefix(g, "!"), rel) {
				in = !neg
			}
		}
		if in {
			out = append(out, d)
		}
	}
	slices.Sort(out)
	return out
}

// workspaceMatch: a workspaces glob ("packages/*", "apps/**", "./tools/x")
// matches folder rel.
func workspaceMatch(g, rel string) bool {
	g = strings.TrimSuffix(strings.TrimPrefix(g, "./"), "/")
	if base, ok := strings.CutSuffix(g, "/**"); ok {
		return rel == base || strings.HasPrefix(rel, base+"/")
	}
	ok, err := path.Match(g, rel)
	return err == nil && ok
}
