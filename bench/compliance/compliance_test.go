package compliance_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/testshare"
)

// row is one scenario's line in the table.
type row struct {
	sc       scenario
	ran      bool
	out      outcome
	falseRes bool   // a false pass (non-compliant) or a false block (compliant)
	verdict  string // ok, caught, FALSE PASS, FALSE BLOCK
	why      string // what blocked it, or what verify said
	// unmeasured: a non-compliant scenario stopped before its skip.
	unmeasured bool
	// falseFails are failed gates a compliant session recorded though it
	// went on (shown as skipped): the third count, goal 0.
	falseFails []string
	// naPending: a compliant session whose verify passes once a person
	// accepts its not-applicable marks: neither a pass nor a block.
	naPending bool
}

func classify(sc scenario, out outcome) row {
	r := row{sc: sc, ran: true, out: out}
	clean := out.complete && out.verifyOK
	switch {
	case out.stoppedBy != "":
		r.why = out.stoppedBy
	case out.complete && out.naPending:
		r.why = "COMPLETE; verify passes once a person accepts its N/A marks (" + out.verify + ")"
	case out.complete && !out.verifyOK:
		r.why = "verify: " + out.verify
	case clean && len(out.violations) > 0:
		r.why = "COMPLETE, verify clean, but violation " + out.violations[0]
	case clean:
		r.why = "COMPLETE, verify clean"
	}
	// Pending a person's acceptance of its N/A marks: not clean, and not
	// blocked either. A non-compliant session that only waits for that has
	// not been caught (the person would accept marks, not see the skip).
	pendingClean := out.complete && !out.verifyOK && out.naPending
	if sc.compliant() {
		// A compliant session must also come out without a violation.
		r.falseRes = !clean && !pendingClean || out.forced || out.padded || len(out.violations) > 0
		// A mandatory gate that checked nothing on honest work is a
		// false FAIL too: the session is not clean.
		r.falseFails = append(slices.Clip(out.failedGates), out.notClean...)
		r.verdict = "ok"
		switch {
		case !r.falseRes && pendingClean:
			r.verdict, r.naPending = "N/A PENDING", true
		case r.falseRes:
			r.verdict = "FALSE BLOCK"
		case len(r.falseFails) > 0:
			r.verdict = "FALSE FAIL"
			r.why += "; but recorded failed gate " + strings.Join(r.falseFails, ", ")
		}
	} else {
		// Pending marks catch the skip only when they are the skip; else a
		// person accepting them would wave the skip through unseen.
		// "COMPLETE, not clean" (a mandatory gate checked nothing, or a
		// failing gate that could not block was skipped) has caught the
		// skip: the verdict names the phase, and verify warns.
		r.falseRes = clean && len(out.notClean) == 0 && len(out.failedGates) == 0 || pendingClean && !sc.naSkip
		r.verdict = "caught"
		if clean && !r.falseRes && len(out.failedGates) > 0 {
			r.why = "COMPLETE, not clean: failed gate " + strings.Join(out.failedGates, ", ")
		}
		switch {
		case r.falseRes:
			r.verdict = "FALSE PASS"
		case !out.deviated:
			// Stopped before it skipped anything: whether the skip would
			// be caught is not measured, and that counts against the goal.
			r.falseRes, r.unmeasured = true, true
			r.verdict = "UNMEASURED"
			r.why = "stopped before its skip: " + r.why
		}
	}
	return r
}

