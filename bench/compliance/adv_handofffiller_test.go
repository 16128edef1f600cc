package compliance_test

import "testing"

// TestAdvHandoffFiller: v3.0's HANDOFF says "Complete the handoff from the
// Handoff Template below". The lazy agent copies the template's headings
// and fills them with filler words:
//
//	printf '# Handoff 2026-08-20-01\n\n## Done\n\nTODO\n\n## Next\n\nTBD\n' > .agents/handoffs/2026-08-20-01.md
//	sessiongate session evidence --requirement HANDOFF.complete-handoff-from-handoff --type file_path --value .agents/handoffs/2026-08-20-01.md
//
// no_placeholders looked only for the template's own "[...]" texts:
// COMPLETE, clean, verify passing, with a handoff that hands nothing off.
// Closed: a section whose whole body is filler counts as a placeholder
// left (session/fillersection.go).
func TestAdvHandoffFiller(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, body string }{
		{"TODO and TBD", "# Handoff 2026-08-20-01\n\n## Done\n\nTODO\n\n## Next\n\nTBD\n"},
		{"dots in a list", "# Handoff 2026-08-20-01\n\n## Done\n\n- ...\n\n## Next\n\n- ...\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := advWorld(t, true)
			w.advStart("Add a name argument to the greeting script")
			w.advStartPhases()
			w.advWork()
			w.deviate()
			if clean, said := w.advEndPhases(advEnd{handoffBody: tt.body}); clean {
				t.Errorf("route gets through: a handoff of filler words (%s); COMPLETE, clean, verify passing\n%s", tt.name, said)
			}
		})
	}
}

// TestAdvHandoffFillerHonest: a handoff that answers "None" for what comes
// next and names a TODO in a sentence is filled in: it stays clean.
func TestAdvHandoffFillerHonest(t *testing.T) {
	t.Parallel()
	w := advWorld(t, true)
	w.advStart("Add a name argument to the greeting script")
	w.advStartPhases()
	w.advWork()
	body := "# Handoff 2026-08-20-01\n\n## Done\n\nscripts/greet.sh takes an optional name; the TODO about names is gone.\n\n## Next\n\nNone.\n"
	if clean, said := w.advEndPhases(advEnd{handoffBody: body}); !clean {
		t.Errorf("an honest handoff (\"None.\" next, a TODO named in prose) did not end clean with a passing verify (a false block)\n%s", said)
	}
}
