package shellline

import (
	"reflect"
	"testing"
)

// TestInterpreterWrites: the files an interpreter's literal code writes
// are the line's writes (issue 25.7 route 4): the database through
// sqlite3, the config through open(..., 'w'), in -c code or a
// here-document. Reads, and code that writes other files, are not writes
// of those files.
func TestInterpreterWrites(t *testing.T) {
	tests := []struct {
		cmd  string
		want []string
	}{
		{`python3 -c "import sqlite3; c=sqlite3.connect('.git/sessiongate/sessiongate.db'); c.execute(\"UPDATE phase_results SET status='PASSED'\"); c.commit()"`,
			[]string{".git/sessiongate/sessiongate.db"}},
		{"python3 - <<'EOF'\nimport sqlite3\ndb = sqlite3.connect(\".git/sessiongate/sessiongate.db\")\ndb.execute(\"update sessions set state='WORKING'\")\ndb.commit()\nEOF",
			[]string{".git/sessiongate/sessiongate.db"}},
		{"python3 <<EOF\nopen('sessiongate.yaml', 'w').write('protect: false\\n')\nEOF", []string{"sessiongate.yaml"}},
		{`python -c "open('SESSION-PROTOCOL.md','a').write('x')"`, []string{"SESSION-PROTOCOL.md"}},
		{`python3 -c "from pathlib import Path; Path('sessiongate.yaml').write_text('')"`, []string{"sessiongate.yaml"}},
		{`python3 -c "import os; os.remove('sessiongate.yaml')"`, []string{"sessiongate.yaml"}},
		{`python3 -c "import shutil; shutil.copy('/tmp/p.md', 'SESSION-PROTOCOL.md')"`, []string{"/tmp/p.md", "SESSION-PROTOCOL.md"}},
		{`node -e "require('fs').writeFileSync('sessiongate.yaml', '')"`, []string{"sessiongate.yaml"}},
		{`sudo python3 -c "open('sessiongate.yaml','w')"`, []string{"sessiongate.yaml"}},
		// Honest: reads, and a query of the database.
		{`python3 -c "print(open('sessiongate.yaml').read())"`, nil},
		{`python3 -c "import sqlite3; print(sqlite3.connect('.git/sessiongate/sessiongate.db').execute('select state from sessions').fetchall())"`, nil},
		{`python3 -c "import json; json.dump({}, open('out.json', 'w'))"`, []string{"out.json"}},
		{"python3 script.py <<EOF\nopen('sessiongate.yaml','w')\nEOF", nil}, // the script reads standard input as data
		{`python3 -m pytest -q`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.cmd, func(t *testing.T) {
			got, ok := Writes(tt.cmd)
			if !ok {
				t.Fatal("line not parsed")
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Writes(%q) = %q, want %q", tt.cmd, got, tt.want)
			}
		})
	}
}
