package shellline

import "testing"

// TestR56H336TestRunsDir (helper 336's review of the folder rule): the
// folder a test run stands in, as TestRuns reads it. An absolute cd after
// the `cd web &&` prefix a run from a subfolder is now recorded with (the
// agent hook's cwd, `sessiongate run` from web/) is joined under it
// (web/abs/...), and the spellings that move the shell or the runner
// besides a two-word cd and a separate -C are not followed.
func TestR56H336TestRunsDir(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{"cd web && cd /repo/api && make test", "/repo/api"},
		{"cd api && make -C../web test", "web"},
		{"cd api && make --directory=../web test", "web"},
		{"cd api && env -C ../web make test", "web"},
		{"cd api && pushd ../web && make test", "web"},
		{"cd api && builtin cd ../web && make test", "web"},
		{"cd api && command cd ../web && make test", "web"},
		{"npm --prefix=api test", "api"},
		{"yarn --cwd=api test", "api"},
	} {
		runs := TestRuns(c.line)
		if len(runs) != 1 {
			t.Errorf("%q: %d test runs %+v, want 1", c.line, len(runs), runs)
			continue
		}
		if runs[0].Dir != c.want {
			t.Errorf("%q: run in %q, want %q", c.line, runs[0].Dir, c.want)
		}
	}
}
