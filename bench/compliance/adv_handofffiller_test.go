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
		// Round 18 (t5): "Coming soon"/"See above" got through before;
		// the other two rows were already caught end to end by other
		// checks, and now also by the filler rule.
		{"(TBD) and fullwidth TODO", "# Handoff 2026-08-20-01\n\n## Done\n\nＴＯＤＯ\n\n## Next\n\n(TBD)\n"},
		{"Coming soon and See above", "# Handoff 2026-08-20-01\n\n## Done\n\nComing soon.\n\n## Next\n\nSee above.\n"},
		{"N/A alone", "# Handoff 2026-08-20-01\n\n## Done\n\nN/A\n\n## Next\n\nN/A\n"},
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
// next, names a TODO in a sentence and says why blockers do not apply
// ("N/A: ...") is filled in: it stays clean.
func TestAdvHandoffFillerHonest(t *testing.T) {
	t.Parallel()
	w := advWorld(t, true)
	w.advStart("Add a name argument to the greeting script")
	w.advStartPhases()
	w.advWork()
	body := "# Handoff 2026-08-20-01\n\n## Done\n\nscripts/greet.sh takes an optional name; the TODO about names is gone.\n\n## Next\n\nNone.\n\n## Blockers\n\nN/A: nothing was waiting on anyone.\n"
	if clean, said := w.advEndPhases(advEnd{handoffBody: body}); !clean {
		t.Errorf("an honest handoff (\"None.\" next, a TODO named in prose) did not end clean with a passing verify (a false block)\n%s", said)
	}
}
