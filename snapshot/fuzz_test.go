package snapshot

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"testing"
)

// FuzzCanonical: RFC 8785 canonicalization as a round-trip property, seeded
// with the conformance vectors. For any JSON text it accepts, the output is
// valid JSON with the same value, canonicalizing it again changes nothing,
// and the id is the id of the canonical bytes.
func FuzzCanonical(f *testing.F) {
	if b, err := os.ReadFile("../../shared/fixtures/assay/assay-canonical-rfc8785-vectors.json"); err == nil {
		var vectors map[string]json.RawMessage
		if json.Unmarshal(b, &vectors) == nil {
			for name, raw := range vectors {
				var v struct{ Input string }
				if name != "_about" && json.Unmarshal(raw, &v) == nil {
					f.Add([]byte(v.Input))
				}
			}
		}
	}
	f.Add([]byte(`{"b":[1,2.5e-7,"\u00e9"],"a":{"y":null,"x":true}}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, in []byte) {
		c, err := Canonical(in)
		if err != nil {
			return
		}
		var a, b any
		if err := json.Unmarshal(c, &b); err != nil {
			t.Fatalf("canonical output is not JSON: %q: %v", c, err)
		}
		if json.Unmarshal(in, &a) == nil && !sameValue(a, b) {
			t.Fatalf("value changed:\n in  %q\n out %q", in, c)
		}
		c2, err := Canonical(c)
		if err != nil || !bytes.Equal(c, c2) {
			t.Fatalf("not idempotent: %q -> %q (%v)", c, c2, err)
		}
		id1, _, err1 := IDOf(in)
		id2, _, err2 := IDOf(c)
		if err1 != nil || err2 != nil || id1 != id2 || !ValidID(id1) {
			t.Fatalf("ids differ: %s %s (%v %v)", id1, id2, err1, err2)
		}
	})
}

// sameValue compares decoded JSON, numbers as float64 (what RFC 8785 keeps).
func sameValue(a, b any) bool {
	if fa, ok := a.(float64); ok {
		fb, ok := b.(float64)
		return ok && (fa == fb || fa != fa && fb != fb)
	}
	return reflect.DeepEqual(a, b)
}

// FuzzRecord: a committed session record is untrusted input to verify. Any
// bytes either fail to decode or give snapshots whose ids are computed
// without a panic, the same on a second computation, and well formed.
func FuzzRecord(f *testing.F) {
	p := Payload{Schema: PayloadSchema, Session: Key{EventSource: "sessiongate://demo", ServerID: ServerID, SessionID: "8a151cda-4ff3-415e-8774-d03907e94a17"},
		Window: Window{Kind: "session"}, State: State{State: "COMPLETE", Phases: []Phase{{ID: "A", Gate: "BLOCKING", Status: "PASSED"}}}}
	if b, err := json.Marshal(Record{Schema: RecordSchema, SessionID: p.Session.SessionID, Snapshots: []Payload{p}}); err == nil {
		f.Add(b)
	}
	f.Add([]byte(`{"snapshots":[{"state":{"evidence":[{"phase":"A","kind":"tool_output","sha256":"x","exit_code":-1}]}}]}`))
	f.Add([]byte(`{"snapshots":[null,{}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var rec Record
		if json.Unmarshal(b, &rec) != nil {
			return
		}
		for i := range rec.Snapshots {
			id1, _, err1 := rec.Snapshots[i].ID()
			id2, _, err2 := rec.Snapshots[i].ID()
			if (err1 == nil) != (err2 == nil) || id1 != id2 {
				t.Fatalf("snapshot %d: ids differ: %q %q (%v %v)", i, id1, id2, err1, err2)
			}
			if err1 == nil && !ValidID(id1) {
				t.Fatalf("snapshot %d: malformed id %q", i, id1)
			}
		}
	})
}
