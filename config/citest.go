package config

import (
	"bufio"
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/internal/lazyregexp"
)

// testRunner matches a command line that runs a test suite with a runner
// people use: what a CI step's `run:` (GitHub) or `script:` (GitLab) line
// must start with to be taken as the project's test command. Anything else
// (a lint, a build, a deploy, a line with shell logic) is not. Compiled on
// first use: every process (each git and agent hook) would pay for it at
// init, and only `sessiongate init` reads CI files.
var testRunner = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:` +
		`(?:(?:uv|poetry|pdm|pipenv|hatch) run (?:-{1,2}[A-Za-z][\w-]* )*)?(?:python3? -m )?pytest\b|` +
		`(?:(?:uv|poetry|pdm|pipenv|hatch) run (?:-{1,2}[A-Za-z][\w-]* )*)?python3? -m unittest\b|hatch test\b|` +
		`deno test\b|bun test\b|(?:vendor/bin/)?phpunit\b|composer test\b|(?:bundle exec )?rake (?:test|spec)\b|bundle exec rspec\b|` +
		`pnpm (?:-r|--recursive) test\b|go -C \S+ test\b|` +
		`tox\b|nox\b|go test\b|cargo (?:test|nextest run)\b|make (?:test|check)\b|just test\b|task test\b|(?:mise|pixi) run test\b|` +
		`bazel(?:isk)? test\b|earthly \+test\b|` +
		`(?:npm|pnpm|yarn|bun)(?: run)? test\b|npx (?:jest|vitest)\b|` +
		`(?:\./gradlew|gradle) (?:test|check)\b|mvn(?: -[A-Za-z]\S*)* (?:test|verify)\b|` +
		`bundle exec (?:rspec|rake test)\b|rspec\b|dotnet test\b|mix test\b|swift test\b|ctest\b)`)
})

// shellLogic is a line no gate should take whole: it pipes, chains,
// backgrounds or substitutes.
var shellLogic = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("[|;&`$<>]") })

// ciFiles are the other CI systems' pipeline files, after GitHub's
// workflows: their steps' `script:` (GitLab, Travis, Azure, Bitbucket),
// `run:` or `run: {command:}` (CircleCI) and `command:`/`commands:`
// (Buildkite) lines are read the same way.
var ciFiles = []string{".gitlab-ci.yml", ".circleci/config.yml", ".buildkite/pipeline.yml", ".buildkite/pipeline.yaml",
	"buildkite.yml", "azure-pipelines.yml", "bitbucket-pipelines.yml", ".travis.yml"}

// CITimeoutFor is how long the repository's CI lets a step that runs
// command exactly run (timeout-minutes, timeout_in_minutes, GitLab's
// timeout), 0 when no CI step runs it or none says: `protocol lint`
// warns, phase by phase, when it is longer than command_timeout.
func CITimeoutFor(root, command string) time.Duration {
	command = strings.Join(strings.Fields(command), " ")
	if command == "" {
		return 0
	}
	files, _ := filepath.Glob(filepath.Join(root, ".github", "workflows", "*.y*ml"))
	sort.Strings(files)
	for _, f := range ciFiles {
		files = append(files, filepath.Join(root, filepath.FromSlash(f)))
	}
	for _, f := range files {
		b, err := boundedread.File(f, boundedread.DefaultLimit)
		if err != nil || len(b) > 1<<20 {
			continue
		}
		var doc yaml.Node
		if yaml.Unmarshal(b, &doc) != nil {
			continue
		}
		same := func(l string) bool { return strings.Join(strings.Fields(l), " ") == command }
		if cmd, _, minutes := findTestLine(&doc, 0, same); cmd != "" {
			return time.Duration(minutes) * time.Minute
		}
	}
	return 0
}

// ciTestCommand is the first test command the repository's CI runs: the
// GitHub Actions workflows (in file name order), then ciFiles.
func ciTestCommand(root string) TestCommand {
	files, _ := filepath.Glob(filepath.Join(root, ".github", "workflows", "*.y*ml"))
	sort.Strings(files)
	for _, f := range ciFiles {
		files = append(files, filepath.Join(root, filepath.FromSlash(f)))
	}
	for _, f := range files {
		b, err := boundedread.File(f, boundedread.DefaultLimit)
		if err != nil || len(b) > 1<<20 {
			continue
		}
		var doc yaml.Node
		if yaml.Unmarshal(b, &doc) != nil {
			continue
		}
		rel, _ := filepath.Rel(root, f)
		if cmd, line, minutes := findTestLine(&doc, 0, isTestLine); cmd != "" {
			return TestCommand{Command: cmd, From: fmt.Sprintf("the CI's own step, %s:%d", filepath.ToSlash(rel), line),
				CITimeout: time.Duration(minutes) * time.Minute}
		}
	}
	return TestCommand{}
}

