package cijob

import (
	"slices"
	"strings"
	"testing"
)

// tree is a Reader over a map.
func tree(files map[string]string) Reader {
	return func(rel string) ([]byte, bool) {
		s, ok := files[rel]
		return []byte(s), ok
	}
}

const makefile = `SG ?= sessiongate
GO = go

.PHONY: verify lint test

verify: lint
	$(SG) verify --format github

lint:
	golangci-lint run

test:
	$(GO) test ./...
`

// TestCallers: a job that runs sessiongate through a file of the tree (a
// reusable workflow, a local action, a GitLab include, a script, a make
// goal) is kept as a job naming it is. Each lazy row reads "" without the
// tree (the caller names no sessiongate), which is what got through.
func TestCallers(t *testing.T) {
	files := map[string]string{
		".github/workflows/sg.yml":          "on: [workflow_call]\njobs:\n  v:\n    runs-on: ubuntu-latest\n    steps: [{run: sessiongate verify}]\n",
		".github/actions/verify/action.yml": "runs:\n  using: composite\n  steps: [{run: sessiongate verify, shell: bash}]\n",
		"ci/verify.yml":                     "verify:\n  script: [sessiongate verify]\n",
		"scripts/ci.sh":                     "#!/bin/sh\nexec sessiongate verify \"$@\"\n",
		"scripts/lint.sh":                   "#!/bin/sh\ngolangci-lint run\n",
		"Makefile":                          makefile,
	}
	rd := tree(files)
	gh := func(verify string) string {
		return "on: [pull_request]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps: [{run: go test ./...}]\n  verify:\n" + verify
	}
	for _, tc := range []struct {
		name, before, after, want string
	}{
		{"reusable workflow's caller removed", gh("    uses: ./.github/workflows/sg.yml\n"), gh("    uses: ./.github/workflows/sg.yml\n")[:strings.Index(gh(""), "  verify:")], "jobs.verify (removed), on (removed)"},
		{"reusable workflow's caller skipped", gh("    uses: ./.github/workflows/sg.yml\n"), gh("    if: false\n    uses: ./.github/workflows/sg.yml\n"), "jobs.verify"},
		{"caller's trigger narrowed", gh("    uses: ./.github/workflows/sg.yml\n"), strings.Replace(gh("    uses: ./.github/workflows/sg.yml\n"), "[pull_request]", "[workflow_dispatch]", 1), "on"},
		{"local action's step removed", gh("    runs-on: x\n    steps: [{uses: ./.github/actions/verify}]\n"), gh("    runs-on: x\n    steps: []\n"), "jobs.verify (removed), on (removed)"},
		{"script step allowed to fail", gh("    runs-on: x\n    steps: [{run: ./scripts/ci.sh}]\n"), gh("    runs-on: x\n    continue-on-error: true\n    steps: [{run: ./scripts/ci.sh}]\n"), "jobs.verify"},
		{"make goal's step removed", gh("    runs-on: x\n    steps: [{run: make verify}]\n"), gh("    runs-on: x\n    steps: [{run: make test}]\n"), "jobs.verify (removed), on (removed)"},
		{"GitLab include removed", "include:\n  - local: ci/verify.yml\ntest:\n  script: [go test ./...]\n", "test:\n  script: [go test ./...]\n", "include (removed)"},
		// honest
		{"the other job edited", gh("    uses: ./.github/workflows/sg.yml\n"), strings.Replace(gh("    uses: ./.github/workflows/sg.yml\n"), "go test ./...", "go test -race ./...", 1), ""},
		{"a lint script's job", "on: [push]\njobs:\n  lint:\n    steps: [{run: ./scripts/lint.sh}]\n", "on: [pull_request]\njobs:\n  lint:\n    steps: [{run: ./scripts/lint.sh --fix}]\n", ""},
		{"make test edited beside make verify", gh("    runs-on: x\n    steps: [{run: make verify}]\n"), strings.Replace(gh("    runs-on: x\n    steps: [{run: make verify}]\n"), "go test ./...", "make test", 1), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Changed([]byte(tc.before), []byte(tc.after), rd)
			if err != nil {
				t.Fatal(err)
			}
			if g := strings.Join(got, ", "); g != tc.want {
				t.Errorf("Changed = %q, want %q", g, tc.want)
			}
			if tc.want == "" {
				return
			}
			if w := Weakened([]byte(tc.before), []byte(tc.after), nil); w != "" {
				t.Errorf("without the tree the caller names no sessiongate, yet Weakened = %q", w)
			}
		})
	}
	// A goal defined in a file the Makefile includes.
	inc := tree(map[string]string{"Makefile": "include mk/ci.mk\n-include local.mk\n", "mk/ci.mk": "gates:\n\tsessiongate verify\n"})
	job := gh("    runs-on: x\n    steps: [{run: make gates}]\n")
	if got, _ := Changed([]byte(job), []byte(gh("    runs-on: x\n    if: false\n    steps: [{run: make gates}]\n")), inc); strings.Join(got, ",") != "jobs.verify" {
		t.Errorf("a goal from an included file: Changed = %q", got)
	}
	if ci := CalleesOf([]byte(job), inc); !slices.Equal(ci.MakeIncludes, []string{"mk/ci.mk", "local.mk"}) || !slices.Equal(ci.Make["Makefile"], []string{"gates"}) {
		t.Errorf("CalleesOf with an include = %+v", ci)
	}
	// Round 35: an include named through a variable assigned a literal.
	incVar := tree(map[string]string{"Makefile": "CONF = mk/ci.mk\ninclude $(CONF)\n-include ${LOCAL}\nLOCAL ?= local.mk\n", "mk/ci.mk": "gates:\n\tsessiongate verify\n"})
	if ci := CalleesOf([]byte(job), incVar); !slices.Equal(ci.MakeIncludes, []string{"mk/ci.mk", "local.mk"}) {
		t.Errorf("CalleesOf with includes named through variables = %+v", ci)
	}
	if IncludeWeakened([]byte("a"), []byte("a")) != "" || IncludeWeakened([]byte("a"), []byte("b")) == "" || IncludeWeakened([]byte("a"), nil) == "" || IncludeWeakened(nil, []byte("gates:\n\t@:\n")) == "" {
		t.Error("IncludeWeakened")
	}
	c := CalleesOf([]byte("include: [{local: /ci/verify.yml}, {project: other/x, file: ci.yml}]\nv:\n  script: [make verify, make -C docs]\n"), rd)
	if !slices.Equal(c.YAML, []string{"ci/verify.yml"}) || !slices.Equal(c.Make["Makefile"], []string{"verify"}) || len(c.Make) != 1 {
		t.Errorf("CalleesOf = %+v", c)
	}
}

