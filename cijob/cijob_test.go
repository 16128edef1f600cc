package cijob

import (
	"os"
	"strings"
	"testing"
)

const workflow = `name: ci
on:
  push:
    branches: [main]
  pull_request:
permissions:
  contents: read
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: go build ./...
  verify:
    needs: build
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0
      - run: go install github.com/sessiongate/sessiongate/cmd/sessiongate@latest
      - run: sessiongate verify
  lint:
    runs-on: ubuntu-latest
    steps:
      - run: golangci-lint run
`

// TestChanged: each row edits the workflow above the way a lazy agent whose
// commit CI flagged would (want names a part) or the way honest work does
// (want "").
func TestChanged(t *testing.T) {
	edit := func(old, new string) string {
		if !strings.Contains(workflow, old) {
			t.Fatalf("the workflow lacks %q", old)
		}
		return strings.Replace(workflow, old, new, 1)
	}
	for _, tc := range []struct {
		name, after, want string
	}{
		// lazy
		{"verify step removed", edit("      - run: sessiongate verify\n", ""), "jobs.verify"},
		{"verify made to pass", edit("sessiongate verify", "sessiongate verify || true"), "jobs.verify"},
		{"verify job allowed to fail", edit("  verify:\n", "  verify:\n    continue-on-error: true\n"), "jobs.verify"},
		{"verify job skipped", edit("  verify:\n", "  verify:\n    if: false\n"), "jobs.verify"},
		{"verify job renamed away", edit("  verify:\n", "  check:\n"), "jobs.verify (removed)"},
		{"verify step only in a comment", edit("      - run: sessiongate verify\n", "      # - run: sessiongate verify\n"), "jobs.verify"},
		{"the job verify needs made to skip", edit("  build:\n", "  build:\n    if: false\n"), "jobs.build"},
		{"path filter on the trigger", edit("  pull_request:\n", "  pull_request:\n    paths-ignore: ['src/**']\n"), "on"},
		{"recheck narrowed", edit("sessiongate verify", "sessiongate verify --recheck 0"), "jobs.verify"},
		{"env that redirects the range", edit("permissions:\n", "env:\n  SESSIONGATE_RECORDS_REF: refs/x\npermissions:\n"), "env (added)"},
		// honest
		{"another job edited", edit("golangci-lint run", "golangci-lint run --timeout 5m"), ""},
		{"a job added", workflow + "  docs:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make docs\n", ""},
		{"display name", edit("name: ci\n", "name: CI\n"), ""},
		{"comment and quoting only", edit("      - run: sessiongate verify\n", "      # the net\n      - run: \"sessiongate verify\"\n"), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Changed([]byte(workflow), []byte(tc.after), nil)
			if err != nil {
				t.Fatal(err)
			}
			if g := strings.Join(got, ", "); g != tc.want {
				t.Errorf("Changed = %q, want %q", g, tc.want)
			}
		})
	}
}

// TestChangedGitLab: the template sessiongate ships, included by a
// project's .gitlab-ci.yml as the README shows, and a project that writes
// the job out with extends.
func TestChangedGitLab(t *testing.T) {
	tmpl, err := os.ReadFile("../ci/gitlab/sessiongate-verify.gitlab-ci.yml")
	if err != nil {
		t.Fatal(err)
	}
	if p, err := Parts(tmpl); err != nil || len(p) == 0 {
		t.Fatalf("the shipped template has no sessiongate parts: %v %v", p, err)
	}
	const project = `stages: [test, verify]
variables:
  GIT_DEPTH: "0"
.go:
  image: golang:1.26
test:
  extends: .go
  stage: test
  script: [go test ./...]
verify:
  extends: .sg
  stage: verify
  script:
    - sessiongate verify
.sg:
  image: golang:1.26
  before_script: [go install github.com/sessiongate/sessiongate/cmd/sessiongate@latest]
`
	for _, tc := range []struct{ name, old, new, want string }{
		{"template the job extends", "  image: golang:1.26\n  before_script", "  image: golang:1.26\n  allow_failure: true\n  before_script", ".sg"},
		{"shallow clone", `GIT_DEPTH: "0"`, `GIT_DEPTH: "1"`, "variables"},
		{"job allowed to fail", "  stage: verify\n", "  stage: verify\n  allow_failure: true\n", "verify"},
		{"rules that never run it", "  stage: verify\n", "  stage: verify\n  rules: [{when: never}]\n", "verify"},
		{"workflow rules added", "stages: [test, verify]\n", "stages: [test, verify]\nworkflow:\n  rules: [{if: '$CI_COMMIT_BRANCH', when: never}]\n", "workflow (added)"},
		{"a stage added", "stages: [test, verify]", "stages: [test, lint, verify]", ""},
		{"another job's template", "  image: golang:1.26\ntest:", "  image: golang:1.27\ntest:", ""},
		{"another job", "script: [go test ./...]", "script: [go test -race ./...]", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(project, tc.old) {
				t.Fatalf("project lacks %q", tc.old)
			}
			got, err := Changed([]byte(project), []byte(strings.Replace(project, tc.old, tc.new, 1)), nil)
			if err != nil {
				t.Fatal(err)
			}
			if g := strings.Join(got, ", "); g != tc.want {
				t.Errorf("Changed = %q, want %q", g, tc.want)
			}
		})
	}
}

func TestWeakened(t *testing.T) {
	if w := Weakened([]byte(workflow), nil, nil); !strings.Contains(w, "deletes it") {
		t.Errorf("deleted: %q", w)
	}
	if w := Weakened([]byte(workflow), []byte("jobs: [unclosed\n"), nil); !strings.Contains(w, "unparsable") {
		t.Errorf("unparsable: %q", w)
	}
	if w := Weakened([]byte("jobs:\n  a:\n    steps: [{run: make}]\n"), nil, nil); w != "" {
		t.Errorf("a workflow without sessiongate deleted: %q", w)
	}
	if w := Weakened([]byte(workflow), []byte(workflow+"# note\n"), nil); w != "" {
		t.Errorf("unchanged: %q", w)
	}
	for rel, want := range map[string]bool{".github/workflows/ci.yml": true, ".gitlab-ci.yml": true, ".github/workflows/sub/x.yml": false, "ci.yml": false} {
		if Match(rel) != want {
			t.Errorf("Match(%q) = %v", rel, !want)
		}
	}
}

func TestLocalFiles(t *testing.T) {
	const wf = `on: [pull_request]
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: ./.github/actions/setup-go
      - run: go test ./...
  verify:
    needs: build
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: ./.github/actions/install-sessiongate/
      - run: |
          ./scripts/fetch-records.sh "$GITHUB_BASE_REF"
          bash ci/verify.sh --strict
          sessiongate verify --format github > "$RUNNER_TEMP/out.txt"
          python3 tools/../../escape.py
      - run: /usr/local/bin/check.sh
  lint:
    runs-on: ubuntu-latest
    steps:
      - run: ./scripts/lint.sh
`
	got := strings.Join(LocalFiles([]byte(wf), nil), " ")
	want := ".github/actions/install-sessiongate/** .github/actions/setup-go/** ci/verify.sh scripts/fetch-records.sh"
	if got != want {
		t.Errorf("LocalFiles = %q\nwant          %q", got, want)
	}
	if f := LocalFiles([]byte("jobs:\n  a:\n    steps: [{run: ./x.sh}]\n"), nil); f != nil {
		t.Errorf("a file without sessiongate: %q", f)
	}
}
