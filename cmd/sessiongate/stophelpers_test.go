package main

import (
	"encoding/json"
	"testing"
)

// bindCodexConversation sends Codex's SessionStart and UserPromptSubmit
// until the conversation is bound to a session in db. On a loaded machine
// a hook can pass its time limit and answer by fail mode without binding
// the conversation: it is asked again, five times at most.
func bindCodexConversation(t *testing.T, w *hintWorld, db string) {
	t.Helper()
	for i := 0; sqlCount(t, db, "SELECT count(*) FROM agent_bindings") == 0; i++ {
		if i == 5 {
			t.Fatal("the conversation was never bound to a session (5 tries)")
		}
		codexHook(t, w.dir, w.env, "SessionStart")
		codexHook(t, w.dir, w.env, "UserPromptSubmit")
	}
}

// codexWorkAtQA binds the Codex conversation, walks its session to
// WORKING with the evidence the phases ask for, commits file (body) and
// runs the QA check: the honest work before a stop. It returns the
// session's id.
func codexWorkAtQA(t *testing.T, w *hintWorld, db, file, body string) string {
	t.Helper()
	bindCodexConversation(t, w, db)
	w.mustSG("session", "evidence", "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read")
	w.mustSG("session", "evidence", "--phase", "GIT_STATE", "--type", "tool_output", "--value", "clean")
	w.mustSG("session", "advance", "--to", "WORKING")
	writeHintFile(t, w.dir, file, body)
	w.git("add", file)
	if code, out := w.git("commit", "-q", "-m", "feat: work"); code != 0 {
		t.Fatalf("commit: %s", out)
	}
	w.mustSG("run", "--phase", "QA_VALIDATION", "--", "sh", "checks/readme_check.sh")
	return currentSessionID(t, w)
}

// currentSessionID is the id `session status --json` gives in w.
func currentSessionID(t *testing.T, w *hintWorld) string {
	t.Helper()
	var st struct {
		Session struct {
			ID string `json:"id"`
		} `json:"session"`
	}
	if err := json.Unmarshal([]byte(w.mustSG("session", "status", "--json")), &st); err != nil || st.Session.ID == "" {
		t.Fatalf("session status: %v", err)
	}
	return st.Session.ID
}
