package docmention

import (
	"strings"
	"testing"
)

// TestTouchedGo judges a Go package on its source before and after: a
// name counts when its value changed, not when a line naming it did.
func TestTouchedGo(t *testing.T) {
	const mainGo = "package main\n\nimport \"flag\"\n\nfunc main() {\n\tdef := 3\n\tflag.Int(\"n\", def, \"how many\")\n\tflag.Bool(\"verbose\", false, \"print every step\")\n}\n"
	const other = "package main\n\nconst defRetries = 2\n\nconst homeVar = \"TOOL_HOME\"\n"
	const uses = "package main\n\nimport (\n\t\"flag\"\n\t\"os\"\n)\n\nfunc init() {\n\tflag.Int(\"retries\", defRetries, \"retries\")\n\t_ = os.Getenv(homeVar)\n}\n"
	const envGo = "package main\n\nimport \"os\"\n\nconst (\n\tprefix = \"TOOL\"\n\thomeEnv = \"TOOL_HOME\"\n)\n\nfunc home() string { return os.Getenv(homeEnv) }\n"
	type file struct{ path, before, after string }
	for _, tc := range []struct {
		name      string
		changed   []file
		unchanged map[string]string
		want      string // names counted, space separated
	}{
		// Lazy: the value changed where no flag line changed.
		{"default changed through a local variable", []file{{"main.go", mainGo, strings.Replace(mainGo, "def := 3", "def := 4", 1)}}, nil, "--n"},
		{"default changed through a constant in another file", []file{{"defaults.go", other, strings.Replace(other, "defRetries = 2", "defRetries = 5", 1)}},
			map[string]string{"flags.go": uses}, "--retries"},
		{"variable renamed through a constant in another file", []file{{"defaults.go", other, strings.Replace(other, `"TOOL_HOME"`, `"TOOL_DIR"`, 1)}},
			map[string]string{"flags.go": uses}, "TOOL_DIR TOOL_HOME"},
		{"default changed on the flag's line", []file{{"main.go", mainGo, strings.Replace(mainGo, `"verbose", false`, `"verbose", true`, 1)}}, nil, "--verbose"},
		{"usage text changed on the flag's line", []file{{"main.go", mainGo, strings.Replace(mainGo, "print every step", "print each step", 1)}}, nil, "--verbose"},
		{"flag removed", []file{{"main.go", mainGo, strings.Replace(mainGo, "\tflag.Bool(\"verbose\", false, \"print every step\")\n", "", 1)}}, nil, "--verbose"},
		// Honest: a name whose value did not change.
		{"a constant for the flag's name, same value (cobra 611e16c)", []file{{"main.go", mainGo,
			strings.Replace(strings.Replace(mainGo, `flag.Bool("verbose"`, `flag.Bool(verboseFlag`, 1), "func main", "const verboseFlag = \"verbose\"\n\nfunc main", 1)}}, nil, ""},
		{"the constant moved to another file", []file{{"main.go", strings.Replace(mainGo, "func main", "const verboseFlag = \"verbose\"\n\nfunc main", 1) + "", strings.Replace(mainGo, `flag.Bool("verbose"`, `flag.Bool(verboseFlag`, 1)},
			{"names.go", "", "package main\n\nconst verboseFlag = \"verbose\"\n"}}, nil, ""},
		{"a variable's name rebuilt from parts, same value (cobra e63925d)", []file{{"env.go", envGo, strings.Replace(envGo, `homeEnv = "TOOL_HOME"`, `homeEnv = prefix + "_" + "HOME"`, 1)}}, nil, ""},
		{"where the flag's value is stored", []file{{"main.go", "package main\n\nimport \"flag\"\n\nvar v bool\n\nfunc init() { flag.BoolVar(&v, \"verbose\", false, \"x\") }\n",
			"package main\n\nimport \"flag\"\n\nvar cfg struct{ verbose bool }\n\nfunc init() { flag.BoolVar(&cfg.verbose, \"verbose\", false, \"x\") }\n"}}, nil, ""},
		{"an exported function moved to another file", []file{{"a.go", "package main\n\nfunc Helper() {}\n", "package main\n"}, {"b.go", "", "package main\n\nfunc Helper() {}\n"}}, nil, ""},
		{"a flag annotated, not defined (cobra 212ea40)", []file{{"main.go", mainGo, strings.Replace(mainGo, "\tflag.Bool(", "\t_ = flags.SetAnnotation(\"verbose\", \"x\", nil)\n\tflag.Bool(", 1)}}, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var cs []Change
			for _, f := range tc.changed {
				added, removed := lineDiff(f.before, f.after)
				cs = append(cs, Change{Path: f.path, Before: f.before, Body: f.after, Deleted: f.after == "", Added: added, Removed: removed, Whole: true})
			}
			var got []string
			for _, n := range Touched(cs, tc.unchanged) {
				got = append(got, n.Text)
			}
			if g := strings.Join(got, " "); g != tc.want {
				t.Fatalf("touched %q, want %q", g, tc.want)
			}
		})
	}
}

// lineDiff: the lines only one side has (enough for these fixtures).
func lineDiff(a, b string) (added, removed []string) {
	as, bs := strings.Split(a, "\n"), strings.Split(b, "\n")
	in := func(l string, s []string) bool {
		for _, x := range s {
			if x == l {
				return true
			}
		}
		return false
	}
	for _, l := range bs {
		if !in(l, as) {
			added = append(added, l)
		}
	}
	for _, l := range as {
		if a != "" && !in(l, bs) {
			removed = append(removed, l)
		}
	}
	return added, removed
}