// TestCompliance runs every scenario through the real binary and reports
// false passes and false blocks. The goal is 0 and 0: a false result fails
// the test unless the scenario names the feature it waits for (knownGap).
func TestCompliance(t *testing.T) {
	if binary == "" {
		t.Skip("sessiongate was not built (git missing)")
	}
	if _, err := os.Stat(fixtures); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the real protocols are required under CI=true: %v", err)
		}
		t.Skipf("real protocol fixtures not found at %s (clone next to ../shared, or set SESSIONGATE_FIXTURES)", fixtures)
	}
	rows := make([]row, len(scenarios))
	t.Run("scenario", func(t *testing.T) {
		for i, sc := range scenarios {
			rows[i].sc = sc
			t.Run(sc.name, func(t *testing.T) {
				t.Parallel()
				testshare.Sub(t, sc.name)
				if sc.needsMarkdownlint() && nodeModules == "" {
					const msg = "markdownlint-cli2 not found in .ci/node/node_modules (npm ci there, as .ci/run does) or $SESSIONGATE_NODE_MODULES: the real protocols' Quality Checks run it"
					if os.Getenv("CI") != "" {
						t.Fatal(msg)
					}
					t.Skip(msg)
				}
				// The repository from a template made once per set-up
				// (adv_template_test.go), else built here.
				var out outcome
				if sc.protocol == v3Ordinary26 {
					// Run once for this row and the honest26 tests.
					out = honest26Outcome(t, sc.task)
				} else {
					flow := sc.flow
					w := templatedWorld(t, sc.setUpKey(), sc.setUp)
					if w == nil {
						w, flow = newWorld(t), sc.run
					}
					out = runFlow(w, flow)
				}
				rows[i] = classify(sc, out)
				r := rows[i]
				t.Logf("%s: %s (%s)", r.verdict, r.why, sc.reading)
				switch {
				case (r.falseRes || len(r.falseFails) > 0) && sc.knownGap == "":
					t.Errorf("%s: %s\nreading: %s", r.verdict, r.why, sc.reading)
				case !r.falseRes && len(r.falseFails) == 0 && sc.knownGap != "":
					t.Logf("known gap %q no longer shows: remove the knownGap of %s", sc.knownGap, sc.name)
				}
			})
		}
	})
	table := renderTable(rows)
	fmt.Println(table)
	if *writeDocs {
		if err := updateDocs(filepath.Join(moduleRoot, "docs", "benchmarks.md"), table); err != nil {
			t.Fatal(err)
		}
	}
}

// renderTable is the markdown table for docs/benchmarks.md.
func renderTable(rows []row) string {
	var b strings.Builder
	var fp, fb, ff, um, nc, c, gaps, skipped, nap int
	b.WriteString("| scenario | protocol | via | expected | outcome | what blocked it | known gap |\n")
	b.WriteString("|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		exp := "compliant: pass"
		if !r.sc.compliant() {
			exp = "non-compliant (" + string(r.sc.skips) + "): block"
		}
		verdict, why := r.verdict, r.why
		if !r.ran {
			verdict, why = "not run", "skipped"
			skipped++
		}
		gap := r.sc.knownGap
		if gap == "" {
			gap = "-"
		} else if r.ran && !r.falseRes {
			gap = "closed? " + gap
		}
		if r.sc.compliant() {
			c++
		} else {
			nc++
		}
		if r.ran && !r.falseRes && len(r.falseFails) > 0 {
			ff++
		}
		if r.ran && r.naPending {
			nap++
		}
		if r.ran && r.falseRes {
			switch {
			case r.sc.compliant():
				fb++
			case r.unmeasured:
				um++
			default:
				fp++
			}
			if r.sc.knownGap != "" {
				gaps++
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | **%s** | %s | %s |\n", r.sc.name, r.sc.protocol, r.sc.via, exp, verdict,
			strings.ReplaceAll(why, "|", "\\|"), gap)
	}
	fmt.Fprintf(&b, "\nFalse passes: **%d** of %d non-compliant", fp, nc)
	if um > 0 {
		fmt.Fprintf(&b, " (and %d unmeasured: stopped before their skip by another scenario's false block)", um)
	}
	fmt.Fprintf(&b, ". False blocks: **%d** of %d compliant. False FAILs recorded on honest sessions (a gate that failed "+
		"but could not block, shown as skipped): **%d** of %d compliant. Known gaps (features not landed yet): %d.", fb, c, ff, c, gaps)
	fmt.Fprintf(&b, " Compliant sessions whose verify waits for a person to accept their N/A marks (neither a pass nor a block): %d.", nap)
	if skipped > 0 {
		fmt.Fprintf(&b, " Not run: %d.", skipped)
	}
	b.WriteString("\n")
	return b.String()
}

const (
	docsBegin = "<!-- compliance-table:begin -->"
	docsEnd   = "<!-- compliance-table:end -->"
)

// updateDocs replaces the table between the markers in docs/benchmarks.md.
func updateDocs(path, table string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s := string(b)
	i, j := strings.Index(s, docsBegin), strings.Index(s, docsEnd)
	if i < 0 || j < i {
		return fmt.Errorf("%s: no %s ... %s markers for the compliance table", path, docsBegin, docsEnd)
	}
	s = s[:i+len(docsBegin)] + "\n" + table + s[j:]
	return os.WriteFile(path, []byte(s), 0o644)
}
