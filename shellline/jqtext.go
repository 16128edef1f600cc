package shellline

import (
	"encoding/json"
	"errors"
	"io"
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
	raw, join, prog, have := false, false, "", false
	var files []string
	for _, a := range args {
		switch {
		case a == "-r" || a == "--raw-output":
			raw = true
		case a == "-j" || a == "--join-output":
			raw, join = true, true // no newline after each value
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
	dec.UseNumber()
	end := "\n"
	if join {
		end = ""
	}
	var b strings.Builder
	for {
		v, err := jqDecode(dec)
		if err == io.EOF {
			break
		}
		if err != nil {
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
					b.WriteString(x + end)
					continue
				}
				q, _ := json.Marshal(x)
				b.Write(q)
				b.WriteString(end)
			case *jqObject, []any:
				return "", false // jq prints these indented
			default:
				q, _ := json.Marshal(x)
				b.Write(q)
				b.WriteString(end)
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
					case *jqObject:
						for _, k := range x.keys {
							next = append(next, x.vals[k])
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
		case *jqObject:
			out = append(out, x.vals[k])
		case nil:
			out = append(out, nil)
		default:
			return nil, false
		}
	}
	return out, true
}

// jqObject is a JSON object with its keys in the file's order: jq
// prints `.[]` of an object in that order, and `| head -1` after it
// takes the first (round 24 review: sorted keys let `jq -r '.[]' f |
// head -1 | xargs rm` be judged as removing another file). A key given
// twice keeps its first place and its last value, as in jq.
type jqObject struct {
	keys []string
	vals map[string]any
}

// jqDecode reads one JSON value, objects as *jqObject.
func jqDecode(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch d := tok.(type) {
	case json.Delim:
		switch d {
		case '{':
			o := &jqObject{vals: map[string]any{}}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, ok := kt.(string)
				if !ok {
					return nil, errors.New("jq: object key is not a string")
				}
				v, err := jqDecode(dec)
				if err != nil {
					return nil, err
				}
				if _, seen := o.vals[k]; !seen {
					o.keys = append(o.keys, k)
				}
				o.vals[k] = v
			}
			_, err := dec.Token() // '}'
			return o, err
		case '[':
			a := []any{}
			for dec.More() {
				v, err := jqDecode(dec)
				if err != nil {
					return nil, err
				}
				a = append(a, v)
			}
			_, err := dec.Token() // ']'
			return a, err
		}
		return nil, errors.New("jq: unexpected " + d.String())
	}
	return tok, nil
}
