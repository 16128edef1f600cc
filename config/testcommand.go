package config

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/internal/boundedread"
)

// TestCommand is a project's test command as `sessiongate init` finds it
// from the files at the repository's root, and what it was found from.
type TestCommand struct {
	Command string // "" when none was found
	From    string // e.g. "go.mod and *_test.go files"
	// CITimeout is how long the project's CI lets that step run
	// (timeout-minutes around it), 0 when unknown: a suite that needs
	// longer than command_timeout is killed at the gate.
	CITimeout time.Duration
	// Note says why tests were found but no command picked ("" when
	// none): init prints it.
	Note string
	// Warning says why the picked command may fail where the gate runs
	// it ("" when nothing is known against it): init prints it.
	Warning string
}

// npmPlaceholder reports the test script `npm init` writes, which runs
// nothing: echo "Error: no test specified" && exit 1.
func npmPlaceholder(script string) bool {
	return strings.Contains(script, "Error: no test specified") && strings.HasSuffix(strings.Join(strings.Fields(script), " "), "exit 1")
}

// makeTestTarget reports a Makefile rule for target ("test:", "test: deps",
// "test::"), not a variable ("test := ...") nor a longer name ("tests:").
func makeTestTarget(b []byte, target string) bool {
	for _, l := range strings.Split(string(b), "\n") {
		rest, ok := strings.CutPrefix(strings.TrimRight(l, "\r"), target)
		rest = strings.TrimLeft(rest, " \t")
		if ok && strings.HasPrefix(rest, ":") && !strings.HasPrefix(rest, ":=") {
			return true
		}
	}
	return false
}

// makePhony reports a .PHONY line naming target.
func makePhony(b []byte, target string) bool {
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(l), ".PHONY"); ok {
			if rest = strings.TrimLeft(rest, " \t"); strings.HasPrefix(rest, ":") && slices.Contains(strings.Fields(rest[1:]), target) {
				return true
			}
		}
	}
	return false
}

// makefileNames are the files GNU make reads, in its order: a project
// whose file is "makefile" or "GNUmakefile" runs `make test` as well.
var makefileNames = []string{"GNUmakefile", "makefile", "Makefile"}

// iniSection reports a line starting with one of prefixes in an INI or
// TOML file ("[tox]", "[testenv", "[tool.tox]").
func iniSection(b []byte, prefixes ...string) bool {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		for _, p := range prefixes {
			if strings.HasPrefix(l, p) {
				return true
			}
		}
	}
	return false
}

