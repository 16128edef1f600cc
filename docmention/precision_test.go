package docmention

import (
	"strings"
	"testing"
)

// TestScriptPrecision: where a script's flag or variable counts as
// mentioned (round 21). Each "honest" row held before and was a false
// FAIL on rjmurillo/ai-agents; each "lazy" row must still hold.
func TestScriptPrecision(t *testing.T) {
	force := Name{Kind: KindFlag, Text: "--force", File: "scripts/deploy.py", Kept: true}
	forceGone := force
	forceGone.Kept = false
	root := Name{Kind: KindVariable, Text: "TOOL_ROOT", File: "hooks/lint_hook.py"}
	for _, tc := range []struct {
		name string
		n    Name
		doc  string
		want bool
	}{
		{"lazy: a sentence under the script's heading", force, "# tools\n\n## deploy.py\n\nRun `deploy.py --force` to deploy over a release.\n", true},
		{"lazy: the script named in the title, the flag in a subsection", force, "# deploy.py\n\nDeploys.\n\n## Options\n\n`--force` deploys over a release.\n", true},
		{"lazy: a flag removed, named in an index", forceGone, "# deploy.py\n\nFlags: `--force`, `--quiet`, `--dry-run`.\n", true},
		{"lazy: two flags on a line describe each", force, "# deploy.py\n\nUse `--force` with `--quiet` to deploy silently.\n", true},
		{"honest: a kept flag named only in an index (da23b2a)", force, "# tools\n\n| `deploy.py` | Deploy | `--title`, `--force`, `--base` |\n", false},
		{"honest: a synopsis of flags", force, "# deploy.py\n\n    deploy.py [--force] [--count N] [--quiet]\n", false},
		{"honest: the flag in a section about another script", force, "# tools\n\n## deploy.py\n\nDeploys.\n\n## other.py\n\nRun `other.py --force`.\n", false},
		{"honest: a variable in a template of another section (2c85d25)", root, "# Contributing\n\n## Hooks\n\nThe hook is hooks/lint_hook.py.\n\n## Writing a hook\n\n```python\nroot = os.environ.get(\"TOOL_ROOT\")\n```\n", false},
		{"lazy: the variable in the hook's own section", root, "# Contributing\n\n## lint_hook.py\n\nIt reads `TOOL_ROOT`.\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := len(FindTouched([]Name{tc.n}, []Doc{{Path: "README.md", Body: []byte(tc.doc)}})) > 0; got != tc.want {
				t.Fatalf("mentioned = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestPyDocstringNoFlag(t *testing.T) {
	body := "\"\"\"Scan.\n\nThe installer defines:\n    parser.add_argument(\"--add-to-path\", action=\"store_true\")\n\"\"\"\nimport argparse\np = argparse.ArgumentParser()\np.add_argument(\"--quick\")\n"
	c := Change{Path: "scripts/scan.py", Body: body, Added: []string{`    parser.add_argument("--add-to-path", action="store_true")`, `p.add_argument("--quick")`}}
	var got []string
	for _, n := range Names(c) {
		got = append(got, n.Text)
	}
	if g := strings.Join(got, " "); g != "--quick" {
		t.Fatalf("names %q, want --quick (the docstring's flag is another script's)", g)
	}
}

func TestDeletedAnswers(t *testing.T) {
	hit := func(text, file, doc string) Hit {
		return Hit{Name: Name{Kind: KindFlag, Text: text, File: file}, Doc: doc}
	}
	for _, tc := range []struct {
		name string
		hits []Hit
		want bool
	}{
		{"program and its doc deleted", []Hit{hit("--since", "scripts/old.py", "docs/old.md")}, true},
		{"a kept doc names it too", []Hit{hit("--since", "scripts/old.py", "docs/old.md"), hit("--since", "scripts/old.py", "README.md")}, false},
		{"still defined in a kept file (moved)", []Hit{hit("--since", "scripts/old.py", "docs/old.md"), hit("--since", "cmd/new.py", "docs/old.md")}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := DeletedAnswers(tc.hits, []string{"docs/old.md"}, []string{"scripts/old.py"})["flag --since"]
			if got != tc.want {
				t.Fatalf("answered = %v, want %v", got, tc.want)
			}
		})
	}
}
