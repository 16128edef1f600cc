package session

import (
	"os/exec"
	"testing"

	"github.com/sessiongate/sessiongate/gitalias"
	"github.com/sessiongate/sessiongate/shellline"
)

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
		// Routes that land work without git commit (adversarial pass of issue 25, route 1b).
		{"C=$(git commit-tree $(git write-tree) -p HEAD -F msg)", "commit-tree"},
		{"git update-ref refs/heads/feat/x $C", "update-ref"},
		{"git update-index --add --cacheinfo 100644,$B,a.sh", "update-index"},
		{"git cherry-pick side", "cherry-pick"},
		{"git am < p", "am"},
		{"git revert --no-edit HEAD", "revert"},
		{"git apply work.patch", "apply"},
		{"git apply --check work.patch", ""},
		{"git checkout side -- a.sh", "checkout"},
		{"git checkout side a.sh", "checkout"},
		{"git restore --source=side a.sh", "restore"},
		{"git stash apply", "stash"},
		{"git stash pop", "stash"},
		{"git reset --hard side", "reset"},
		{"git -c alias.x=cherry-pick x side", "-c alias"},
		// A person's start routine stays allowed.
		{"git pull --rebase", ""},
		{"git merge --no-edit main", ""},
		{"git rebase main", ""},
		{"git fetch origin", ""},
		{"git switch -c feat/x", ""},
		{"git checkout -b feat/x", ""},
		{"git checkout -b feat/x origin/main", ""},
		{"git checkout main", ""},
		{"git stash", ""},
		{"git stash list", ""},
		{"git reset --hard", ""},
		{"git update-index --refresh", ""},
		{"git diff --stat", ""},
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
		{"sessiongate session accept-na 1234 --yes --reason ok", true},
		{"cd x && ./sessiongate session accept-na $ID", true},
	} {
		if got := ShellRunsAccept(c.cmd); got != c.want {
			t.Errorf("ShellRunsAccept(%q) = %v, want %v", c.cmd, got, c.want)
		}
	}
}

