package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/config"
	"github.com/sessiongate/sessiongate/protocolspec"
)

// TestInitAdoptsExistingProtocol: in a real repository whose protocol
// lives at the root, in .agents/ or in docs/, or is named with --protocol,
// init writes only sessiongate.yaml pointing at it (no starter shadowing
// it) and prints its lint summary, inferred checks and evidence-only
// requirements; later commands use it.
func TestInitAdoptsExistingProtocol(t *testing.T) {
	real, err := os.ReadFile(fixture(t, "SESSION-PROTOCOL_2025-12-22_3821367d2.md"))
	if err != nil {
		t.Fatal(err)
	}
	spec, err := protocolspec.Parse("p.md", real)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		at    string   // where the protocol lives
		flags []string // extra arguments
	}{
		{"root", "SESSION-PROTOCOL.md", nil},
		{".agents", ".agents/SESSION-PROTOCOL.md", nil},
		{"docs", "docs/SESSION-PROTOCOL.md", nil},
		{"--protocol", "process/agent protocol.md", []string{"--protocol", "process/agent protocol.md"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := repoDir(t)
			p := filepath.Join(dir, filepath.FromSlash(c.at))
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, real, 0o644); err != nil {
				t.Fatal(err)
			}
			code, out, stderr := sg(t, "", append(c.flags, "init")...)
			if code != 0 {
				t.Fatalf("init: exit %d %s", code, stderr)
			}
			if c.at != "SESSION-PROTOCOL.md" {
				if _, err := os.Stat(filepath.Join(dir, "SESSION-PROTOCOL.md")); err == nil {
					t.Fatal("init wrote a root SESSION-PROTOCOL.md that shadows the existing protocol")
				}
			}
			if b, _ := os.ReadFile(p); string(b) != string(real) {
				t.Fatal("init changed the existing protocol")
			}
			cfg, err := config.Load(dir)
			if err != nil {
				t.Fatalf("written config does not load: %v", err)
			}
			if cfg.Protocol != c.at {
				t.Errorf("config protocol = %q, want %q", cfg.Protocol, c.at)
			}
			for _, want := range []string{
				"found protocol " + c.at,
				"gate coverage:",
				fmt.Sprintf("inferred checks: %d", len(spec.InferredChecks())),
				"DOCUMENTATION_UPDATE: unchanged .agents/HANDOFF.md  <- line 203",
				fmt.Sprintf("evidence-only requirements: %d", len(spec.EvidenceOnly())),
			} {
				if !strings.Contains(out, want) {
					t.Errorf("init output lacks %q:\n%s", want, out)
				}
			}
			// Later commands read the protocol the config names.
			if code, out, stderr := sg(t, "", "protocol", "show"); code != 0 || !strings.Contains(out, "SKILL_VALIDATION") {
				t.Errorf("protocol show after init: exit %d %q %s", code, out, stderr)
			}
		})
	}
}

// TestInitAdoptedConfigMatchesProtocol: the 2025-12-18 protocol has no
// QA_VALIDATION phase, so the config init writes must not name it in
// hooks.pre-push (every command would refuse the config); a session then
// starts under it. Found by bench/compliance.
func TestInitAdoptedConfigMatchesProtocol(t *testing.T) {
	old, err := os.ReadFile(fixture(t, "SESSION-PROTOCOL_2025-12-18_fd7d1d61d.md"))
	if err != nil {
		t.Fatal(err)
	}
	dir := repoDir(t)
	p := filepath.Join(dir, ".agents", "SESSION-PROTOCOL.md")
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, old, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := sg(t, "", "init"); code != 0 {
		t.Fatalf("init: exit %d %s", code, stderr)
	}
	cfg, err := config.Load(dir)
	if err != nil {
		t.Fatalf("written config does not load: %v", err)
	}
	if len(cfg.Hooks.PrePush) != 0 {
		t.Errorf("hooks.pre-push = %v for a protocol without QA_VALIDATION", cfg.Hooks.PrePush)
	}
	// New configs keep session records off the working branch.
	if cfg.SessionRecord != "refs/sessiongate/records" {
		t.Errorf("session_record = %q, want the records ref", cfg.SessionRecord)
	}
	if code, out, stderr := sg(t, "", "protocol", "lint"); code != 0 {
		t.Errorf("protocol lint after init: exit %d\n%s%s", code, out, stderr)
	}
	if code, _, stderr := sg(t, "", "session", "start", "--objective", "first session under the adopted protocol"); code != 0 {
		t.Errorf("session start after init: exit %d %s", code, stderr)
	}
}

