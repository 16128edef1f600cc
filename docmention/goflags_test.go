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
	const fnGo = "package main\n\nimport \"flag\"\n\nfunc defaultN() int {\n\treturn 3\n}\n\nfunc main() {\n\tflag.Int(\"n\", defaultN(), \"how many\")\n}\n"
	const fnLocal = "package main\n\nimport \"flag\"\n\nfunc defaultN() int {\n\tn := 10\n\treturn n\n}\n\nvar n = flag.Int(\"n\", defaultN(), \"how many\")\n"
	const setGo = "package main\n\nimport \"flag\"\n\nvar count = flag.Int(\"count\", 3, \"how many\")\n\nfunc init() {\n\tflag.Set(\"count\", \"9\")\n}\n"
	const defGo = "package main\n\nimport \"github.com/spf13/pflag\"\n\nvar retries = pflag.Int(\"retries\", 2, \"retries\")\n\nfunc init() {\n\tpflag.Lookup(\"retries\").DefValue = \"5\"\n}\n"
	const defLocal = "package main\n\nimport \"github.com/spf13/pflag\"\n\nvar mode = pflag.String(\"mode\", \"fast\", \"mode\")\n\nfunc init() {\n\tf := pflag.CommandLine.Lookup(\"mode\")\n\tf.DefValue = \"fast\"\n}\n"
	const cobraGo = "package main\n\nimport \"github.com/spf13/cobra\"\n\ntype config struct {\n\tDefault int\n\tName    string\n}\n\nvar cfg = config{Default: 8}\n\nvar workers int\n\nfunc setup(cmd *cobra.Command) {\n\tcmd.Flags().IntVar(&workers, \"workers\", cfg.Default, \"how many workers\")\n}\n"
	const cobraCfg = "package main\n\ntype config struct{ Default int }\n\nvar cfg = config{Default: 8}\n"
	const cobraUse = "package main\n\nimport \"github.com/spf13/cobra\"\n\nvar workers int\n\nfunc setup(cmd *cobra.Command) {\n\tcmd.Flags().IntVar(&workers, \"workers\", cfg.Default, \"how many workers\")\n}\n"
	const limitsGo = "package limits\n\nconst (\n\tN = 5\n\tM = 7\n)\n"
	const toolGo = "package main\n\nimport (\n\t\"flag\"\n\n\t\"example.com/m/internal/limits\"\n)\n\nvar n = flag.Int(\"n\", limits.N, \"how many\")\n"
	const durGo = "package main\n\nimport (\n\t\"flag\"\n\t\"time\"\n)\n\nconst base = 5\n\nvar wait = flag.Duration(\"wait\", 5*time.Second, \"how long\")\nvar n = flag.Int(\"n\", base, \"how many\")\n"
	const methGo = "package main\n\nimport \"flag\"\n\ntype config struct{ n int }\n\nfunc (c config) DefaultN() int { return 8 }\n\nfunc scaled(k int) int { return k * 2 }\n\nvar cfg config\n\nvar n = flag.Int(\"n\", cfg.DefaultN(), \"how many\")\nvar m = flag.Int(\"m\", scaled(3), \"how many more\")\n"
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
		// Round 22 (c4): defaults a function call, a flag.Set or a
		// DefValue gives, and a cobra IntVar from a config struct.
		{"default from a function call changed", []file{{"main.go", fnGo, strings.Replace(fnGo, "return 3", "return 4", 1)}}, nil, "--n"},
		{"default from a function's local changed", []file{{"main.go", fnLocal, strings.Replace(fnLocal, "n := 10", "n := 20", 1)}}, nil, "--n"},
		{"default set in init by flag.Set", []file{{"main.go", setGo, strings.Replace(setGo, `flag.Set("count", "9")`, `flag.Set("count", "99")`, 1)}}, nil, "--count"},
		{"flag.Set added in init", []file{{"main.go", mainGo, strings.Replace(mainGo, "}\n", "}\n\nfunc init() { flag.Set(\"verbose\", \"true\") }\n", 1)}}, nil, "--verbose"},
		{"pflag DefValue changed in init", []file{{"main.go", defGo, strings.Replace(defGo, `DefValue = "5"`, `DefValue = "6"`, 1)}}, nil, "--retries"},
		{"DefValue through a local", []file{{"main.go", defLocal, strings.Replace(defLocal, `DefValue = "fast"`, `DefValue = "slow"`, 1)}}, nil, "--mode"},
		{"cobra IntVar from a config struct changed", []file{{"cmd.go", cobraGo, strings.Replace(cobraGo, "Default: 8", "Default: 16", 1)}}, nil, "--workers"},
		{"cobra default from a config struct in another file", []file{{"config.go", cobraCfg, strings.Replace(cobraCfg, "Default: 8", "Default: 16", 1)}},
			map[string]string{"cmd.go": cobraUse}, "--workers"},
		{"default from another package's constant", []file{{"internal/limits/limits.go", limitsGo, strings.Replace(limitsGo, "N = 5", "N = 6", 1)}},
			map[string]string{"cmd/tool/main.go": toolGo}, "--n"},
		{"default from another package's constant, aliased import", []file{{"internal/limits/limits.go", limitsGo, strings.Replace(limitsGo, "N = 5", "N = 6", 1)}},
			map[string]string{"cmd/tool/main.go": strings.Replace(strings.Replace(toolGo, `"example.com/m/internal/limits"`, `lim "example.com/m/internal/limits"`, 1), "limits.N", "lim.N", 1)}, "--n"},
		// Round 23: values computed where they can be (arithmetic, time
		// units, conversions), a method's returns, a function's arguments bound.
		{"arithmetic giving another value", []file{{"main.go", durGo, strings.Replace(durGo, "5*time.Second", "2*3*time.Second", 1)}}, nil, "--wait"},
		{"a constant's arithmetic giving another value", []file{{"main.go", durGo, strings.Replace(durGo, "base = 5", "base = 2 + 4", 1)}}, nil, "--n"},
		{"a method's return changed", []file{{"main.go", methGo, strings.Replace(methGo, "return 8", "return 9", 1)}}, nil, "--n"},
		{"a function with arguments, its body changed", []file{{"main.go", methGo, strings.Replace(methGo, "k * 2", "k * 3", 1)}}, nil, "--m"},
		// Honest twins: the same shapes with the value unchanged.
		{"arithmetic giving the same value", []file{{"main.go", durGo, strings.Replace(strings.Replace(durGo, "base = 5", "base = 2 + 3", 1), "5*time.Second", "5000*time.Millisecond", 1)}}, nil, ""},
		{"a literal written another way (hex, float, conversion)", []file{{"main.go", durGo, strings.Replace(strings.Replace(durGo, "base = 5", "base = 0x5", 1), "5*time.Second", "time.Duration(base) * time.Second", 1)}}, nil, ""},
		{"a method's body refactored, same value", []file{{"main.go", methGo, strings.Replace(methGo, "return 8", "return 4 * 2", 1)}}, nil, ""},
		{"a function's body refactored, same value for its arguments", []file{{"main.go", methGo, strings.Replace(methGo, "k * 2", "k + k", 1)}}, nil, ""},
		{"a function's body refactored, same value", []file{{"main.go", fnGo, strings.Replace(fnGo, "return 3", "const three = 3\n\treturn three", 1)}}, nil, ""},
		{"flag.Set moved to another init, same value", []file{{"main.go", setGo, strings.Replace(setGo, "func init() {", "func init() {}\n\nfunc init() {", 1)}}, nil, ""},
		{"a flag's value read, not set", []file{{"main.go", setGo, strings.Replace(setGo, "\tflag.Set(\"count\", \"9\")\n", "\tflag.Set(\"count\", \"9\")\n\t_ = flag.Lookup(\"count\").Value.String()\n", 1)}}, nil, ""},
		{"another package's other constant changed", []file{{"internal/limits/limits.go", limitsGo, strings.Replace(limitsGo, "M = 7", "M = 8", 1)}},
			map[string]string{"cmd/tool/main.go": toolGo}, ""},
		{"another package's constant named through a constant, same value", []file{{"internal/limits/limits.go", limitsGo, strings.Replace(limitsGo, "N = 5", "N = five\n\tfive = 5", 1)}},
			map[string]string{"cmd/tool/main.go": toolGo}, ""},
		// Round 22 review: the constant moved to another file of its package.
		{"another package's constant moved to another file, same value", []file{{"internal/limits/limits.go", limitsGo, "package limits\n\nconst M = 7\n"},
			{"internal/limits/n.go", "", "package limits\n\nconst N = 5\n"}}, map[string]string{"cmd/tool/main.go": toolGo}, ""},
		{"another package's constant moved to another file and changed", []file{{"internal/limits/limits.go", limitsGo, "package limits\n\nconst M = 7\n"},
			{"internal/limits/n.go", "", "package limits\n\nconst N = 6\n"}}, map[string]string{"cmd/tool/main.go": toolGo}, "--n"},
		{"cobra config struct gains an unrelated field", []file{{"cmd.go", cobraGo, strings.Replace(cobraGo, "Default: 8", "Default: 8, Name: \"w\"", 1)}}, nil, ""},
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
