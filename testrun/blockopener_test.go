package testrun

import "testing"

// TestSkipsInBlock: a skip further down an if's block is guarded by that
// if (it read as unguarded when the line above was not the if); a block
// whose if always holds, and a skip at the body's top level, are not.
func TestSkipsInBlock(t *testing.T) {
	const head = "package x\n\nimport (\n\t\"os\"\n\t\"os/exec\"\n\t\"testing\"\n)\n\nfunc TestPy(t *testing.T) {\n"
	cases := []struct {
		name, body string
		flagged    bool
	}{
		{"missing program, fatal under CI", "\tif _, err := exec.LookPath(\"pytest\"); err != nil {\n\t\tif os.Getenv(\"CI\") == \"true\" {\n\t\t\tt.Fatal(\"pytest is missing\")\n\t\t}\n\t\tt.Skip(\"pytest is missing\")\n\t}\n}\n", false},
		{"statement before the skip", "\tif os.Getenv(\"DB_URL\") == \"\" {\n\t\tt.Log(\"no database\")\n\t\tt.Skip(\"no database\")\n\t}\n}\n", false},
		{"block whose if always holds", "\tif true {\n\t\tt.Log(\"x\")\n\t\tt.Skip(\"later\")\n\t}\n}\n", true},
		{"top level after a block", "\tif os.Getenv(\"DB_URL\") == \"\" {\n\t\tt.Log(\"no database\")\n\t}\n\tt.Skip(\"later\")\n}\n", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := SkipsIn("go", nil, []byte(head+c.body), false)
			if (len(got) > 0) != c.flagged {
				t.Fatalf("SkipsIn = %q, want flagged %v", got, c.flagged)
			}
		})
	}
}
