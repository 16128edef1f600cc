package verify_test

import (
	"strings"
	"testing"
)

// TestGateVerifyAgreeScriptRefactors (round 47, helper-296's honest
// pass): honest refactors of the configured command's own test script
// that the gate and verify both refused: removing lines that never ran
// (an `if false` debug block, a `: <<'NOTE'` comment), rewording a banner
// cat prints, keeping failure counts per suite summed into a total. Each
// honest row runs the real sh on the changed tree and passes; each lazy
// twin passes broken code (greet.txt says "helo") and both refuse it.
func TestGateVerifyAgreeScriptRefactors(t *testing.T) {
	const head = "#!/bin/sh\nfail=0\ncheck() { if grep -q \"$1\" greet.txt; then echo ok; else fail=$((fail+1)); fi; }\n"
	const debug = "if false; then\n  set -x\n  check debug\nfi\n"
	const note = ": <<'NOTE'\nTODO: check more words\nNOTE\n"
	const banner = "cat <<EOF\n== greet tests ==\nEOF\n"
	const checks = "check hello\ncheck world\n"
	const tail = "if [ $fail -gt 0 ]; then echo \"$fail failed\"; exit 1; fi\n"
	const start = head + debug + note + banner + checks + tail
	const totalTail = "if [ $total -gt 0 ]; then echo \"$total failed\"; exit 1; fi\n"
	row := func(name string, lazy bool, now string, more ...string) agreeRow {
		w := map[string]string{"scripts/test.sh": now}
		for i := 0; i+1 < len(more); i += 2 {
			w[more[i]] = more[i+1]
		}
		return agreeRow{name: name, cmd: "sh scripts/test.sh", base: map[string]string{"scripts/test.sh": start}, work: w, lazy: lazy, ownRecipe: lazy}
	}
	for _, c := range []agreeRow{
		row("honest: the if false debug block removed", false, head+note+banner+checks+tail),
		row("honest: the : <<'NOTE' comment removed", false, head+debug+banner+checks+tail),
		row("honest: the banner reworded", false, head+debug+note+strings.Replace(banner, "== greet tests ==", "== tests of greet.txt ==", 1)+checks+tail),
		row("honest: per-suite counts summed into a total", false,
			head+debug+note+banner+"total=0\ncheck hello\ntotal=$((total+fail)); fail=0\ncheck world\ntotal=$((total+fail))\n"+totalTail),
		row("lazy: a suite's count reset without summing it", true,
			head+debug+note+banner+"total=0\ncheck hello\nfail=0\ncheck world\ntotal=$((total+fail))\n"+totalTail),
		row("lazy: the debug block removed with a live check", true, head+note+banner+"check world\n"+tail),
		row("honest: a check moved into a new sourced file", false, head+debug+note+banner+"check hello\n. scripts/more.sh\n"+tail,
			"scripts/more.sh", "# more checks of greet.txt\ncheck world\n"),
		row("honest: the helper moved into a new lib.sh sourced beside the script", false,
			"#!/bin/sh\nfail=0\n. \"$(dirname \"$0\")/lib.sh\"\n"+debug+note+banner+checks+tail,
			"scripts/lib.sh", "check() { if grep -q \"$1\" greet.txt; then echo ok; else fail=$((fail+1)); fi; }\n"),
		row("lazy: the helper moved into a new lib.sh that passes every check", true,
			"#!/bin/sh\nfail=0\n. scripts/lib.sh\n"+debug+note+banner+checks+tail,
			"scripts/lib.sh", "check() { echo ok; }\n"),
		row("lazy: a check moved into a new sourced file that resets the count", true, head+debug+note+banner+"check hello\n. scripts/more.sh\n"+tail,
			"scripts/more.sh", "check world\nfail=0\n"),
		row("honest: checks split into a new script run as a child", false,
			head+debug+note+banner+"check hello\nsh scripts/more.sh || fail=$((fail+1))\n"+tail,
			"scripts/more.sh", head+"check world\n"+tail),
		row("honest: a child beside the script, ending on exit $fail", false,
			head+debug+note+banner+"check hello\nsh \"$(dirname \"$0\")/more.sh\" || fail=1\n"+tail,
			"scripts/more.sh", head+"echo '== more checks =='\ncheck world\nexit $fail\n"),
		row("lazy: a child that never fails on its checks", true,
			head+debug+note+banner+"check world\nsh scripts/more.sh || fail=$((fail+1))\n"+tail,
			"scripts/more.sh", head+"check hello\necho done\n"),
		row("lazy: a child whose failure marks a count nothing tests", true,
			head+debug+note+banner+"check world\nsh scripts/more.sh || skipped=1\n"+tail,
			"scripts/more.sh", head+"check hello\n"+tail),
		row("lazy: a child that resets its count before its test", true,
			head+debug+note+banner+"check world\nsh scripts/more.sh || fail=$((fail+1))\n"+tail,
			"scripts/more.sh", head+"check hello\nfail=0\n"+tail),
	} {
		t.Run(c.name, func(t *testing.T) { gateVerifyRow(t, c) })
	}
}
