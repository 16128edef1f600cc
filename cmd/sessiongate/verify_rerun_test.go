package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/recordref"
)

// mdcheckGate is a linter gate on the changed markdown, added to the
// starter protocol's Quality Checks phase: mdcheck fails on a TODO.
const mdcheckGate = `<!-- gate: command "mdcheck {changed:*.md}" -->`

// withMdcheck puts the mdcheck gate in the protocol committed on main.
func withMdcheck(t *testing.T) func(w *ciWorld) {
	return func(w *ciWorld) {
		p := filepath.Join(w.dev, "SESSION-PROTOCOL.md")
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out := strings.Replace(string(b), "1. The agent MUST run the project's linters", mdcheckGate+"\n\n1. The agent MUST run the project's linters", 1)
		if out == string(b) {
			t.Fatal("no Quality Checks text in the starter protocol to put the gate before")
		}
		if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// toolDir holds mdcheck, a linter that fails on a TODO in a file it is
// given. Not in a temporary folder: a gate's PATH drops those (a fake
// program is made there in a second, gateenv/neutralpath.go).
func toolDir(t *testing.T) string {
	base, err := os.UserCacheDir()
	if err != nil {
		t.Fatalf("a folder outside the temporary ones for the test's linter: %v", err)
	}
	if err := os.MkdirAll(base, 0o755); err != nil {
		t.Fatal(err)
	}
	d, err := os.MkdirTemp(base, "sessiongate-test-tools-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	if err := os.WriteFile(filepath.Join(d, "mdcheck"), []byte("#!/bin/sh\n[ $# -gt 0 ] || { echo 'mdcheck: no files'; exit 3; }\nif grep -n TODO \"$@\"; then exit 1; fi\necho \"mdcheck: $# file(s) clean\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestVerifyRerunChanged: --rerun runs the base protocol's linter gates on
// {changed:...} too, with the range's changed files (issue 26 item 2.1).
// A session that hid its markdown from the local gate (deleted from the
// work tree while the gate ran: zero files, skipped) passes locally; the
// re-run in CI lints what the head holds and fails. An honest range
// passes with the gate reported as run; a CI without the gate's program
// exits 2 naming it, never passes.
func TestVerifyRerunChanged(t *testing.T) {
	t.Parallel()
	tools := toolDir(t)
	sw := newSignedWorld(t, false, func(w *ciWorld) {
		w.env = append(w.env, "PATH="+tools+string(os.PathListSeparator)+os.Getenv("PATH"))
		withMdcheck(t)(w)
	})
	w := sw.ciWorld
	honest := w.branchSession(t, "honest-md", func() {
		w.writeFile(t, "docs/guide.md", "# Guide\n\nDone.\n")
		w.writeFile(t, "odd name; $(touch pwned).md", "# odd\n")
		w.git(t, w.dev, "add", "-A")
		w.git(t, w.dev, "commit", "-q", "-m", "guide")
	})
	hidden := w.branchSession(t, "hidden-md", func() {
		w.writeFile(t, "notes.md", "# Notes\n\nTODO: write them\n")
		w.git(t, w.dev, "add", "-A")
		w.git(t, w.dev, "commit", "-q", "-m", "notes")
		// The local gate lints the work tree: nothing there, nothing linted.
		if err := os.Remove(filepath.Join(w.dev, "notes.md")); err != nil {
			t.Fatal(err)
		}
	})
	w.git(t, w.dev, "checkout", "-q", "--", ".")
	noPath := []string{}
	for _, kv := range w.env {
		if !strings.HasPrefix(kv, "PATH=") {
			noPath = append(noPath, kv)
		}
	}
	cases := []struct {
		name, tip string
		env       []string
		args      []string
		code      int
		want      []string
	}{
		{"honest", honest, w.env, nil, 0, []string{`OK +rerun QUALITY_CHECKS: mdcheck \{changed:\*\.md\} \(2 changed file\(s\)`}},
		{"hidden markdown", hidden, w.env, nil, 1, []string{`FAIL rerun QUALITY_CHECKS: mdcheck`, `3:TODO: write them`}},
		{"hidden markdown, json", hidden, w.env, []string{"--format", "json"}, 1, []string{`"status": ?"fail"`}},
		{"linter missing in CI", honest, noPath, nil, 2, []string{"`mdcheck` is not on PATH in this CI: install it"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ci := w.checkout(t, "ci-rerun", false, c.tip, "+refs/heads/*:refs/remotes/origin/*", recsSpec)
			code, out, errb := sgBin(t, ci, c.env, append([]string{"verify", "--rerun", w.main + ".." + c.tip}, c.args...)...)
			for _, want := range c.want {
				if code != c.code || !regexp.MustCompile(want).MatchString(out+errb) {
					t.Fatalf("verify --rerun: exit %d, want %d matching %s\n%s%s", code, c.code, want, out, errb)
				}
			}
			if _, err := os.Stat(filepath.Join(ci, "pwned")); err == nil {
				t.Fatal("a changed file's name ran as a command")
			}
			if strings.Contains(c.name, "json") {
				var rep struct {
					Rerun []struct{ Phase, Status string }
				}
				if err := json.Unmarshal([]byte(out), &rep); err != nil {
					t.Fatalf("json: %v\n%s", err, out)
				}
			}
		})
	}
}

// preCommitConfig uses sessiongate's hooks through the pre-commit framework,
// as docs/hooks.md shows.
const preCommitConfig = `repos:
  - repo: https://github.com/sessiongate/sessiongate
    rev: v0.9.0
    hooks:
      - id: sessiongate-pre-commit-system
      - id: sessiongate-commit-msg-system
`

const ciWorkflow = `name: ci
on: [push, pull_request]
jobs:
  verify:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with: {fetch-depth: 0}
      - run: sessiongate verify
  lint:
    runs-on: ubuntu-latest
    steps:
      - run: golangci-lint run
`

// ciMakefile's gates goal runs sessiongate for gates.yml, which does not
// name it.
const ciMakefile = ".PHONY: gates vet\ngates:\n\tsessiongate verify\nvet:\n\tgo vet ./...\n"

// TestVerifyHookConfigs: a commit of the range that removes or weakens
// sessiongate's hooks in a committed hook config fails verify unless a
// listed signer signed for it (issue 26 item 2.3); honest changes that
// keep sessiongate's entries (another tool's hook added, a version bump)
// pass. Each config is the one `sessiongate install --agent` writes.
func TestVerifyHookConfigs(t *testing.T) {
	t.Parallel()
	sw := newSignedWorld(t, true, func(w *ciWorld) {
		w.sg(t, w.dev, "install", "--agent", "claude,gemini,cursor,codex,copilot")
		w.writeFile(t, ".pre-commit-config.yaml", preCommitConfig)
		w.writeFile(t, ".husky/pre-commit", "sessiongate hook pre-commit\n")
		w.writeFile(t, ".github/workflows/ci.yml", ciWorkflow)
		// Round 34: a second net reached through the tree, not named in
		// its CI file: a make goal.
		w.writeFile(t, ".github/workflows/gates.yml", "on: [pull_request]\njobs:\n  gates:\n    runs-on: ubuntu-latest\n    steps: [{run: make gates}]\n")
		w.writeFile(t, "Makefile", ciMakefile)
	})
	w := sw.ciWorld
	for _, f := range []string{".claude/settings.json", ".gemini/settings.json", ".cursor/hooks.json", ".codex/hooks.json", ".github/hooks/sessiongate.json"} {
		if out := w.git(t, w.dev, "ls-files", f); out != f {
			t.Fatalf("%s is not committed on main (install --agent wrote: %s)", f, out)
		}
	}
	editJSON := func(rel string, edit func(m map[string]any)) {
		b, err := os.ReadFile(filepath.Join(w.dev, rel))
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		edit(m)
		out, err := json.MarshalIndent(m, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		w.writeFile(t, rel, string(out)+"\n")
	}
	hooksOf := func(m map[string]any) map[string]any { return m["hooks"].(map[string]any) }
	// protect blocks the commit locally until someone accepts at a
	// terminal, which the agent with a pty can do (docs/security.md): the
	// acceptance is unsigned, so CI does not count it.
	commit := func(msg string) {
		w.acceptAtTerminal(t, msg)
		w.git(t, w.dev, "add", "-A")
		w.git(t, w.dev, "commit", "-q", "-m", msg)
	}
	edit := func(name string, work func()) string {
		return w.branchSession(t, name, func() { work(); commit(name) })
	}
	honest := edit("honest-hooks", func() {
		editJSON(".claude/settings.json", func(m map[string]any) {
			h := hooksOf(m)
			h["PreToolUse"] = append([]any{map[string]any{"matcher": "Bash", "hooks": []any{map[string]any{"type": "command", "command": "./scripts/audit.sh"}}}}, h["PreToolUse"].([]any)...)
			m["model"] = "opus"
		})
		// An upgrade that widens a matcher (Claude Code's PreToolUse gained
		// ^Agent$|^Task$) keeps every tool the hook saw.
		editJSON(".gemini/settings.json", func(m map[string]any) {
			g := hooksOf(m)["BeforeTool"].([]any)[0].(map[string]any)
			g["matcher"] = g["matcher"].(string) + "|web_fetch"
		})
		w.writeFile(t, ".pre-commit-config.yaml", strings.Replace(preCommitConfig, "v0.9.0", "v0.10.0", 1)+
			"  - repo: https://github.com/pre-commit/pre-commit-hooks\n    rev: v4.6.0\n    hooks:\n      - id: trailing-whitespace\n")
		w.writeFile(t, ".husky/pre-commit", "npx lint-staged\nsessiongate hook pre-commit\n")
	})
	dropped := edit("drop-pretooluse", func() {
		editJSON(".claude/settings.json", func(m map[string]any) { delete(hooksOf(m), "PreToolUse") })
	})
	narrowed := edit("narrow-matcher", func() {
		editJSON(".gemini/settings.json", func(m map[string]any) {
			g := hooksOf(m)["BeforeTool"].([]any)[0].(map[string]any)
			g["matcher"] = "write_file"
		})
	})
	disabled := edit("disable-all", func() {
		editJSON(".claude/settings.json", func(m map[string]any) { m["disableAllHooks"] = true })
	})
	manual := edit("manual-stage", func() {
		w.writeFile(t, ".pre-commit-config.yaml", strings.Replace(preCommitConfig, "- id: sessiongate-pre-commit-system\n", "- id: sessiongate-pre-commit-system\n        stages: [manual]\n", 1))
	})
	exited := edit("husky-exit", func() {
		w.writeFile(t, ".husky/pre-commit", "exit 0\nsessiongate hook pre-commit\n")
	})
	deleted := edit("delete-cursor", func() {
		if err := os.Remove(filepath.Join(w.dev, ".cursor", "hooks.json")); err != nil {
			t.Fatal(err)
		}
	})
	// Round 33: the CI job that runs verify. The pre-commit hook refuses
	// an agent's such commit; made with the hooks off (a BYPASS too), CI
	// names what it did, and an edit of another job is honest.
	ciJob := w.branchSession(t, "ci-recheck-zero", func() {
		w.writeFile(t, ".github/workflows/ci.yml", strings.Replace(ciWorkflow, "sessiongate verify", "sessiongate verify --recheck 0", 1))
		w.git(t, w.dev, "add", "-A")
		// As an agent's commit (ciWorld's git is a person's).
		if out, err := w.gitErr(w.dev, "commit", "-q", "-m", "ci: faster verify"); err == nil || !strings.Contains(out, "gate:    CI") {
			t.Fatalf("the verify job's edit committed, or not at gate CI: %v\n%s", err, out)
		}
		w.git(t, w.dev, "commit", "-q", "--no-verify", "-m", "ci: faster verify")
	})
	ciMake := w.branchSession(t, "ci-make-goal", func() {
		w.writeFile(t, "Makefile", strings.Replace(ciMakefile, "sessiongate verify", "-sessiongate verify", 1))
		w.git(t, w.dev, "add", "-A")
		if out, err := w.gitErr(w.dev, "commit", "-q", "-m", "build: quieter gates"); err == nil || !strings.Contains(out, "`make gates`") {
			t.Fatalf("the make goal's edit committed, or not for `make gates`: %v\n%s", err, out)
		}
		w.git(t, w.dev, "commit", "-q", "--no-verify", "-m", "build: quieter gates")
	})
	ciShadow := w.branchSession(t, "ci-make-shadow", func() {
		w.writeFile(t, "GNUmakefile", ".PHONY: gates\ngates:\n\t@:\n")
		w.git(t, w.dev, "add", "-A")
		w.git(t, w.dev, "commit", "-q", "--no-verify", "-m", "build: local overrides")
	})
	ciMakeOther := edit("ci-make-other", func() {
		w.writeFile(t, "Makefile", strings.Replace(ciMakefile, "go vet ./...", "go vet -tags ci ./...", 1))
	})
	ciOther := edit("ci-other-job", func() {
		w.writeFile(t, ".github/workflows/ci.yml", strings.Replace(ciWorkflow, "golangci-lint run", "golangci-lint run --timeout 5m", 1))
	})
	// The lead removes the Copilot hooks in a commit signed with a listed key.
	w.git(t, w.dev, "config", "user.signingkey", filepath.Join(sw.keys, "alice"))
	signed := w.branchSession(t, "signed-removal", func() {
		if err := os.Remove(filepath.Join(w.dev, ".github", "hooks", "sessiongate.json")); err != nil {
			t.Fatal(err)
		}
		w.acceptAtTerminal(t, "drop copilot hooks")
		w.git(t, w.dev, "add", "-A")
		w.git(t, w.dev, "commit", "-q", "-S", "-m", "drop copilot hooks (lead)")
	})
	w.git(t, w.dev, "config", "--unset", "user.signingkey")
	cases := []struct {
		name, tip string
		code      int
		want      string
	}{
		{"honest: another hook added, sessiongate upgraded", honest, 0, `OK`},
		{"PreToolUse removed", dropped, 1, `hook config: commit [0-9a-f]{12} changes \.claude/settings\.json: it removes or changes 1 of sessiongate's entries \(\.hooks\.PreToolUse\[\]`},
		{"matcher narrowed", narrowed, 1, `changes \.gemini/settings\.json: it removes or changes 1 of sessiongate's entries \(\.hooks\.BeforeTool\[\]`},
		{"disableAllHooks", disabled, 1, `changes \.claude/settings\.json: it changes what turns hooks on or off \(\.disableAllHooks=true\)`},
		{"pre-commit stage manual", manual, 1, `changes \.pre-commit-config\.yaml: it removes or changes 1 of sessiongate's entries`},
		{"husky exit 0", exited, 1, `changes \.husky/pre-commit: it changes what turns hooks on or off \(exit 0\)`},
		{"cursor hooks deleted", deleted, 1, `changes \.cursor/hooks\.json: it deletes it`},
		{"CI verify job narrowed", ciJob, 1, `CI job: commit [0-9a-f]{12} changes \.github/workflows/ci\.yml: it changes what decides whether and how sessiongate runs there \(jobs\.verify\)`},
		{"CI: another job edited", ciOther, 0, `OK`},
		{"CI make goal made to pass", ciMake, 1, "CI job: commit [0-9a-f]{12} changes Makefile: it changes what `make gates` runs"},
		{"CI: another make goal edited", ciMakeOther, 0, `OK`},
		{"CI make goal shadowed by a GNUmakefile", ciShadow, 1, "CI job: commit [0-9a-f]{12} changes GNUmakefile: it adds it, and make reads it before Makefile"},
		{"removal signed by a listed signer", signed, 0, `hook config: \.github/hooks/sessiongate\.json deletes it.*signed by alice@example\.com, a listed signer`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out := w.ciVerify(t, "hooks", c.tip)
			if code != c.code || !regexp.MustCompile(c.want).MatchString(out) {
				t.Fatalf("verify: exit %d, want %d matching %s\n%s", code, c.code, c.want, out)
			}
		})
	}
}

// TestVerifyForgedRecordWithoutFileRefs: a record of this version always
// lists its file evidence (file_refs); one pushed without them, to keep
// verify from reading the files again, fails (issue 26 item 2.4), and so
// does one set back to v1 or to no schema (issue 25 route 2: it was v2
// when first written on the records ref).
func TestVerifyForgedRecordWithoutFileRefs(t *testing.T) {
	t.Parallel()
	w := newSignedWorld(t, false).ciWorld
	tip := w.branchSession(t, "unbacked", func() {
		// Evidence of a file git never holds: verify catches it by its reference.
		if err := os.WriteFile(filepath.Join(w.dev, ".git", "info", "exclude"), []byte("NOTES.md\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		w.writeFile(t, "NOTES.md", "# notes the reviewer never sees\n")
		w.sg(t, w.dev, "session", "evidence", "--phase", "DOCUMENTATION_UPDATE", "--type", "file_path", "--value", "NOTES.md")
		w.write(t, "work.txt")
		w.git(t, w.dev, "add", "-A")
		w.git(t, w.dev, "commit", "-q", "-m", "work")
	})
	id := ""
	for _, l := range strings.Split(w.git(t, w.dev, "log", "-1", "--format=%(trailers:key=Session-Id,valueonly)", tip), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			id = l
		}
	}
	p, err := recordref.Path(id)
	if err != nil {
		t.Fatalf("session id %q: %v", id, err)
	}
	orig := w.git(t, w.dev, "cat-file", "blob", "refs/sessiongate/records:"+p)
	// forge pushes the record edited, as anyone with a shell can.
	forge := func(edit func(m map[string]any)) {
		var m map[string]any
		if err := json.Unmarshal([]byte(orig), &m); err != nil {
			t.Fatal(err)
		}
		if m["schema"] != "sessiongate.session-record.v2" || m["file_refs"] == nil {
			t.Fatalf("the record as written: schema %v, file_refs %v", m["schema"], m["file_refs"])
		}
		edit(m)
		b, _ := json.Marshal(m)
		f := filepath.Join(t.TempDir(), "rec.json")
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
		blob := w.git(t, w.dev, "hash-object", "-w", f)
		idx := filepath.Join(t.TempDir(), "index")
		env := w.env
		w.env = append(slices.Clone(env), "GIT_INDEX_FILE="+idx)
		w.git(t, w.dev, "read-tree", "refs/sessiongate/records")
		w.git(t, w.dev, "update-index", "--add", "--cacheinfo", "100644,"+blob+","+p)
		tree := w.git(t, w.dev, "write-tree")
		w.env = env
		c := w.git(t, w.dev, "commit-tree", tree, "-p", "refs/sessiongate/records", "-m", "records")
		w.git(t, w.dev, "update-ref", "refs/sessiongate/records", c)
		w.git(t, w.dev, "push", "-q", "--no-verify", "origin", "refs/sessiongate/records")
	}
	strip := func(m map[string]any) { delete(m, "file_refs"); delete(m, "file_refs_version") }
	cases := []struct {
		name  string
		forge func(m map[string]any)
		code  int
		want  string
	}{
		{"as written: the reference catches the file", nil, 1, `file_path evidence "NOTES\.md" for phase DOCUMENTATION_UPDATE: the file is not in git`},
		{"file_refs left out", strip, 1, `1 file evidence and no file references, in a sessiongate\.session-record\.v2 record, which always lists them \(record edited\)`},
		// Issue 25 route 2: the record was v2 when first written on the
		// ref, so set back to v1 it is a downgrade, not a legacy record.
		{"file_refs left out, schema set back to v1", func(m map[string]any) { strip(m); m["schema"] = "sessiongate.session-record.v1" }, 1,
			`a sessiongate\.session-record\.v1 record written after this repository's records were sessiongate\.session-record\.v2: it was first written on the records ref at or after the first`},
		{"file_refs left out, schema removed", func(m map[string]any) { strip(m); delete(m, "schema") }, 1,
			`a \S+ record written after this repository's records were sessiongate\.session-record\.v2`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.forge != nil {
				forge(c.forge)
			}
			code, out := w.ciVerify(t, "forged", tip)
			if code != c.code || !regexp.MustCompile(c.want).MatchString(out) {
				t.Fatalf("verify: exit %d, want %d matching %s\n%s", code, c.code, c.want, out)
			}
		})
	}
}

// ciNodeModules is the shared npm install of .ci/node (what `npm ci` gives
// a job), "" when it has no markdownlint-cli2.
func ciNodeModules() string {
	_, file, _, _ := runtime.Caller(0)
	d := filepath.Join(filepath.Dir(file), "..", "..", ".ci", "node", "node_modules")
	if v := os.Getenv("SESSIONGATE_NODE_MODULES"); v != "" {
		d = v
	}
	if _, err := os.Stat(filepath.Join(d, ".bin", "markdownlint-cli2")); err != nil {
		return ""
	}
	return d
}

// TestVerifyRerunMarkdownlint: the protocol's markdownlint-cli2 gate
// re-run in CI with the real linter from the job's own install (the
// checkout's node_modules, as `npm ci` leaves it), never the agent's and
// never downloaded: without one verify exits 2 saying to run npm ci.
func TestVerifyRerunMarkdownlint(t *testing.T) {
	t.Parallel()
	nm := ciNodeModules()
	_, npxErr := exec.LookPath("npx")
	if nm == "" || npxErr != nil {
		const msg = "markdownlint-cli2 (.ci/node/node_modules or $SESSIONGATE_NODE_MODULES) and npx are needed"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	link := func(dir string) {
		if err := os.Symlink(nm, filepath.Join(dir, "node_modules")); err != nil {
			t.Fatal(err)
		}
	}
	w := newSignedWorld(t, false, func(w *ciWorld) {
		w.writeFile(t, ".gitignore", "node_modules\n")
		w.writeFile(t, ".markdownlint-cli2.jsonc", `{"config": {"MD013": false}}`+"\n")
		link(w.dev)
		p := filepath.Join(w.dev, "SESSION-PROTOCOL.md")
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		gate := `<!-- gate: command "npx markdownlint-cli2 {changed:*.md}" timeout=120s -->`
		out := strings.Replace(string(b), "1. The agent MUST run the project's linters", gate+"\n\n1. The agent MUST run the project's linters", 1)
		if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		editConfig(t, w, func(s string) string { return strings.Replace(s, "command_timeout: 2m", "command_timeout: 5m", 1) })
	}).ciWorld
	honest := w.branchSession(t, "clean-md", func() {
		w.writeFile(t, "docs/guide.md", "# Guide\n\nDone.\n")
		w.git(t, w.dev, "add", "-A")
		w.git(t, w.dev, "commit", "-q", "-m", "guide")
	})
	hidden := w.branchSession(t, "bad-md", func() {
		w.writeFile(t, "notes.md", "# Notes\n\n```\ncode without a language\n```\n")
		w.git(t, w.dev, "add", "-A")
		w.git(t, w.dev, "commit", "-q", "-m", "notes")
		if err := os.Remove(filepath.Join(w.dev, "notes.md")); err != nil {
			t.Fatal(err)
		}
	})
	w.git(t, w.dev, "checkout", "-q", "--", ".")
	cases := []struct {
		name, tip string
		npmCI     bool
		code      int
		want      string
	}{
		{"no npm ci in the job", honest, false, 2, "`markdownlint-cli2` is not installed in this CI: run `npm ci` in the checkout"},
		{"honest", honest, true, 0, `OK +rerun QUALITY_CHECKS: npx markdownlint-cli2 \{changed:\*\.md\} \(1 changed file\(s\).*\n +linter from this CI's install`},
		{"hidden bad markdown", hidden, true, 1, `FAIL rerun QUALITY_CHECKS: npx markdownlint-cli2[^\n]*\n(.*\n)*.*notes\.md:3.* MD040`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ci := w.checkout(t, "ci-mdlint", false, c.tip, "+refs/heads/*:refs/remotes/origin/*", recsSpec)
			if c.npmCI {
				link(ci)
			}
			code, out, errb := sgBin(t, ci, w.env, "verify", "--rerun", w.main+".."+c.tip)
			if code != c.code || !regexp.MustCompile(c.want).MatchString(out+errb) {
				t.Fatalf("verify --rerun: exit %d, want %d matching %s\n%s%s", code, c.code, c.want, out, errb)
			}
		})
	}
}
