package hooks

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/gittest"
)

// TestAppendTrailersMatchesGit: wherever commit-msg appends the trailers
// itself (appendTrailers), the message is byte for byte what git
// interpret-trailers makes of it. Random messages are built from lines that
// sit on every edge of git's rules (titles, blank and blank-looking lines,
// trailers and lines that look like them, comments, continuations, CR,
// missing final newline); each shell that may run the hooks runs them.
func TestAppendTrailersMatchesGit(t *testing.T) {
	gittest.Require(t)
	var shells []string
	for _, sh := range []string{"/bin/sh", "dash", "bash"} {
		if p, err := exec.LookPath(sh); err == nil {
			shells = append(shells, p)
		}
	}
	// bash is /bin/sh on macOS and Fedora, usually in a UTF-8 locale,
	// where its [[:space:]] holds Unicode spaces too.
	utf8 := map[string]bool{}
	if p, err := exec.LookPath("bash"); err == nil {
		shells = append(shells, p)
		utf8[p+"#"+strconv.Itoa(len(shells)-1)] = true
	}
	if len(shells) == 0 {
		t.Skip("no POSIX shell")
	}
	dir := t.TempDir()
	gittest.Git(t, dir, "init", "-q")
	script := "msg=$1\nshift\ncfg=plain\n" + appendTrailers + "exit 3\n"
	pool := []string{
		"subj", "feat: add x", "fix(scope): y", "", "", " ", "\t", "\r", "body text", "more body.",
		"- item one", "* item", "  indented", "\tindented", "Key: value", "Signed-off-by: A <a@b.c>",
		"Session-Id: old", "(cherry picked from commit 1234)", "#comment", "# heading", "trailing  ",
		"body\r", "ünïcödé ✓", "a:b", "see http://x.y/z", "x", "Token #12", "key=value", "[ci skip]",
		// "---" is text with --no-divider; a trailing old-style
		// "Conflicts:" block is left out of the message.
		"---", "--- a/file.go", "----", "Conflicts:", "\tfile.go",
		// git's isspace is ' ', '\t', '\n' and '\r' only: form feed,
		// vertical tab and Unicode spaces are text to git.
		"\f", "\v", "\u3000", "\u2003 ",
		"---\t", "--- ", "-- ", "Conflicts:\r", " #", "Key : value", "x\\", "\\", "a\\nb",
		strings.Repeat("long ", 2000),
	}
	trailers := []string{"Session-Id: 0f8e-abc", "Session-Snapshot: s-1"}
	rng := rand.New(rand.NewPCG(7, 11))
	rounds := 400 // SESSIONGATE_TRAILER_ROUNDS for a longer run
	if n, err := strconv.Atoi(os.Getenv("SESSIONGATE_TRAILER_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	// Messages that once differed, before the random ones.
	fixed := []string{
		"subj\n\nbody\n---\nmore\n",
		"subj\n---\n",
		"subj\nConflicts:\n\tfile.go\n",
		"subj\n\nSigned-off-by: A <a@b.c>\n\f\nbody\n",
		"subj\n\nSigned-off-by: A <a@b.c>\n\v\nbody\n",
		"subj\n\nSigned-off-by: A <a@b.c>\n\u3000\nbody\n",
	}
	// Every message first, then git on each, then one process per shell
	// that runs the hook's snippet on every message in a subshell: the
	// same code on the same bytes, without a shell start per message
	// (which made this the slowest test of the package on a loaded
	// 2-core machine).
	n := len(fixed) + rounds
	msgs := make([]string, n)
	wants := make([][]byte, n)
	for i := range n {
		var msg string
		if i < len(fixed) {
			msg = fixed[i]
		} else {
			var lines []string
			for range 1 + rng.IntN(7) {
				lines = append(lines, pool[rng.IntN(len(pool))])
			}
			msg = strings.Join(lines, "\n")
			if rng.IntN(8) != 0 {
				msg += "\n"
			}
		}
		msgs[i] = msg
		want := filepath.Join(dir, "want")
		if err := os.WriteFile(want, []byte(msg), 0o644); err != nil {
			t.Fatal(err)
		}
		args := []string{"interpret-trailers", "--in-place", "--no-divider", "--if-exists", "replace"}
		for _, tr := range trailers {
			args = append(args, "--trailer", tr)
		}
		gittest.Git(t, dir, append(args, want)...)
		wants[i], _ = os.ReadFile(want)
	}
	loop := "i=0\nwhile [ $i -lt " + strconv.Itoa(n) + " ]; do\n\t(\n\tset -- \"$dir/got.$i\" \"$@\"\n" + script + "\t)\n\techo $? >\"$dir/rc.$i\"\n\ti=$((i+1))\ndone\n"
	appended := 0
	for si, sh := range shells {
		for i, msg := range msgs {
			if err := os.WriteFile(filepath.Join(dir, "got."+strconv.Itoa(i)), []byte(msg), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		cmd := exec.Command(sh, append([]string{"-c", "dir=$1; shift\n" + loop, "sh", dir}, trailers...)...)
		if utf8[sh+"#"+strconv.Itoa(si)] {
			cmd.Env = append(os.Environ(), "LC_ALL=C.UTF-8")
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", sh, err, out)
		}
		for i, msg := range msgs {
			rc, _ := os.ReadFile(filepath.Join(dir, "rc."+strconv.Itoa(i)))
			gotB, _ := os.ReadFile(filepath.Join(dir, "got."+strconv.Itoa(i)))
			switch strings.TrimSpace(string(rc)) {
			case "0":
				appended++
				if !bytes.Equal(gotB, wants[i]) {
					t.Fatalf("%s, message %d %q:\nappended: %q\ngit:      %q", sh, i, msg, gotB, wants[i])
				}
			case "3":
				if string(gotB) != msg {
					t.Fatalf("%s changed the message and then left it to git: %q", sh, gotB)
				}
			default:
				t.Fatalf("%s, message %d %q: exit %q", sh, i, msg, rc)
			}
		}
	}
	// The common case must take the fast path: a title, or a title and a
	// body, from git commit -m.
	if appended < rounds/10 {
		t.Errorf("only %d of %d messages appended without git", appended, rounds*len(shells))
	}
	t.Logf("%d of %d runs appended without git (%d shells)", appended, rounds*len(shells), len(shells))
}

// addTrailers, commit-msg's path when the binary runs, also puts the
// trailers after a "---" line.
func TestAddTrailersAfterDashLine(t *testing.T) {
	gittest.Require(t)
	dir := t.TempDir()
	gittest.Git(t, dir, "init", "-q")
	msg := filepath.Join(dir, "msg")
	if err := os.WriteFile(msg, []byte("subj\n\nbody\n---\nmore\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := addTrailers(context.Background(), dir, msg, []string{"Session-Id: abc"}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(msg)
	if want := "subj\n\nbody\n---\nmore\n\nSession-Id: abc\n"; string(b) != want {
		t.Errorf("message %q, want %q", b, want)
	}
}

// TestAddTrailersMergeMessage: git merge hands commit-msg a message with
// no final newline; the trailers must form their own block (git log's
// %(trailers) finds them), with and without the comment lines git adds.
func TestAddTrailersMergeMessage(t *testing.T) {
	gittest.Require(t)
	dir := t.TempDir()
	gittest.Git(t, dir, "init", "-q")
	for _, c := range []struct{ name, msg, want string }{
		{"no final newline", "Merge branch 'main' into feat/x", "Merge branch 'main' into feat/x\n\nSession-Id: abc\n"},
		{"final newline", "Merge branch 'main' into feat/x\n", "Merge branch 'main' into feat/x\n\nSession-Id: abc\n"},
		{"comment lines", "Merge branch 'main' into feat/x\n# Conflicts:\n#\ta.txt\n", "Merge branch 'main' into feat/x\n\nSession-Id: abc\n# Conflicts:\n#\ta.txt\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			msg := filepath.Join(dir, "msg")
			if err := os.WriteFile(msg, []byte(c.msg), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := addTrailers(context.Background(), dir, msg, []string{"Session-Id: abc"}); err != nil {
				t.Fatal(err)
			}
			if b, _ := os.ReadFile(msg); string(b) != c.want {
				t.Errorf("message %q, want %q", b, c.want)
			}
		})
	}
}
