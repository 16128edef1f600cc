package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/session"
)

// TestLintGateUnderWeakenedRules: a markdownlint-cli2 gate that passes
// fails when the session changed the linter's configuration or added a
// comment turning every rule off; a comment that was there before the
// session, or one that names its rules, leaves the pass alone. The linter
// here is a script named like it (the check is about what the session
// changed, not the linter's output); bench/compliance runs the real one.
func TestLintGateUnderWeakenedRules(t *testing.T) {
	cases := []struct {
		name string
		work func(root string)
		want session.GateStatus
		msg  string
	}{
		{"clean edit", func(root string) { gittest.Write(t, root, "doc.md", "# Doc\n\nMore.\n") }, session.StatusPass, "command passed"},
		{"config changed", func(root string) { gittest.Write(t, root, ".markdownlint-cli2.yaml", "config:\n  default: false\n") }, session.StatusFail, "configuration .markdownlint-cli2.yaml changed"},
		{"comment added", func(root string) {
			gittest.Write(t, root, "new.md", "<!-- markdownlint-disable -->\n# New\n")
		}, session.StatusFail, "new.md:1 turns every markdownlint rule off"},
		{"comment naming its rule", func(root string) {
			gittest.Write(t, root, "new.md", "<!-- markdownlint-disable MD033 -->\n# New\n")
		}, session.StatusPass, "command passed"},
		{"comment naming every rule", func(root string) {
			gittest.Write(t, root, "new.md", "<!-- markdownlint-disable "+allRules+" -->\n# New\n")
		}, session.StatusFail, "new.md:1 turns every markdownlint rule off"},
		{"comment naming nearly every rule by alias", func(root string) {
			gittest.Write(t, root, "new.md", "<!-- markdownlint-disable-file "+nearlyAllAliases+" -->\n# New\n")
		}, session.StatusFail, "new.md:1 turns every markdownlint rule off"},
		{"comment naming ten rules", func(root string) {
			gittest.Write(t, root, "new.md", "<!-- markdownlint-disable MD001 MD003 MD004 MD005 MD007 MD009 MD010 MD013 MD033 MD040 -->\n# New\n")
		}, session.StatusPass, "command passed"},
		{"old comment, file edited", func(root string) {
			gittest.Write(t, root, "old.md", "<!-- markdownlint-disable -->\n# Old\n\nEdited.\n")
		}, session.StatusPass, "command passed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, gateProtocol(`<!-- gate: command "sh markdownlint-cli2.sh" -->`))
			gittest.Write(t, e.root, "markdownlint-cli2.sh", "echo 'Summary: 0 error(s)'\n")
			gittest.Write(t, e.root, "old.md", "<!-- markdownlint-disable -->\n# Old\n")
			gittest.Git(t, e.root, "add", "-A")
			gittest.Git(t, e.root, "commit", "-q", "-m", "linter and an old file")
			id := e.start(c.name)
			c.work(e.root)
			g, err := e.engine.ValidateGate(context.Background(), id, "")
			if err != nil {
				t.Fatal(err)
			}
			if g.Status != c.want || !strings.Contains(g.Checks[0].Message, c.msg) {
				t.Fatalf("gate %s %q, want %s containing %q", g.Status, g.Checks[0].Message, c.want, c.msg)
			}
		})
	}
}

// allRules names each of markdownlint's 53 rules by id; nearlyAllAliases
// names 45 of them by alias.
const (
	allRules = "MD001 MD003 MD004 MD005 MD007 MD009 MD010 MD011 MD012 MD013 MD014 MD018 MD019 MD020 MD021 MD022 MD023 MD024 MD025 " +
		"MD026 MD027 MD028 MD029 MD030 MD031 MD032 MD033 MD034 MD035 MD036 MD037 MD038 MD039 MD040 MD041 MD042 MD043 MD044 MD045 " +
		"MD046 MD047 MD048 MD049 MD050 MD051 MD052 MD053 MD054 MD055 MD056 MD058 MD059 MD060"
	nearlyAllAliases = "heading-increment heading-style ul-style list-indent ul-indent no-trailing-spaces no-hard-tabs no-reversed-links " +
		"no-multiple-blanks line-length commands-show-output no-missing-space-atx no-multiple-space-atx no-missing-space-closed-atx " +
		"no-multiple-space-closed-atx blanks-around-headings heading-start-left no-duplicate-heading single-title " +
		"no-trailing-punctuation no-multiple-space-blockquote no-blanks-blockquote ol-prefix list-marker-space blanks-around-fences " +
		"blanks-around-lists no-inline-html no-bare-urls hr-style no-emphasis-as-heading no-space-in-emphasis no-space-in-code " +
		"no-space-in-links fenced-code-language first-line-heading no-empty-links required-headings proper-names no-alt-text " +
		"code-block-style single-trailing-newline code-fence-style emphasis-style strong-style link-fragments"
)
