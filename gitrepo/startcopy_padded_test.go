package gitrepo_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/internal/nearcopy"
)

// TestStartCopyPaddedOverCap (round 30, c1): an earlier session's handoff
// copied under a new number and padded past the 1 MiB the comparison
// reads (a megabyte of spaces or blank lines after it, or between its
// sections) was never compared and counted as new work. Padded with white
// space it is compared on its text and found; padded with a blob of text
// (or past the read limit) it is too large to judge and is no evidence
// (nearcopy.ErrTooLarge). Honest twins: a new handoff padded the same way
// with white space, and one of ordinary size, are new work.
func TestStartCopyPaddedOverCap(t *testing.T) {
	gittest.Require(t)
	ctx := context.Background()
	const earlier = "# Handoff 2026-08-19-01\n\n## Done\n\nscripts/greet.sh prints hello, checked by scripts/test.sh with six names.\n\n" +
		"## Next\n\nAdd a name argument to scripts/greet.sh and document it in the README with an example.\n"
	const own = "# Handoff 2026-08-20-01\n\n## Done\n\nscripts/greet.sh takes an optional name; scripts/test.sh checks Ada and Bob.\n\n" +
		"## Next\n\nDocument the name argument in the README, with the output for two names.\n"
	copied := replaceID(earlier)
	spaces := strings.Repeat(" ", 3<<19) // 1.5 MiB
	blank := strings.Repeat("\n", 3<<19) // 1.5 MiB of blank lines
	mid := strings.Replace(copied, "\n## Next", blank+"## Next", 1)
	const was = ".agents/handoffs/2026-08-19-01.md"
	for _, tt := range []struct {
		name, body, want string
		tooLarge         bool
	}{
		{name: "lazy: the copy and 1.5 MiB of spaces", body: copied + spaces, want: was},
		{name: "lazy: the copy and 1.5 MiB of blank lines", body: copied + blank, want: was},
		{name: "lazy: 1.5 MiB of blank lines between the copy's sections", body: mid, want: was},
		{name: "lazy: the copy and a 1.5 MiB blob", body: copied + "\n<!-- x -->\n" + strings.Repeat("ab01", 3<<17), tooLarge: true},
		{name: "lazy: the copy and a 1.5 MiB blob inside a Markdown comment", body: copied + "\n<!-- " + strings.Repeat("ab01", 3<<17) + " -->\n", want: was},
		{name: "lazy: the copy past the read limit", body: copied + strings.Repeat(" ", 17<<20), tooLarge: true},
		{name: "honest: a new handoff and 1.5 MiB of blank lines", body: own + blank},
		{name: "honest: a new handoff", body: own},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			gittest.Git(t, dir, "init", "-q", "-b", "main")
			gittest.Write(t, dir, was, earlier)
			gittest.Git(t, dir, "add", "-A")
			gittest.Git(t, dir, "commit", "-q", "-m", "init")
			start := gittest.Git(t, dir, "rev-parse", "HEAD")
			gittest.Write(t, dir, ".agents/handoffs/2026-08-20-01.md", tt.body)
			r, err := gitrepo.Open(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}
			got, err := r.StartCopy(ctx, start, ".agents/handoffs/2026-08-20-01.md")
			if tt.tooLarge {
				if !errors.Is(err, nearcopy.ErrTooLarge) {
					t.Errorf("StartCopy = %q, %v; want nearcopy.ErrTooLarge (not judged, so no evidence)", got, err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("StartCopy = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}
