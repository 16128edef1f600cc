// Package cijob reads, in a CI pipeline file, the parts that decide
// whether and how sessiongate runs there: the jobs whose text names
// sessiongate (`sessiongate verify`, the action), the jobs and templates
// they name (GitHub's needs, GitLab's extends and !reference), and the
// file's settings outside its jobs (triggers and path filters, workflow
// rules, variables, defaults, includes). CI's verify is the net under
// every local gate; a lazy agent whose commit CI flags has one edit left
// that makes CI green: the verify job's. Changed() says which of those
// parts an edit changed, so a hook can refuse it while honest edits to
// the file's other jobs go through.
//
// Parts, Changed and Weakened need no repository (callers read the
// file's two versions); InTree reads a work tree.
package cijob

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/sessiongate/sessiongate/internal/boundedread"
)

// Patterns are the CI files read, as root-anchored globs: GitHub's
// workflows and the pipeline files of GitLab, CircleCI, Buildkite, Azure
// Pipelines, Bitbucket and Travis.
var Patterns = []string{
	".github/workflows/*.yml", ".github/workflows/*.yaml",
	".gitlab-ci.yml", ".circleci/config.yml", ".buildkite/pipeline.yml", ".buildkite/pipeline.yaml",
	"buildkite.yml", "azure-pipelines.yml", "bitbucket-pipelines.yml", ".travis.yml",
}

// Match reports whether rel (slashes) is one of Patterns.
func Match(rel string) bool {
	for _, p := range Patterns {
		if ok, _ := path.Match(p, rel); ok {
			return true
		}
	}
	return false
}

// free are top-level keys whose change cannot stop or weaken a job:
// GitHub's display name, GitLab's stage list (a job whose stage is gone
// makes the pipeline invalid, which is loud).
var free = map[string]bool{"name": true, "run-name": true, "stages": true}

// jobKeys mark a map as a job (GitLab, Travis, Bitbucket, Buildkite,
// CircleCI), which is free when it names neither sessiongate nor is
// named by a job that does.
var jobKeys = []string{"script", "trigger", "steps", "run", "command", "commands", "extends"}

// Parts returns the file's parts that decide how sessiongate runs, each
// as canonical JSON by name ("jobs.verify", "on", ".gitlab-base"); none
// when the file does not name sessiongate. err is a parse error.
func Parts(b []byte) (map[string]string, error) {
	parts, _, err := read(b, nil)
	return parts, err
}

// PartsIn is Parts for a file of the tree rd reads, where a job that runs
// sessiongate through a local file or make goal (refs.go) counts too.
func PartsIn(b []byte, rd Reader) (map[string]string, error) {
	parts, _, err := read(b, runners(b, rd, maxDepth))
	return parts, err
}

// read is Parts, with the names of the parts that are settings rather
// than jobs: a setting added is a change, a job added is not. A job that
// runs one of the refs in run names sessiongate.
func read(b []byte, run map[string]bool) (parts map[string]string, settings map[string]bool, err error) {
	var doc any
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, nil, err
	}
	root, ok := normalize(doc).(map[string]any)
	if !ok || !runsAny(root, run) {
		return nil, nil, nil
	}
	// Jobs live in `jobs:` (GitHub, CircleCI) or at the top (GitLab).
	jobs := map[string]any{}
	if m, ok := root["jobs"].(map[string]any); ok {
		for k, v := range m {
			jobs["jobs."+k] = v
		}
	}
	parts, settings = map[string]string{}, map[string]bool{}
	for k, v := range root {
		if free[k] || k == "jobs" && len(jobs) > 0 {
			continue
		}
		// A GitLab template (.base) counts as a job: it matters when a
		// kept job names it.
		if m, ok := v.(map[string]any); ok && (strings.HasPrefix(k, ".") || slices.ContainsFunc(jobKeys, func(j string) bool { _, ok := m[j]; return ok })) {
			jobs[k] = v
			continue
		}
		parts[k], settings[k] = canon(v), true
	}
	// The jobs that name sessiongate, then the jobs and templates those
	// name by key (needs: build, extends: .base), until none is added.
	for {
		added := false
		for k, v := range jobs {
			if _, ok := parts[k]; ok {
				continue
			}
			if runsAny(v, run) || namedBy(parts, strings.TrimPrefix(k, "jobs.")) {
				parts[k] = canon(v)
				added = true
			}
		}
		if !added {
			return parts, settings, nil
		}
	}
}

