package docmention

import (
	"strings"
	"testing"
)

func TestAddressed(t *testing.T) {
	flag := Name{Kind: KindFlag, Text: "--verbose", File: "main.go"}
	env := Name{Kind: KindVariable, Text: "TOOL_HOME", File: "cache.go"}
	readme := "# tool\n\nInstall it with go install.\n\n## Flags\n\nRun `tool --verbose` to print every step.\n\n" +
		"## Cache\n\nSet `TOOL_HOME` to move the cache.\n\n## Licence\n\nMIT, see LICENSE.\n\nMore text.\n\nEven more text.\n"
	edit := func(old, new string) string {
		if !strings.Contains(readme, old) {
			t.Fatalf("fixture lacks %q", old)
		}
		return strings.Replace(readme, old, new, 1)
	}
	for _, tc := range []struct {
		name  string
		n     Name
		doc   string
		after string
		want  bool
	}{
		// Honest: the doc's text about the name changes.
		{"flag line rewritten", flag, "README.md", edit("print every step", "print every step (on by default)"), true},
		{"flag renamed in the doc", flag, "README.md", edit("--verbose", "--loud"), true},
		{"flag line removed", flag, "README.md", edit("Run `tool --verbose` to print every step.\n", ""), true},
		{"a sentence added under the flag's line", flag, "README.md", edit("every step.\n", "every step.\nIt is on by default.\n"), true},
		{"env line rewritten", env, "README.md", edit("move the cache", "move the cache (default ~/.tool)"), true},
		{"punctuation that is the behaviour", flag, "README.md", edit("every step.", "every step!"), true},
		{"doc deleted whole", flag, "README.md", "", true},
		{"rst doc line rewritten", flag, "README.rst", strings.ReplaceAll(edit("print every step", "print each step"), "`", "``"), true},
		// Lazy: the doc is touched, its text about the name is not.
		{"whitespace only on the flag's line", flag, "README.md", edit("Run `tool --verbose` to", "Run  `tool --verbose`  to"), false},
		{"trailing spaces on the flag's line", flag, "README.md", edit("every step.", "every step.   "), false},
		{"a trailing HTML comment on the flag's line", flag, "README.md", edit("every step.", "every step. <!-- reviewed -->"), false},
		{"a comment line naming the flag", flag, "README.md", edit("every step.\n", "every step.\n<!-- --verbose is on now -->\n"), false},
		{"a blank line added beside the flag", flag, "README.md", edit("every step.\n", "every step.\n\n\n"), false},
		{"a zero-width space on the flag's line", flag, "README.md", edit("every step.", "every\u200b step."), false},
		{"an unrelated line far below", flag, "README.md", readme + "\nSee the website.\n", false},
		{"an unrelated line in another section", flag, "README.md", edit("MIT, see LICENSE.", "MIT, see LICENSE file."), false},
		{"the env var's section changed for the flag", flag, "README.md", edit("move the cache.", "move the cache!"), false},
		{"rst comment naming the flag", flag, "README.rst", strings.ReplaceAll(edit("every step.\n", "every step.\n\n.. --verbose changed\n"), "`", "``"), false},
		// Round 20 review (t9): markdown a reader never sees. A link
		// reference definition to "#" or "<>" is the other comment idiom
		// ([comment]: <> (...), [_]: # "..."); an HTML entity of an
		// invisible character (&#8203;, &zwj;, &shy;) renders as nothing.
		{"a [comment]: <> line naming the flag", flag, "README.md", edit("every step.\n", "every step.\n\n[comment]: <> (reviewed --verbose)\n"), false},
		{"a [_]: # line naming the flag", flag, "README.md", edit("every step.\n", "every step.\n\n[_]: # \"--verbose is on\"\n"), false},
		{"a zero-width space entity on the flag's line", flag, "README.md", edit("every step.", "every step.&#8203;"), false},
		{"a named invisible entity on the flag's line", flag, "README.md", edit("every step.", "every&zwj; step.&shy;"), false},
		{"a hex zero-width entity beside the flag", flag, "README.md", edit("every step.\n", "every step.\n&#x200B;\n"), false},
		// Honest twins: a visible entity, a real link target beside the flag.
		{"a visible entity on the flag's line", flag, "README.md", edit("every step.", "every step &mdash; on by default."), true},
		{"a link target added under the flag", flag, "README.md", edit("every step.\n", "every step, see [the guide][g].\n\n[g]: https://example.com/guide\n"), true},
		{"a link definition to a real URL naming the flag", flag, "README.md", edit("every step.\n", "every step.\n\n[--verbose]: docs/verbose.md\n"), true},
		// Round 21: HTML a renderer shows as nothing beside the mention.
		{"a hidden span under the flag's line", flag, "README.md", edit("every step.\n", "every step.\n<span hidden>--verbose is on now</span>\n"), false},
		{"a hidden span on the flag's line", flag, "README.md", edit("every step.", "every step.<span hidden=\"\">on</span>"), false},
		{"a display:none div over lines", flag, "README.md", edit("every step.\n", "every step.\n<div style=\"display: none\">\n--verbose is on now\n</div>\n"), false},
		{"a visibility:hidden paragraph", flag, "README.md", edit("every step.\n", "every step.\n<p style='visibility:hidden'>on by default</p>\n"), false},
		// Round 21 review (c9): elements whose content no renderer shows
		// (a browser runs <script>, applies <style>, keeps <template> inert),
		// and a style hiding with a tab or upper case.
		{"a style element naming the flag", flag, "README.md", edit("every step.\n", "every step.\n<style>/* --verbose is on now */</style>\n"), false},
		{"a script element over lines", flag, "README.md", edit("every step.\n", "every step.\n<script>\n// --verbose is on now\n</script>\n"), false},
		{"a template element naming the flag", flag, "README.md", edit("every step.\n", "every step.\n<template>--verbose is on now</template>\n"), false},
		{"display:none with a tab", flag, "README.md", edit("every step.\n", "every step.\n<div style=\"display:\tnone\">--verbose is on now</div>\n"), false},
		{"DISPLAY: NONE upper case", flag, "README.md", edit("every step.\n", "every step.\n<div STYLE=\"DISPLAY: NONE\">--verbose is on now</div>\n"), false},
		{"an empty anchor under the flag's line", flag, "README.md", edit("every step.\n", "every step.\n<a name=\"verbose-on\"></a>\n"), false},
		{"an empty span with a title on the flag's line", flag, "README.md", edit("every step.", "every step.<span title=\"--verbose is on now\"></span>"), false},
		// Round 22 (c4): CSS a browser renders as nothing (GitHub strips
		// style attributes, but a site generator or an IDE preview keeps
		// them, and the doc is not its reader's to count).
		{"opacity 0 under the flag's line", flag, "README.md", edit("every step.\n", "every step.\n<span style=\"opacity: 0\">--verbose is on now</span>\n"), false},
		{"opacity 0.0 with other declarations", flag, "README.md", edit("every step.\n", "every step.\n<p style=\"margin:0; opacity:.0\">on by default</p>\n"), false},
		{"font-size 0 on the flag's line", flag, "README.md", edit("every step.", "every step.<span style=\"font-size:0px\">on</span>"), false},
		{"text coloured as its background", flag, "README.md", edit("every step.\n", "every step.\n<div style=\"color:#FFF;background-color:#fff\">--verbose is on now</div>\n"), false},
		{"transparent text", flag, "README.md", edit("every step.\n", "every step.\n<span style=\"color: transparent\">--verbose is on now</span>\n"), false},
		{"text moved off the page", flag, "README.md", edit("every step.\n", "every step.\n<span style=\"position:absolute;left:-9999px\">--verbose is on now</span>\n"), false},
		{"a zero-height box with overflow hidden", flag, "README.md", edit("every step.\n", "every step.\n<div style=\"height:0;overflow:hidden\">--verbose is on now</div>\n"), false},
		// Round 23: a class the doc's <style> block hides.
		{"a class the doc's style hides", flag, "README.md", edit("every step.\n", "every step.\n<style>.x { display: none }</style>\n<span class=\"x\">--verbose is on now</span>\n"), false},
		{"a class hidden by opacity, the style block at the end", flag, "README.md", edit("every step.\n", "every step.\n<p class=\"note quiet\">on by default</p>\n") + "\n<style>\np.quiet {\n  opacity: 0;\n}\n</style>\n", false},
		{"honest: a class the doc's style colours", flag, "README.md", edit("every step.\n", "every step.\n<style>.x { color: red }</style>\n<span class=\"x\">On by default.</span>\n"), true},
		{"honest: a hidden class, the text in another", flag, "README.md", edit("every step.\n", "every step.\n<style>.x { display: none }</style>\n<span class=\"y\">On by default.</span>\n"), true},
		// Honest twins: styles that show the text.
		{"opacity 0.5", flag, "README.md", edit("every step.\n", "every step.\n<span style=\"opacity:0.5\">On by default.</span>\n"), true},
		{"a small font and a coloured background", flag, "README.md", edit("every step.\n", "every step.\n<span style=\"font-size:0.8em;color:#333;background:#fff\">On by default.</span>\n"), true},
		{"a closed details block under the flag", flag, "README.md", edit("every step.\n", "every step.\n<details>\n<summary>Default</summary>\n\nOn by default.\n</details>\n"), true},
		// Honest twins: shown HTML beside the mention.
		{"a details block under the flag", flag, "README.md", edit("every step.\n", "every step.\n<details><summary>Default</summary>On by default.</details>\n"), true},
		{"an aria-hidden icon and text", flag, "README.md", edit("every step.", "every step <span aria-hidden=\"true\">*</span> (on by default)."), true},
		{"a code block showing a style tag", flag, "README.md", edit("every step.\n", "every step.\n\n`<style>` is on with --verbose\n"), true},
		{"an image under the flag", flag, "README.md", edit("every step.\n", "every step.\n<img src=\"verbose.png\" alt=\"verbose output\">\n"), true},
		{"an autolink under the flag", flag, "README.md", edit("every step.\n", "every step.\n<https://example.com/verbose>\n"), true},
		{"a link with text under the flag", flag, "README.md", edit("every step.\n", "every step.\n<a href=\"x.md\">On by default.</a>\n"), true},
		{"a shown span", flag, "README.md", edit("every step.", "every step <span class=\"note\">on by default</span>."), true},
		{"adoc comment on its own line", flag, "README.adoc", edit("every step.\n", "every step.\n// --verbose changed\n"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := readme
			if tc.doc == "README.rst" {
				before = strings.ReplaceAll(readme, "`", "``")
			}
			if got := Addressed(tc.n, tc.doc, []byte(before), []byte(tc.after)); got != tc.want {
				t.Fatalf("Addressed(%s in %s) = %v, want %v", tc.n.Text, tc.doc, got, tc.want)
			}
		})
	}
}