// findTestLine walks a workflow for `run:` and `script:` values (a string
// or a list of strings) and returns the first line that runs tests, the
// line it is on, and the nearest GitHub `timeout-minutes` around it (0:
// none; minutes is the enclosing one).
func findTestLine(n *yaml.Node, minutes int, match func(string) bool) (string, int, int) {
	top := n
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		top = n.Content[0]
	}
	return findTestLineIn(n, top, minutes, match)
}

func findTestLineIn(n, top *yaml.Node, minutes int, match func(string) bool) (string, int, int) {
	switch n.Kind {
	case yaml.DocumentNode, yaml.SequenceNode:
		for _, c := range n.Content {
			if cmd, line, m := findTestLineIn(c, top, minutes, match); cmd != "" {
				return cmd, line, m
			}
		}
	case yaml.MappingNode:
		if inSubfolder(n, top, 0) {
			return "", 0, 0 // a step or job run in another folder: not the root's command
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			switch k.Value {
			case "timeout-minutes", "timeout_in_minutes", "timeoutInMinutes": // GitHub, Buildkite, Azure
				if m, err := strconv.Atoi(v.Value); err == nil && m > 0 {
					minutes = m
				}
			case "timeout": // GitLab: "1h 30m", "90 minutes"
				if m := gitlabMinutes(v.Value); m > 0 {
					minutes = m
				}
			}
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Value == "run" || k.Value == "script" || k.Value == "command" || k.Value == "commands" {
				if cmd, line := testLineIn(v, top, match); cmd != "" {
					return cmd, line, minutes
				}
				if v.Kind != yaml.MappingNode {
					continue // CircleCI's `run:` is a map with `command:`
				}
			}
			if cmd, line, m := findTestLineIn(v, top, minutes, match); cmd != "" {
				return cmd, line, m
			}
		}
	}
	return "", 0, 0
}

// inSubfolder: a GitHub step or job (or workflow) that runs in a folder
// other than the checkout's root (`working-directory:`, `defaults: run:
// working-directory:`; Azure's `workingDirectory:`). Its test line is a
// subproject's: run in the root, where the gate runs commands, `npm test`
// found no package.json and failed every honest session of a monorepo
// (round 55). top is the file's top mapping, where GitLab's `extends:`
// finds the jobs a job inherits from; depth bounds a chain of them.
func inSubfolder(n, top *yaml.Node, depth int) bool {
	sub := func(v *yaml.Node) bool {
		if v.Kind != yaml.ScalarNode {
			return false
		}
		var d shellDir
		return d.join(strings.TrimSuffix(strings.TrimSpace(v.Value), "/")) != ""
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "before_script", "before_install", "install": // GitLab, Travis: the job's shell before its script
			if holdsCd(v, top) {
				return true
			}
		case "working-directory", "workingDirectory", "working_directory": // GitHub, Azure, CircleCI
			if sub(v) {
				return true
			}
		case "default": // GitLab: what every job inherits
			if v.Kind == yaml.MappingNode && inSubfolder(v, top, depth) {
				return true
			}
		case "<<": // a YAML merge key (<<: *web) brings in the anchor's keys
			if v.Kind == yaml.AliasNode && v.Alias != nil && v.Alias.Kind == yaml.MappingNode && inSubfolder(v.Alias, top, depth) {
				return true
			}
		case "extends": // GitLab: `extends: .web` (or a list) merges those jobs' keys in
			if extendsSubfolder(v, top, depth, ownKeys(n)) {
				return true
			}
		case "defaults":
			if v.Kind != yaml.MappingNode {
				continue
			}
			for j := 0; j+1 < len(v.Content); j += 2 {
				if v.Content[j].Value != "run" || v.Content[j+1].Kind != yaml.MappingNode {
					continue
				}
				r := v.Content[j+1]
				for l := 0; l+1 < len(r.Content); l += 2 {
					if r.Content[l].Value == "working-directory" && sub(r.Content[l+1]) {
						return true
					}
				}
			}
		}
	}
	return false
}

