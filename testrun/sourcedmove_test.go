package testrun

import (
	"strings"
	"testing"
)

// TestInlineNewSourced: which lines read a new file in place. A path
// relative to the working folder after a cd, a file that returns early,
// an old file and a conditional word are left as the line they were.
func TestInlineNewSourced(t *testing.T) {
	files := map[string]string{
		"scripts/more.sh":     "#!/bin/sh\ncheck world\n",
		"scripts/ret.sh":      "check world\nreturn 0\n",
		"scripts/old.sh":      "check old\n",
		"scripts/child.sh":    "#!/bin/sh\nfail=0\ncheck() { [ \"$1\" = \"$2\" ] || fail=1; }\ncheck world world\nexit $fail\n",
		"scripts/nohelper.sh": "#!/bin/sh\nfail=0\ncheck world world\nfail=$((fail+0))\nexit $fail\n",
		"scripts/nofail.sh":   "#!/bin/sh\nfail=0\ncheck() { [ \"$1\" = \"$2\" ] || fail=1; }\ncheck world world\necho done\n",
		"env.sh":              "export LANG=C\n",
		"scripts/env.sh":      "check world\n",
		"scripts/open.sh":     "check world\n: <<'X'\n",
		"scripts/openfail.sh": "check world\nfail=0 : <<'X'",
		"scripts/quote.sh":    "check world\necho 'abc\n",
		"scripts/cont.sh":     "check world \\\n",
	}
	read := func(p string) (string, bool) { b, ok := files[p]; return b, ok }
	isNew := func(p string) bool { _, ok := files[p]; return ok && p != "scripts/old.sh" && p != "env.sh" }
	for _, c := range []struct {
		name, now string
		inlined   bool
		was       string
	}{
		{"a path from the root", "check hello\n. scripts/more.sh\nexit $fail\n", true, ""},
		{"source and ./", "source ./scripts/more.sh\n", true, ""},
		{"beside the script by $0", ". \"$(dirname \"$0\")/more.sh\"\n", true, ""},
		{"beside the script by ${0%/*}", ". \"${0%/*}/more.sh\"\n", true, ""},
		{"after a cd", "cd /tmp\n. scripts/more.sh\n", false, ""},
		{"beside the script after a cd", "cd /tmp\n. \"$(dirname \"$0\")/more.sh\"\n", true, ""},
		{"a file that returns early", ". scripts/ret.sh\n", false, ""},
		{"a file the start has", ". scripts/old.sh\n", false, ""},
		{"a name from a variable", ". \"$LIB\"\n", false, ""},
		{"sourced only when a test passes", "[ -n \"$X\" ] && . scripts/more.sh\n", false, ""},
		{"outside the repository", ". ../more.sh\n", false, ""},
		{"a child whose failure marks the count tested after it", "fail=0\ncheck() { [ \"$1\" = \"$2\" ] || fail=1; }\nsh scripts/child.sh || fail=1\nexit $fail\n", true, ""},
		{"a child whose failure marks a count nothing tests", "sh scripts/child.sh || x=1\nexit $fail\n", false, ""},
		{"a child whose failure is ignored", "sh scripts/child.sh || true\nexit $fail\n", false, ""},
		{"a child calling the parent's helper it does not define", "fail=0\ncheck() { [ \"$1\" = \"$2\" ] || fail=1; }\nsh scripts/nohelper.sh || fail=1\nexit $fail\n", false, ""},
		{"a child that does not fail on its checks", "sh scripts/nofail.sh || fail=1\nexit $fail\n", false, ""},
		// The shell reads the first file that exists (round 48): the
		// start's env.sh at the root, not a new one beside the script.
		{"./ names the start's file at the root", ". ./env.sh\nexit $fail\n", false, ""},
		{"a bare name the start has at the root", ". env.sh\nexit $fail\n", false, ""},
		{"./ names the script's folder when the root has no such file", ". ./more.sh\n", true, ""},
		// A file whose text does not end cleanly would swallow the
		// parent's following lines once read in place (round 48).
		{"a file ending in an open here-document", ". scripts/open.sh\nfail=0\nX\nexit $fail\n", false, ""},
		{"a file ending in an open here-document after an assignment", ". scripts/openfail.sh\nfail=1\nX\nexit $fail\n", false, ""},
		{"a file ending in an open quote", ". scripts/quote.sh\nfail=0\n'\nexit $fail\n", false, ""},
		{"a file ending in a continued line", ". scripts/cont.sh\nexit $fail\n", false, ""},
		{"the start's sourced file kept", ". scripts/old.sh\n. scripts/more.sh\n", true, ". scripts/old.sh\n"},
		{"the start's sourced file swapped for the new one", ". scripts/more.sh\n", false, ". scripts/old.sh\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, news := inlineNewSourced("scripts/test.sh", c.was, c.now, read, isNew)
			if (len(news) > 0) != c.inlined {
				t.Fatalf("inlined %q (%q), want inlined %v", news, got, c.inlined)
			}
			if c.inlined && strings.Contains(got, "exit $fail\nexit $fail") {
				t.Errorf("the child's failure test was kept: %q", got)
			}
			if c.inlined && !strings.Contains(got, "check world") {
				t.Errorf("the file's text is not in place: %q", got)
			}
			if c.inlined && strings.Contains(got, "#!/bin/sh") {
				t.Errorf("the shebang was kept: %q", got)
			}
		})
	}
}
