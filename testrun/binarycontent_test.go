package testrun

import "testing"

// TestBinaryContent: only a compiled program's magic makes a file new in
// the session no script it wrote; a script with a NUL byte after its
// first line (which bash still runs) is a script.
func TestBinaryContent(t *testing.T) {
	for _, c := range []struct {
		name string
		b    string
		want bool
	}{
		{"elf", "\x7fELF\x02\x01\x01\x00", true},
		{"mach-o", "\xcf\xfa\xed\xfe\x07\x00", true},
		{"pe", "MZ\x90\x00", true},
		{"script with a NUL", "#!/bin/sh\nexit 0\n# \x00\n", false},
		{"script", "#!/bin/sh\ngo test ./...\n", false},
		{"empty", "", false},
	} {
		if got := BinaryContent([]byte(c.b)); got != c.want {
			t.Errorf("%s: BinaryContent = %v, want %v", c.name, got, c.want)
		}
	}
}
