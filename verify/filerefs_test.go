package verify

import (
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/snapshot"
)

// TestReadFileRefs: a record's file references must agree with the
// evidence its snapshots hold (whose ids verify recomputes): a reference
// dropped, added, or pointing outside the repository is an edited record;
// a record from before file references is noted, not failed.
func TestReadFileRefs(t *testing.T) {
	const sha = "1111111111111111111111111111111111111111111111111111111111111111"
	ev := []snapshot.EvidenceRef{
		{Phase: "PLAN", Kind: "file_path", SHA256: sha},
		{Phase: "PLAN", Kind: "file_path", SHA256: "22", Origin: "transcript"}, // a tool call, no file
		{Phase: "QA", Kind: "tool_output", SHA256: "33"},
	}
	ref := snapshot.FileRef{Phase: "PLAN", Kind: "file_path", Path: "docs/plan.md", SHA256: sha}
	cases := []struct {
		name     string
		refs     []snapshot.FileRef
		version  int
		schema   string // "" = this version's
		problem  string // "" = none
		note     string
		rechecks int
	}{
		{"listed", []snapshot.FileRef{ref}, 1, "", "", "", 1},
		{"dropped", nil, 1, "", "has no file reference, so git cannot check it", "", 0},
		{"invented", []snapshot.FileRef{ref, {Phase: "PLAN", Kind: "file_path", Path: "x.md", SHA256: "44"}}, 1, "", `file reference "x.md" (file_path, phase PLAN) matches no evidence`, "", 1},
		{"outside", []snapshot.FileRef{{Phase: "PLAN", Kind: "file_path", Path: "../etc/passwd", SHA256: sha}}, 1, "", "not a clean repository-relative path", "", 0},
		{"legacy v1", nil, 0, snapshot.RecordSchemaV1, "", "1 file evidence not re-checked from git: the record predates file references", 0},
		{"legacy, no schema", nil, 0, "-", "", "1 file evidence not re-checked from git", 0},
		// Issue 26 item 2.4: a record of this version whose gates took file
		// evidence always lists it; a forger who leaves file_refs out fails.
		{"v2 without references", nil, 0, "", "1 file evidence and no file references, in a sessiongate.session-record.v2 record", "", 0},
		{"v2 without file evidence", nil, 0, "", "", "", 0},
		{"version stripped", []snapshot.FileRef{ref}, 0, snapshot.RecordSchemaV1, "file_refs without file_refs_version", "", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			schema := c.schema
			switch schema {
			case "":
				schema = snapshot.RecordSchema
			case "-":
				schema = ""
			}
			evs := ev
			if strings.Contains(c.name, "without file evidence") {
				evs = ev[2:]
			}
			rec := &snapshot.Record{Schema: schema, SessionID: "s", FileRefs: c.refs, FileRefsVersion: c.version,
				Snapshots: []snapshot.Payload{{State: snapshot.State{Evidence: evs}}}}
			rc := &recordCheck{path: "rec"}
			readFileRefs(rc, rec)
			joined := strings.Join(rc.problems, "\n")
			if (c.problem == "") != (joined == "") || !strings.Contains(joined, c.problem) {
				t.Errorf("problems %q, want %q", joined, c.problem)
			}
			if notes := strings.Join(rc.notes, "\n"); !strings.Contains(notes, c.note) || (c.note == "") != (notes == "") {
				t.Errorf("notes %q, want %q", notes, c.note)
			}
			if len(rc.files.refs) != c.rechecks {
				t.Errorf("%d references to re-check, want %d", len(rc.files.refs), c.rechecks)
			}
		})
	}
}
