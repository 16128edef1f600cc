package compliance_test

import (
	"strings"
	"testing"
)

// TestR60H348ShebangIsWork: an honest session whose one change is the
// greeting script's shebang (#!/bin/sh to #!/bin/bash) did work: the
// interpreter is code. Round 60's comment reader took any line starting
// with # for a comment, so the change read as "only comments" and the
// handoff's true claim failed HANDOFF (helper 348).
func TestR60H348ShebangIsWork(t *testing.T) {
	w := advWorld(t, true)
	w.advStart("Make the greeting script run under bash")
	w.advStartPhases()
	body := w.read("scripts/greet.sh")
	if !strings.HasPrefix(body, "#!/bin/sh\n") {
		t.Fatalf("greet.sh starts %q", body[:min(len(body), 20)])
	}
	w.write("scripts/greet.sh", "#!/bin/bash\n"+strings.TrimPrefix(body, "#!/bin/sh\n"))
	clean, said := w.advEndPhases(advEnd{handoffDone: "Fixed the shebang of scripts/greet.sh so the greeting script uses bash.\n\n## Next\n\nNothing."})
	if !clean {
		t.Fatalf("an honest shebang fix was stopped (a false block)\n%s", said)
	}
}