// DetectTestCommand finds the command that runs a repository's tests, the
// way CI starter workflows pick one: a Makefile's test (or check) target
// runs everything it names, and so does a justfile's, Taskfile's, mise's
// or pixi's test task, a Bazel workspace or an Earthfile's test target;
// otherwise each of Go (go.mod with test files),
// a package.json test script (not npm's placeholder), Cargo, Maven, Gradle,
// nox, tox, pytest (its configuration, or conftest.py) and a
// scripts/test.sh, test.sh or tests/run.sh,
// joined with && when there are several. What it finds becomes the QA
// gate's command: sessiongate runs it, so a QA gate is met by the tests
// passing, not by whatever command an agent ran.
func DetectTestCommand(root string) TestCommand {
	read := func(name string) []byte {
		b, err := boundedread.File(filepath.Join(root, name), boundedread.DefaultLimit)
		if err != nil {
			return nil
		}
		return b
	}
	exists := func(name string) bool {
		st, err := os.Stat(filepath.Join(root, name))
		return err == nil && st.Mode().IsRegular()
	}
	// What the project's own CI runs is how it tests: a guess from files
	// picked `python3 -m pytest` where the project runs `uv run pytest`
	// (the plain interpreter lacks its dependencies) and failed honest QA.
	if tc := ciTestCommand(root); tc.Command != "" {
		return tc
	}
	// GNU make reads the first of its names that exists; "check" is the
	// GNU coding standards' name for the test target.
	for _, name := range makefileNames {
		b := read(name)
		if b == nil {
			continue
		}
		for _, target := range []string{"test", "check"} {
			if makeTestTarget(b, target) {
				tc := TestCommand{Command: "make " + target, From: "the " + name + "'s " + target + " target"}
				if _, err := os.Stat(filepath.Join(root, target)); err == nil && !makePhony(b, target) {
					// make then says "'test' is up to date" and runs
					// nothing; the gate fails that as no test run.
					tc.Warning = "a file or folder named " + target + " exists and " + name + " does not declare .PHONY: " + target + ": `make " + target + "` runs no recipe there, and the QA gate fails a run that ran no test; add `.PHONY: " + target + "` to " + name
				}
				return tc
			}
		}
		break
	}
	// A task runner's test recipe is how the project tests, as a
	// Makefile's is; then a Bazel workspace or an Earthfile's test target.
	if cmd, why := recipeRunnerCommand(root); cmd != "" {
		return TestCommand{Command: cmd, From: why}
	}
	if cmd, why := bazelCommand(exists); cmd != "" {
		return TestCommand{Command: cmd, From: why}
	}
	if cmd, why := earthlyCommand(root); cmd != "" {
		return TestCommand{Command: cmd, From: why}
	}
	var cmds, from []string
	var note string
	add := func(cmd, why string) { cmds, from = append(cmds, cmd), append(from, why) }
	if exists("go.mod") && hasGoTests(root) {
		add("go test ./...", "go.mod and *_test.go files")
	} else if dir := goModuleBelow(root); dir != "" && !exists("go.mod") {
		add("go -C "+dir+" test ./...", dir+"/go.mod and *_test.go files")
	}
	if b := read("package.json"); b != nil {
		var pkg struct {
			Scripts map[string]string `json:"scripts"`
		}
		if json.Unmarshal(b, &pkg) == nil {
			if t := strings.TrimSpace(pkg.Scripts["test"]); t != "" && !npmPlaceholder(t) {
				switch {
				case exists("pnpm-lock.yaml"):
					add("pnpm test", "package.json's test script (pnpm-lock.yaml)")
				case exists("yarn.lock"):
					add("yarn test", "package.json's test script (yarn.lock)")
				case exists("bun.lock") || exists("bun.lockb"):
					add("bun run test", "package.json's test script (bun.lock)")
				default:
					add("npm test", "package.json's test script")
				}
			}
		}
	}
	if pnpmWorkspaceTest(read) {
		add("pnpm -r test", "pnpm-workspace.yaml (each package's test script)")
	}
	if exists("deno.json") || exists("deno.jsonc") {
		add("deno test", "deno.json")
	}
	if exists("mix.exs") {
		add("mix test", "mix.exs")
	}
	if exists("Package.swift") {
		add("swift test", "Package.swift")
	}
	if dotnetBuild(root) {
		add("dotnet test", "a .NET solution or project file")
	}
	if cmd, why := rubyTestCommand(root, read); cmd != "" {
		add(cmd, why)
	}
	if cmd, why := phpTestCommand(read); cmd != "" {
		add(cmd, why)
	}
	if exists("Cargo.toml") {
		add("cargo test", "Cargo.toml")
	}
	// JVM builds: the wrapper the project commits pins the build tool's
	// version, so it is what the project runs.
	switch {
	case exists("pom.xml") && exists("mvnw"):
		add("./mvnw -B test", "pom.xml and the Maven wrapper")
	case exists("pom.xml"):
		add("mvn -B test", "pom.xml")
	}
	gradle := exists("build.gradle") || exists("build.gradle.kts") || exists("settings.gradle") || exists("settings.gradle.kts")
	switch {
	case gradle && exists("gradlew"):
		add("./gradlew test", "the Gradle build and its wrapper")
	case gradle:
		add("gradle test", "the Gradle build")
	}
	// tox and nox make the environments the tests run in (with pytest in
	// them); the bare interpreter's pytest is not how such a project tests.
	switch {
	case exists("noxfile.py"):
		add("nox", "noxfile.py")
	case iniSection(read("tox.ini"), "[tox]", "[testenv") || iniSection(read("pyproject.toml"), "[tool.tox"):
		add("tox", "tox's configuration")
	case pytestConfigured(read) || exists("conftest.py") || pythonTestsListed(root, read):
		// The project's environment manager runs pytest with its
		// dependencies; the bare interpreter would not have them.
		switch {
		case exists("uv.lock"):
			add("uv run pytest", "pytest's configuration (uv.lock)")
		case exists("poetry.lock"):
			add("poetry run pytest", "pytest's configuration (poetry.lock)")
		case exists("pdm.lock"):
			add("pdm run pytest", "pytest's configuration (pdm.lock)")
		case exists("Pipfile.lock"):
			add("pipenv run pytest", "pytest's configuration (Pipfile.lock)")
		case iniSection(read("pyproject.toml"), "[tool.hatch.envs"):
			add("hatch test", "pytest's configuration (hatch's environments)")
		case projectVenv(root) != "":
			// Its pytest and dependencies live in the venv, which the gate
			// never runs from (the agent can rewrite it): no command beats
			// one that fails every honest QA gate.
			note = "pytest runs in " + projectVenv(root) + "/, the project's virtualenv; the gate runs no program from the work tree (the agent could rewrite it) and python3 on its PATH lacks the venv's packages, so QA_VALIDATION gets no command: set commands.QA_VALIDATION to a runner outside the work tree that builds the environment (uv run pytest with a uv.lock, tox, nox), or leave it empty and the gate takes the agent's observed test runs"
		default:
			add("python3 -m pytest", "pytest's configuration")
		}
	}
	// tests/run.sh: a test folder's own runner (issue 25 field pass).
	for _, s := range []string{"scripts/test.sh", "test.sh", "tests/run.sh"} {
		if exists(s) {
			add("sh "+s, s)
			break
		}
	}
	return TestCommand{Command: strings.Join(cmds, " && "), From: strings.Join(from, ", "), Note: note}
}

// pytestConfigured reports a pytest section in the files pytest reads.
func pytestConfigured(read func(string) []byte) bool {
	if read("pytest.ini") != nil {
		return true
	}
	for name, section := range map[string]string{"pyproject.toml": "[tool.pytest", "setup.cfg": "[tool:pytest]", "tox.ini": "[pytest]"} {
		sc := bufio.NewScanner(bytes.NewReader(read(name)))
		for sc.Scan() {
			if strings.HasPrefix(strings.TrimSpace(sc.Text()), section) {
				return true
			}
		}
	}
	return false
}

// errFound stops the walk at the first test file.
var errFound = errors.New("found")

// hasGoTests reports whether the module has a _test.go file outside
// vendor/, testdata/, node_modules/ and hidden folders: `go test ./...` of a
// module without tests checks nothing.
func hasGoTests(root string) bool {
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || name == "vendor" || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, "_test.go") {
			return errFound
		}
		return nil
	})
	return errors.Is(err, errFound)
}
