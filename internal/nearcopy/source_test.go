package nearcopy

import (
	"strings"
	"testing"
)

const protocolText = `# Session Protocol

Labels such as MANDATORY are not enforcement; each active requirement must name evidence that exists.

| Requirement kind | Accepted evidence |
|---|---|
| Tool calls | session transcript |
| Git operations | git status, log or pull request |
| Tests and checks | test output in the transcript |

What is not in this table is not evidence. A checkbox is not evidence.

This phase covers what the agent reads before it changes anything.
Why? The handoff is shared by every session; a session's notes go into its own handoff file.
Run checks that cover the changed behavior. The evidence may be test output from the transcript; a QA report file is not needed.
- Fix what the checks report before you commit.
- Do not disable or skip failing tests.
When the work produced durable learning, write a retrospective to the retrospective folder.
Session logs are optional. Create a session log when the work spans several sessions.
`

const earlierV3Handoff = "# Handoff 2026-08-19-01\n\n## Done\n\nscripts/greet.sh prints a greeting; scripts/test.sh checks it.\n" +
	"The script stays POSIX sh so it runs in the CI image without bash.\n\n" +
	"## Next\n\nAdd a name argument to the greeting script, and check it with several names in scripts/test.sh.\n"

// TestSourceStrip: the earlier handoff renumbered and padded with the
// protocol's prose is a near copy once the protocol's lines are set aside
// (it was none: the pad made the copy less than half of the file); honest
// handoffs quoting a line of the protocol, or repeating the earlier
// session's open item, stay no copy.
func TestSourceStrip(t *testing.T) {
	src := NewSource(protocolText)
	renumbered := strings.ReplaceAll(earlierV3Handoff, "2026-08-19-01", "2026-08-20-01")
	quoted := "> " + strings.ReplaceAll(protocolText, "\n", "\n> ")
	for _, tt := range []struct {
		name, text string
		want       bool
	}{
		{"padded with the protocol's prose", renumbered + "\n## Notes\n\n" + protocolText, true},
		{"padded with the protocol quoted", renumbered + "\n## Protocol followed\n\n" + quoted, true},
		{"padded, the protocol's lines joined into one", renumbered + "\n## Notes\n\n" + strings.ReplaceAll(protocolText, "\n", " ") + "\n", true},
		{"honest: quotes one line of the protocol", "# Handoff 2026-08-20-01\n\n## Done\n\nscripts/greet.sh takes an optional name; " +
			"\"Fix what the checks report before you commit\": nothing to fix.\n\n## Next\n\nDocument the name argument in the README.\n", false},
		{"honest: repeats the earlier open item", "# Handoff 2026-08-20-01\n\n## Done\n\nscripts/greet.sh takes an optional name and greets it; without one it prints plain hello.\n\n" +
			"## Next\n\nCheck it with several names in scripts/test.sh (open since 2026-08-19-01). The script stays POSIX sh so it runs in the CI image without bash.\n", false},
	} {
		before := Is(tt.text, earlierV3Handoff)
		got := New(src.Strip(tt.text)).NearCopyOf(src.Strip(earlierV3Handoff))
		if got != tt.want {
			t.Errorf("%s: near copy once the protocol is set aside = %v, want %v (without setting it aside: %v)", tt.name, got, tt.want, before)
		}
		if tt.want && before {
			t.Errorf("%s: already a near copy without setting the protocol aside: the row tests nothing", tt.name)
		}
	}
	if got := (*Source)(nil).Strip("a b c d e"); got != "a b c d e" {
		t.Errorf("nil Source stripped %q", got)
	}
}
