package scriptwalk

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/sessiongate/sessiongate/scriptrun"
)

// judge is a Judge that denies a line holding "FORBIDDEN" (standing in for
// the session's rules on a typed line) and records each line it was asked.
type judge struct {
	mu    sync.Mutex
	lines []Line
	err   error
}

func (j *judge) JudgeLine(_ context.Context, l Line) (Verdict, error) {
	j.mu.Lock()
	j.lines = append(j.lines, l)
	j.mu.Unlock()
	if j.err != nil {
		return Verdict{}, j.err
	}
	if strings.Contains(l.Text, "FORBIDDEN") {
		return Verdict{Deny: true, Reason: "FORBIDDEN is denied"}, nil
	}
	return Verdict{}, nil
}

func sum(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:]) }

// TestWalk: what a walk denies and reads, with a Judge standing in for the
// session. It fails if a script's denied line, a protected name in a file
// a line runs or imports, or a line the Judge could not judge is let
// through, or if an honest script is denied or not listed as read.
func TestWalk(t *testing.T) {
	for _, tc := range []struct {
		name   string
		files  map[string]string
		line   string
		active bool
		depth  int
		err    error
		// wantDeny: a part of the reason ("" allowed)
		wantDeny string
		// wantRead: the scripts listed as read (allowed only)
		wantRead []string
		// wantJudged: a line the Judge must have been asked, with its depth
		// and where it stood
		wantJudged *Line
	}{
		{name: "a shell script's denied statement names the file and line",
			files: map[string]string{"tidy.sh": "echo ok\nrm -f FORBIDDEN\n"}, line: "sh tidy.sh", active: true,
			wantDeny: "tidy.sh, whose line 2 (`rm -f FORBIDDEN`) is denied: FORBIDDEN is denied"},
		{name: "honest twin: a script of allowed statements runs, listed as read",
			files: map[string]string{"tidy.sh": "echo ok\ngo vet ./...\n"}, line: "sh tidy.sh", active: true,
			wantRead:   []string{"tidy.sh"},
			wantJudged: &Line{Text: "echo ok\ngo vet ./...\n", Depth: 1, Within: scriptrun.Within{Shell: "echo ok\ngo vet ./...\n"}}},
		{name: "a Python script's import names the session database",
			files:    map[string]string{"t.py": "import forge\nprint('ok')\n", "forge.py": "import os\nos.remove('.git/sessiongate/sessiongate.db')\n"},
			line:     "python3 t.py",
			active:   true,
			wantDeny: "forge.py"},
		{name: "honest twin: a Python script importing a plain module",
			files:    map[string]string{"t.py": "import helper\nprint(helper.x)\n", "helper.py": "x = 1\n"},
			line:     "python3 t.py",
			active:   true,
			wantRead: []string{"t.py", "helper.py"}},
		{name: "a command line in a Python string goes to the Judge, within the string",
			files:  map[string]string{"run.py": "import os\nos.system('git commit FORBIDDEN')\n"},
			line:   "python3 run.py",
			active: true, wantDeny: "run.py, whose line 2 runs `git commit FORBIDDEN`, denied: FORBIDDEN is denied"},
		{name: "honest twin: the command line in a string is judged where it stands",
			files:      map[string]string{"run.py": "import os\nos.system('git status --short')\n"},
			line:       "python3 run.py",
			active:     true,
			wantRead:   []string{"run.py"},
			wantJudged: &Line{Text: "git status --short", Depth: 1, Within: scriptrun.Within{String: "import os\nos.system('git status --short')\n"}}},
		{name: "a make recipe the goal reaches is judged one level deeper",
			files:  map[string]string{"Makefile": "test:\n\techo FORBIDDEN\n"},
			line:   "make test",
			active: true, depth: 1, wantDeny: "whose line 2 (`echo FORBIDDEN`) is denied"},
		{name: "honest twin: a make recipe of allowed lines",
			files:    map[string]string{"Makefile": "test:\n\tgo test ./...\n"},
			line:     "make test",
			active:   true,
			depth:    1,
			wantRead: []string{"Makefile"}, wantJudged: &Line{Text: "go test ./...", Depth: 2}},
		{name: "an npm script's body is judged as a shell script",
			files:    map[string]string{"package.json": `{"scripts": {"test": "echo FORBIDDEN"}}`},
			line:     "npm test",
			active:   true,
			wantDeny: "package.json's \"test\" script"},
		{name: "a line the Judge cannot judge is denied",
			files: map[string]string{"tidy.sh": "echo ok\n"}, line: "sh tidy.sh", active: true, err: errors.New("store gone"),
			wantDeny: "it could not be judged: store gone"},
		{name: "scripts nested too deep are denied during a session",
			files: map[string]string{"a.sh": "echo ok\n"}, line: "sh a.sh", active: true, depth: maxScriptDepth,
			wantDeny: "scripts nested deeper than 4"},
		{name: "honest twin: nested too deep with no session is read, not judged",
			files: map[string]string{"a.sh": "echo ok\n"}, line: "sh a.sh", depth: maxScriptDepth,
			wantRead: []string{"a.sh"}},
		{name: "a script named by its input is denied during a session",
			line: "ls *.sh | xargs sh", active: true, wantDeny: "runs script files named by its input"},
		{name: "a script that is not there yet is denied during a session",
			line: "sh later.sh", active: true, wantDeny: "later.sh"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for name, text := range tc.files {
				if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			j := &judge{err: tc.err}
			w := Walk{Root: root, Command: tc.line, Active: tc.active, Targets: scriptrun.DefaultTargets, Depth: tc.depth, Judge: j}
			v, err := w.Lines(context.Background(), []string{tc.line})
			if err != nil {
				t.Fatal(err)
			}
			if tc.wantDeny != "" {
				if !v.Deny || !strings.Contains(v.Reason, tc.wantDeny) {
					t.Fatalf("verdict %+v, want a denial naming %q", v, tc.wantDeny)
				}
				if v.Next == "" {
					t.Errorf("denial %q says nothing to do instead", v.Reason)
				}
				return
			}
			if v.Deny {
				t.Fatalf("denied: %s", v.Reason)
			}
			var got []string
			for _, r := range v.Scripts {
				got = append(got, r.Path)
				if !r.InRepo || r.SHA256 != sum(tc.files[r.Path]) {
					t.Errorf("read %+v: want in the repository with the sha256 of its bytes", r)
				}
			}
			if strings.Join(got, " ") != strings.Join(tc.wantRead, " ") {
				t.Errorf("scripts read %q, want %q", got, tc.wantRead)
			}
			if tc.wantJudged != nil {
				found := false
				for _, l := range j.lines {
					if l.Text == tc.wantJudged.Text && l.Depth == tc.wantJudged.Depth && l.Within == tc.wantJudged.Within {
						found = true
					}
				}
				if !found {
					t.Errorf("the Judge was not asked %+v; asked %+v", *tc.wantJudged, j.lines)
				}
			}
		})
	}
}
