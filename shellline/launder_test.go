package shellline

import (
	"slices"
	"testing"
)

func TestPersonCommand(t *testing.T) {
	copyOf := func(prog string) bool { return prog == "/tmp/x" }
	for _, c := range []struct {
		line string
		want bool
	}{
		{"sessiongate session terminate --reason r", true},
		{"setsid -f sessiongate session terminate", true},
		{"nohup sessiongate --db d session delete --yes abc &", true},
		{"/tmp/x session terminate", true},
		{"./bin/whatever protocol accept --yes", true},
		{"sessiongate init --commit", true},
		{"echo terminate | xargs sessiongate session", true},
		{"echo 'session delete' | xargs /tmp/x", true},
		{`sessiongate session "$SUB"`, true},
		{`/tmp/x session "$SUB"`, true},
		{"sessiongate session accept-na 3 --reason r", true},
		{"sessiongate session --session abc terminate", true},
		{"script -qec 'sessiongate session terminate --reason r' /dev/null", true},
		{"su -c 'sessiongate session delete --yes x' me", true},
		{"watch -n 60 sessiongate session terminate", true},
		{"git -c alias.t='!sessiongate session terminate' t", true},
		{"git config alias.t '!sessiongate session delete --yes x'", true},
		{"script -q out.log", false},
		{"git -c alias.st=status st", false},
		{"sessiongate --db=/tmp/d session --verbose terminate", true},
		{"sessiongate session --json status", false},
		{"sessiongate session evidence --session abc --value terminate", false},
		// honest
		{"sessiongate session status", false},
		{"sessiongate session", false},
		{"sessiongate init", false},
		{"sessiongate session evidence --phase QA --type manual --value terminate", false},
		{`sessiongate session evidence --value "$(cat out.txt)" --phase QA`, false},
		{"echo sessiongate session delete", false},
		{"ls | xargs -n1 wc -l", false},
		{`/usr/bin/other "$X"`, false},
		{"git commit -m 'session terminate'", false},
	} {
		if got := PersonCommand(c.line, copyOf) != ""; got != c.want {
			t.Errorf("PersonCommand(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}

func TestSchedules(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{"echo 'sessiongate session terminate' | at now", true},
		{"at now + 1 minute < job.sh", true},
		{"echo x | batch", true},
		{"crontab /tmp/cron", true},
		{"crontab -", true},
		{"sudo systemd-run --user --on-active=30 sh job.sh", true},
		{"crontab -l", false},
		{"at -l", false},
		{"cat at.txt", false},
		{"go test ./at/...", false},
		// at(1) needs a time: bare, it schedules nothing (source-map-
		// support's "eval at " stack-frame text, honest corpus); with a
		// time or a job on its input it does.
		{"at", false},
		{"at now", true},
		{"at < job.txt", false}, // still no time: "Garbled time"
		{"echo 'git commit -n' | at -t 202701010000", true},
		{"batch", true}, // batch reads its job from its input: no time needed
	} {
		if got := Schedules(c.line) != ""; got != c.want {
			t.Errorf("Schedules(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}

func TestObfuscated(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{`python3 -c "exec(bytes.fromhex('7072696e74283129'))"`, true},
		{`python3 -c "import base64;exec(base64.b64decode('cHJpbnQoMSk='))"`, true},
		{`python3 -c "import codecs; exec(codecs.decode('cevag(1)', 'rot13'))"`, true},
		{`python3 -c "__import__('os').system(bytes.fromhex('6c73').decode())"`, true},
		{`python3 - <<'EOF'` + "\nexec(bytes.fromhex('7072696e74283129'))\nEOF", true},
		{`node -e "eval(Buffer.from('Y29uc29sZS5sb2coMSk=','base64').toString())"`, true},
		{`node -e "new Function(atob('cmV0dXJuIDE='))()"`, true},
		{`perl -e 'eval pack("H*", "7072696e7420313b")'`, true},
		{`ruby -e 'eval ["707574732031"].pack("H*")'`, true},
		{`bash -c "$(printf '\x6c\x73')"`, true},
		{`eval "$(echo bHM= | base64 -d)"`, true},
		{`sh -c "$(xxd -r -p <<< 6c73)"`, true},
		{`echo bHM= | base64 -d | sh`, true},
		{`printf '\x6c\x73' | bash`, true},
		{`rev <<< 'sl' | sh`, true},
		{`echo 6c73 | xxd -r -p | python3`, true},
		{`$'\x6c\x73' -la`, true},
		// honest
		{`python3 -c 'print(1)'`, false},
		{`python3 -c "import base64; print(base64.b64decode('aGk='))"`, false},
		{`node -e "console.log(Buffer.from('aGk=','base64').toString())"`, false},
		{`python3 -c "exec(open('setup.py').read())"`, false},
		{`echo aGk= | base64 -d`, false},
		{`base64 -d in.b64 > out.bin`, false},
		{`eval "$(ssh-agent -s)"`, false},
		{`eval "$(pyenv init -)"`, false},
		{`bash -c 'echo hi'`, false},
		{`curl -fsSL https://example.com/install.sh | sh`, false},
		{`printf '%s\n' a b | sort`, false},
		{`tr a-z A-Z < in.txt`, false},
	} {
		if got := Obfuscated(c.line) != ""; got != c.want {
			t.Errorf("Obfuscated(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}

func TestTouchesRecords(t *testing.T) {
	refs := []string{"refs/sessiongate/", "refs/notes/sessions"}
	for _, c := range []struct {
		line string
		want bool
	}{
		{"git update-ref -d refs/sessiongate/records", true},
		{"git update-ref refs/sessiongate/records HEAD", true},
		{"git -C . update-ref -d refs/notes/sessions", true},
		{`git update-ref -d "$R"`, true},
		{"printf 'delete refs/sessiongate/records\\n' | git update-ref --stdin", true},
		{"git push origin :refs/sessiongate/records", true},
		{"git push --delete origin refs/sessiongate/records", true},
		{"git push -f origin HEAD:refs/sessiongate/records", true},
		{"git push origin +main:refs/sessiongate/records", true},
		{"git push --mirror origin", true},
		{"git fetch origin +refs/heads/main:refs/sessiongate/records", true},
		{"git fetch origin '+refs/*:refs/*'", true},
		{"git symbolic-ref refs/sessiongate/records refs/heads/main", true},
		{"git replace 1234abcd 5678ef90", true},
		// honest
		{"git update-ref refs/heads/feature HEAD", false},
		{"git update-ref -d refs/heads/old", false},
		{"git push origin HEAD:refs/heads/feature", false},
		{"git push origin --delete old-branch", false},
		{"git push origin refs/sessiongate/records", false},
		{"git fetch origin refs/sessiongate/records:refs/sessiongate/records", false},
		{"git fetch origin main", false},
		{"git replace -l", false},
		{"git log refs/sessiongate/records", false},
	} {
		if got := TouchesRecords(c.line, refs) != ""; got != c.want {
			t.Errorf("TouchesRecords(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}

func TestPrunesUnreachable(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{"git reflog expire --expire=now --all", true},
		{"git reflog delete HEAD@{1}", true},
		{"git gc --prune=now", true},
		{"git gc --aggressive --prune=all", true},
		{"git prune", true},
		{"git gc", false},
		{"git prune --dry-run", false},
		{"git reflog", false},
		{"git reflog show main", false},
	} {
		if got := PrunesUnreachable(c.line) != ""; got != c.want {
			t.Errorf("PrunesUnreachable(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}

func TestWritesFindAndPerl(t *testing.T) {
	for _, c := range []struct {
		line string
		want []string // each must be among the writes
		none bool     // no writes at all
	}{
		{line: "find .git/sessiongate -name '*.db' -delete", want: []string{".git/sessiongate"}},
		{line: "find . -name '*.db' -delete", want: []string{".git/sessiongate"}},
		{line: "find . -delete", want: []string{".git/sessiongate"}},
		{line: "find . -name sessiongate.db -exec rm {} +", want: []string{"sessiongate.db", ".git/sessiongate"}},
		{line: "find . -name SESSION-PROTOCOL.md -delete", want: []string{"SESSION-PROTOCOL.md"}},
		{line: `perl -e 'unlink ".git/sessiongate/sessiongate.db"'`, want: []string{".git/sessiongate/sessiongate.db"}},
		{line: `perl -e 'open(my $f, ">", "sessiongate.yaml"); print $f "x"'`, want: []string{"sessiongate.yaml"}},
		{line: `perl -e 'open(F, ">>SESSION-PROTOCOL.md")'`, want: []string{"SESSION-PROTOCOL.md"}},
		// A glob start point that can match the root or .git (a literal
		// leading dot, `..`, dotglob on the line) reaches .git/sessiongate.
		{line: "find .* -delete", want: []string{".git/sessiongate"}},
		{line: "find ./*/.. -type f -delete", want: []string{".git/sessiongate"}},
		{line: "shopt -s dotglob; find * -delete", want: []string{".git/sessiongate"}},
		{line: "find .g* -name '*.db' -delete", want: []string{".git/sessiongate"}},
		{line: "find @(.|x) -delete", want: []string{".git/sessiongate"}},
		{line: `find "$D" -delete`, want: []string{".git/sessiongate"}},
		// Brace expansion: each word it makes is an operand.
		{line: "rm -rf {.git,x}/sessiongate", want: []string{".git/sessiongate"}},
		{line: "find {.,x} -delete", want: []string{".git/sessiongate"}},
		{line: "tee {notes,SESSION-PROTOCOL}.md < x", want: []string{"SESSION-PROTOCOL.md"}},
		{line: "cp config.yaml{,.bak}", want: []string{"config.yaml.bak"}},
		// honest
		{line: "find ./*/dist -type f -delete", none: true},
		{line: "find */dist packages/*/build -name '*.map' -delete", none: true},
		{line: "find * -maxdepth 0 -name '*.log' -delete", none: true},
		{line: "find . -name '*.pyc' -delete", none: true},
		{line: "find build -type f -name '*.o' -delete", want: []string{"build"}},
		{line: "find . -path ./.git -prune -o -name '*.db' -delete", none: true},
		{line: "find . -name '*.go'", none: true},
		{line: `perl -ne 'print if /x/' file.txt`, none: true},
	} {
		got, ok := Writes(c.line)
		if !ok {
			t.Errorf("Writes(%q) did not parse", c.line)
			continue
		}
		if c.none && len(got) > 0 {
			t.Errorf("Writes(%q) = %q, want none", c.line, got)
		}
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("Writes(%q) = %q, want %s among them", c.line, got, w)
			}
		}
	}
}