func TestShellRemovesSession(t *testing.T) {
	for _, c := range []struct {
		cmd  string
		want bool
	}{
		{"sessiongate session delete --yes abc", true},
		{"cd x && /usr/local/bin/sessiongate --db d session terminate --reason r", true},
		{"env -i sessiongate session delete abc; sessiongate session start --objective o", true},
		{"sessiongate session status", false},
		{"sessiongate session evidence --phase P --type manual --value delete", false},
		{"echo sessiongate session delete", false},
	} {
		if got := ShellRemovesSession(c.cmd) != ""; got != c.want {
			t.Errorf("ShellRemovesSession(%q) = %v, want %v", c.cmd, got, c.want)
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

// TestHandWrittenMatchers: the start-up-free validators match what the
// regexps they replaced matched.
func TestHandWrittenMatchers(t *testing.T) {
	for _, c := range []struct {
		s         string
		uuid, hex bool
		badBranch bool
	}{
		{"2cd1125f-7135-4996-9cfa-36c825182c7a", true, false, false},
		{"2CD1125F-7135-4996-9CFA-36C825182C7A", true, false, false},
		{"2cd1125f-7135-4996-9cfa-36c825182c7", false, false, false},
		{"2cd1125f_7135-4996-9cfa-36c825182c7a", false, false, false},
		{"2cd1125g-7135-4996-9cfa-36c825182c7a", false, false, false},
		{"abcdef0", false, true, false},
		{"abcdef", false, false, false},
		{"ABCDEF0", false, false, false},
		{"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", false, true, false},
		{"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0", false, false, false},
		{"feature/login-fix", false, false, false},
		{"has space", false, false, true},
		{"a~b", false, false, true},
		{"a^b", false, false, true},
		{"a:b", false, false, true},
		{"a?b", false, false, true},
		{"a*b", false, false, true},
		{"a[b", false, false, true},
		{`a\b`, false, false, true},
		{"a\x01b", false, false, true},
		{"a\x7fb", false, false, true},
	} {
		if got := isUUID(c.s); got != c.uuid {
			t.Errorf("isUUID(%q) = %v", c.s, got)
		}
		if got := hexSHA.MatchString(c.s); got != c.hex {
			t.Errorf("hexSHA(%q) = %v", c.s, got)
		}
		if got := badBranch.MatchString(c.s); got != c.badBranch {
			t.Errorf("badBranch(%q) = %v", c.s, got)
		}
	}
}

// BenchmarkSelfCopy times the look for the sessiongate binary under
// another name (each program of a line resolved and its size compared),
// which the agent hook runs on every shell line; peer in the same run:
// exec.LookPath of the same programs alone.
func BenchmarkSelfCopy(b *testing.B) {
	lines := []string{"go test ./... 2>&1 | tail -20", "git add -A && git commit -m x", "cd web && npm test -- --ci"}
	dir := b.TempDir()
	b.Run("selfCopy", func(b *testing.B) {
		for b.Loop() {
			selfCopy(lines, dir, "")
		}
	})
	b.Run("lookpath-peer", func(b *testing.B) {
		for b.Loop() {
			for _, p := range []string{"go", "tail", "git", "git", "cd", "npm"} {
				_, _ = exec.LookPath(p)
			}
		}
	})
}

// TestShellGitWriteAliases: with git's aliases resolved, an alias is judged
// by its expansion and an unknown subcommand is a write (an alias set in
// the same line); without them (nil) ShellGitWrite is unchanged.
func TestShellGitWriteAliases(t *testing.T) {
	gc := &gitalias.GitCommands{
		Aliases: map[string]string{"x": "cherry-pick", "st": "status", "y": "x", "sp": "!git cherry-pick", "lgs": "!git log -n 3", "run": "!./script.sh", "loop": "loop"},
		Known:   map[string]bool{"status": true, "log": true, "cherry-pick": true, "pull": true, "config": true},
	}
	for _, c := range []struct {
		cmd  string
		deny bool
	}{
		{"git x side", true},
		{"git y side", true},
		{"git sp side", true},
		{"git run", true},
		{"git loop", true},
		{"git config alias.z cherry-pick && git z side", true},
		{"git st", false},
		{"git lgs", false},
		{"git pull --rebase", false},
		{"git status", false},
	} {
		if got := ShellGitWriteIn(c.cmd, gc); (got != "") != c.deny {
			t.Errorf("ShellGitWriteIn(%q) = %q, want denied %v", c.cmd, got, c.deny)
		}
	}
	if got := ShellGitWrite("git x side"); got != "" {
		t.Errorf("ShellGitWrite without aliases judged %q", got)
	}
}

// TestRecordsRefsCoverStopRefs: with a records ref outside sessiongate's
// namespace (session_record: refs/team/records), the refs an unchecked
// stop is first written onto (refs/team/records-stops/<random>) are the
// agent's to leave alone as the records ref is: deleting one from a line
// the hook reads is denied (the records ref's name protects what it
// begins, so no new rule was needed; this keeps it so).
func TestRecordsRefsCoverStopRefs(t *testing.T) {
	e := &Engine{}
	e.Config.SessionRecord = "refs/team/records"
	for _, c := range []struct {
		line  string
		touch bool
	}{
		{"git update-ref -d refs/team/records-stops/0123456789abcdef0123456789abcdef", true},
		{"git update-ref -d refs/team/records", true},
		{"git update-ref -d refs/sessiongate/records-stops/0123456789abcdef0123456789abcdef", true},
		{"git update-ref refs/heads/feat/x HEAD", false}, // honest: the agent's own branch
		{"git for-each-ref refs/team/records-stops/", false},
	} {
		if got := shellline.TouchesRecords(c.line, e.recordsRefs()); (got != "") != c.touch {
			t.Errorf("%s: %q, want touches=%v", c.line, got, c.touch)
		}
	}
}
