package shellline

import "testing"

func TestSkipsCI(t *testing.T) {
	for _, tc := range []struct {
		line string
		want bool
	}{
		{"git push -o ci.skip origin main", true},
		// lazy pass 34
		{"git config alias.ship 'push -o ci.skip'", true},
		{"git p -o ci.skip", true},
		{"git push -o ci.skip=1", true},
		{"git send-pack --push-option=ci.skip origin HEAD:refs/heads/x", true},
		{"git config alias.p push", false},
		{"git commit -o src/a.go -m wip", false},
		{"git push -oci.skip", true},
		{"git push -fo ci.skip origin HEAD", true},
		{"git push --push-option=ci.skip", true},
		{"git push --push-option ci.skip origin main", true},
		{"git push --push-opt=ci.skip", true},
		{"git -C sub push -o CI.SKIP", true},
		{"git -c push.pushOption=ci.skip push", true},
		{"git -c push.pushoption=ci.skip push origin main", true},
		{"env GIT_TRACE=0 git push -o ci.skip", true},
		{"sh -c 'git push -o ci.skip origin main'", true},
		{"o=ci.skip; git push -o $o", true},
		{"git config push.pushOption ci.skip", true},
		{"git config --global --add push.pushOption ci.skip", true},
		{"git config set push.pushOption ci.skip", true},
		{"/usr/bin/git push -o ci.skip", true},
		// not skipping CI
		{"git push origin main", false},
		{"git push -o merge_request.create origin feature", false},
		{"git push --push-option=ci.variable=FOO=1", false},
		{"git push -f origin main", false},
		{"git config --get-all push.pushOption", false},
		{"git config --unset push.pushOption", false},
		{"git -c push.pushOption=ci.skip fetch", false},
		{"echo git push -o ci.skip", false},
		{"git commit -m 'git push -o ci.skip'", false},
		{"git push -- -o ci.skip", false},
	} {
		got := false
		// As the agent hook reads a line: with what it runs by eval,
		// variables, functions and nested shells as lines of their own.
		for _, l := range LinesIn(Sh, tc.line) {
			got = got || SkipsCI(l) != ""
		}
		if got != tc.want {
			t.Errorf("SkipsCI(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
}

func TestCISkipOption(t *testing.T) {
	for in, want := range map[string]string{
		"":                                "",
		"merge_request.create\n":          "",
		"merge_request.create\nci.skip\n": "ci.skip",
		" ci.skip":                        "ci.skip",
	} {
		if got := CISkipOption(in); got != want {
			t.Errorf("CISkipOption(%q) = %q, want %q", in, got, want)
		}
	}
}
