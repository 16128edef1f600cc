package selfbinary

import (
	"os"
	"path/filepath"
	"testing"
)

// The test binary is "this binary" here: a copy or a link of it under
// another name is it; a file of its size with other bytes, or another
// program, is not.
func TestIs(t *testing.T) {
	me, err := os.Executable()
	if err != nil {
		t.Skip("no executable path:", err)
	}
	b, err := os.ReadFile(me)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name string, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write("x", b)
	other := append([]byte(nil), b...)
	other[0] ^= 0xff
	write("same-size", other)
	write("small", b[:len(b)/2])
	if err := os.Symlink(me, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		prog string
		want bool
	}{
		{me, true},
		{"./x", true},
		{"./link", true},
		{"link", false}, // a bare name is looked up in PATH, not dir
		{"same-size", false},
		{"small", false},
		{"missing", false},
		{"sh", false},
		{"", false},
	}
	for _, c := range cases {
		t.Run(c.prog, func(t *testing.T) {
			if got := Is(dir, c.prog); got != c.want {
				t.Fatalf("Is(%q) = %v, want %v", c.prog, got, c.want)
			}
		})
	}
	t.Setenv("PATH", dir)
	if !Is("/", "x") {
		t.Fatal(`Is("x") with the copy on PATH = false, want true`)
	}
}