func TestChangedLines(t *testing.T) {
	ls := func(s ...string) []line {
		var out []line
		for i, t := range s {
			out = append(out, line{text: t, key: t, at: i + 1})
		}
		return out
	}
	ra, rb := changedLines(ls("a", "b", "c", "d"), ls("a", "x", "c", "d", "e"))
	if len(ra) != 1 || ra[0] != 1 || len(rb) != 2 || rb[0] != 1 || rb[1] != 4 {
		t.Fatalf("changed lines %v %v, want [1] [1 4]", ra, rb)
	}
}

func TestFindFormats(t *testing.T) {
	rst := Doc{Path: "README.rst", Body: []byte("tool\n====\n\nSet ``TOOL_HOME`` to move the cache; run ``tool --verbose``.\n")}
	txt := Doc{Path: "docs/usage.txt", Body: []byte("Call NewClient with a config.\n")}
	for _, tc := range []struct {
		name   string
		change Change
		want   string
	}{
		{"env var in an rst literal", Change{Path: "cache.go", Added: []string{`	dir := os.Getenv("TOOL_HOME")`}}, "environment variable TOOL_HOME in README.rst"},
		{"flag in an rst doc", Change{Path: "main.go", Added: []string{`	flag.Bool("verbose", true, "")`}}, "flag --verbose in README.rst"},
		{"identifier in a plain-text doc", Change{Path: "client.go", Removed: []string{`func NewClient() {`}}, "identifier NewClient in docs/usage.txt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, ok := Find([]Change{tc.change}, []Doc{rst, txt})
			if got := h.Kind + " " + h.Text + " in " + h.Doc; !ok || got != tc.want {
				t.Fatalf("hit %q (%v), want %q", got, ok, tc.want)
			}
		})
	}
}

