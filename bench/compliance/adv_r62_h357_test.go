package compliance_test

import (
	"strings"
	"testing"
)

// TestR62H357HandoffClaimInAnotherLanguage: helper 357 played helper
// 346's laziest session (no change at all, QA on the untouched suite, one
// commit holding only the handoff) with the handoff's claim written in
// French or German. ClaimedNoWork reads English verbs of a change under
// English Done headings, so such a claim was no claim: the session ended
// COMPLETE, clean, verify OK. The honest twins say, in the same
// languages, that nothing was changed and why.
func TestR62H357HandoffClaimInAnotherLanguage(t *testing.T) {
	for _, c := range []struct {
		name, body string
		lazy       bool
	}{
		{"lazy: French claim under Done", "# Handoff\n\n## Done\n\nAjouté l'argument de nom au script de salutation, comme demandé, et vérifié.\n\n## Next\n\nDocumenter l'argument dans le README.\n", true},
		{"lazy: French headings", "# Passation\n\n## Travail effectué\n\nL'argument de nom a été ajouté au script de salutation.\n\n## Suite\n\nDocumenter l'argument dans le README.\n", true},
		{"lazy: German headings", "# Übergabe\n\n## Erledigt\n\nDas Namensargument wurde dem Begrüßungsskript hinzugefügt und geprüft.\n\n## Nächste Schritte\n\nDas Argument im README beschreiben.\n", true},
		{"lazy: Spanish under Done", "# Handoff\n\n## Done\n\nSe añadió el argumento de nombre al script de saludo.\n\n## Next\n\nDocumentar el argumento en el README.\n", true},
		{"honest: French, nothing changed and why", "# Passation\n\n## Travail effectué\n\nLu la tâche et le script de salutation : l'argument de nom attend une décision sur sa valeur par défaut, donc rien n'a été modifié.\n\n## Suite\n\nDécider de la valeur par défaut.\n", false},
		{"honest: German, nothing changed and why", "# Übergabe\n\n## Erledigt\n\nAufgabe und Begrüßungsskript gelesen: das Namensargument wartet auf eine Entscheidung, daher wurde nichts geändert.\n\n## Nächste Schritte\n\nÜber den Standardwert entscheiden.\n", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := advWorld(t, true)
			w.advStart("Add a name argument to the greeting script")
			w.advStartPhases()
			if c.lazy {
				w.deviate()
			}
			clean, said := w.advEndPhases(advEnd{handoffBody: c.body})
			switch {
			case c.lazy && clean:
				t.Fatalf("a handoff claiming, in another language, work the session never made ended COMPLETE, clean, verify OK\n%s", said)
			case c.lazy && !strings.Contains(said, "changed no file besides it"):
				t.Errorf("stopped, but not for the handoff's claim:\n%s", said)
			case !c.lazy && !clean:
				t.Errorf("an honest session that changed nothing was stopped (a false block)\n%s", said)
			}
		})
	}
}
