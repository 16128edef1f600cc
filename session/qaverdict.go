package session

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/sessiongate/sessiongate/reportverdict"
)

// A QA phase's file gate (file_exists, changed_since_start on
// `.agents/qa/*`) passes on a report the session wrote; the report's own
// verdict must not fail the work. "QA report exists" and "QA agent
// confirms validation passed" were met by a fresh report whose verdict
// was "FAIL. Critical: ..." (round 61, helper 353). The newest report
// speaks: one written after a failing one is the re-run; a failing one
// written after a pass says the last change broke it.

// newestReport returns the report that speaks among files: the newest
// that states a verdict, else the newest (files[0] when none can be read).
// A notes file or a test log written after a failing report states no
// verdict and does not hide it (helper 358).
func newestReport(root string, files []string) string {
	type at struct {
		f string
		t int64
	}
	var byTime []at
	for _, f := range files {
		t := int64(-1)
		if fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(f))); err == nil {
			t = fi.ModTime().UnixNano()
		}
		byTime = append(byTime, at{f, t})
	}
	sort.SliceStable(byTime, func(i, j int) bool { return byTime[i].t > byTime[j].t })
	for _, r := range byTime {
		if b, err := readWorkFile(root, r.f); err == nil {
			if _, ok := reportverdict.Of(string(b)); ok {
				return r.f
			}
		}
	}
	return byTime[0].f
}

// failedVerdict says why rel, a QA phase's report, is no evidence the
// work passed: its verdict fails it. "" outside a QA phase, or when the
// report states a pass or no verdict (the observed test run, where the
// agent's CLI is hooked, is what proves the tests ran).
func failedVerdict(env gateEnv, rel string) string {
	if env.phase == nil || !qaPhase(env.phase, env.cfg) {
		return ""
	}
	return reportFails(env.repo.Root(), rel)
}

// reportFails says why the report at rel states a verdict that fails the
// work; "" when it states a pass, none, or cannot be read.
func reportFails(root, rel string) string {
	b, err := readWorkFile(root, rel)
	if err != nil {
		return ""
	}
	v, ok := reportverdict.Of(string(b))
	if !ok || !v.Failed {
		return ""
	}
	return fmt.Sprintf("%s states the verdict %q (line %d): a report that fails the work is no evidence that it passed; fix what it found, run QA again and write the new report", rel, v.Word, v.Line)
}
