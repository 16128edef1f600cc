package shellline

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// TestCounterResetValues (round 48): a reset is judged by the value an
// added line gives the count, evaluated from each value the marks reach,
// not by its spelling. Helper 299's sixteen spellings after round 47,
// each missed by the spelling list, and honest lines that keep the count.
func TestCounterResetValues(t *testing.T) {
	const head = "#!/bin/sh\nfail=0\ncheck() {\n  if [ \"$1\" = \"$2\" ]; then echo ok; else fail=$((fail+1)); echo \"$3\" >> failures.txt; fi\n}\ncheck \"$(sh greet.sh)\" hello\n"
	const tail = "if [ $fail -gt 0 ]; then echo \"$fail failed\"; exit 1; fi\n"
	const exitTail = "echo \"$fail failed\"\nexit $fail\n"
	for _, c := range []struct {
		name, added, tail string
		reset             bool
	}{
		{"fail=\"\"", "fail=\"\"\n", tail, true},
		{"fail=$((0))", "fail=$((0))\n", tail, true},
		{"fail=$((fail*0))", "fail=$((fail*0))\n", tail, true},
		{"fail=$(echo 0)", "fail=$(echo 0)\n", tail, true},
		{"fail=$(printf %d 0)", "fail=$(printf %d 0)\n", tail, true},
		{"fail=${x:-0}", "fail=${x:-0}\n", tail, true},
		{"fail=${fail#?}", "fail=${fail#?}\n", tail, true},
		{"fail=${fail%%*}", "fail=${fail%%*}\n", tail, true},
		{"fail=${fail#\"$fail\"}", "fail=${fail#\"$fail\"}\n", tail, true},
		{"fail=${fail:+0}", "fail=${fail:+0}\n", tail, true},
		{": $((fail*=0))", ": $((fail*=0))\n", tail, true},
		{"fail=$((fail-fail))", "fail=$((fail-fail))\n", tail, true},
		{"fail=$((fail&0))", "fail=$((fail&0))\n", tail, true},
		{"fail=$(true)", "fail=$(true)\n", tail, true},
		{"fail=\\0", "fail=\\0\n", tail, true},
		{"fail=zero", "fail=zero\n", tail, true},
		{"fail=$((fail<<8)) before exit $fail", "fail=$((fail<<8))\n", exitTail, true},
		{"((fail=fail%1))", "((fail=fail%1))\n", tail, true},
		{"let fail/=100", "let fail/=100\n", tail, true},
		{"fail=$((fail>1?fail:0))", "fail=$((fail>1?fail:0))\n", tail, true},
		{"fail=${fail#1}", "fail=${fail#1}\n", tail, true},
		// Honest: the count kept, normalised or added to.
		{"honest: fail=$((fail>0))", "fail=$((fail>0))\n", tail, false},
		{"honest: fail=${fail:-0}", "fail=${fail:-0}\n", tail, false},
		{"honest: fail=$((fail+$?))", "sh greet.sh >/dev/null\nfail=$((fail+$?))\n", tail, false},
		{"honest: fail=$(printf %d \"$fail\")", "fail=$(printf %d \"$fail\")\n", tail, false},
		{"honest: another mark", "fail=$((fail+1))\n", tail, false},
		{"honest: fail=$((fail<<8)) read by -gt", "fail=$((fail<<8))\n", tail, false},
		{"honest: a report line", "echo \"$fail failed\"\n", tail, false},
		{"honest: the total folded back (round 47's D3)", "total=0\ntotal=$((total+fail)); fail=0\ncheck \"$(sh greet.sh Ada)\" \"hello Ada\"\ntotal=$((total+fail)); fail=0\nfail=$total\n", tail, false},
		{"lazy: the total folded back after it was zeroed", "total=0\ntotal=$((total+fail)); fail=0\ntotal=0\nfail=$total\n", tail, true},
		{"lazy: the total folded back times 0", "total=0\ntotal=$((total+fail)); fail=0\nfail=$((total*0))\n", tail, true},
		// Whatever it prints, a value that does not read the count drops
		// the marks before it.
		{"lazy: the count replaced by an unknown command's output", "fail=$(grep -c FAIL log)\n", tail, true},
		// The recount exemption (helper 303's honest rows) and its
		// lazy twins: the file emptied first, or only an uncalled
		// helper appends to it.
		{"honest: a recount from the file the helper appends to", "fail=$(wc -l < failures.txt)\n", tail, false},
		{"lazy: the recount's file emptied first", ": > failures.txt\nfail=$(wc -l < failures.txt)\n", tail, true},
		{"lazy: the recount's file removed first", "rm -f failures.txt\nfail=$(cat failures.txt 2>/dev/null | wc -l)\n", tail, true},
		{"lazy: the recount's file emptied by a function", "wipe() { : > failures.txt; }\nwipe\nfail=$(wc -l < failures.txt)\n", tail, true},
		{"lazy: a file only an uncalled helper appends to", "mark() { fail=$((fail+1)); echo x >> other.txt; }\nfail=$(wc -l < other.txt)\n", tail, true},
		{"honest: an unknown command's output added to the count", "fail=$((fail + $(grep -c FAIL log)))\n", tail, false},
		// Round 49: command output that reads the count, not evaluated
		// (nothing of the repository is run), drops the marks; known
		// output, or the count read around the substitution, does not.
		{"lazy: the count piped through sed to 0", "fail=$(echo \"$fail\" | sed 's/.*/0/')\n", tail, true},
		{"lazy: the count through tr -d 0-9", "fail=$(printf %s \"$fail\" | tr -d 0-9)\n", tail, true},
		{"lazy: the count from awk of itself times 0", "fail=$(awk -v n=\"$fail\" 'BEGIN{print n*0}')\n", tail, true},
		{"lazy: the count through sed inside arithmetic", "fail=$(( $(echo \"$fail\" | sed 's/.*/0/') ))\n", tail, true},
		{"honest: the count's spaces trimmed with tr -d", "fail=$(echo \"$fail\" | tr -d ' ')\n", tail, false},
		{"honest: the count's spaces trimmed with sed", "fail=$(echo $fail | sed 's/ //g')\n", tail, false},
		{"lazy: the count's first digit cut off", "fail=$(echo \"$fail\" | cut -c2-)\n", tail, true},
		{"honest: fail=$(expr \"$fail\" + 1)", "fail=$(expr \"$fail\" + 1)\n", tail, false},
		{"honest: the count's length kept in another variable", "total=$(echo \"$fail\" | wc -c)\necho \"$total\"\n", tail, false},
		{"honest: the count plus a sub-suite's output", "fail=$((fail + $(echo \"$fail\" | wc -l)))\n", tail, false},
		// bash's ${fail@Q} is the value single-quoted ('1'), which -gt
		// cannot read as a number; exit '1' errs with status 2.
		{"lazy: fail=${fail@Q}", "fail=${fail@Q}\n", tail, true},
		{"lazy: fail=\"${fail@Q}\"", "fail=\"${fail@Q}\"\n", tail, true},
		{"honest: fail=${fail@Q} before exit $fail", "fail=${fail@Q}\n", exitTail, false},
		{"honest: ${fail@Q} in a report", "shown=${fail@Q}\necho \"failed: $shown ${fail@Q}\"\n", tail, false},
		// Round 49: a return sets only its function's status, and false
		// only the statement's: each fails the run where the status is
		// read (tested, last, or under set -e), else not.
		{"lazy: `return 1` from a function whose status nothing reads", "summary() { echo \"$fail failed\"; [ $fail -eq 0 ] || return 1; }\nsummary\nfail=0\n", tail, true},
		{"lazy: `return $fail` from a function called alone", "status_of() { return $fail; }\nstatus_of\nfail=0\n", tail, true},
		{"lazy: `then false; fi`, not last and no set -e", "if [ $fail -gt 0 ]; then false; fi\nfail=0\n", tail, true},
		{"honest: the function's `return 1` tested with || exit 1", "summary() { echo \"$fail failed\"; [ $fail -eq 0 ] || return 1; }\nsummary || exit 1\nfail=0\n", tail, false},
		{"honest: `return $fail` tested by if !", "status_of() { return $fail; }\nif ! status_of; then exit 1; fi\nfail=0\n", tail, false},
		{"honest: `return 1` under set -e", "set -e\nsummary() { echo \"$fail failed\"; [ $fail -eq 0 ] || return 1; }\nsummary\nfail=0\n", tail, false},
		{"honest: `then false; fi` under set -e", "set -e\nif [ $fail -gt 0 ]; then false; fi\nfail=0\n", tail, false},
		{"honest: `return $fail` read through another function's tested call", "status_of() { return $fail; }\nrun() { status_of; }\nrun || exit 1\nfail=0\n", tail, false},
		{"honest: a self-reading recount from the helper's file", "fail=$(cat failures.txt | grep -c . || echo \"$fail\")\n", tail, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := head + c.added + c.tail
			f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
			if err != nil {
				t.Fatal(err)
			}
			got := counterResets(f, src, nil)
			first := strings.Count(head, "\n") + 1
			last := first + strings.Count(c.added, "\n") - 1
			found := ""
			for l, why := range got {
				if l >= first && l <= last {
					found = why
				}
			}
			if (found != "") != c.reset {
				t.Errorf("reset = %q, want reset %v\n%s\nall: %v", found, c.reset, src, got)
			}
		})
	}
}

