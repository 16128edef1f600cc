package testrun

import (
	"strings"
	"testing"
)

// TestSkipsInRunEnv (issue 25 round 18, E1): a skip condition in a test
// that ran at the start is judged by the environment the judged command
// ran with, the recording process's overlaid with what the line set. The
// lazy agent set GREET_SKIP on the line (`GREET_SKIP=1 go test ./...`),
// which the hook's process never had; the honest lines set variables
// that turn no skip on.
func TestSkipsInRunEnv(t *testing.T) {
	base := EnvOf([]string{"LANG=C.UTF-8", "HOME=/home/a", "DB=postgres://db"})
	goWas := "package m\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tif 1+1 != 2 {\n\t\tt.Fatal(\"math\")\n\t}\n}\n"
	goIf := func(cond string) string {
		return strings.Replace(goWas, "*testing.T) {\n", "*testing.T) {\n\tif "+cond+" {\n\t\treturn\n\t}\n", 1)
	}
	set := goIf(`os.Getenv("GREET_SKIP") != ""`)
	for _, tt := range []struct {
		name, line, now string
		weak            bool
	}{
		{"NAME=V prefix", "GREET_SKIP=1 go test ./...", set, true},
		{"export first", "export GREET_SKIP=1; go test ./...", set, true},
		{"env wrapper", "env GREET_SKIP=1 go test ./...", set, true},
		{"through make", "GREET_SKIP=1 make test", set, true},
		{"make's own argument", "make test GREET_SKIP=1", set, true},
		{"set -a", "set -a; GREET_SKIP=1; go test ./...", set, true},
		{"in a subshell", "(export GREET_SKIP=1; go test ./...)", set, true},
		{"sh -c", "sh -c 'GREET_SKIP=1 go test ./...'", set, true},
		{"a value the line does not spell", "GREET_SKIP=$(cat f) go test ./...", set, true},
		{"a value from the environment", "GREET_SKIP=$LANG go test ./...", set, true},
		{"LookupEnv of a line variable", "GREET_SKIP= go test ./...", goIf(`_, ok := os.LookupEnv("GREET_SKIP"); ok`), true},
		{"the recorder's LANG, kept on the line", "go test ./...", goIf(`os.Getenv("LANG") != ""`), true},
		// honest twins
		// A variable the line takes away does not fire a skip on it (a
		// skip because one is missing stays a guard either way: withEnv).
		{"honest: LANG unset by env -u", "env -u LANG go test ./...", goIf(`os.Getenv("LANG") != ""`), false},
		{"honest: LANG unset first", "unset LANG; go test ./...", goIf(`os.Getenv("LANG") != ""`), false},
		{"honest: env -i", "env -i PATH=/usr/bin go test ./...", goIf(`os.Getenv("LANG") != ""`), false},
		{"honest: no variable on the line", "go test ./...", set, false},
		// round 19 (envunset.go): a guard added to an old test that fires because the variable is unset in the run hides it (the test ran at the start without it)
		{"set empty on the line: an old test's new missing-resource skip fires (round 19)", "DATABASE_URL= go test ./...", goIf(`os.Getenv("DATABASE_URL") == ""`), true},
		{"honest: CGO_ENABLED=0", "CGO_ENABLED=0 go test ./...", set, false},
		{"honest: GOFLAGS=-count=1", "GOFLAGS=-count=1 go test ./...", set, false},
		{"honest: the database given on the line", "DB=postgres://other go test ./...", goIf(`os.Getenv("DB") == ""`), false},
		{"honest: set only for another command", "GREET_SKIP=1 go vet ./... && go test ./...", set, false},
		{"honest: exported in a subshell that ended", "(export GREET_SKIP=1); go test ./...", set, false},
		{"honest: a value the line does not spell, skip when empty", "DB=$(cat f) go test ./...", goIf(`os.Getenv("DB") == ""`), false},
		{"open: a value the line does not spell, skip when 1", "GREET_SKIP=$(cat f) go test ./...", goIf(`os.Getenv("GREET_SKIP") == "1"`), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := skipsIn("go", []byte(goWas), []byte(tt.now), true, nil, nil, RunEnv(base, tt.line))
			if (len(got) > 0) != tt.weak {
				t.Errorf("%s: skips %q, want weakening %v", tt.line, got, tt.weak)
			}
		})
	}
	// A new test keeps the new-test leniency whatever the line sets.
	newTest := goWas + "\nfunc TestB(t *testing.T) {\n\tif os.Getenv(\"GREET_SKIP\") != \"\" {\n\t\tt.Skip(\"set\")\n\t}\n}\n"
	if got := skipsIn("go", []byte(goWas), []byte(newTest), true, nil, nil, RunEnv(base, "GREET_SKIP=1 go test ./...")); len(got) > 0 {
		t.Errorf("a new test's env skip: %q", got)
	}
}
