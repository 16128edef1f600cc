// Package redact replaces values that look like secrets (passwords,
// tokens, API keys, private keys, credentials in URLs) in free text before
// it is stored: the stores keep references and hashes, never credentials.
package redact

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Marker replaces a value that looks like a secret.
const Marker = "[redacted]"

// secretPatterns find values that look like credentials. Each keeps what
// says what the value was (the key name, the scheme) and replaces the value.
var secretPatterns = sync.OnceValue(func() []struct {
	re   *regexp.Regexp
	repl string
} {
	return []struct {
		re   *regexp.Regexp
		repl string
	}{
		// PEM private keys, whole block (or to the end when cut off).
		{regexp.MustCompile(`(?s)-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----.*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)`), "[redacted private key]"},
		// Authorization headers and bearer/basic tokens.
		{regexp.MustCompile(`(?i)\b(bearer|basic|token)(\s+)[A-Za-z0-9\-._~+/]{8,}=*`), "${1}${2}" + Marker},
		// key=value, key: value, "key": "value" for secret-sounding keys.
		{regexp.MustCompile(`(?i)([A-Za-z0-9_.\-]*(?:passw(?:or)?d|passwd|passphrase|pwd|secret|token|api[_\-]?key|apikey|access[_\-]?key|private[_\-]?key|client[_\-]?secret|credentials?|auth)[A-Za-z0-9_.\-]*)("?\s*[:=]\s*"?)([^\s"',;&]+)`), "${1}${2}" + Marker},
		// A key that is "pass" as a word of its own (DB_PASS=, db.pass:),
		// never inside another word (SESSIONGATE_BYPASS=1 stays readable).
		// A bare "pass" only before "=": "tests pass: 12" is prose.
		{regexp.MustCompile(`(?i)\b((?:[A-Za-z0-9]+[_.\-])+pass(?:[_.\-][A-Za-z0-9_.\-]*)?|pass[_.\-][A-Za-z0-9_.\-]+)("?\s*[:=]\s*"?)([^\s"',;&]+)`), "${1}${2}" + Marker},
		{regexp.MustCompile(`(?i)\b(pass)(=)([^\s"',;&]+)`), "${1}${2}" + Marker},
		// Command-line flags that take a secret as the next word:
		// --password VALUE, -passphrase VALUE, --api-key VALUE.
		{regexp.MustCompile(`(?i)(\s|^)(--?(?:[A-Za-z0-9]+-)*(?:passw(?:or)?d|passwd|passphrase|pass|pwd|secret|token|api-?key|apikey|access-key|private-key|client-secret|credentials?)(?:-[A-Za-z0-9]+)*)(\s+)([^\s\-][^\s]*)`), "${1}${2}${3}" + Marker},
		// Credentials in URLs: scheme://user:password@host.
		{regexp.MustCompile(`([a-zA-Z][a-zA-Z0-9+.\-]*://[^\s:/@]+:)[^\s@/]+@`), "${1}" + Marker + "@"},
		// Well-known token shapes.
		{regexp.MustCompile(`\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA)[0-9A-Z]{16}\b`), Marker},                             // AWS access key ids
		{regexp.MustCompile(`\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}\b|\bgithub_pat_[A-Za-z0-9_]{30,}\b`), Marker}, // GitHub
		{regexp.MustCompile(`\bglpat-[A-Za-z0-9\-_]{20,}\b`), Marker},                                                 // GitLab
		{regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9\-]{10,}\b`), Marker},                                            // Slack
		{regexp.MustCompile(`\bsk-(?:ant-|proj-|live-|test-)?[A-Za-z0-9\-_]{20,}\b`), Marker},                         // OpenAI, Anthropic, Stripe
		{regexp.MustCompile(`\bAIza[0-9A-Za-z\-_]{35}\b`), Marker},                                                    // Google API keys
		{regexp.MustCompile(`\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\b`), Marker},          // JWTs
	}
})

// secretHints are cheap substrings one of the patterns needs: text with
// none of them is returned as is without running any regexp.
var secretHints = []string{"private key", "bearer", "basic", "token", "pass", "pwd", "secret", "key", "credential",
	"auth", "://", "akia", "asia", "agpa", "aida", "aroa", "anpa", "gh", "glpat-", "xox", "sk-", "aiza", "eyj"}

// Secrets returns s with every value that looks like a secret (password=,
// token=, API keys, AWS access keys, bearer tokens, private keys,
// credentials in URLs, well-known token formats) replaced by "[redacted]".
// The store applies it to every free-text field it writes (evidence
// references and bodies, event details, violation messages, session
// texts), so such values are never stored.
func Secrets(s string) string {
	if s == "" {
		return s
	}
	lower := strings.ToLower(s)
	if !slices.ContainsFunc(secretHints, func(h string) bool { return strings.Contains(lower, h) }) {
		return s
	}
	for _, p := range secretPatterns() {
		s = p.re.ReplaceAllString(s, p.repl)
	}
	return s
}

// LooksSecret reports whether Secrets would change s.
func LooksSecret(s string) bool { return Secrets(s) != s }
