package shellline

import "strings"

// Key is a command's first two words (program and subcommand), with
// leading environment assignments dropped.
func Key(cmd string) string {
	f := StripWrappers(strings.Fields(cmd))
	if len(f) == 0 {
		return ""
	}
	if len(f) == 1 || strings.HasPrefix(f[1], "-") || strings.HasPrefix(f[1], "{") {
		return f[0]
	}
	return f[0] + " " + f[1]
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
				if (w == "nice" && opt == "-n" || w == "env" && (opt == "-u" || opt == "-C")) && len(f) > 0 {
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