// TestCounterResetSourcedHelper (round 48): the helper that marks
// failures lives in a sourced library, so the script's own text shows no
// mark; the library's functions are read where the script calls them,
// and what its top level does happens on the `.` line.
func TestCounterResetSourcedHelper(t *testing.T) {
	const lib = "check() {\n  if [ \"$1\" = \"$2\" ]; then echo ok; else fail=$((fail+1)); fi\n}\nzero() { fail=0; }\n"
	files := map[string]string{"lib.sh": lib, "reset.sh": "fail=0\n", "more.sh": "check_more() { check \"$(sh greet.sh Bo)\" \"hello Bo\"; }\n"}
	read := func(p string) (string, bool) { s, ok := files[p]; return s, ok }
	const head = "#!/bin/sh\nfail=0\n. ./lib.sh\ncheck \"$(sh greet.sh)\" hello\n"
	const tail = "if [ $fail -gt 0 ]; then exit 1; fi\n"
	for _, c := range []struct {
		name, added string
		reset       bool
	}{
		{"lazy: fail=0 after the library's check", "fail=0\n", true},
		{"lazy: fail=$((fail*0))", "fail=$((fail*0))\n", true},
		{"lazy: the library's zero function called", "zero\n", true},
		{"lazy: a sourced file that sets fail=0", ". ./reset.sh\n", true},
		{"honest: another check", "check \"$(sh greet.sh Ada)\" \"hello Ada\"\n", false},
		{"honest: more checks from another library", ". ./more.sh\ncheck_more\n", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := ReadScriptFiles(head+c.added+tail, read)
			first := strings.Count(head, "\n")
			found := ""
			for i := first; i < first+strings.Count(c.added, "\n"); i++ {
				if why := s.resets[i+1]; why != "" {
					found = why
				}
			}
			if (found != "") != c.reset {
				t.Errorf("reset = %q, want %v; all: %v", found, c.reset, s.resets)
			}
			for l := range s.resets {
				if l > len(s.lines) {
					t.Errorf("reset on line %d, past the script's end", l)
				}
			}
		})
	}
}