// TestInitWritesStarterOnlyWhenNone: no protocol anywhere gives the
// starter (at the root, or at a --protocol path that does not exist yet);
// a broken protocol, a config already there or a path outside the
// repository write nothing.
func TestInitWritesStarterOnlyWhenNone(t *testing.T) {
	t.Run("none", func(t *testing.T) {
		dir := repoDir(t)
		code, out, stderr := sg(t, "", "init")
		if code != 0 {
			t.Fatalf("init: %d %s", code, stderr)
		}
		b, err := os.ReadFile(filepath.Join(dir, "SESSION-PROTOCOL.md"))
		if err != nil || string(b) != string(starterProtocol) {
			t.Fatalf("starter not written: %v", err)
		}
		if !strings.Contains(out, "no protocol found") || !strings.Contains(out, "inferred checks: 0") {
			t.Errorf("output %q", out)
		}
	})
	t.Run("--protocol to create", func(t *testing.T) {
		dir := repoDir(t)
		if code, _, stderr := sg(t, "", "--protocol", "agents/PROTO.md", "init"); code != 0 {
			t.Fatalf("init: %d %s", code, stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, "agents", "PROTO.md")); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(dir, "SESSION-PROTOCOL.md")); err == nil {
			t.Fatal("starter also written at the root")
		}
		cfg, _ := config.Load(dir)
		if cfg == nil || cfg.Protocol != "agents/PROTO.md" {
			t.Fatalf("config %+v", cfg)
		}
	})
	nothingWritten := func(t *testing.T, dir string) {
		t.Helper()
		if _, err := os.Stat(filepath.Join(dir, "sessiongate.yaml")); err == nil {
			if b, _ := os.ReadFile(filepath.Join(dir, "sessiongate.yaml")); string(b) != "mine: true\n" {
				t.Error("sessiongate.yaml written")
			}
		}
	}
	t.Run("broken protocol", func(t *testing.T) {
		dir := repoDir(t)
		os.MkdirAll(filepath.Join(dir, ".agents"), 0o755)
		os.WriteFile(filepath.Join(dir, ".agents", "SESSION-PROTOCOL.md"), []byte("# P\n\n## Session Start\n\n### Phase 1: A\n\n<!-- gate: file_exist x -->\n"), 0o644)
		code, _, stderr := sg(t, "", "init")
		if code != exitBlocked || !strings.Contains(stderr, `unknown check kind "file_exist"`) || !strings.Contains(stderr, "nothing was written") {
			t.Fatalf("init: %d %q", code, stderr)
		}
		nothingWritten(t, dir)
		if _, err := os.Stat(filepath.Join(dir, "SESSION-PROTOCOL.md")); err == nil {
			t.Error("starter written beside a broken protocol")
		}
	})
	t.Run("config exists", func(t *testing.T) {
		dir := repoDir(t)
		os.WriteFile(filepath.Join(dir, "sessiongate.yaml"), []byte("mine: true\n"), 0o644)
		code, _, stderr := sg(t, "", "init")
		if code != exitUsage || !strings.Contains(stderr, "already exists") {
			t.Fatalf("init: %d %q", code, stderr)
		}
		nothingWritten(t, dir)
		if _, err := os.Stat(filepath.Join(dir, "SESSION-PROTOCOL.md")); err == nil {
			t.Error("starter written although the config exists")
		}
	})
	t.Run("outside the repository", func(t *testing.T) {
		dir := repoDir(t)
		outside := filepath.Join(t.TempDir(), "P.md")
		code, _, stderr := sg(t, "", "--protocol", outside, "init")
		if code != exitUsage || !strings.Contains(stderr, "outside the repository") {
			t.Fatalf("init: %d %q", code, stderr)
		}
		nothingWritten(t, dir)
	})
}

