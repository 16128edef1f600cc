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
		// Runners that take the folder as a flag ran another copy's tests
		// (lazy-agent pass 16 review): each counted as a run of the work tree.
		{"go test -C elsewhere", "", "go test -C /tmp/good ./...", "/tmp/good"},
		{"go -C= elsewhere", "", "go -C=/tmp/good test ./...", "/tmp/good"},
		{"go --C elsewhere in braces", "", "go test {--C,/tmp/good} ./...", "/tmp/good"},
		{"npm --prefix elsewhere", "", "npm --prefix /tmp/good test", "/tmp/good"},
		{"npm --prefix= elsewhere", "", "npm test --prefix=/tmp/good", "/tmp/good"},
		{"cargo --manifest-path elsewhere", "", "cargo test --manifest-path /tmp/good/Cargo.toml", "/tmp/good"},
		{"cargo --manifest-path= elsewhere", "", "cargo test --manifest-path=/tmp/good/Cargo.toml", "/tmp/good"},
		// Honest twins: the same flags inside the worktree, and -C as a
		// test binary's own argument.
		{"go test -C into a module of the worktree", "", "go test -C tools ./...", ""},
		{"go test with -C after -args", "", "go test ./... -args -C /tmp/x", ""},
		{"npm --prefix into a package of the worktree", "", "npm --prefix web test", ""},
		{"cargo --manifest-path of a crate of the worktree", "", "cargo test --manifest-path crates/a/Cargo.toml", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := RanElsewhere(root, c.dir, c.line); got != c.want {
				t.Fatalf("RanElsewhere(%q) = %q, want %q", c.line, got, c.want)
			}
		})
	}
}
