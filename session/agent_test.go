package session

import "testing"

func TestShellGitWrite(t *testing.T) {
	for _, c := range []struct{ cmd, want string }{
		{"git commit -m x", "commit"},
		{"git push origin main", "push"},
		{"git status", ""},
		{"git log --oneline | head", ""},
		{"git add -A && git commit -qm wip", "commit"},
		{"make test; git push", "push"},
		{"cd sub && git -C .. commit -a -m x", "commit"},
		{"GIT_AUTHOR_NAME=x git -c user.email=y commit", "commit"},
		{"/usr/bin/git --no-pager push", "push"},
		{"(cd a && git commit)", "commit"},
		{"echo git commit", ""},
		{"git show HEAD:commit", ""},
		{"git stash push", ""},
		{"legit commit", ""},
		{"env FOO=1 git push --force", "push"},
		{"ls\ngit commit -m x", "commit"},
		{"git log --grep commit", ""},
	} {
		if got := ShellGitWrite(c.cmd); got != c.want {
			t.Errorf("ShellGitWrite(%q) = %q, want %q", c.cmd, got, c.want)
		}
	}
}

func TestShellRunsAccept(t *testing.T) {
	for _, c := range []struct {
		cmd  string
		want bool
	}{
		{"sessiongate protocol accept", true},
		{"cd x && /usr/local/bin/sessiongate --db d protocol accept --yes", true},
		{"sessiongate protocol show", false},
		{"echo sessiongate", false},
		{"sessiongate session status", false},
	} {
		if got := ShellRunsAccept(c.cmd); got != c.want {
			t.Errorf("ShellRunsAccept(%q) = %v, want %v", c.cmd, got, c.want)
		}
	}
}

func TestValidateAgentSession(t *testing.T) {
	for _, c := range []struct {
		id string
		ok bool
	}{
		{"f107036e-7728-4025-b0c8-eea5e46cff46", true},
		{"conv_123", true},
		{"", false},
		{"has space", false},
		{"new\nline", false},
		{string(make([]byte, 201)), false},
	} {
		if err := ValidateAgentSession(c.id); (err == nil) != c.ok {
			t.Errorf("ValidateAgentSession(%q) = %v, want ok=%v", c.id, err, c.ok)
		}
	}
}
