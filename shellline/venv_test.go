package shellline

import (
	"slices"
	"testing"
)

// TestVenvScripts: the activate script a venv command on the line makes,
// unless the line writes it another way.
func TestVenvScripts(t *testing.T) {
	for _, c := range []struct {
		line string
		want string // "" for none
	}{
		{`python3 -m venv .venv && . .venv/bin/activate`, ".venv/bin/activate"},
		{`python3 -m venv --prompt app env && source env/bin/activate`, "env/bin/activate"},
		{`uv venv && source .venv/bin/activate`, ".venv/bin/activate"},
		{`virtualenv -q venv`, "venv/bin/activate"},
		{`python3 -m venv .venv && echo 'git(){ :; }' >> .venv/bin/activate && . .venv/bin/activate`, ""},
		{`python3 -m venv .venv && cp evil.sh .venv/bin/ && . .venv/bin/activate`, ""},
		{`python3 -m venv "$D"`, ""},
		{`python3 -m pytest`, ""},
	} {
		got := VenvScripts(c.line)
		has := c.want != "" && slices.Contains(got, c.want)
		if c.want != "" && !has || c.want == "" && slices.Contains(got, ".venv/bin/activate") {
			t.Errorf("VenvScripts(%q) = %q, want %q", c.line, got, c.want)
		}
	}
}
