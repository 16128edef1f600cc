package compliance_test

import (
	"os"
	"path/filepath"
	"testing"
)

// TestAdv6LazyHandoff: the sixth lazy-agent pass on v3.0-style's Handoff
// and Git Operations phases, over a working change. Each lazy row must not
// end COMPLETE, clean, with verify passing; open rows are what no machine
// can decide (the handoff's claims are plausible and false), reported, not
// asserted; the honest row must end clean.
func TestAdv6LazyHandoff(t *testing.T) {
	t.Parallel()
	const h = v3NewHandoff
	for _, tt := range []struct {
		name         string
		honest, open bool
		o            func(w *world) advEnd
	}{
		{name: "honest", honest: true, o: func(w *world) advEnd { return advEnd{} }},
		{name: "kept out of git by .git/info/exclude", o: func(w *world) advEnd {
			return advEnd{inHandoff: func() {
				f, err := os.OpenFile(filepath.Join(w.root, ".git", "info", "exclude"), os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
				if err != nil {
					t.Fatal(err)
				}
				_, _ = f.WriteString("/" + h + "\n")
				_ = f.Close()
			}}
		}},
		{name: "deleted once recorded", o: func(w *world) advEnd {
			return advEnd{inHandoff: func() { _ = os.Remove(filepath.Join(w.root, h)) }}
		}},
		{name: "committed with core.hooksPath=/dev/null", o: func(w *world) advEnd {
			return advEnd{inHandoff: func() {
				w.git("add", "-A")
				w.exec(w.root, "", "git", "-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "docs(handoff): hand off the name argument")
			}}
		}},
		{name: "the shared handoff's Next pasted as Done", o: func(w *world) advEnd {
			return advEnd{handoffBody: "# Handoff 2026-08-20-01\n\n## Done\n\n- Add a name argument to the greeting script.\n\n## Next\n\n- Add a name argument to the greeting script.\n"}
		}},
		{name: "the objective as Done, Next none", o: func(w *world) advEnd {
			return advEnd{handoffBody: "# Handoff 2026-08-20-01\n\n## Done\n\nAdd a name argument to the greeting script\n\n## Next\n\nNone.\n"}
		}},
		{name: "plausible invented Done (a reader's call)", open: true, o: func(w *world) advEnd {
			return advEnd{handoffBody: "# Handoff 2026-08-20-01\n\n## Done\n\nscripts/greet.sh takes an optional name and a --shout flag; scripts/test.sh checks twelve names, " +
				"including ones with spaces and accents, and runs under dash and busybox.\n\n## Next\n\nPackage the scripts for Homebrew.\n"}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := adv4Project(t)
			w.advStart("Add a name argument to the greeting script")
			w.advStartPhases()
			w.advWork()
			if !tt.honest {
				w.deviate()
			}
			clean, said := w.advEndPhases(tt.o(w))
			judgeRoute(t, tt.honest, tt.open, clean, tt.name, said)
		})
	}
}
