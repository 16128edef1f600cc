package shellline

import "testing"

// TestR57H339FolderToplevel (round 57, helper 339): `cd "$(git rev-parse
// --show-toplevel)"` is the repository's root ("", as where the line
// started), from where the line started or a folder under it; a literal
// "/web" after it is web. Anything else in the substitution, or a folder
// that may be another repository's (absolute, unknown, above the start),
// stays unknown: never the root.
func TestR57H339FolderToplevel(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		// honest: the whole repository's run
		{`cd "$(git rev-parse --show-toplevel)" && make test`, ""},
		{`cd $(git rev-parse --show-toplevel) && make test`, ""},
		{"cd `git rev-parse --show-toplevel` && make test", ""},
		{`cd "$(git rev-parse --show-toplevel 2>/dev/null)" && make test`, ""},
		{`cd web && cd "$(git rev-parse --show-toplevel)" && make test`, ""},
		{`cd web && ls; cd "$(git rev-parse --show-toplevel)" && make test`, ""},
		{`builtin cd "$(git rev-parse --show-toplevel)" && make test`, ""},
		{`pushd "$(git rev-parse --show-toplevel)" && make test`, ""},
		{`cd "$(git rev-parse --show-toplevel)/" && make test`, ""},
		{`cd "$(git rev-parse --show-toplevel)/web" && make test`, "web"},
		{`cd "$(git rev-parse --show-toplevel)"/web && make test`, "web"},
		{`cd api && cd "$(git rev-parse --show-toplevel)/web/" && make test`, "web"},
		{`cd "$(git rev-parse --show-toplevel)/web/.." && make test`, ""},
		{`cd "$(git rev-parse --show-toplevel)/../other" && make test`, "../other"},
		// lazy: never the root
		{`cd "$(git rev-parse --show-toplevel)web" && make test`, UnknownDir},
		{`cd "$(git rev-parse --show-toplevel)/$SUB" && make test`, UnknownDir},
		{`cd "$(git rev-parse --show-toplevel)"/w* && make test`, UnknownDir},
		{`cd "$(git rev-parse --show-toplevel)/w*" && make test`, "w*"}, // quoted: no glob
		{`cd "$(echo api)" && make test`, UnknownDir},
		{`cd "$(git rev-parse --show-toplevel 2>/dev/null || echo web)" && make test`, UnknownDir},
		{`cd "$(git rev-parse --show-toplevel; echo /web)" && make test`, UnknownDir},
		{`cd "$(git -C ../other rev-parse --show-toplevel)" && make test`, UnknownDir},
		{`cd "$(GIT_DIR=/tmp/x/.git git rev-parse --show-toplevel)" && make test`, UnknownDir},
		{`cd "$(git rev-parse --show-toplevel >/tmp/x)" && make test`, UnknownDir},
		{`cd "$(git rev-parse --show-toplevel --show-cdup)" && make test`, UnknownDir},
		{`cd "$(git rev-parse --show-superproject-working-tree)" && make test`, UnknownDir},
		{`cd "$(git rev-parse --show-toplevel)" "$X" && make test`, UnknownDir},
		{`cd "$(git rev-parse --show-toplevel)$(echo /web)" && make test`, UnknownDir},
		// another repository's top folder
		{`cd /tmp/x && cd "$(git rev-parse --show-toplevel)" && make test`, UnknownDir},
		{`cd ../other && cd "$(git rev-parse --show-toplevel)" && make test`, UnknownDir},
		{`cd $X && cd "$(git rev-parse --show-toplevel)" && make test`, UnknownDir},
	} {
		runs := TestRuns(c.line)
		if len(runs) != 1 {
			t.Errorf("%q: %d test runs %+v, want 1", c.line, len(runs), runs)
			continue
		}
		if runs[0].Dir != c.want {
			t.Errorf("TestRuns(%q): run in %q, want %q", c.line, runs[0].Dir, c.want)
		}
		st := ScriptTargets(c.line)
		if len(st) != 1 || st[0].Dir != c.want {
			t.Errorf("ScriptTargets(%q): %+v, want one in %q", c.line, st, c.want)
		}
	}
}
