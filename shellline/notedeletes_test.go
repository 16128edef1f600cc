package shellline

import "testing"

// TestDeletesSessiongateFiles: deletions of sessiongate's files by a
// computed or matched path (each allowed at the agent hook before), and
// honest deletions beside them.
func TestDeletesSessiongateFiles(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{`rm "$(git rev-parse --git-dir)/sessiongate/unchecked-stops.jsonl"`, true},
		{`rm -f "$(git rev-parse --git-common-dir)/x"`, true},
		{"rm `git rev-parse --git-dir`/sessiongate/x", true},
		{`G=$(git rev-parse --absolute-git-dir); rm -f "$G/sessiongate/x"`, true},
		{`d=.git/sessiongate; rm $d/unchecked-stops.jsonl`, true},
		{`rm .git/sessiongate/unchecked-*`, true},
		{`rm .git/*/x.jsonl`, true},
		{`rm .g*/s*/u*`, true},
		{`rm unchecked*`, true},
		{`find "$(git rev-parse --git-dir)" -name 'x*' -delete`, true},
		{`find . -name 'unchecked-stops.jsonl' -exec rm {} +`, true},
		{`find / -name 'unchecked*' -delete`, true},
		// find's start points matched by a glob (each allowed before):
		{`find .g*/s* -type f -delete`, true},
		{`find .g*/sessiongate -delete`, true},
		{`find .[g]it -newer x -delete`, true},
		{`find .g*/s* -type f -exec rm -f {} +`, true},
		{`: > "$(git rev-parse --git-dir)/sessiongate/x"`, true},
		{`mv "$(git rev-parse --git-dir)/sessiongate" /tmp/x`, true},
		{`python3 -c "import os,subprocess; os.remove(subprocess.check_output(['git','rev-parse','--git-dir']).decode().strip()+'/x')"`, true},
		{`python3 -c "import glob,os; [os.remove(p) for p in glob.glob('.git/*/u*')]"`, true},
		{`node -e "require('fs').rmSync(require('child_process').execSync('git rev-parse --git-dir').toString().trim()+'/x')"`, true},
		{`d=.git/sessiongate; rm "$d/sessiongate.db"`, true},
		// honest
		{`rm -f /tmp/sg-test/sessiongate.db build/event.key`, false},
		{`git rev-parse --git-dir`, false},
		{`cat "$(git rev-parse --git-dir)/HEAD"`, false},
		{`rm -rf node_modules build`, false},
		{`d=build; rm -rf "$d"`, false},
		{`rm -f *.log *`, false},
		{`rm -rf ./*/dist`, false},
		{`find . -name '*.pyc' -delete`, false},
		{`find . -name '*' -type d -empty -delete`, false},
		{`find ./*/dist build -type f -delete`, false},
		{`find .cache -type f -delete`, false},
		{`find .g*/s* -type f`, false},
		{`python3 -c "import os; os.remove('out.txt')"`, false},
		{`node -e "require('fs').unlinkSync('out.txt')"`, false},
		{`git_dir=$(git rev-parse --git-dir); echo "$git_dir" > where.txt`, false},
	} {
		if got := DeletesSessiongateFiles(c.line); (got != "") != c.want {
			t.Errorf("%s: got %q, want deleted=%v", c.line, got, c.want)
		}
	}
}
