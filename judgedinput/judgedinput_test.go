package judgedinput

import "testing"

func TestDigest(t *testing.T) {
	base := `{"command":"go test ./...","description":"run tests"}`
	cases := []struct {
		name, a, b string
		same       bool
	}{
		{"same input", base, base, true},
		{"key order and spaces", base, `{ "description": "run tests", "command": "go test ./..." }`, true},
		{"number as written", `{"command":"x","timeout":60000}`, `{"command":"x","timeout":60000}`, true},
		{"command rewritten", base, `{"command":"true","description":"run tests"}`, false},
		{"backgrounded", base, `{"command":"go test ./...","description":"run tests","run_in_background":true}`, false},
		{"timeout changed", `{"command":"x","timeout":60000}`, `{"command":"x","timeout":600000}`, false},
		{"sandbox off", base, `{"command":"go test ./...","description":"run tests","dangerouslyDisableSandbox":true}`, false},
		{"description changed", base, `{"command":"go test ./...","description":"other"}`, false},
		{"file_path rewritten", `{"file_path":"/r/notes.md","content":"x"}`, `{"file_path":"/r/SESSION-PROTOCOL.md","content":"x"}`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, b := Digest([]byte(c.a)), Digest([]byte(c.b))
			if len(a) != 64 || len(b) != 64 {
				t.Fatalf("digests %q %q, want 64 hex digits", a, b)
			}
			if (a == b) != c.same {
				t.Errorf("same digest %v, want %v", a == b, c.same)
			}
		})
	}
	for _, bad := range []string{"", "null", "[]", `"x"`, "{"} {
		if d := Digest([]byte(bad)); d != "" {
			t.Errorf("Digest(%q) = %q, want \"\" (not an object)", bad, d)
		}
	}
}

func TestBackground(t *testing.T) {
	cases := []struct {
		in   string
		want bool
	}{
		{`{"command":"go test ./...","run_in_background":true}`, true},
		{`{"command":"go test ./...","run_in_background":false}`, false},
		{`{"command":"go test ./..."}`, false},
		{`{"command":"go test ./...","run_in_background":"true"}`, false},
		{``, false},
	}
	for _, c := range cases {
		if got := Background([]byte(c.in)); got != c.want {
			t.Errorf("Background(%s) = %v, want %v", c.in, got, c.want)
		}
	}
}
