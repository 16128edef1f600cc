// Package npmtest installs real npm packages offline for tests: a lock
// holding one package and what it needs, cut from .ci/node's lock, whose
// tarballs .ci/run's `npm ci` leaves in npm's cache.
package npmtest

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Project is a package.json and package-lock.json that depend on one
// package of .ci/node's lock and on nothing else.
type Project struct {
	PackageJSON, Lock []byte
	Integrity         string // the package's, as the lock names it
}

// CINodeLock is .ci/node/package-lock.json in this repository.
func CINodeLock() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", ".ci", "node", "package-lock.json")
}

// Closure cuts from the lock at path the package name (a top-level one)
// and every package it needs, resolved as node resolves them.
func Closure(path, name string) (Project, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Project{}, err
	}
	var full struct {
		Packages map[string]map[string]any `json:"packages"`
	}
	if err := json.Unmarshal(b, &full); err != nil {
		return Project{}, fmt.Errorf("%s: %w", path, err)
	}
	top := "node_modules/" + name
	if _, ok := full.Packages[top]; !ok {
		return Project{}, fmt.Errorf("%s has no %s", path, top)
	}
	resolve := func(from, dep string) string {
		for k := from; ; {
			cand := "node_modules/" + dep
			if k != "" {
				cand = k + "/node_modules/" + dep
			}
			if _, ok := full.Packages[cand]; ok {
				return cand
			}
			if k == "" {
				return ""
			}
			if i := strings.LastIndex(k, "/node_modules/"); i >= 0 {
				k = k[:i]
			} else {
				k = ""
			}
		}
	}
	seen := map[string]bool{}
	todo := []string{top}
	for len(todo) > 0 {
		k := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if seen[k] {
			continue
		}
		seen[k] = true
		for _, field := range []string{"dependencies", "optionalDependencies"} {
			deps, _ := full.Packages[k][field].(map[string]any)
			for d := range deps {
				if r := resolve(k, d); r != "" {
					todo = append(todo, r)
				}
			}
		}
	}
	version, _ := full.Packages[top]["version"].(string)
	integrity, _ := full.Packages[top]["integrity"].(string)
	rootPkg := map[string]any{"name": "t", "version": "1.0.0", "dependencies": map[string]any{name: version}}
	pkgs := map[string]any{"": rootPkg}
	for k := range seen {
		e := map[string]any{}
		for f, v := range full.Packages[k] {
			// The cut lock's packages are all production ones.
			if f != "dev" && f != "peer" && f != "devOptional" {
				e[f] = v
			}
		}
		pkgs[k] = e
	}
	lock, err := json.Marshal(map[string]any{"name": "t", "version": "1.0.0", "lockfileVersion": 3, "requires": true, "packages": pkgs})
	if err != nil {
		return Project{}, err
	}
	pkg, err := json.Marshal(rootPkg)
	if err != nil {
		return Project{}, err
	}
	return Project{PackageJSON: pkg, Lock: lock, Integrity: integrity}, nil
}

// NPM returns npm's path; it skips the test without npm, and fails it
// under CI=true, where .ci/run installs it.
func NPM(t testing.TB) string {
	t.Helper()
	npm, err := exec.LookPath("npm")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("npm is required under CI=true but was not found")
		}
		t.Skip("npm not found: install node and npm to run this test")
	}
	return npm
}

// CI runs `npm ci --offline --ignore-scripts` in dir, which holds the
// project's package.json and package-lock.json.
func CI(t testing.TB, npm, dir string) {
	t.Helper()
	cmd := exec.Command(npm, "ci", "--offline", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm ci --offline in %s: %v\n%s", dir, err, out)
	}
}
