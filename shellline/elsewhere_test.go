package shellline

import (
	"path/filepath"
	"testing"
)

// RanElsewhere moved here from session/ (it needs no session); these cases
// pin what it judged there.
func TestRanElsewhere(t *testing.T) {
	root := filepath.ToSlash(t.TempDir())
	cases := []struct {
		name, dir, line, want string
	}{
		{"stays in the root", "", "sh tests/run.sh", ""},
		{"cd into a subfolder", "", "cd sub && sh run.sh", ""},
		{"cd to a sibling checkout", "", "cd ../pristine && sh tests/run.sh", filepath.ToSlash(filepath.Dir(root)) + "/pristine"},
		{"git -C elsewhere", "", "git -C /tmp/other status", "/tmp/other"},
		{"make --directory elsewhere", "", "make --directory=/srv/x test", "/srv/x"},
		{"env -C elsewhere", "", "env -C /opt sh -c true", "/opt"},
		{"shell folder outside", "/var/tmp", "true", "/var/tmp"},
		{"unknown folder left alone", "", `cd "$dir" && make`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := RanElsewhere(root, c.dir, c.line); got != c.want {
				t.Fatalf("RanElsewhere(%q) = %q, want %q", c.line, got, c.want)
			}
		})
	}
}
