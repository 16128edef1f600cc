package gitrepo

import (
	"strings"
	"testing"
)

// FuzzParseLog: the trailers and files verify reads from `git log` come out
// of any output as trimmed single-line values, or the output is refused;
// never a panic. A commit message can hold any text, so this is untrusted.
func FuzzParseLog(f *testing.F) {
	f.Add("\x1eabc\x1fsubject\x1fSession-Id: 8a151cda-4ff3-415e-8774-d03907e94a17\nSession-Snapshot: sha256:00\n\x1f\na.go\nb.go\n")
	f.Add("\x1e\x1f\x1f\x1f")
	f.Add("\x1eabc\x1fs\x1fKey:\x1f")
	f.Fuzz(func(t *testing.T, s string) {
		cs, err := parseLog(s)
		if err != nil {
			return
		}
		if len(cs) > strings.Count(s, "\x1e")+1 {
			t.Fatalf("%d commits from %d records", len(cs), strings.Count(s, "\x1e")+1)
		}
		for _, c := range cs {
			for k, vs := range c.Trailers {
				if k != strings.TrimSpace(k) || strings.Contains(k, "\n") {
					t.Fatalf("trailer key %q", k)
				}
				for _, v := range vs {
					if v != strings.TrimSpace(v) || strings.Contains(v, "\n") {
						t.Fatalf("trailer value %q", v)
					}
				}
			}
			for _, p := range c.Files {
				if p == "" || p != strings.TrimSpace(p) {
					t.Fatalf("file %q", p)
				}
			}
		}
	})
}
