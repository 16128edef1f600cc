package docmention

import (
	"os"
	"testing"

	"github.com/sessiongate/sessiongate/internal/tmpleak"
)

func TestMain(m *testing.M) { os.Exit(tmpleak.Run(m.Run)) }

func TestFind(t *testing.T) {
	readme := Doc{Path: "README.md", Body: []byte("# tool\n\nRun `tool --verbose` to see each step.\nSet `TOOL_HOME` to move the cache.\n\n" +
		"```go\nclient := tool.NewClient(cfg)\n```\n\nThe defaults live in config/defaults.yaml.\n")}
	changelog := Doc{Path: "CHANGELOG.md", Body: []byte("- `--quiet` added; `OldHelper` removed\n")}
	sessionLog := Doc{Path: ".agents/sessions/2026-01-02-session-1.md", Body: []byte("changed `--quiet`\n")}
	docs := []Doc{readme, changelog, sessionLog}
	for _, tc := range []struct {
		name   string
		change Change
		want   string // "" when the condition does not hold
	}{
		// Lazy shapes: a documented name changes.
		{"documented flag's default changes (Go flag)", Change{Path: "main.go",
			Removed: []string{`	v := flag.Bool("verbose", false, "print steps")`}, Added: []string{`	v := flag.Bool("verbose", true, "print steps")`}}, "flag --verbose"},
		{"documented flag (cobra)", Change{Path: "cmd/root.go",
			Added: []string{`	cmd.Flags().BoolVar(&verbose, "verbose", true, "print steps")`}}, "flag --verbose"},
		{"documented flag (argparse)", Change{Path: "tool.py",
			Added: []string{`    p.add_argument("--verbose", action="store_false")`}}, "flag --verbose"},
		{"documented flag (shell case)", Change{Path: "bin/tool.sh",
			Removed: []string{`  --verbose) set -x ;;`}}, "flag --verbose"},
		{"documented variable read", Change{Path: "cache.go",
			Added: []string{`	dir := os.Getenv("TOOL_HOME")`}}, "environment variable TOOL_HOME"},
		{"documented identifier renamed", Change{Path: "client.go",
			Removed: []string{`func NewClient(cfg Config) *Client {`}, Added: []string{`func Dial(cfg Config) *Client {`}}, "identifier NewClient"},
		{"documented file deleted", Change{Path: "config/defaults.yaml", Deleted: true,
			Removed: []string{"timeout: 3s"}}, "file config/defaults.yaml"},
		// A flag defined over several lines (gofmt and black wrap long
		// calls): renaming it changes only the line holding its name.
		{"documented flag renamed on its own line (Go)", Change{Path: "main.go",
			Removed: []string{`		"verbose",`}, Added: []string{`		"loud",`}}, "flag --verbose"},
		{"documented flag renamed on its own line (argparse)", Change{Path: "tool.py",
			Removed: []string{`        "--verbose",`}, Added: []string{`        "--loud",`}}, "flag --verbose"},
		// A flag named through a constant (issue 25, round 20).
		{"documented flag's default changes, named by a constant", Change{Path: "main.go",
			Body:    "const verboseFlag = \"verbose\"\n\nfunc main() {\n\tflag.Bool(verboseFlag, true, \"\")\n}\n",
			Removed: []string{`	flag.Bool(verboseFlag, false, "print steps")`}, Added: []string{`	flag.Bool(verboseFlag, true, "print steps")`}}, "flag --verbose"},
		{"documented flag renamed through its constant (cobra)", Change{Path: "cmd/root.go",
			Body:    "const (\n\tflagName = \"loud\"\n)\n\nfunc init() {\n\trootCmd.Flags().BoolP(flagName, \"v\", false, \"\")\n}\n",
			Removed: []string{`	flagName = "verbose"`}, Added: []string{`	flagName = "loud"`}}, "flag --verbose"},
		// Honest shapes: nothing documented changes.
		{"another script's flag of the same name", Change{Path: "scripts/lint_links.py",
			Added: []string{`    p.add_argument("--verbose", action="store_true")`}}, ""},
		{"a constant no flag definition names", Change{Path: "main.go",
			Body:    "const mode = \"verbose\"\n\nfunc main() {\n\tfmt.Println(mode)\n}\n",
			Removed: []string{`const mode = "verbose"`}, Added: []string{`const mode = "quiet"`}}, ""},
		{"a wrapped string removed, not a documented flag (Go)", Change{Path: "main.go",
			Removed: []string{`		"hello",`}, Added: []string{`		"hi",`}}, ""},
		{"a wrapped documented name added, not removed", Change{Path: "main.go",
			Added: []string{`		"verbose",`}}, ""},
		{"a wrapped bare name in a script is no Go flag", Change{Path: "tool.py",
			Removed: []string{`        "verbose",`}}, ""},
		{"internal code", Change{Path: "main.go", Added: []string{`	fmt.Println(greeting)`}, Removed: []string{`	fmt.Println("hello")`}}, ""},
		{"documented identifier's signature changes, name kept", Change{Path: "client.go",
			Removed: []string{`func NewClient(cfg Config) *Client {`}, Added: []string{`func NewClient(cfg Config, opts ...Option) *Client {`}}, ""},
		{"another program's flag passed", Change{Path: "git.go", Added: []string{`	out, err := run("git", "log", "--verbose")`}}, ""},
		{"flag in a comment", Change{Path: "main.go", Added: []string{`	// flag.Bool("verbose") is read in main`}}, ""},
		{"documented file edited, not renamed", Change{Path: "config/defaults.yaml", Added: []string{"timeout: 5s"}}, ""},
		{"a test file", Change{Path: "main_test.go", Added: []string{`	flag.Bool("verbose", true, "")`}}, ""},
		{"test data", Change{Path: "testdata/x.go", Deleted: true}, ""},
		{"mentioned only in the changelog and a session log", Change{Path: "main.go",
			Added: []string{`	q := flag.Bool("quiet", false, "")`}, Removed: []string{`func OldHelper() {`}}, ""},
		{"a variable the program does not read", Change{Path: "names.go", Added: []string{`	const key = "TOOL_HOME"`}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, ok := Find([]Change{tc.change}, docs)
			switch {
			case tc.want == "" && ok:
				t.Fatalf("condition holds (%s), want it not to", h)
			case tc.want != "" && !ok:
				t.Fatalf("condition does not hold, want %s", tc.want)
			case ok && h.Kind+" "+h.Text != tc.want:
				t.Fatalf("hit %s, want %s", h, tc.want)
			}
		})
	}
}

func TestIsDoc(t *testing.T) {
	for p, want := range map[string]bool{
		"README.md":                    true,
		"docs/cli.md":                  true,
		".github/CONTRIBUTING.md":      true,
		"CHANGELOG.md":                 false,
		"docs/RELEASE-NOTES.md":        false,
		"notes/2026-01-02-retro.md":    false,
		".agents/analysis/001-rca.md":  false,
		"pkg/testdata/golden.md":       false,
		"main.go":                      false,
		"docs/sub/.hidden/internal.md": false,
		"README.rst":                   true,
		"docs/guide.adoc":              true,
		"docs/intro.mdx":               true,
		"docs/usage.txt":               true,
		"README.txt":                   true,
		"requirements.txt":             false,
		"CHANGELOG.rst":                false,
	} {
		if got := IsDoc(p); got != want {
			t.Errorf("IsDoc(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestCodeText(t *testing.T) {
	got := CodeText("prose NewClient here, `code Span` and\n```\nfenced Dial\n```\nmore prose")
	for _, w := range []string{"code Span", "fenced Dial"} {
		if !word(got, w) {
			t.Errorf("code text %q lacks %q", got, w)
		}
	}
	if word(got, "NewClient") {
		t.Errorf("code text %q holds prose", got)
	}
}
