package shellline

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// Round 23 (c3): jq's plain path programs. `jq -r .f cfg.json | xargs
// rm` removes the file cfg.json names at .f; the hook reads cfg.json
// and follows the path as jq would: `.`, `.a.b`, `.["a"]`, `.a[]`,
// `.[N]`, `.a?`, and `|` between them. Any other program gives no text
// (computednames.go then guesses from the file).

// jqText is what `jq [-r] [-c] PROG [FILE...]` prints.
func jqText(args []string, input func([]string) (string, bool)) (string, bool) {
	raw, prog, have := false, "", false
	var files []string
	for _, a := range args {
		switch {
		case a == "-r" || a == "--raw-output" || a == "-j" || a == "--join-output":
			raw = true
		case a == "-c" || a == "--compact-output" || a == "-e" || a == "--exit-status":
		case strings.HasPrefix(a, "-") && a != "-":
			return "", false
		case !have:
			prog, have = a, true
		default:
			files = append(files, a)
		}
	}
	if !have {
		return "", false
	}
	t, ok := input(files)
	if !ok {
		return "", false
	}
	dec := json.NewDecoder(strings.NewReader(t))
	var b strings.Builder
	for {
		var v any
		if err := dec.Decode(&v); err != nil {
			if err.Error() == "EOF" {
				break
			}
			return "", false
		}
		vals, ok := jqPath(strings.TrimSpace(prog), []any{v})
		if !ok {
			return "", false
		}
		for _, r := range vals {
			switch x := r.(type) {
			case string:
				if raw {
					b.WriteString(x + "\n")
					continue
				}
				q, _ := json.Marshal(x)
				b.Write(q)
				b.WriteByte('\n')
			case map[string]any, []any:
				return "", false // jq prints these indented
			default:
				q, _ := json.Marshal(x)
				b.Write(q)
				b.WriteByte('\n')
			}
		}
		if b.Len() > maxFilterText {
			return "", false
		}
	}
	return b.String(), true
}

// jqPath applies a path program to each value.
func jqPath(prog string, in []any) ([]any, bool) {
	for _, stage := range strings.Split(prog, "|") {
		p := strings.TrimSpace(stage)
		if !strings.HasPrefix(p, ".") {
			return nil, false
		}
		p = p[1:]
		if p == "" {
			continue
		}
		if p[0] != '[' {
			p = "." + p
		}
		for p != "" {
			var next []any
			switch {
			case strings.HasPrefix(p, "[]"):
				p = p[2:]
				for _, v := range in {
					switch x := v.(type) {
					case []any:
						next = append(next, x...)
					case map[string]any:
						for _, k := range sortedKeys(x) {
							next = append(next, x[k])
						}
					default:
						return nil, false
					}
				}
			case strings.HasPrefix(p, "["):
				end := strings.IndexByte(p, ']')
				if end < 0 {
					return nil, false
				}
				key := p[1:end]
				p = p[end+1:]
				if n, err := strconv.Atoi(key); err == nil {
					for _, v := range in {
						a, ok := v.([]any)
						if !ok && v != nil {
							return nil, false
						}
						if n < 0 {
							n += len(a)
						}
						if n >= 0 && n < len(a) {
							next = append(next, a[n])
						} else {
							next = append(next, nil)
						}
					}
					break
				}
				k, err := strconv.Unquote(key)
				if err != nil {
					return nil, false
				}
				var ok bool
				if next, ok = jqField(in, k); !ok {
					return nil, false
				}
			case strings.HasPrefix(p, "."):
				p = p[1:]
				i := 0
				for i < len(p) && (p[i] == '_' || p[i] >= 'a' && p[i] <= 'z' || p[i] >= 'A' && p[i] <= 'Z' || i > 0 && p[i] >= '0' && p[i] <= '9') {
					i++
				}
				if i == 0 {
					if strings.HasPrefix(p, "[") {
						continue // .a.[0]
					}
					return nil, false
				}
				var ok bool
				if next, ok = jqField(in, p[:i]); !ok {
					return nil, false
				}
				p = p[i:]
			default:
				return nil, false
			}
			p = strings.TrimPrefix(p, "?")
			in = next
		}
	}
	return in, true
}

// jqField is .k of each value (null of null); ok (the second) is false
// when a value is not an object.
func jqField(in []any, k string) ([]any, bool) {
	out := []any{}
	for _, v := range in {
		switch x := v.(type) {
		case map[string]any:
			out = append(out, x[k])
		case nil:
			out = append(out, nil)
		default:
			return nil, false
		}
	}
	return out, true
}

// sortedKeys are m's keys in byte order: jq prints .[] of an object in
// the file's order, which Go's map does not keep; the names are the same.
func sortedKeys(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