// TestMakeWeakened: edits of the Makefile whose `verify` goal a CI job
// runs; lazy rows change what the goal runs, honest rows do not.
func TestMakeWeakened(t *testing.T) {
	edit := func(old, new string) string {
		if !strings.Contains(makefile, old) {
			t.Fatalf("the Makefile lacks %q", old)
		}
		return strings.Replace(makefile, old, new, 1)
	}
	for _, tc := range []struct {
		name, after string
		weak        bool
	}{
		{"recipe made to pass", edit("--format github", "--format github || true"), true},
		{"recipe prefixed to ignore errors", edit("\t$(SG) verify", "\t-$(SG) verify"), true},
		{"recipe emptied", edit("\t$(SG) verify --format github\n", "\t@:\n"), true},
		{"variable redirected", edit("SG ?= sessiongate", "SG ?= true"), true},
		{"target-specific variable", makefile + "verify: SG = true\n", true},
		{"every error ignored", makefile + ".IGNORE:\n", true},
		{"prerequisite's recipe changed", edit("golangci-lint run", "golangci-lint run || true"), true},
		{"no longer phony", edit(".PHONY: verify lint test", ".PHONY: lint test"), true},
		{"a shell that succeeds", "SHELL = /bin/true\n" + makefile, true},
		{"an include that can redefine it", makefile + "-include local.mk\n", true},
		{"target removed", edit("verify: lint\n\t$(SG) verify --format github\n", ""), true},
		{"a rule whose target is a variable", "CI_GOAL = verify\n" + makefile + "$(CI_GOAL):\n\t@echo ok\n", true},
		{"a pattern rule", makefile + "v%:\n\t@echo ok\n", true},
		{"continuation hides a true", edit("$(SG) verify --format github", "$(SG) verify \\\n\t  --format github; true"), true},
		// Round 35: a rule made by a function at the top level.
		{"a rule made by eval of a define", makefile + "define R\nverify:\n\t@echo ok\nendef\n$(eval $(R))\n", true},
		{"a rule made by eval of a call", makefile + "$(eval $(call mk,verify))\n", true},
		{"a rule made by eval inline", makefile + "$(eval verify: ; @echo ok)\n", true},
		// honest
		{"another target's recipe", edit("$(GO) test ./...", "$(GO) test -race ./..."), false},
		{"a target added", makefile + "\nfmt:\n\tgofmt -w .\n", false},
		{"a comment", "# the CI goals\n" + makefile, false},
		{"another variable", edit("GO = go", "GO = go1.26"), false},
		{"a define no line evaluates", makefile + "define HELP\nverify: runs sessiongate\nendef\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := MakeWeakened([]byte(makefile), []byte(tc.after), []string{"verify"})
			if (w != "") != tc.weak {
				t.Errorf("MakeWeakened = %q, want weakened %v\nbefore rule:\n%s\nafter rule:\n%s", w, tc.weak, makeRule([]byte(makefile), "verify"), makeRule([]byte(tc.after), "verify"))
			}
		})
	}
	if w := MakeWeakened([]byte(makefile), nil, []string{"verify"}); !strings.Contains(w, "deletes") {
		t.Errorf("deleted: %q", w)
	}
	if makeRule([]byte(makefile), "") != makeRule([]byte(makefile), "verify") {
		t.Error("the default goal is the first target, verify")
	}
}