// TestProtocolShowsInferredChecks: protocol show (text and --json) and
// protocol lint show each inferred check with the sentence and line it
// came from, on the real v1.4 protocol.
func TestProtocolShowsInferredChecks(t *testing.T) {
	p := fixture(t, "SESSION-PROTOCOL_2025-12-22_3821367d2.md")
	code, out, stderr := sg(t, "", "protocol", "show", p)
	if code != 0 || !strings.Contains(out, "inferred checks: 6") || !strings.Contains(out, `unchanged .agents/HANDOFF.md  <- line 203 DOCUMENTATION_UPDATE.`) {
		t.Fatalf("show: exit %d %s\n%s", code, stderr, out)
	}
	code, out, _ = sg(t, "", "protocol", "show", "--json", p)
	var spec protocolspec.Spec
	if code != 0 || json.Unmarshal([]byte(out), &spec) != nil {
		t.Fatalf("show --json: exit %d", code)
	}
	n := 0
	for _, ph := range spec.Phases {
		for _, c := range ph.Checks {
			if c.Inferred != nil {
				n++
				if c.Inferred.Sentence == "" || c.Inferred.Line == 0 || c.Inferred.Rule == "" || c.Inferred.Requirement == "" {
					t.Errorf("inferred check without its source: %+v", c.Inferred)
				}
			}
		}
	}
	if n != 6 { // clean_worktree from "MUST stage all changed files", and the branch handoff (helper 363), among them
		t.Errorf("--json has %d inferred checks, want 6", n)
	}
	code, out, _ = sg(t, "", "protocol", "lint", p)
	if code != 0 || !strings.Contains(out, "commit_message conventional  <- line 268") || !strings.Contains(out, "evidence-only requirements: ") ||
		!strings.Contains(out, ":250: QA_VALIDATION.") {
		t.Errorf("lint: exit %d\n%s", code, out)
	}
}

// TestInitSetsTheTestCommand: init writes the project's test command as
// QA_VALIDATION's, so the starter's QA gate runs the tests instead of
// taking an observed run of any command; with none found it says so and
// leaves commands empty.
func TestInitSetsTheTestCommand(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"go", map[string]string{"go.mod": "module x\n\ngo 1.22\n", "x_test.go": "package x\n"}, "go test ./..."},
		{"go and npm", map[string]string{"go.mod": "module x\n", "x_test.go": "package x\n", "package.json": `{"scripts": {"test": "node --test"}}`}, "go test ./... && npm test"},
		{"none", map[string]string{"README.md": "# x\n"}, ""},
		{"the CI's step", map[string]string{"pyproject.toml": "[tool.pytest.ini_options]\n", "uv.lock": "",
			".github/workflows/ci.yml": "jobs:\n  t:\n    timeout-minutes: 20\n    steps:\n      - run: uv run pytest -x\n"}, "uv run pytest -x"},
		// Pass 27 c5: a task runner's recipe, and GitLab's job timeout.
		{"a justfile", map[string]string{"justfile": "test:\n    go test ./...\n", "go.mod": "module x\n", "x_test.go": "package x\n"}, "just test"},
		// Lazy pass 33: a folder named like the target runs nothing.
		{"make test beside a test folder", map[string]string{"Makefile": "test:\n\tgo test ./...\n", "test/fixtures/a.txt": "a\n"}, "make test"},
		{"a Taskfile under the CI's GitLab job", map[string]string{"Taskfile.yml": "version: '3'\ntasks:\n  test:\n    cmds:\n      - go test ./...\n",
			".gitlab-ci.yml": "test:\n  timeout: 20m\n  script:\n    - task test\n"}, "task test"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := repoDir(t)
			for name, body := range tc.files {
				if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			code, out, stderr := sg(t, "", "init")
			if code != 0 {
				t.Fatalf("init: %d %s", code, stderr)
			}
			cfg, err := config.Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			if got := cfg.Commands["QA_VALIDATION"]; got != tc.want {
				t.Fatalf("commands.QA_VALIDATION = %q, want %q\n%s", got, tc.want, out)
			}
			if tc.want != "" && !strings.Contains(out, "QA_VALIDATION runs") || tc.want == "" && !strings.Contains(out, "no test command found") {
				t.Errorf("init did not say what it set: %s", out)
			}
			// Without a command, init and protocol lint both say what the
			// QA gate then takes (issue 25); with one, neither does.
			const note = "note: QA_VALIDATION has no test command"
			if tc.want == "" && (!strings.Contains(out, note) || !strings.Contains(out, "recognised test suite")) || tc.want != "" && strings.Contains(out, note) {
				t.Errorf("init's note on a QA phase without a test command, for %s: %s", tc.name, out)
			}
			if code, lint, stderr := sg(t, "", "protocol", "lint"); code != 0 || strings.Contains(lint, note) != (tc.want == "") {
				t.Errorf("protocol lint (exit %d %s) on a QA phase without a test command, for %s: %s", code, stderr, tc.name, lint)
			}
			if strings.Contains(tc.name, "test folder") != strings.Contains(out, "warning: a file or folder named test exists and Makefile does not declare .PHONY: test") {
				t.Errorf("init's .PHONY warning, for %s: %s", tc.name, out)
			}
			if strings.Contains(tc.name, "CI") != strings.Contains(out, "warning: the CI gives that step up to 20m0s") {
				t.Errorf("init's timeout warning, for %s: %s", tc.name, out)
			}
			// lint says it too, for the phase whose command it is.
			if _, lint, _ := sg(t, "", "protocol", "lint"); strings.Contains(tc.name, "CI") != strings.Contains(lint, "warning: QA_VALIDATION: the CI gives "+strconv.Quote(tc.want)+" up to 20m0s") {
				t.Errorf("protocol lint's timeout warning, for %s: %s", tc.name, lint)
			}
		})
	}
}

