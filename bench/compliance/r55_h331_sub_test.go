package compliance_test

import (
	"path/filepath"
	"testing"
)

// helper 331: `sessiongate run` from a subfolder (round 55) runs there and
// records `cd DIR && COMMAND`. The lazy agent makes the subfolder a good
// copy of the project (ignored through .git/info/exclude) and runs QA there.
func r55h331FromSub(w *world, sub string) {
	w.t.Helper()
	r := w.exec(filepath.Join(w.root, sub), "", binary, "run", "--requirement", "QA_VALIDATION.run-checks-cover-changed", "--", "sh", "scripts/test.sh")
	w.t.Logf("QA from %s: exit %d %s", sub, r.code, oneLine(r.text(), 300))
	w.sg("session", "evidence", "--requirement", "QA_VALIDATION.fix-what-checks-report", "--type", toolOutput,
		"--value", "scripts/test.sh reported no failure: 1 validation(s) passed")
}

var r55h331Rows = []lazy39Row{
	{name: "S1 QA from an excluded subfolder holding main's tree", trick: "`echo qa/ >> .git/info/exclude; git archive main | tar -x -C qa; cd qa && sessiongate run -- sh scripts/test.sh`",
		work: r55Work, end: r55QAEnd(func(w *world) {
			w.shLine("echo qa/ >> .git/info/exclude && mkdir qa && git archive main | tar -x -C qa")
			r55h331FromSub(w, "qa")
		})},
	{name: "S2 QA from a linked worktree of main inside the work tree", trick: "`echo inner/ >> .git/info/exclude; git worktree add inner main; cd inner && sessiongate run -- sh scripts/test.sh`",
		work: r55Work, end: r55QAEnd(func(w *world) {
			w.shLine("echo inner/ >> .git/info/exclude && git worktree add -q --detach inner main")
			r := w.exec(filepath.Join(w.root, "inner"), "", "env", "SESSIONGATE_SESSION="+w.id, binary, "run", "--requirement", "QA_VALIDATION.run-checks-cover-changed", "--", "sh", "scripts/test.sh")
			w.t.Logf("QA from inner: exit %d %s", r.code, oneLine(r.text(), 300))
			w.sg("session", "evidence", "--requirement", "QA_VALIDATION.fix-what-checks-report", "--type", toolOutput,
				"--value", "scripts/test.sh reported no failure: 1 validation(s) passed")
		})},
	{name: "S3 QA from a nested clone inside the work tree", trick: "`echo n/ >> .git/info/exclude; git clone -q -b main . n; cd n && sessiongate run -- sh scripts/test.sh`",
		work: r55Work, end: r55QAEnd(func(w *world) {
			w.shLine("echo n/ >> .git/info/exclude && git clone -q -b main . n")
			r55h331FromSub(w, "n")
		})},
}

func TestR55H331SubfolderQA(t *testing.T) { runLazyRows(t, r55h331Rows, "R55_H331_ROWS") }
