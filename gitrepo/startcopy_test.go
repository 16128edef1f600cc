package gitrepo_test

import (
	"context"
	"testing"
	"unicode/utf16"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
)

func utf16LE(s string) string {
	b := []byte{0xff, 0xfe}
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return string(b)
}

// TestStartCopyReadsEncodings: an earlier session's handoff saved again in
// UTF-16 (`iconv -t UTF-16`) is the same words, so it is a copy; read as
// bytes it shared no word with the earlier one. A new handoff in UTF-16 is
// no copy.
func TestStartCopyReadsEncodings(t *testing.T) {
	gittest.Require(t)
	ctx := context.Background()
	const earlier = "# Handoff 2026-08-19-01\n\n## Done\n\nscripts/greet.sh prints hello, checked by scripts/test.sh with six names.\n\n" +
		"## Next\n\nAdd a name argument to scripts/greet.sh and document it in the README with an example.\n"
	for _, tt := range []struct{ name, body, want string }{
		{"UTF-16 copy under a new number", utf16LE(replaceID(earlier)), ".agents/handoffs/2026-08-19-01.md"},
		{"UTF-8 copy with a byte-order mark", "\ufeff" + replaceID(earlier), ".agents/handoffs/2026-08-19-01.md"},
		{"new handoff in UTF-16", utf16LE("# Handoff 2026-08-20-01\n\n## Done\n\nscripts/greet.sh takes an optional name; scripts/test.sh checks Ada.\n\n## Next\n\nNone.\n"), ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			gittest.Git(t, dir, "init", "-q", "-b", "main")
			gittest.Write(t, dir, ".agents/handoffs/2026-08-19-01.md", earlier)
			gittest.Git(t, dir, "add", "-A")
			gittest.Git(t, dir, "commit", "-q", "-m", "init")
			start := gittest.Git(t, dir, "rev-parse", "HEAD")
			gittest.Write(t, dir, ".agents/handoffs/2026-08-20-01.md", tt.body)
			r, err := gitrepo.Open(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}
			got, err := r.StartCopy(ctx, start, ".agents/handoffs/2026-08-20-01.md")
			if err != nil || got != tt.want {
				t.Errorf("StartCopy = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func replaceID(s string) string {
	b := []byte(s)
	copy(b[len("# Handoff 2026-08-"):], "20")
	return string(b)
}
