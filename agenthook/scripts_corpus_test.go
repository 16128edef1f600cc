package agenthook_test

import (
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/agenthook"
)

// corpusCeiling is the most denials TestHonestScriptCorpus accepts, per
// 1000 files: honest published code is denied only where it names a
// protected thing in a way no reader can tell from a write (docs/security.md,
// "Script files"). Measured: docs/benchmarks.md, "False blocks on honest scripts".
const corpusCeiling = 5

// TestHonestScriptCorpus runs the agent hook (in process, Claude Code's
// PreToolUse for Bash, an active session) on honest scripts nobody wrote
// for sessiongate: the JS, shell and Python files of the published npm
// packages under .ci/node/node_modules and the shell scripts in the Go
// module cache, each run from the repository root as `node F`, `sh F` or
// `python3 F`, and counts the denials. By default a sample (a tenth of
// the files, by a hash of each one's path); SESSIONGATE_CORPUS=full runs all of them. -v lists the denials.
func TestHonestScriptCorpus(t *testing.T) {
	var files []string
	nm, _ := filepath.Abs(filepath.Join("..", ".ci", "node", "node_modules"))
	if _, err := os.Stat(nm); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the npm install .ci/node/node_modules is needed under CI=true: %v", err)
		}
		t.Skipf("no npm install at %s (bash .ci/run makes it): the honest corpus is not run", nm)
	}
	// roots: each corpus folder (resolved) and the link in the repository
	// that names it, so a file's imports and requires resolve beside it
	// inside the repository, as the agent's own would.
	roots := map[string]string{}
	files = append(files, corpusFiles(t, nm, roots, "c/nm", ".js", ".cjs", ".mjs", ".sh", ".py")...)
	if out, err := exec.Command("go", "env", "GOMODCACHE").Output(); err == nil && strings.TrimSpace(string(out)) != "" {
		// Only the modules of this module's build list: the cache also
		// holds whatever else was ever installed on the machine (a
		// `go install` of a task runner put 7 denied scripts in and broke
		// the ceiling on an unchanged tree), which another machine lacks.
		mods := buildListDirs(t)
		for _, f := range corpusFiles(t, strings.TrimSpace(string(out)), roots, "c/gomod", ".sh") {
			if underAny(f, mods) {
				files = append(files, f)
			}
		}
	}
	slices.Sort(files)
	if os.Getenv("SESSIONGATE_CORPUS") != "full" {
		// A file is in the sample by a hash of its path inside its root,
		// not by its place in the list: a package added to .ci/node (or
		// another module in the cache) no longer shifts which files are
		// read. Every 25th by place (331 files) swung from 3.0 to 6.0 per
		// 1000 when jest and vitest were installed, while the whole
		// corpus read 3.4 (28 of 8,255): a tenth is fine enough to
		// measure a ceiling of 5.
		var sample []string
		for _, f := range files {
			h := fnv.New32a()
			h.Write([]byte(corpusRel(f, roots)))
			if h.Sum32()%10 == 0 {
				sample = append(sample, f)
			}
		}
		files = sample
	}
	if len(files) < 20 {
		t.Fatalf("only %d corpus files found: the corpus is not there to measure", len(files))
	}

	r := newRepo(t, "")
	const sid = "corpus"
	env := map[string]string{}
	for _, kv := range r.env {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	hook := func(event string, in []byte) string {
		var out bytes.Buffer
		// A generous limit: what is measured is the judgement, and the
		// 8s default denied 12 of 821 by fail mode at load 25-40 (CI beside
		// other jobs), over the ceiling with no judgement wrong.
		rn := &agenthook.Runner{Dir: r.root, Getenv: func(k string) string { return env[k] }, Stdin: bytes.NewReader(in), Stdout: &out, Stderr: io.Discard, LeaveOpen: true, Timeout: 10 * time.Minute}
		if code := rn.Run(context.Background(), "claude", event); code != 0 {
			t.Fatalf("hook %s: exit %d %s", event, code, out.String())
		}
		return out.String()
	}
	hook("SessionStart", []byte(fmt.Sprintf(`{"session_id":%q,"cwd":%q,"hook_event_name":"SessionStart","source":"startup"}`, sid, r.root)))
	if err := os.MkdirAll(filepath.Join(r.root, "c"), 0o755); err != nil {
		t.Fatal(err)
	}
	for real, link := range roots {
		if err := os.Symlink(real, filepath.Join(r.root, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	denied := map[string]string{}
	for i, f := range files {
		ext := filepath.Ext(f)
		// The file by its path under its root's link in the repository.
		link := ""
		for real, l := range roots {
			if rel, err := filepath.Rel(real, f); err == nil && !strings.HasPrefix(rel, "..") {
				link = l + "/" + filepath.ToSlash(rel)
			}
		}
		if strings.ContainsAny(link, " \"$`\\*?[(){};&|<>") {
			link = "'" + link + "'" // corpusFiles leaves out names with a '
		}
		prog := map[string]string{".sh": "sh", ".py": "python3"}[ext]
		if prog == "" {
			prog = "node"
		}
		cmd := prog + " " + link
		out := hook("PreToolUse", []byte(fmt.Sprintf(`{"session_id":%q,"cwd":%q,"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":%q},"tool_use_id":"c%d"}`, sid, r.root, cmd, i)))
		if strings.Contains(out, `"deny"`) {
			denied[f] = out
		}
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for k := range denied {
			if !yield(k) {
				return
			}
		}
	})
	for _, f := range names {
		t.Logf("denied %s: %s", f, reasonOf(denied[f]))
	}
	t.Logf("honest corpus: %d files, %d denied (%.1f per 1000)", len(files), len(denied), 1000*float64(len(denied))/float64(len(files)))
	if len(denied)*1000 > corpusCeiling*len(files) {
		t.Errorf("%d of %d honest scripts denied, above %d per 1000", len(denied), len(files), corpusCeiling)
	}
}

// corpusRel is f's path inside the corpus root holding it (the module
// cache's or node_modules' own layout, the same on every machine).
func corpusRel(f string, roots map[string]string) string {
	for real := range roots {
		if rel, err := filepath.Rel(real, f); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(f)
}

func reasonOf(out string) string {
	const key = `"permissionDecisionReason":"`
	if i := strings.Index(out, key); i >= 0 {
		s := out[i+len(key):]
		if j := strings.Index(s, `","`); j >= 0 {
			s = s[:j]
		}
		return s
	}
	return out
}

// corpusFiles lists the regular files under dir with one of exts, links
// followed once at the top (node_modules is a link to a shared install),
// and records the resolved dir in roots as link.
func corpusFiles(t *testing.T, dir string, roots map[string]string, link string, exts ...string) []string {
	t.Helper()
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatalf("resolve %s: %v", dir, err)
	}
	roots[real] = link
	var out []string
	err = filepath.WalkDir(real, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable folder is not corpus
		}
		if d.Type().IsRegular() && slices.Contains(exts, filepath.Ext(p)) && !strings.Contains(p, "'") {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walk %s: %v", dir, err)
	}
	return out
}

// buildListDirs is the folders (links resolved) of the modules in this
// module's build list that the module cache holds.
func buildListDirs(t *testing.T) []string {
	t.Helper()
	cmd := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "all")
	cmd.Dir = ".."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -m all: %v", err)
	}
	var dirs []string
	for _, d := range strings.Fields(string(out)) {
		if real, err := filepath.EvalSymlinks(d); err == nil {
			dirs = append(dirs, real)
		}
	}
	return dirs
}

func underAny(f string, dirs []string) bool {
	for _, d := range dirs {
		if strings.HasPrefix(f, d+string(filepath.Separator)) {
			return true
		}
	}
	return false
}
