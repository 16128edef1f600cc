package snapshot_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/sessiongate/sessiongate/snapshot"
)

func assayFixture(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join("..", "..", "shared", "fixtures", "assay", name)
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("fixture %s missing under CI=true: %v", p, err)
		}
		t.Skipf("fixture %s not found (../shared beside the repository)", p)
	}
	return p
}

// TestRFC8785Vectors: every vector's expected canonical bytes, exactly.
func TestRFC8785Vectors(t *testing.T) {
	b, err := os.ReadFile(assayFixture(t, "assay-canonical-rfc8785-vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var vectors map[string]json.RawMessage
	if err := json.Unmarshal(b, &vectors); err != nil {
		t.Fatal(err)
	}
	n := 0
	for name, raw := range vectors {
		if strings.HasPrefix(name, "_") {
			continue
		}
		var v struct{ Input, Expected string }
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		n++
		t.Run(name, func(t *testing.T) {
			got, err := snapshot.Canonical([]byte(v.Input))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != v.Expected {
				t.Fatalf("canonical\n got %s\nwant %s", got, v.Expected)
			}
		})
	}
	if n != 31 {
		t.Fatalf("ran %d vectors, the fixture has 31", n)
	}
}

func payload(repo, session string, evidenceOrder []int) snapshot.Payload {
	ev := []snapshot.EvidenceRef{
		{Phase: "A", Kind: "tool_output", SHA256: "aa"},
		{Phase: "A", Kind: "manual", SHA256: "bb"},
		{Phase: "B", Kind: "file_path", SHA256: "cc"},
	}
	var ordered []snapshot.EvidenceRef
	for _, i := range evidenceOrder {
		ordered = append(ordered, ev[i])
	}
	return snapshot.Payload{
		Schema:  snapshot.PayloadSchema,
		Session: snapshot.Key{EventSource: "sessiongate://" + repo, ServerID: snapshot.ServerID, SessionID: session},
		Window:  snapshot.Window{Kind: "session"},
		State: snapshot.State{ProtocolSHA256: "p", State: "WORKING", Phases: []snapshot.Phase{{ID: "A", Gate: "BLOCKING", Status: "PASSED"}},
			Evidence: ordered, Violations: []string{"Z:A", "B:A"}},
	}
}

func TestIDStableAndSensitive(t *testing.T) {
	p1 := payload("demo", "s1", []int{0, 1, 2})
	p2 := payload("demo", "s1", []int{2, 0, 1}) // rows in another order
	id1, c1, err := p1.ID()
	if err != nil {
		t.Fatal(err)
	}
	id2, c2, _ := p2.ID()
	if id1 != id2 || !bytes.Equal(c1, c2) {
		t.Fatalf("order changed the id: %s vs %s", id1, id2)
	}
	if !snapshot.ValidID(id1) {
		t.Fatalf("id %q", id1)
	}
	p3 := payload("demo", "s1", []int{0, 1})
	if id3, _, _ := p3.ID(); id3 == id1 {
		t.Fatal("dropping evidence kept the id")
	}
	// Pinned: the id of this payload must not drift between releases or
	// machines; a change here breaks every recorded trailer.
	const want = "sha256:bc855f7cc746e28d61cd6e2fdd1274cd1883a4210281159c053d80d215ace38d"
	if id1 != want {
		t.Fatalf("id %s, pinned %s", id1, want)
	}
	// snapshot id of arbitrary JSON: whitespace and key order do not matter.
	a, _, _ := snapshot.IDOf([]byte(`{"b":1, "a":[1,2]}`))
	b, _, _ := snapshot.IDOf([]byte("{\n \"a\": [1, 2],\n \"b\": 1.0\n}"))
	if a != b {
		t.Fatalf("IDOf differs: %s %s", a, b)
	}
	if _, _, err := snapshot.IDOf([]byte(`{"a":`)); err == nil {
		t.Fatal("bad JSON accepted")
	}
}

// TestEnvelopeValidatesAgainstSchema checks both window kinds with the
// published session_state_window_v1 schema.
func TestEnvelopeValidatesAgainstSchema(t *testing.T) {
	schemaPath := assayFixture(t, "session_state_window_v1.schema.json")
	c := jsonschema.NewCompiler()
	sch, err := c.Compile(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []snapshot.Window{{Kind: "session"}, {Kind: "cross_session_decay", DecayRuns: 3}} {
		p := payload("demo", "s1", []int{0})
		p.Window = w
		id, _, _ := p.ID()
		env := p.Envelope(id, "sessiongate test")
		js, _ := json.Marshal(env)
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(inst); err != nil {
			t.Fatalf("%s envelope invalid: %v\n%s", w.Kind, err, js)
		}
	}
	// And the schema really checks: decay_runs on a session window is refused.
	bad := []byte(`{"schema_version":"session_state_window_v1","report_version":"x","session":{"event_source":"a","server_id":"b","session_id":"c"},"window":{"window_kind":"session","decay_runs":2},"snapshot":{"state_snapshot_id":"sha256:` + strings.Repeat("0", 64) + `","canonicalization":{"method":"canonical_json_sha256"}},"privacy":{"stores_raw_tool_args":false,"stores_raw_prompt_bodies":false,"stores_raw_document_bodies":false}}`)
	inst, _ := jsonschema.UnmarshalJSON(bytes.NewReader(bad))
	if err := sch.Validate(inst); err == nil {
		t.Fatal("schema accepted decay_runs on a session window")
	}
}
