package redact_test

import (
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/redact"
)

func TestRedact(t *testing.T) {
	cases := []struct {
		in     string
		secret string // must not survive; "" means nothing is redacted
		keep   string // must survive
	}{
		{"password=hunter2", "hunter2", "password="},
		{"DB_PASSWORD: s3cr3t!", "s3cr3t!", "DB_PASSWORD"},
		{`{"api_key": "abcd1234efgh"}`, "abcd1234efgh", "api_key"},
		{"export GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789", "ghp_abcdefghijklmnopqrstuvwxyz0123456789", "GITHUB_TOKEN"},
		{"Authorization: Bearer eyJhbGciOi.J9.xyzabcdefgh", "eyJhbGciOi.J9.xyzabcdefgh", "Authorization"},
		{"curl -H \"Bearer abcdefgh12345678\"", "abcdefgh12345678", "Bearer"},
		{"aws AKIAIOSFODNN7EXAMPLE ok", "AKIAIOSFODNN7EXAMPLE", "aws"},
		{"aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "wJalrXUtnFEMI", "aws_secret_access_key"},
		{"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\nafter", "b3BlbnNzaC1rZXktdjEAAAAA", "after"},
		{"clone https://bob:pa55word@example.com/repo.git", "pa55word", "https://bob:"},
		{"key sk-ant-api03-abcdefghijklmnopqrstuvwxyz here", "abcdefghijklmnopqrstuvwxyz", "here"},
		{"slack xoxb-1234567890-abcdefghij", "xoxb-1234567890-abcdefghij", "slack"},
		{"token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefghijklmnop", "eyJzdWIiOiIxMjM0NTY3ODkwIn0", "token"},
		{"mysql --password hunter2 -h db", "hunter2", "--password"},
		{"psql --pass=hunter2", "hunter2", "--pass="},
		{"deploy --api-key abc123def --dry-run", "abc123def", "--dry-run"},
		{"DB_PASS=hunter2 make test", "hunter2", "make test"},
		{"db.pass: hunter2", "hunter2", "db.pass"},
		{"curl -d pass=hunter2", "hunter2", "pass="},
		{"gpg passphrase=correct-horse", "correct-horse", "passphrase="},
		{"SSH_PASSPHRASE: battery-staple", "battery-staple", "SSH_PASSPHRASE"},
		{"SESSIONGATE_BYPASS=1 git commit", "", "SESSIONGATE_BYPASS=1 git commit"},
		{"go test --run TestPassword ./...", "", "go test --run TestPassword ./..."},
		{"all tests pass: 12 passed", "", "all tests pass: 12 passed"},
		{"ran the tests: ok 12 passed", "", "ran the tests: ok 12 passed"},
		{"read docs/auth.md and the keyboard handler", "", "read docs/auth.md and the keyboard handler"},
		{"fix the login bug in password reset", "", "fix the login bug in password reset"},
	}
	for _, c := range cases {
		got := redact.Secrets(c.in)
		if c.secret != "" && strings.Contains(got, c.secret) {
			t.Errorf("Secrets(%q) = %q keeps the secret", c.in, got)
		}
		if c.secret == "" && got != c.in {
			t.Errorf("Secrets(%q) = %q, want it unchanged", c.in, got)
		}
		if redact.LooksSecret(c.in) != (c.secret != "") {
			t.Errorf("LooksSecret(%q) = %v", c.in, !(c.secret != ""))
		}
		if !strings.Contains(got, c.keep) {
			t.Errorf("Secrets(%q) = %q lost %q", c.in, got, c.keep)
		}
	}
}
