package hooks_test

import (
	"path/filepath"
	"strings"
	"testing"
)

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

// TestCIJobEditBlocked: with real git and the installed hooks, an agent's
// commit that makes the CI verify job pass whatever it finds (`|| true`)
// or deletes the workflow is refused at gate CI and recorded; an edit of
// the workflow's other job commits.
func TestCIJobEditBlocked(t *testing.T) {
	r := newRepo(t)
	wf := filepath.Join(r.root, ".github", "workflows", "ci.yml")
	writeFile(t, wf, ciWorkflow)
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "ci: verify")
	r.sg(r.root, "install")
	id := r.startWorking(r.root)
	for _, tc := range []struct {
		name string
		do   func()
	}{
		{"verify made to pass", func() {
			writeFile(t, wf, strings.Replace(ciWorkflow, "sessiongate verify", "sessiongate verify || true", 1))
			r.git("add", wf)
		}},
		{"path filter on the trigger", func() {
			writeFile(t, wf, strings.Replace(ciWorkflow, "on: [push, pull_request]", "on:\n  push:\n    paths-ignore: ['src/**']", 1))
			r.git("add", wf)
		}},
		{"workflow deleted", func() { r.git("rm", "-q", wf) }},
	} {
		tc.do()
		res := r.commit(r.root, nil, "-m", "ci: "+tc.name)
		if res.code == 0 {
			t.Fatalf("%s: committed", tc.name)
		}
		for _, s := range []string{"gate:    CI", ".github/workflows/ci.yml", "sessiongate"} {
			if !strings.Contains(res.err, s) {
				t.Errorf("%s: stderr lacks %q:\n%s", tc.name, s, res.err)
			}
		}
		r.git("reset", "-q", "--hard", "HEAD")
	}
	out := r.sg(r.root, "session", "status", "--session", id, "--json")
	if !strings.Contains(out, "CI job") || !strings.Contains(out, "PROTECTED_CHANGE") {
		t.Errorf("no PROTECTED_CHANGE for the CI job recorded:\n%s", out)
	}
	// Honest: the lint job made stricter commits.
	writeFile(t, wf, strings.Replace(ciWorkflow, "golangci-lint run", "golangci-lint run --timeout 5m", 1))
	r.git("add", wf)
	if res := r.commit(r.root, nil, "-m", "ci: lint timeout"); res.code != 0 {
		t.Fatalf("an edit of another job was refused: exit %d\n%s", res.code, res.err)
	}
	// A person's commit of the same change is theirs to make.
	r.asPerson()
	writeFile(t, wf, strings.Replace(ciWorkflow, "sessiongate verify", "sessiongate verify --rerun", 1))
	r.git("add", wf)
	if res := r.commit(r.root, nil, "-m", "ci: rerun the gates"); res.code != 0 || !strings.Contains(res.err, "the commit is a person's") {
		t.Fatalf("a person's change of the verify job: exit %d\n%s", res.code, res.err)
	}
}

// TestCIJobThroughCallersBlocked: the verify job reached through the tree,
// not named in the CI file: a make goal (`make verify`) and a reusable
// workflow. An agent's commit that makes the goal's recipe pass, or drops
// the reusable workflow's caller, is refused at gate CI; the Makefile's
// other goals stay the agent's. Both commits went through before round 34.
func TestCIJobThroughCallersBlocked(t *testing.T) {
	r := newRepo(t)
	const mk = ".PHONY: verify test\nverify:\n\tsessiongate verify\ntest:\n\tgo test ./...\n"
	const caller = "on: [pull_request]\njobs:\n  gates:\n    runs-on: ubuntu-latest\n    steps: [{run: make verify}]\n  net:\n    uses: ./.github/workflows/sg.yml\n  test:\n    runs-on: ubuntu-latest\n    steps: [{run: make test}]\n"
	wf := filepath.Join(r.root, ".github", "workflows", "ci.yml")
	writeFile(t, wf, caller)
	writeFile(t, filepath.Join(r.root, ".github", "workflows", "sg.yml"), "on: [workflow_call]\njobs:\n  v:\n    runs-on: ubuntu-latest\n    steps: [{run: sessiongate verify --rerun}]\n")
	writeFile(t, filepath.Join(r.root, "Makefile"), mk)
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "ci: verify through make and a reusable workflow")
	r.sg(r.root, "install")
	r.startWorking(r.root)
	for _, tc := range []struct{ name, file, content, want string }{
		{"make goal made to pass", "Makefile", strings.Replace(mk, "sessiongate verify", "sessiongate verify || true", 1), "`make verify`"},
		{"reusable workflow's caller dropped", wf, strings.Replace(caller, "  net:\n    uses: ./.github/workflows/sg.yml\n", "", 1), "jobs.net (removed)"},
		{"a GNUmakefile that make reads first", "GNUmakefile", ".PHONY: verify test\nverify:\n\t@:\ntest:\n\tgo test ./...\n", "GNUmakefile is new, and make reads it before Makefile"},
		{"a lowercase makefile that make reads first", "makefile", "verify:\n\t@:\n", "makefile is new, and make reads it before Makefile"},
	} {
		p := tc.file
		if !filepath.IsAbs(p) {
			p = filepath.Join(r.root, p)
		}
		writeFile(t, p, tc.content)
		r.git("add", p)
		res := r.commit(r.root, nil, "-m", "ci: "+tc.name)
		if res.code == 0 {
			t.Fatalf("%s: committed", tc.name)
		}
		for _, s := range []string{"gate:    CI", tc.want} {
			if !strings.Contains(res.err, s) {
				t.Errorf("%s: stderr lacks %q:\n%s", tc.name, s, res.err)
			}
		}
		r.git("reset", "-q", "--hard", "HEAD")
	}
	writeFile(t, filepath.Join(r.root, "Makefile"), strings.Replace(mk, "go test ./...", "go test -race ./...", 1))
	r.git("add", "Makefile")
	if res := r.commit(r.root, nil, "-m", "build: race tests"); res.code != 0 {
		t.Fatalf("an edit of another make goal was refused: exit %d\n%s", res.code, res.err)
	}
}