// extendsSubfolder: a job GitLab's `extends:` names (a name or a list of
// them, looked up in the file's top mapping) runs in a subfolder, itself
// or through what it extends (GitLab allows 11 levels).
func extendsSubfolder(v, top *yaml.Node, depth int, own map[string]bool) bool {
	if depth >= 11 || top == nil || top.Kind != yaml.MappingNode {
		return false
	}
	names := []*yaml.Node{v}
	if v.Kind == yaml.SequenceNode {
		names = v.Content
	}
	for _, name := range names {
		if name.Kind != yaml.ScalarNode {
			continue
		}
		for i := 0; i+1 < len(top.Content); i += 2 {
			if top.Content[i].Value == name.Value && top.Content[i+1].Kind == yaml.MappingNode && inSubfolder(without(top.Content[i+1], own), top, depth+1) {
				return true
			}
		}
	}
	return false
}

// ownKeys are the keys job n sets itself: GitLab's extends merges the
// extended job's keys under them, so its `before_script: [cd web]` is
// replaced by the job's own (helper 336's F10).
func ownKeys(n *yaml.Node) map[string]bool {
	own := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i].Value; k != "extends" && k != "<<" {
			own[k] = true
		}
	}
	return own
}

// without is a copy of mapping m whose keys in drop hold null: set by the
// job below, they are that job's, and a chain of extends above keeps them
// so (ownKeys reads them again).
func without(m *yaml.Node, drop map[string]bool) *yaml.Node {
	c := *m
	c.Content = nil
	for i := 0; i+1 < len(m.Content); i += 2 {
		v := m.Content[i+1]
		if drop[m.Content[i].Value] {
			v = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null"}
		}
		c.Content = append(c.Content, m.Content[i], v)
	}
	for k := range drop {
		if !slices.ContainsFunc(m.Content, func(n *yaml.Node) bool { return n.Value == k }) {
			c.Content = append(c.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: k}, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null"})
		}
	}
	return &c
}

// shellDir follows where a CI script's shell stands, relative to the
// checkout's root, across its lines: `cd web`, `cd ..`, `cd -`, `pushd`,
// `popd`. A test line counts only at the root: `cd web` then `npm test`
// runs a subproject's suite, but `cd web && npm ci && cd ..` then `go test
// ./...` runs the root's (helper 331: round 55's first cut gave up at the
// first cd and found no command there).
type shellDir struct {
	cur, prev string // "" is the root; "?" a place it cannot tell
	stack     []string
}

func (d *shellDir) atRoot() bool { return d.cur == "" }

// step reads one line's commands (split at &&, || and ;).
func (d *shellDir) step(line string) {
	for _, part := range shellSep.Split(line, -1) {
		part = strings.TrimSpace(part)
		if strings.HasPrefix(part, "(") {
			continue // a subshell's cd does not outlive it
		}
		// `if [ -d web ]; then cd web; fi`, `{ cd web; }`: the command
		// after the keyword or brace.
		for _, kw := range []string{"then ", "do ", "else ", "{ "} {
			part = strings.TrimSpace(strings.TrimPrefix(part, kw))
		}
		f := strings.Fields(part)
		if len(f) == 0 {
			continue
		}
		arg := ""
		if len(f) > 1 {
			// The rest of the command: "${{ github.workspace }}" is one.
			rest := strings.TrimSpace(strings.TrimSpace(part)[len(f[0]):])
			arg = strings.TrimSuffix(strings.Trim(rest, `"'`), "/")
		}
		switch f[0] {
		case "cd":
			if arg == "-" || arg == "~-" {
				d.cur, d.prev = d.prev, d.cur
				continue
			}
			d.cur, d.prev = d.join(arg), d.cur
		case "pushd":
			d.stack = append(d.stack, d.cur)
			d.cur, d.prev = d.join(arg), d.cur
		case "popd":
			if n := len(d.stack); n > 0 {
				d.cur, d.stack = d.stack[n-1], d.stack[:n-1]
			} else {
				d.cur = "?"
			}
		}
	}
}

