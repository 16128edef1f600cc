package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// Project shapes of the round-17 field pass (issue 25 item 10): each got no
// QA command, or one that fails honest work at the gate.

// projectVenv returns the project's own virtualenv folder (".venv" or
// "venv" holding pyvenv.cfg), "" when there is none. A project that keeps
// its dependencies there is tested with that venv's python; the gate runs
// `python3` from its PATH, which never holds the work tree (an
// agent-written python would answer), so the system interpreter lacks the
// dependencies and `python3 -m pytest` fails honest QA.
func projectVenv(root string) string {
	for _, d := range []string{".venv", "venv"} {
		if st, err := os.Stat(filepath.Join(root, d, "pyvenv.cfg")); err == nil && st.Mode().IsRegular() {
			return d
		}
	}
	return ""
}

// pythonTestsListed reports a Python project without pytest configuration
// that still tests with pytest: test_*.py or *_test.py files at the root or
// in tests/ or test/, and pytest named in a requirements file, pyproject.toml,
// setup.cfg, setup.py or Pipfile. Such projects got no QA command.
func pythonTestsListed(root string, read func(string) []byte) bool {
	names := []string{"pyproject.toml", "setup.cfg", "setup.py", "Pipfile"}
	for _, pat := range []string{"requirements*.txt", "requirements/*.txt"} {
		m, _ := filepath.Glob(filepath.Join(root, pat))
		for _, f := range m {
			rel, _ := filepath.Rel(root, f)
			names = append(names, rel)
		}
	}
	named := false
	for _, n := range names {
		if strings.Contains(strings.ToLower(string(read(n))), "pytest") {
			named = true
			break
		}
	}
	if !named {
		return false
	}
	for _, dir := range []string{".", "tests", "test"} {
		for _, pat := range []string{"test_*.py", "*_test.py"} {
			if m, _ := filepath.Glob(filepath.Join(root, dir, pat)); len(m) > 0 {
				return true
			}
		}
	}
	return false
}

// goModuleBelow returns the one folder directly under root holding a Go
// module with tests (a service in svc/, a tool in tools/), "" when there is
// none or several. `go -C dir test ./...` runs it without a shell's cd.
func goModuleBelow(root string) string {
	entries, err := os.ReadDir(root)
	if err != nil {
		return ""
	}
	var found []string
	for _, e := range entries {
		n := e.Name()
		if !e.IsDir() || strings.HasPrefix(n, ".") || n == "vendor" || n == "node_modules" || n == "testdata" {
			continue
		}
		dir := filepath.Join(root, n)
		if st, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil && st.Mode().IsRegular() && hasGoTests(dir) {
			found = append(found, n)
		}
	}
	if len(found) != 1 {
		return ""
	}
	return found[0]
}

// rubyTestCommand is a Ruby project's suite: RSpec (a .rspec file or
// spec/*_spec.rb), else a Rakefile's test task; under Bundler (a Gemfile)
// through `bundle exec`, as such projects run them.
func rubyTestCommand(root string, read func(string) []byte) (string, string) {
	prefix, from := "", ""
	if read("Gemfile") != nil {
		prefix, from = "bundle exec ", " (Gemfile)"
	}
	specs, _ := filepath.Glob(filepath.Join(root, "spec", "*_spec.rb"))
	if read(".rspec") != nil || len(specs) > 0 {
		return prefix + "rspec", "RSpec's spec/ folder" + from
	}
	rake := string(read("Rakefile"))
	if strings.Contains(rake, "TestTask") || strings.Contains(rake, "task :test") || strings.Contains(rake, "task test:") {
		return prefix + "rake test", "the Rakefile's test task" + from
	}
	return "", ""
}

// phpTestCommand is a PHP project's suite: composer.json's test script, else
// PHPUnit's configuration, with the PHPUnit Composer installed
// (vendor/bin/phpunit) when composer.json requires it.
func phpTestCommand(read func(string) []byte) (string, string) {
	var c struct {
		Scripts    map[string]json.RawMessage `json:"scripts"`
		Require    map[string]string          `json:"require"`
		RequireDev map[string]string          `json:"require-dev"`
	}
	b := read("composer.json")
	if b != nil && json.Unmarshal(b, &c) == nil && len(c.Scripts["test"]) > 0 {
		return "composer test", "composer.json's test script"
	}
	if read("phpunit.xml") == nil && read("phpunit.xml.dist") == nil {
		return "", ""
	}
	if _, ok := c.RequireDev["phpunit/phpunit"]; ok {
		return "vendor/bin/phpunit", "PHPUnit's configuration (composer.json requires phpunit/phpunit)"
	}
	if _, ok := c.Require["phpunit/phpunit"]; ok {
		return "vendor/bin/phpunit", "PHPUnit's configuration (composer.json requires phpunit/phpunit)"
	}
	return "phpunit", "PHPUnit's configuration"
}

// dotnetBuild reports a .NET solution or project file at the root.
func dotnetBuild(root string) bool {
	for _, pat := range []string{"*.sln", "*.slnx", "*.csproj", "*.fsproj"} {
		if m, _ := filepath.Glob(filepath.Join(root, pat)); len(m) > 0 {
			return true
		}
	}
	return false
}

// pnpmWorkspaceTest: a pnpm workspace whose root package.json has no test
// script runs each package's (`pnpm -r test`).
func pnpmWorkspaceTest(read func(string) []byte) bool {
	if read("pnpm-workspace.yaml") == nil {
		return false
	}
	var pkg struct {
		Scripts map[string]string `json:"scripts"`
	}
	b := read("package.json")
	if b != nil && json.Unmarshal(b, &pkg) == nil && strings.TrimSpace(pkg.Scripts["test"]) != "" {
		return false
	}
	return true
}
