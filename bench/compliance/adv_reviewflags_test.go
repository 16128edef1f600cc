package compliance_test

import (
	"strings"
	"testing"
)

// Reviewer flags (issue 25 item 4): routes no sound rule closes, recorded
// as a LOW REVIEW_FLAG violation at the end (shown by `session show` and
// on the dashboard, never a block; verify does not fail on it). Each route
// below reached COMPLETE, clean, with a passing verify before the flags.

// advFlagged says whether a session ended COMPLETE with a REVIEW_FLAG (a
// flag, not a block) and verify still passed.
func advFlagged(said string) bool {
	end, v, _ := strings.Cut(said, "\nverify: ")
	return strings.Contains(end, "COMPLETE, not clean") && strings.Contains(end, "REVIEW_FLAG") && !strings.Contains(v, "FAIL")
}

// TestAdvHandoffFromGitLog: the handoff made by a script from the
// protocol's template and git log, nothing in it the agent wrote:
//
//	sed -n '/^```markdown$/,/^```$/p' SESSION-PROTOCOL.md | sed '1d;$d' |
//	  sed -e 's/YYYY-MM-DD-NN/2026-08-20-01/' \
//	      -e "s/\[what was completed\]/$(git log --format=%s main..HEAD)/" \
//	      -e 's/\[what the next session should do\]/Continue the work on the objective./'
//
// No placeholder is left and it is no near copy of an earlier handoff:
// COMPLETE, clean, verify passing. Flagged now: fewer than three words of
// its own beyond the protocol, the session's commit subjects and its
// objective (ownwords).
func TestAdvHandoffFromGitLog(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, next string }{
		{"next: continue the work", "Continue the work on the objective."},
		{"next: the commit subjects again", "$(git log --format=%s main..HEAD)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := advWorld(t, true)
			w.advStart("Add a name argument to the greeting script")
			w.advStartPhases()
			w.advWork()
			w.deviate()
			script := "sed -n '/^```markdown$/,/^```$/p' SESSION-PROTOCOL.md | sed '1d;$d' | " +
				"sed -e 's/YYYY-MM-DD-NN/2026-08-20-01/' -e \"s/\\[what was completed\\]/$(git log --format=%s main..HEAD)/\" " +
				"-e \"s/\\[what the next session should do\\]/" + tt.next + "/\""
			r := w.exec(w.root, "", "sh", "-c", script)
			if r.code != 0 || !strings.Contains(r.out, "greet takes an optional name") || strings.Contains(r.out, "[what") {
				t.Fatalf("the sed route made no handoff: %s", r.text())
			}
			clean, said := w.advEndPhases(advEnd{handoffBody: r.out})
			if clean {
				t.Fatalf("route gets through: a handoff made by sed from the template and git log; COMPLETE, clean, verify passing\n%s", said)
			}
			if !advFlagged(said) {
				t.Errorf("the handoff from git log is not a reviewer flag on a COMPLETE session with a passing verify (a flag must not block)\n%s", said)
			}
		})
	}
}

// TestAdvCommitTypeContradicts: "Use conventional commits" checked the
// header's form, not what the type says: the work (a change to
// scripts/greet.sh) committed as `docs: fix typo`, or a test-only commit
// as `feat:`, ended COMPLETE, clean, verify passing. Flagged now
// (committype).
func TestAdvCommitTypeContradicts(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name  string
		extra func(w *world)
		msg   string
	}{
		{"docs: fix typo changing code", nil, "docs: fix typo"},
		{"test: changing code", nil, "test: cover names"},
		{"feat: with only test changes", func(w *world) {
			w.write("scripts/test.sh", w.read("scripts/test.sh")+"# more names later\n")
			w.git("add", "-A")
			w.git("commit", "-q", "-m", "feat: greet more names")
		}, "feat(scripts): greet takes an optional name"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := advWorld(t, true)
			w.advStart("Add a name argument to the greeting script")
			w.advStartPhases()
			w.deviate()
			w.write("scripts/greet.sh", "#!/bin/sh\n# greet prints a greeting, to $1 when given.\necho \"hello${1:+ $1}\"\n")
			w.git("add", "-A")
			if r := w.exec(w.root, "", "git", "commit", "-q", "-m", tt.msg); r.code != 0 {
				t.Fatalf("commit refused: %s", r.text())
			}
			if tt.extra != nil {
				tt.extra(w)
			}
			clean, said := w.advEndPhases(advEnd{})
			if clean {
				t.Fatalf("route gets through: %s; COMPLETE, clean, verify passing\n%s", tt.name, said)
			}
			if !advFlagged(said) {
				t.Errorf("%s is not a reviewer flag on a COMPLETE session with a passing verify (a flag must not block)\n%s", tt.name, said)
			}
		})
	}
}

// TestAdvReviewFlagsHonest: honest twins stay clean: a handoff whose Done
// is the commit subject and whose Next says something of its own; a
// `docs:` commit of the README, a `test:` commit of scripts/test.sh and a
// `fix:` commit of tests only beside the work; a `docs:` commit that
// rewords a comment of the script.
func TestAdvReviewFlagsHonest(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name  string
		extra func(w *world)
		end   advEnd
	}{
		{"done is the subject, next is own words", nil, advEnd{handoffDone: "- feat(scripts): greet takes an optional name\n\n## Next\n\nNone: the README already shows usage."}},
		{"docs, test and fix commits beside the work", func(w *world) {
			for _, c := range [][3]string{
				{"README.md", "# greet\n\nUsage: sh scripts/greet.sh [name]\n", "docs: usage of greet"},
				{"scripts/test.sh", "\n# names are checked below\n", "test: say what is checked"},
				{"scripts/test.sh", "# one more line\n", "fix(tests): a comment's wording"},
			} {
				body := c[1]
				if c[0] == "scripts/test.sh" {
					body = w.read(c[0]) + body
				}
				w.write(c[0], body)
				w.git("add", "-A")
				w.git("commit", "-q", "-m", c[2])
			}
		}, advEnd{}},
		{"docs rewording the script's comment", func(w *world) {
			w.write("scripts/greet.sh", strings.Replace(w.read("scripts/greet.sh"), "# greet prints a greeting, to $1 when given.", "# greet prints a greeting; to $1 when one is given.", 1))
			w.git("add", "-A")
			w.git("commit", "-q", "-m", "docs(scripts): say what greet prints")
		}, advEnd{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := advWorld(t, true)
			w.advStart("Add a name argument to the greeting script")
			w.advStartPhases()
			w.advWork()
			if tt.extra != nil {
				tt.extra(w)
			}
			if clean, said := w.advEndPhases(tt.end); !clean {
				t.Errorf("an honest session (%s) did not end clean with a passing verify (a false flag)\n%s", tt.name, said)
			}
		})
	}
}
