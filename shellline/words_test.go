package shellline

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// TestLiteral pins the one rule for "a word the shell would not expand",
// shared by the write check and the transcript's read check. The rows
// marked "was" differ from one of the two helpers it replaced: the write
// check kept backslashes (`p\.md` did not name p.md, so `sed -i ...
// SESSION\-PROTOCOL.md` passed the protected-file check) and refused any
// ~; the read check refused a plain $ or an escaped one.
func TestLiteral(t *testing.T) {
	tests := []struct {
		word string
		want string
		ok   bool
	}{
		{"plain.md", "plain.md", true},
		{"'single quoted'", "single quoted", true},
		{`"double quoted"`, "double quoted", true},
		{`mixed'a'"b"c`, "mixedabc", true},
		{`SESSION\-PROTOCOL.md`, "SESSION-PROTOCOL.md", true}, // was `SESSION\-PROTOCOL.md` (write check)
		{`a\$b`, "a$b", true},                                 // was not literal (read check)
		{`price$`, "price$", true},                            // was not literal (read check)
		{`"a\$b"`, "a$b", true},
		{`"a\b"`, `a\b`, true}, // in double quotes \b stays
		{`\*.md`, "*.md", true},
		{`"*.md"`, "*.md", true},
		{"backup~", "backup~", true}, // was not literal (write check)
		{"~/x", "", false},
		{"X=~/x", "", false},
		{"*.md", "", false},
		{"a?", "", false},
		{"[ab]", "", false},
		{"$HOME", "", false},
		{`"$HOME/x"`, "", false},
		{"$(echo x)", "", false},
		{"`echo x`", "", false},
		{"$((1+1))", "", false},
		{`$'a\x41'`, "", false},
		{`$'plain'`, "plain", true},
		{`$"translated"`, "", false},
	}
	for _, tc := range tests {
		f, err := syntax.NewParser().Parse(strings.NewReader("echo "+tc.word), "")
		if err != nil {
			t.Fatalf("parse %q: %v", tc.word, err)
		}
		w := f.Stmts[0].Cmd.(*syntax.CallExpr).Args[1]
		got, ok := Literal(w)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Literal(%s) = %q, %v; want %q, %v", tc.word, got, ok, tc.want, tc.ok)
		}
	}
	if _, ok := Literal(nil); ok {
		t.Error("Literal(nil) is literal")
	}
}