// TestLineRuns: the make calls and script files a job's command line runs,
// read as shell (a GitHub expression in it does not stop the parse).
func TestLineRuns(t *testing.T) {
	for in, want := range map[string]string{
		"make verify":                                   "make .:#verify",
		"cd x && make -C tools ci lint":                 "make x/tools:#ci make x/tools:#lint",
		"make -f ci.mk -j4 check V=1":                   "make :ci.mk#check",
		"gmake --directory=sub":                         "make sub:#",
		"go test ./... && make -sk verify\n":            "make .:#verify",
		"echo make me a sandwich":                       "",
		"make --file=build/ci.mk verify 2>&1":           "make :build/ci.mk#verify",
		"echo ${{ github.sha }} && make gates":          "make .:#gates",
		"./scripts/ci.sh --strict && bash ci/verify.sh": "file scripts/ci.sh file ci/verify.sh",
		"python3 tools/../../escape.py; /usr/local/bin/check.sh; make -C ../other": "",
	} {
		var got []string
		files, makes := lineRuns(in)
		for _, f := range files {
			got = append(got, "file "+f)
		}
		for _, c := range makes {
			if c.dir == "" && c.file == "" {
				continue
			}
			for _, g := range c.goals {
				got = append(got, "make "+c.dir+":"+c.file+"#"+g)
			}
		}
		if g := strings.Join(got, " "); g != want {
			t.Errorf("%q: %q, want %q", in, g, want)
		}
	}
}

// TestIncludeGlobs: a GitLab pipeline that includes ci/*.yml by wildcard
// reads a file added there later; one that redefines the verify job, a
// template it extends or a setting overrides it, another job does not.
func TestIncludeGlobs(t *testing.T) {
	const base = "include:\n  - local: 'ci/*.yml'\n  - 'https://example.com/x.yml'\nverify:\n  extends: .sg\n  script: [sessiongate verify]\n.sg:\n  image: golang:1.26\ntest:\n  script: [go test ./...]\n"
	if g := IncludeGlobs([]byte(base), nil); !slices.Equal(g, []string{"ci/*.yml"}) {
		t.Fatalf("IncludeGlobs = %q", g)
	}
	if g := IncludeGlobs([]byte("include: 'ci/*.yml'\ntest:\n  script: [go test]\n"), nil); g != nil {
		t.Errorf("a pipeline that does not run sessiongate: %q", g)
	}
	for _, tc := range []struct {
		name, added string
		hit         bool
	}{
		{"the verify job redefined", "verify:\n  script: ['true']\n", true},
		{"its template redefined", ".sg:\n  allow_failure: true\n", true},
		{"workflow rules", "workflow:\n  rules: [{when: never}]\n", true},
		{"honest: another job", "lint:\n  script: [golangci-lint run]\n", false},
	} {
		if w := Overrides([]byte(base), nil, []byte(tc.added)); (w != "") != tc.hit {
			t.Errorf("%s: Overrides = %q", tc.name, w)
		}
	}
}