// join is where `cd arg` leads from the current place.
func (d *shellDir) join(arg string) string {
	switch arg {
	case "", "$GITHUB_WORKSPACE", "${GITHUB_WORKSPACE}", "${{ github.workspace }}", "$CI_PROJECT_DIR", "${CI_PROJECT_DIR}", "$(Build.SourcesDirectory)",
		"$(git rev-parse --show-toplevel)", "$CIRCLE_WORKING_DIRECTORY", "$TRAVIS_BUILD_DIR":
		return "" // the checkout's root (a bare cd: $HOME, which CI checks out into rarely; taken as the root)
	}
	if d.cur == "?" || strings.HasPrefix(arg, "/") || strings.HasPrefix(arg, "~") || strings.Contains(arg, "$") {
		return "?"
	}
	p := path.Clean(path.Join(d.cur, arg))
	switch {
	case p == ".":
		return ""
	case p == ".." || strings.HasPrefix(p, "../"):
		return "?"
	}
	return p
}

// shellSep splits a line into its commands.
var shellSep = lazyregexp.New(`&&|\|\||;`)

// holdsCd reports whether a script (a string or a list of them) ends
// away from the checkout's root.
func holdsCd(v, top *yaml.Node) bool {
	var d shellDir
	for _, s := range scriptItems(v, top, 0) {
		if s.Kind != yaml.ScalarNode {
			continue
		}
		for _, l := range strings.Split(s.Value, "\n") {
			d.step(l)
		}
	}
	return !d.atRoot()
}

// isTestLine: a line that runs tests with a known runner, without shell
// logic or a CI expression.
func isTestLine(l string) bool {
	return testRunner().MatchString(l) && !shellLogic().MatchString(l) && !strings.Contains(l, "${{")
}

func testLineIn(v, top *yaml.Node, match func(string) bool) (string, int) {
	var dir shellDir
	for _, s := range scriptItems(v, top, 0) {
		if s.Kind != yaml.ScalarNode {
			continue
		}
		sc := bufio.NewScanner(strings.NewReader(s.Value))
		for i := 0; sc.Scan(); i++ {
			l := strings.TrimSpace(sc.Text())
			// A block or a script list is one shell: after `cd web`, the
			// lines run in the subfolder until a cd back (shellDir).
			if !dir.atRoot() || !match(l) {
				dir.step(l)
				continue
			}
			{
				line := s.Line + i
				if s.Style == yaml.LiteralStyle || s.Style == yaml.FoldedStyle {
					line++ // the block starts on the line after "run: |"
				}
				return l, line
			}
		}
	}
	return "", 0
}

// scriptItems are the lines of a script value, a string or a list, with
// GitLab's `!reference [.job, key]` items replaced by what they name (a
// hidden job's `cd web` brought into the test job: helper 336's F9).
func scriptItems(v, top *yaml.Node, depth int) []*yaml.Node {
	switch {
	case v.Kind == yaml.ScalarNode:
		return []*yaml.Node{v}
	case v.Tag == "!reference":
		if depth >= 10 || top == nil {
			return nil
		}
		n := top
		for _, k := range v.Content {
			if n == nil || n.Kind != yaml.MappingNode || k.Kind != yaml.ScalarNode {
				return nil
			}
			var next *yaml.Node
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == k.Value {
					next = n.Content[i+1]
				}
			}
			n = next
		}
		if n == nil {
			return nil
		}
		return scriptItems(n, top, depth+1)
	case v.Kind == yaml.SequenceNode:
		var out []*yaml.Node
		for _, c := range v.Content {
			out = append(out, scriptItems(c, top, depth+1)...)
		}
		return out
	}
	return nil
}

// gitlabMinutes reads a GitLab job timeout ("1h 30m", "90 minutes",
// "2 hours") in whole minutes, 0 when it is not one.
func gitlabMinutes(s string) int {
	r := strings.NewReplacer("hours", "h", "hour", "h", "hrs", "h", "minutes", "m", "minute", "m", "mins", "m", "min", "m",
		"seconds", "s", "second", "s", "secs", "s", "sec", "s", " ", "")
	d, err := time.ParseDuration(r.Replace(strings.ToLower(strings.TrimSpace(s))))
	if err != nil || d <= 0 {
		return 0
	}
	return int(d.Minutes())
}
