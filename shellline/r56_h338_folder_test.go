package shellline

import "testing"

// TestR56FolderTracker (round 56, helper 338): one folder tracker for
// TestRuns and ScriptTargets. A folder the line moves to where it cannot
// be read is UnknownDir; an absolute cd stays absolute; the glued and =
// spellings of the runners' folder flags and env -C/--chdir move the run.
func TestR56FolderTracker(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{"cd $X && make test", UnknownDir},
		{"cd api && cd && make test", UnknownDir},
		{"cd api && cd - && make test", UnknownDir},
		{"cd api && eval 'cd ../web' && make test", UnknownDir},
		{"cd api && eval \"$X\" && make test", UnknownDir},
		{"cd $X && cd /repo/api && make test", "/repo/api"},
		{"cd /repo && cd api && make test", "/repo/api"},
		{"cd web && cd /repo/api && go test ./...", "/repo/api"},
		{"pushd api && popd && make test", ""},
		{"pushd api && pushd ../web && popd && make test", "api"},
		{"popd && make test", UnknownDir},
		{"cd api && make -C \"$D\" test", UnknownDir},
		{"cd api && make -C ../web -C ../api test", "api"},
		{"cd -P api && make test", "api"},
		{"cd -- api && make test", "api"},
		{"env --chdir=api make test", "api"},
		{"env --chdir api make test", "api"},
		{"env -iC api make test", "api"},
		{"cd api && env -C /repo/web make test", "/repo/web"},
		{"npm --prefix=api test", "api"},
		{"pnpm -Capi test", "api"},
		{"cd api && go -C ../web test ./...", "web"},
		{"cd api && make test", "api"},
		{"cd . && make test", ""},
		{"cd api/.. && make test", ""},
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
		if len(st) == 1 && st[0].Dir != c.want {
			t.Errorf("ScriptTargets(%q): in %q, want %q", c.line, st[0].Dir, c.want)
		}
	}
}
