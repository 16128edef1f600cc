package shellline

import (
	"reflect"
	"testing"
)

func TestShellWrites(t *testing.T) {
	tests := []struct {
		cmd  string
		want []string
	}{
		{"git status", nil},
		// Wrappers are judged as the command they run (issue 25.9).
		{"env sed -i s/MUST/MAY/ SESSION-PROTOCOL.md", []string{"SESSION-PROTOCOL.md"}},
		{"env -i PATH=/bin FOO=1 sed -i s/a/b/ p.md", []string{"p.md"}},
		{"env -u HOME -C sub tee out.txt", []string{"out.txt"}},
		{"env -S 'sed -i s/a/b/' p.md", []string{"p.md"}},
		{"nice -n 10 rm sessiongate.yaml", []string{"sessiongate.yaml"}},
		{"nice -5 touch a.md", []string{"a.md"}},
		{"timeout 5 tee .mcp.json", []string{".mcp.json"}},
		{"timeout -s KILL -k 2 30s cp evil.md SESSION-PROTOCOL.md", []string{"SESSION-PROTOCOL.md"}},
		{"command sed -i s/a/b/ p.md", []string{"p.md"}},
		{"command -v sed", nil},
		{"nohup truncate -s 0 p.md", []string{"p.md"}},
		{"exec -a x tee p.md", []string{"p.md"}},
		{"echo p.md | xargs -I{} sed -i s/a/b/ p.md", []string{"p.md"}},
		{"busybox sed -i s/a/b/ p.md", []string{"p.md"}},
		{"stdbuf -o0 tee p.md", []string{"p.md"}},
		{"sudo -u root rm p.md", []string{"p.md"}},
		{`\sed -i s/a/b/ p.md`, []string{"p.md"}},
		{`\rm p.md`, []string{"p.md"}},
		{"env nice timeout 5 sed -i s/a/b/ p.md", []string{"p.md"}},
		{"env bash -c 'echo x > p.md'", []string{"p.md"}},
		{"sudo sh -c 'cat evil > sessiongate.yaml'", []string{"sessiongate.yaml"}},
		// Round 26 c11: wrappers and script-taking programs not judged before.
		{"chrt -o 0 sed -i s/a/b/ p.md", []string{"p.md"}},
		{"chrt 0 tee p.md", []string{"p.md"}},
		{"taskset -c 0 tee p.md", []string{"p.md"}},
		{"runuser -u root -- tee p.md", []string{"p.md"}},
		{"runuser -l root -c 'echo x > p.md'", []string{"p.md"}},
		{"su -c 'echo x > p.md'", []string{"p.md"}},
		{"su root -c 'sed -i s/a/b/ p.md'", []string{"p.md"}},
		{"sudo su -c 'echo x > p.md'", []string{"p.md"}},
		{"sg adm -c 'echo x > p.md'", []string{"p.md"}},
		{"flock -c 'echo x > p.md' /tmp/l", []string{"p.md"}},
		{"flock /tmp/l -c 'echo x > p.md'", []string{"p.md"}},
		{"script -qc 'echo x > p.md' /dev/null", []string{"p.md"}},
		{"script -q -c 'sed -i s/a/b/ p.md' /dev/null", []string{"p.md"}},
		{"watch -n 1 'echo x > p.md'", []string{"p.md"}},
		{"watch -n1 -g tee p.md", []string{"p.md"}},
		{"parallel sed -i s/a/b/ ::: p.md", []string{"p.md"}},
		{"parallel 'echo x > {}' ::: p.md", []string{"p.md"}},
		{"find . -name p.md -exec sh -c 'echo x > p.md' \\;", []string{"p.md"}},
		{"git -c alias.x='!sh -c \"echo x > p.md\"' x", []string{"p.md"}},
		{"git -c alias.x='!echo x > p.md' x", []string{"p.md"}},
		{"awk 'BEGIN{system(\"echo x > p.md\")}'", []string{"p.md"}},
		{"strace -f -o /dev/null tee p.md", []string{"p.md"}},
		{"fakeroot tee p.md", []string{"p.md"}},
		{"unshare -r tee p.md", []string{"p.md"}},
		{"chroot / tee p.md", []string{"p.md"}},
		{"nsenter -t 1 -m tee p.md", []string{"p.md"}},
		{"prlimit --nofile=10 tee p.md", []string{"p.md"}},
		{"numactl -C 0 tee p.md", []string{"p.md"}},
		// their honest twins: the same wrappers around a test run
		{"chrt -o 0 go test ./...", nil},
		{"taskset -c 0 make test", nil},
		{"flock /tmp/build.lock make test", nil},
		{"flock /tmp/l -c 'go test ./...'", nil},
		{"script -qc 'pytest -q' /dev/null", nil},
		{"watch -n 5 go test ./...", nil},
		{"parallel go test ::: ./a ./b", nil},
		{"git -c alias.st=status st", nil},
		{"git -c alias.t='!go test ./...' t", nil},
		{"awk 'BEGIN{system(\"date\")}'", nil},
		{"su -c 'make test' builder", nil},
		{"strace -f -o /tmp/trace.txt go test ./...", nil},
		{"env FOO=1 go test ./...", nil},
		{"timeout 60 go test ./...", nil},
		{"nice make test", nil},
		{"ls -la src", nil},
		{"cat > src/a.go <<'EOF'\npackage a\nEOF", []string{"src/a.go"}},
		{"echo x >> notes.md", []string{"notes.md"}},
		{"go test ./... > out.txt 2>&1", []string{"out.txt"}},
		{"go test ./... 2>/dev/null", nil},
		{"cmd &> log.txt", []string{"log.txt"}},
		{`echo hi | tee -a "b c.txt"`, []string{"b c.txt"}},
		{"sed -i s/a/b/ f.txt g.txt", []string{"f.txt", "g.txt"}},
		{"sed s/a/b/ f.txt", nil},
		{"perl -pi -e s/a/b/ f.txt", []string{"f.txt"}},
		{"cp a.txt b.txt", []string{"b.txt"}},
		{"mv a.txt dir/", []string{"a.txt", "dir/"}},
		{"rm -rf build src/old.go", []string{"build", "src/old.go"}},
		{"touch x.go && mkdir -p y", []string{"x.go"}},
		{"FOO=1 cp a \"$B\"", nil},
		{"echo > $OUT", nil},
		{"echo > *.txt", nil},
		{"dd if=/dev/zero of=disk.img bs=1", []string{"disk.img"}},
		{"cd sub && echo x > y.txt", []string{"sub/y.txt"}},
		{"cd .claude && echo '{}' > settings.json", []string{".claude/settings.json"}},
		{"cd /tmp && echo x > y", []string{"/tmp/y"}},
		{"(echo a; echo b) > both.txt", []string{"both.txt"}},
		{"/usr/bin/tee out", []string{"out"}},
		{"cat <<EOF > a.txt\n$x\nEOF", []string{"a.txt"}},
		{"grep -r foo . > /tmp/x", []string{"/tmp/x"}},
		{"chmod -x .git/hooks/pre-commit", []string{".git/hooks/pre-commit"}},
		{"sh -c 'echo weaker > SESSION-PROTOCOL.md'", []string{"SESSION-PROTOCOL.md"}},
		{"chmod -R 755 scripts", []string{"scripts"}},
		{"chmod u+x run.sh", []string{"run.sh"}},
		// An escaped character is the character: the path is the protected one.
		{`sed -i s/MUST/MAY/ SESSION\-PROTOCOL.md`, []string{"SESSION-PROTOCOL.md"}},
		{`echo x > "sessiongate\.yaml"`, []string{`sessiongate\.yaml`}}, // in double quotes \. stays
		{"cp notes.md backup~", []string{"backup~"}},
	}
	for _, tc := range tests {
		got, ok := Writes(tc.cmd)
		if !ok || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Writes(%q) = %q, %v; want %q", tc.cmd, got, ok, tc.want)
		}
	}
	if _, ok := Writes("echo 'unterminated"); ok {
		t.Error("an unterminated quote parsed")
	}
}