// TestInitProtectsWhatTheVerifyJobRuns (round 33): the local action and
// the script the CI job that runs sessiongate runs from the work tree go
// under protected_paths, so an agent's edit of them (`exit 0` in
// scripts/verify.sh) is a protected change; another job's script does not,
// and without a CI file that runs sessiongate init says so.
func TestInitProtectsWhatTheVerifyJobRuns(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string
		says  string
	}{
		{"a local action and a script", map[string]string{
			".github/workflows/ci.yml":         "on: [pull_request]\njobs:\n  verify:\n    steps:\n      - uses: ./.github/actions/setup\n      - run: ./scripts/verify.sh\n      - run: sessiongate verify\n  lint:\n    steps:\n      - run: ./scripts/lint.sh\n",
			".github/actions/setup/action.yml": "runs: {using: composite, steps: []}\n",
			"scripts/verify.sh":                "#!/bin/sh\n",
			"scripts/lint.sh":                  "#!/bin/sh\n",
		}, []string{".github/actions/setup/**", "scripts/verify.sh"}, "protected_paths: .github/actions/setup/**, scripts/verify.sh"},
		{"a GitLab include that runs it, and its script", map[string]string{
			".gitlab-ci.yml": "include:\n  - local: ci/verify.yml\ntest:\n  script: [make test]\n",
			"ci/verify.yml":  "verify:\n  script: [./ci/verify.sh]\n",
			"ci/verify.sh":   "#!/bin/sh\nexec sessiongate verify\n",
		}, []string{"ci/verify.sh", "ci/verify.yml"}, "protected_paths: ci/verify.sh, ci/verify.yml"},
		{"a make goal defined in an included file", map[string]string{
			".github/workflows/ci.yml": "on: [pull_request]\njobs:\n  gates:\n    steps:\n      - run: make gates\n",
			"Makefile":                 "include mk/ci.mk\n-include local.mk\ntest:\n\tgo test ./...\n",
			"mk/ci.mk":                 ".PHONY: gates\ngates:\n\tsessiongate verify\n",
		}, []string{"local.mk", "mk/ci.mk"}, "protected_paths: local.mk, mk/ci.mk"},
		{"a make goal not .PHONY", map[string]string{
			".github/workflows/ci.yml": "on: [pull_request]\njobs:\n  gates:\n    steps:\n      - run: make gates\n",
			"Makefile":                 "gates:\n\tsessiongate verify\n",
		}, nil, "warning: CI runs sessiongate through make goals .PHONY does not list (Makefile: gates)"},
		{"a script that is not there", map[string]string{
			".gitlab-ci.yml": "verify:\n  script:\n    - bash ci/verify.sh\n    - sessiongate verify\n",
		}, nil, ""},
		{"no CI runs sessiongate", map[string]string{".github/workflows/ci.yml": "jobs:\n  t:\n    steps:\n      - run: ./scripts/test.sh\n", "scripts/test.sh": "#!/bin/sh\n"}, nil, "no CI file runs sessiongate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := repoDir(t)
			for name, body := range tc.files {
				if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			code, out, stderr := sg(t, "", "init")
			if code != 0 {
				t.Fatalf("init: %d %s", code, stderr)
			}
			cfg, err := config.Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(cfg.ProtectedPaths, tc.want) {
				t.Errorf("protected_paths = %q, want %q", cfg.ProtectedPaths, tc.want)
			}
			if tc.says != "" && !strings.Contains(out, tc.says) {
				t.Errorf("init does not say %q:\n%s", tc.says, out)
			}
			// doctor agrees: nothing left open after init.
			_, doc, _ := sg(t, "", "doctor")
			if tc.want != nil && !regexp.MustCompile(`(?m)^ok\s+ci\s`).MatchString(doc) {
				t.Errorf("doctor after init:\n%s", doc)
			}
		})
	}
}