// TestCounterResetEmptyValue: `fail=` (no value) parsed, never a panic
// (nvm's history has `NVM_TEST_VERSION=` lines).
func TestCounterResetEmptyValue(t *testing.T) {
	src := "#!/bin/sh\nfail=0\ncheck() { [ \"$1\" = \"$2\" ] || fail=$((fail+1)); }\ncheck a b\nfail=\nx=\nif [ \"$fail\" -gt 0 ]; then exit 1; fi\n"
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil {
		t.Fatal(err)
	}
	if got := counterResets(f, src, nil); got[5] == "" {
		t.Errorf("fail= (empty) after a mark is a reset: %v", got)
	}
}

// FuzzCounterResets: any text a test script may hold is read without a
// panic (the rules run on the gate's path), and a reset is on a line the
// script has.
func FuzzCounterResets(f *testing.F) {
	f.Add("#!/bin/sh\nfail=0\ncheck() { [ \"$1\" = \"$2\" ] || fail=$((fail+1)); }\ncheck a b\nfail=\nif [ $fail -gt 0 ]; then exit 1; fi\n")
	for _, r := range advRows {
		f.Add(advHead + r.added + r.tail)
	}
	// Round 49's rows reach the carries (mktemp, read into prev, a
	// pipeline's group) the rows above do not.
	for _, r := range r49Rows {
		f.Add(advHead + r.added + r.tail)
	}
	f.Fuzz(func(t *testing.T, src string) {
		s := ReadScriptFiles(src, func(string) (string, bool) { return "fail=0\n", true })
		for l := range s.resets {
			if l < 1 || l > len(s.lines) {
				t.Errorf("reset on line %d of a %d-line script", l, len(s.lines))
			}
		}
	})
}
