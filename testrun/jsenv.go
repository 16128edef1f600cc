package testrun

import (
	"encoding/json"
	"regexp"
	"strings"
)

// jsEnvLine reads a runner config's test-environment line: vitest's
// `environment: 'jsdom'`, jest's `testEnvironment: "jsdom"` (also as a
// package.json key line). It gives the key and the value.
var jsEnvLine = regexp.MustCompile(`^"?(environment|testEnvironment)"?\s*:\s*['"]([^'"]+)['"]\s*,?$`)

// pairEnvironmentValues drops from removed each environment line the
// added lines answer with the same key and a value naming a package
// the project lists in package.json and has in node_modules: a team
// moving its tests from 'node' to 'jsdom' or 'happy-dom' (the usual
// step when adding @vitejs/plugin-react) chose a DOM, it did not weaken
// a check (pass 29, c3). A value that is a path (the work tree's own
// environment file, which can rewrite what tests see), or a package
// package.json does not list, stays judged: its line stays removed.
func pairEnvironmentValues(removed, added []string, read func(string) (string, bool)) []string {
	if read == nil {
		return removed
	}
	used := make([]bool, len(added))
	out := removed[:0:0]
	for _, r := range removed {
		m := jsEnvLine.FindStringSubmatch(r)
		paired := false
		for j, a := range added {
			if m == nil || used[j] {
				continue
			}
			n := jsEnvLine.FindStringSubmatch(a)
			if n != nil && n[1] == m[1] && envPackageInstalled(n[1], n[2], read) {
				used[j], paired = true, true
				break
			}
		}
		if !paired {
			out = append(out, r)
		}
	}
	return out
}

// envPackageInstalled says whether the environment value names a
// package package.json lists among its dependencies and node_modules
// holds: vitest's 'jsdom' and 'happy-dom' load the packages of those
// names, another name X loads vitest-environment-X; jest's X loads
// jest-environment-X ('node' comes with jest). 'node' is each
// runner's own.
func envPackageInstalled(key, value string, read func(string) (string, bool)) bool {
	if value == "node" {
		return true
	}
	if strings.ContainsAny(value, "/\\<") || strings.HasPrefix(value, ".") {
		return false // a path: a file of the work tree or beyond
	}
	names := []string{value}
	if key == "testEnvironment" {
		names = append(names, "jest-environment-"+value)
	} else {
		names = append(names, "vitest-environment-"+value)
	}
	pkg, ok := read("package.json")
	if !ok {
		return false
	}
	var p struct {
		Dependencies, DevDependencies, OptionalDependencies map[string]string
	}
	if json.Unmarshal([]byte(pkg), &p) != nil {
		return false
	}
	for _, n := range names {
		_, d := p.Dependencies[n]
		_, dd := p.DevDependencies[n]
		_, od := p.OptionalDependencies[n]
		if !d && !dd && !od {
			continue
		}
		if _, ok := read("node_modules/" + n + "/package.json"); ok {
			return true
		}
	}
	return false
}
