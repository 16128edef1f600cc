package shellline

import "testing"

func TestJoin(t *testing.T) {
	for _, tt := range []struct {
		argv []string
		want string
	}{
		{[]string{"go", "test", "./..."}, "go test ./..."},
		{[]string{"sh", "-c", "go test ./... && echo ok"}, "sh -c 'go test ./... && echo ok'"},
		{[]string{"echo", "it's"}, `echo 'it'\''s'`},
		{[]string{"printf", ""}, "printf ''"},
		{[]string{"grep", "a*b"}, "grep 'a*b'"},
	} {
		if got := Join(tt.argv); got != tt.want {
			t.Errorf("Join(%q) = %q, want %q", tt.argv, got, tt.want)
		}
	}
}
