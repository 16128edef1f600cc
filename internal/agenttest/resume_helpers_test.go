package agenttest_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// filesUnder lists the files below root that keep accepts, by base name
// with their sizes: whether an agent appended to its transcript between
// two runs or wrote a new one.
func filesUnder(root string, keep func(path string) bool) map[string]int64 {
	out := map[string]int64{}
	filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() && keep(p) {
			out[filepath.Base(p)] = fi.Size()
		}
		return nil
	})
	return out
}

// checkResumedHonest checks r's only session after an honest run that an
// agent stopped and took up again (how: "continued", "resumed"; its
// transcript called what): the second run's session end reached the
// gates (they stop at QA, which the script never ran: the protocol's
// block), no violation was recorded, and the transcript was not taken for
// a replaced or tampered one.
func checkResumedHonest(t *testing.T, r *sgRepo, how, what string) {
	t.Helper()
	show := r.onlySession()
	var toks []string
	for _, e := range show["events"].([]any) {
		toks = append(toks, e.(map[string]any)["token"].(string))
	}
	t.Logf("events: %v", toks)
	if !strings.Contains(strings.Join(toks, " "), "gate:QA_VALIDATION:fail") {
		t.Errorf("the %s run's session end did not reach its gates", how)
	}
	if v, _ := show["violations"].([]any); len(v) != 0 {
		t.Errorf("honest %s session recorded %d violation(s): %v", how, len(v), v)
	}
	b, _ := json.Marshal(show["events"])
	if strings.Contains(string(b), ":replaced") || strings.Contains(string(b), "TAMPERED") {
		t.Errorf("the %s %s was taken for a replaced or tampered one: %s", how, what, b)
	}
}