func TestCanAnswer(t *testing.T) {
	for p, want := range map[string]bool{
		"README.md":                         true,
		".claude/skills/scan/SKILL.md":      true,
		"CHANGELOG.md":                      false,
		".agents/sessions/2026-01-02-s1.md": false,
		"testdata/golden.md":                false,
		"main.go":                           false,
	} {
		if got := CanAnswer(p); got != want {
			t.Errorf("CanAnswer(%q) = %v, want %v", p, got, want)
		}
	}
	n := Name{Kind: KindFlag, Text: "--add-to-path", File: "scripts/scan.py"}
	if !Mentions(n, ".claude/skills/scan/SKILL.md", []byte("Run `python scripts/scan.py --add-to-path`.\n")) {
		t.Error("a hidden skill doc naming the script and flag does not mention it")
	}
	if Mentions(n, "docs/other.md", []byte("Run `other --add-to-path`.\n")) {
		t.Error("a doc about another script mentions the flag")
	}
}

// TestStripHiddenCodeSpan: a tag inside an inline code span is shown as
// text; a lone backtick opens no span, so the tag after it still hides.
func TestStripHiddenCodeSpan(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"use `<style>` here", "use `<style>` here"},
		{"a ` <span hidden>x</span> b", "a `  b"},
		{"<script>x</script> `ok`", " `ok`"},
	} {
		if got, open := stripHiddenHTML(tc.in, ""); got != tc.want || open != "" {
			t.Errorf("stripHiddenHTML(%q) = %q (open %q), want %q", tc.in, got, open, tc.want)
		}
	}
}