// Changed lists the parts of before that after lost or changed, sorted;
// err when after does not parse (a file CI cannot read runs no job). A
// before that does not parse held nothing to keep. rd reads before's
// tree (nil: only jobs that name sessiongate count).
func Changed(before, after []byte, rd Reader) ([]string, error) {
	run := runners(before, rd, maxDepth)
	old, _, err := read(before, run)
	if err != nil || len(old) == 0 {
		return nil, nil
	}
	cur, settings, err := read(after, run)
	if err != nil {
		return nil, err
	}
	var out []string
	for k, v := range old {
		if w, ok := cur[k]; !ok {
			out = append(out, k+" (removed)")
		} else if w != v {
			out = append(out, k)
		}
	}
	for k := range settings {
		if _, ok := old[k]; !ok {
			out = append(out, k+" (added)") // a new trigger filter, workflow rule, variable block
		}
	}
	sort.Strings(out)
	return out, nil
}

// Weakened says in one phrase what an edit of a CI file did to the parts
// that run sessiongate, "" when it kept them; after == nil is a deletion.
// rd reads before's tree, as for Changed.
func Weakened(before, after []byte, rd Reader) string {
	if after == nil {
		if old, _ := PartsIn(before, rd); len(old) > 0 {
			return "deletes it, and with it the CI job that runs sessiongate"
		}
		return ""
	}
	changed, err := Changed(before, after, rd)
	if err != nil {
		return fmt.Sprintf("leaves it unparsable (%s), so CI runs none of its jobs", firstLine(err.Error()))
	}
	if len(changed) == 0 {
		return ""
	}
	return "changes what decides whether and how sessiongate runs there (" + strings.Join(changed, ", ") + ")"
}

// normalize makes YAML's map[any]any (a file with a non-string key)
// string-keyed, so canon can print it.
func normalize(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = normalize(e)
		}
		return x
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[fmt.Sprint(k)] = normalize(e)
		}
		return m
	case []any:
		for i, e := range x {
			x[i] = normalize(e)
		}
	}
	return v
}

// canon is v as JSON with sorted keys: comments, quoting, anchors and key
// order do not count as a change.
func canon(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%#v", v) // a value JSON cannot hold (a NaN): still compared
	}
	return string(b)
}

// mentions reports whether word appears in v's keys or string values,
// case-insensitively.
func mentions(v any, word string) bool {
	switch x := v.(type) {
	case string:
		return strings.Contains(strings.ToLower(x), word)
	case map[string]any:
		for k, e := range x {
			if strings.Contains(strings.ToLower(k), word) || mentions(e, word) {
				return true
			}
		}
	case []any:
		return slices.ContainsFunc(x, func(e any) bool { return mentions(e, word) })
	}
	return false
}

