package shellline

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Key is a command's first two words (program and subcommand), with
// leading environment assignments dropped.
func Key(cmd string) string {
	f := scriptRun(StripWrappers(strings.Fields(cmd)))
	if len(f) == 0 {
		return ""
	}
	if len(f) == 1 || strings.HasPrefix(f[1], "-") || strings.HasPrefix(f[1], "{") {
		return f[0]
	}
	return f[0] + " " + f[1]
}

// shells run a script given as their first operand the same way: a
// test script run by `bash` or `dash` is the `sh` run the protocol names.
var scriptShells = map[string]bool{"sh": true, "bash": true, "dash": true, "ash": true, "ksh": true, "mksh": true, "zsh": true}

// safeShellOption are the -o names that change how a script reports, not
// what it runs.
var safeShellOption = map[string]bool{"pipefail": true, "errexit": true, "nounset": true, "xtrace": true, "verbose": true}

// scriptRun reads a shell running a script file as `sh SCRIPT`: the
// shell's name without its folder, its flag options (`-e`, `-x`, `-eu`,
// `-o pipefail`; not -n, -t or `-o noexec`, which run less) dropped, and a leading "./" of the script taken off, so
// `bash -e ./scripts/test.sh` is a `sh scripts/test.sh` run (lazy pass
// 43, HX10-HX13: the honest runs were refused as another command). `sh
// -c` and `sh -s` run no script file: left as they are.
func scriptRun(f []string) []string {
	if len(f) < 2 || !scriptShells[path.Base(f[0])] {
		return f
	}
	i := 1
	for i < len(f) && len(f[i]) > 1 && (f[i][0] == '-' || f[i][0] == '+') {
		o := f[i]
		if o == "--" {
			i++
			break
		}
		// Only options that leave the script run whole: -n (read, run
		// nothing), -t (one command) and the rest are another run.
		if strings.HasPrefix(o, "--") || strings.Trim(o[1:], "euxvo") != "" || strings.Count(o, "o") > 1 {
			return f
		}
		i++
		if strings.HasSuffix(o, "o") {
			if i >= len(f) || !safeShellOption[f[i]] {
				return f
			}
			i++ // -o pipefail
		}
	}
	if i >= len(f) {
		return f
	}
	return append([]string{"sh", strings.TrimPrefix(f[i], "./")}, f[i+1:]...)
}

// StripWrappers drops what runs before the program without being it:
// environment assignments, and the wrappers env, time, timeout DURATION,
// nice, nohup, command, exec and stdbuf with their options, so that
// `timeout 300 go test ./...` is a `go test` run (whose status it passes on).
func StripWrappers(f []string) []string {
	for len(f) > 0 {
		switch w := f[0]; {
		case strings.Contains(w, "=") && !strings.HasPrefix(w, "-"):
			f = f[1:]
		case w == "env" || w == "time" || w == "nice" || w == "nohup" || w == "command" || w == "exec" || w == "stdbuf":
			f = f[1:]
			for len(f) > 0 && strings.HasPrefix(f[0], "-") {
				opt := f[0]
				f = f[1:]
				if (w == "nice" && opt == "-n" || w == "env" && (opt == "-u" || opt == "--chdir" || opt == "--unset" || !strings.HasPrefix(opt, "--") && strings.HasSuffix(opt, "C"))) && len(f) > 0 {
					f = f[1:] // the option's value
				}
			}
		case w == "timeout":
			f = f[1:]
			for len(f) > 0 && strings.HasPrefix(f[0], "-") {
				opt := f[0]
				f = f[1:]
				if (opt == "-s" || opt == "-k" || opt == "--signal" || opt == "--kill-after") && len(f) > 0 {
					f = f[1:]
				}
			}
			if len(f) > 0 {
				f = f[1:] // the duration
			}
		default:
			return f
		}
	}
	return f
}

// ContainsWords reports whether key occurs in text between word boundaries.
func ContainsWords(text, key string) bool {
	for off := 0; ; {
		i := strings.Index(text[off:], key)
		if i < 0 {
			return false
		}
		i += off
		end := i + len(key)
		if (i == 0 || text[i-1] == ' ' || text[i-1] == '`') && (end == len(text) || strings.ContainsRune(" `.,;:", rune(text[end]))) {
			return true
		}
		off = i + 1
	}
}

// Literal is a word's text when the shell would not expand it: plain,
// single-quoted or double-quoted text, its backslash escapes taken as the
// shell takes them (`p\.md` is p.md, `a\$b` is a$b). A glob (an unescaped
// *, ? or [ outside quotes), a leading ~ (or one after = or :, as in an
// assignment-like word), a parameter, command or arithmetic expansion, and
// $'...' text with escapes are not literal: what the shell makes of them is
// unknown here.
//
// A $ or backquote the parser left in plain text is not an expansion ("a$"
// and an escaped \` are those characters), so it is literal; the
// transcript reader used to refuse them, the write check to keep them with
// their backslash. One rule now serves both (TestLiteral).
func Literal(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", false
	}
	var b strings.Builder
	for i, p := range w.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			v := x.Value
			for k := 0; k < len(v); k++ {
				c := v[k]
				switch {
				case c == '\\':
					if k+1 < len(v) {
						k++
						if v[k] != '\n' { // a line continuation is nothing
							b.WriteByte(v[k])
						}
					}
				case c == '*' || c == '?' || c == '[':
					return "", false // a glob
				case c == '~' && (i == 0 && k == 0 || k > 0 && (v[k-1] == '=' || v[k-1] == ':')):
					return "", false // a home folder
				default:
					b.WriteByte(c)
				}
			}
		case *syntax.SglQuoted:
			if x.Dollar && strings.Contains(x.Value, "\\") {
				return "", false // $'\x41': ANSI-C escapes, not decoded here
			}
			b.WriteString(x.Value)
		case *syntax.DblQuoted:
			if x.Dollar {
				return "", false // $"...": translated text
			}
			for _, q := range x.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				v := l.Value
				for k := 0; k < len(v); k++ {
					// In double quotes a backslash escapes only $ ` " \ and a newline.
					if v[k] == '\\' && k+1 < len(v) && strings.IndexByte("$`\"\\\n", v[k+1]) >= 0 {
						k++
						if v[k] != '\n' {
							b.WriteByte(v[k])
						}
						continue
					}
					b.WriteByte(v[k])
				}
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}
