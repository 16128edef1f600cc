package shellline

import "testing"

// TestGitRoutesEnvAlias: an alias given through git's environment config
// (GIT_CONFIG_COUNT/KEY/VALUE, GIT_CONFIG_PARAMETERS, --config-env) is
// read by git but not by the hook's alias lookup, which runs in the
// hook's own environment (round 20 review, t9). Honest twins: the same
// mechanisms for keys that are no alias (safe.directory in CI, an
// auth header).
func TestGitRoutesEnvAlias(t *testing.T) {
	read := func(string) (string, bool) { return "", false }
	for _, c := range []struct {
		line string
		open bool
	}{
		{`GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.q GIT_CONFIG_VALUE_0='reset --hard' git q rel`, true},
		{`export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.q GIT_CONFIG_VALUE_0='reset --hard'; git q rel`, true},
		{`GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=Alias.Q GIT_CONFIG_VALUE_0='!cp a b' git q`, true},
		{`V='reset --hard' git --config-env=alias.q=V q rel`, true},
		{`V='reset --hard' git --config-env alias.q=V q rel`, true},
		{`GIT_CONFIG_PARAMETERS="'alias.q=reset --hard'" git q rel`, true},
		// Honest twins.
		{`GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=safe.directory GIT_CONFIG_VALUE_0='*' git status`, false},
		{`git --config-env=http.extraheader=AUTH fetch origin`, false},
		{`GIT_CONFIG_PARAMETERS="'core.pager=cat'" git log -1`, false},
		{`echo GIT_CONFIG_KEY_0=alias.q`, false},
		{`git -c alias.st=status st`, false},
	} {
		_, open := GitRoutes(c.line, read)
		if got := len(open) > 0; got != c.open {
			t.Errorf("%q: open %v, want %v (%v)", c.line, got, c.open, open)
		}
	}
}