// namedBy reports whether a kept part names key as a whole string (needs:
// [build], extends: .base, !reference [.base, script]).
func namedBy(parts map[string]string, key string) bool {
	q := canon(key)
	for _, v := range parts {
		if strings.Contains(v, q) {
			return true
		}
	}
	return false
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// scriptExt are the extensions of a script a job names by path.
var scriptExt = []string{".sh", ".bash", ".py", ".js", ".mjs", ".cjs", ".ts", ".rb", ".pl", ".ps1"}

// LocalFiles lists, sorted, the repository files the parts that run
// sessiongate run from the work tree: a local action (`uses:
// ./.github/actions/x`, as "x/**") and a script named by path in a step
// (`./scripts/verify.sh`, `bash ci/verify.sh`). A branch that edits one
// changes what the verify job does without touching the CI file:
// `sessiongate init` puts them under protected_paths and `doctor` warns
// about those that are not. Words with a variable, a glob or a scheme,
// absolute paths and paths that leave the repository are not files of it.
func LocalFiles(b []byte, rd Reader) []string {
	parts, _, err := read(b, runners(b, rd, maxDepth))
	if err != nil || len(parts) == 0 {
		return nil
	}
	seen := map[string]bool{}
	add := func(p string) {
		p = path.Clean(p)
		if p == "." || p == ".." || strings.HasPrefix(p, "../") || path.IsAbs(p) {
			return
		}
		seen[p] = true
	}
	for _, js := range parts {
		var v any
		if json.Unmarshal([]byte(js), &v) != nil {
			continue
		}
		walkStrings(v, "", func(key, s string) {
			if key == "uses" {
				if rest, ok := strings.CutPrefix(s, "./"); ok && !strings.ContainsAny(rest, "@$*?[") {
					add(strings.TrimSuffix(rest, "/") + "/**")
				}
				return
			}
			files, _ := lineRuns(s)
			for _, w := range files {
				add(w)
			}
		})
	}
	return slices.Sorted(maps.Keys(seen))
}

// walkStrings calls fn with each string in v and the map key it sits
// under ("" in a list at the top).
func walkStrings(v any, key string, fn func(key, s string)) {
	switch x := v.(type) {
	case string:
		fn(key, x)
	case map[string]any:
		for k, e := range x {
			walkStrings(e, k, fn)
		}
	case []any:
		for _, e := range x {
			walkStrings(e, key, fn)
		}
	}
}

// InTree reads the work tree's CI files under root (Patterns): the files
// that run sessiongate, and the files of the tree those run it through:
// LocalFiles of each (an action folder, as "x/**", when the folder
// does), the YAML files they include or call outside Patterns (a GitLab
// include, ci/verify.yml), and the files a Makefile whose goal runs it
// includes (ci.mk).
func InTree(root string) (named, local []string) {
	seen := map[string]bool{}
	eachInTree(root, func(rel string, b []byte, rd Reader) {
		if parts, _ := PartsIn(b, rd); len(parts) == 0 {
			return
		}
		named = append(named, rel)
		callees := CalleesOf(b, rd)
		for _, f := range callees.MakeIncludes {
			seen[f] = true // absent too: `-include local.mk` reads one added later
		}
		local := LocalFiles(b, rd)
		for _, f := range callees.YAML {
			if !Match(f) && path.Base(f) != "action.yml" && path.Base(f) != "action.yaml" {
				seen[f] = true
			}
			if sub, ok := rd(f); ok {
				local = append(local, LocalFiles(sub, rd)...)
			}
		}
		for _, f := range local {
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(strings.TrimSuffix(f, "/**")))); err == nil {
				seen[f] = true
			}
		}
	})
	return named, slices.Sorted(maps.Keys(seen))
}

// eachInTree calls fn with each CI file (Patterns) of the work tree under
// root, in order, and a Reader of that tree.
func eachInTree(root string, fn func(rel string, b []byte, rd Reader)) {
	rd := func(rel string) ([]byte, bool) {
		b, err := boundedread.InRoot(root, rel, boundedread.DefaultLimit)
		return b, err == nil
	}
	for _, p := range Patterns {
		matches, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(p)))
		sort.Strings(matches)
		for _, m := range matches {
			rel, err := filepath.Rel(root, m)
			if err != nil {
				continue
			}
			rel = filepath.ToSlash(rel)
			if b, ok := rd(rel); ok {
				fn(rel, b, rd)
			}
		}
	}
}

// UnphonyGoals lists, as "Makefile: gates", the make goals through which
// the work tree's CI files run sessiongate that .PHONY does not list: a
// committed file or folder of that name makes make print "'gates' is up
// to date" and run nothing, so CI's verify never runs. init and doctor
// warn about them.
func UnphonyGoals(root string) []string {
	var out []string
	eachInTree(root, func(_ string, b []byte, rd Reader) {
		for mf, goals := range CalleesOf(b, rd).Make {
			mb, _ := rd(mf)
			mk := parseMake(withIncludes(mb, path.Dir(mf), rd))
			for _, g := range goals {
				if g == "" {
					g = mk.first
				}
				if e := mf + ": " + g; g != "" && !slices.Contains(mk.deps[".PHONY"], g) && !slices.Contains(out, e) {
					out = append(out, e)
				}
			}
		}
	})
	sort.Strings(out)
	return out
}
