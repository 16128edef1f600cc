package testrun

import (
	"strings"
)

// readTOML reads the tables and keys of a TOML file into nested maps:
// enough for mise.toml's and pixi.toml's task tables (strings, arrays,
// inline tables, multi-line strings). Array tables ([[x]]) and what it
// cannot read are skipped: the module has no TOML library, and a recipe
// is a few strings.
func readTOML(b []byte) map[string]any {
	root := map[string]any{}
	cur := root
	s := strings.ReplaceAll(string(b), "\r\n", "\n")
	p := &tomlParser{s: s}
	for p.i < len(p.s) {
		p.skipBlank()
		if p.i >= len(p.s) {
			break
		}
		switch {
		case strings.HasPrefix(p.s[p.i:], "[["):
			cur = map[string]any{} // an array table: read, not kept
			p.skipLine()
		case p.s[p.i] == '[':
			p.i++
			keys := p.keyPath(']')
			p.skipLine()
			cur = tomlTable(root, keys)
		default:
			keys := p.keyPath('=')
			if len(keys) == 0 || p.i >= len(p.s) || p.s[p.i] != '=' {
				p.skipLine()
				continue
			}
			p.i++
			v, ok := p.value()
			if !ok {
				p.skipLine()
				continue
			}
			t := tomlTable(cur, keys[:len(keys)-1])
			t[keys[len(keys)-1]] = v
			p.skipLine()
		}
	}
	return root
}

// tomlTable returns (making) the table at keys under m.
func tomlTable(m map[string]any, keys []string) map[string]any {
	for _, k := range keys {
		next, ok := m[k].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[k] = next
		}
		m = next
	}
	return m
}

type tomlParser struct {
	s string
	i int
}

// skipBlank skips spaces, newlines and comments.
func (p *tomlParser) skipBlank() {
	for p.i < len(p.s) {
		switch c := p.s[p.i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.i++
		case c == '#':
			p.skipLine()
		default:
			return
		}
	}
}

func (p *tomlParser) skipSpace() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func (p *tomlParser) skipLine() {
	if j := strings.IndexByte(p.s[p.i:], '\n'); j >= 0 {
		p.i += j + 1
		return
	}
	p.i = len(p.s)
}

// keyPath reads a dotted key (bare or quoted parts) up to end.
func (p *tomlParser) keyPath(end byte) []string {
	var keys []string
	for p.i < len(p.s) {
		p.skipSpace()
		if p.i >= len(p.s) || p.s[p.i] == end || p.s[p.i] == '\n' {
			break
		}
		switch p.s[p.i] {
		case '"', '\'':
			k, ok := p.str()
			if !ok {
				return nil
			}
			keys = append(keys, k)
		case '.':
			p.i++
		default:
			j := p.i
			for j < len(p.s) && !strings.ContainsRune(" \t.=]\n\"'", rune(p.s[j])) {
				j++
			}
			if j == p.i {
				return nil
			}
			keys = append(keys, p.s[p.i:j])
			p.i = j
		}
	}
	if p.i < len(p.s) && p.s[p.i] == end && end == ']' {
		p.i++
	}
	return keys
}

// str reads a basic, literal or multi-line string.
func (p *tomlParser) str() (string, bool) {
	for _, q := range []string{`"""`, `'''`} {
		if strings.HasPrefix(p.s[p.i:], q) {
			j := strings.Index(p.s[p.i+3:], q)
			if j < 0 {
				return "", false
			}
			v := strings.TrimPrefix(p.s[p.i+3:p.i+3+j], "\n")
			p.i += 3 + j + 3
			if q == `"""` {
				v = strings.ReplaceAll(v, "\\\n", "")
			}
			return v, true
		}
	}
	q := p.s[p.i]
	var b strings.Builder
	for j := p.i + 1; j < len(p.s); j++ {
		c := p.s[j]
		switch {
		case c == '\n':
			return "", false
		case c == q:
			p.i = j + 1
			return b.String(), true
		case c == '\\' && q == '"' && j+1 < len(p.s):
			j++
			switch e := p.s[j]; e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(e)
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", false
}

// value reads a string, an array, an inline table or a bare word.
func (p *tomlParser) value() (any, bool) {
	p.skipSpace()
	if p.i >= len(p.s) {
		return nil, false
	}
	switch p.s[p.i] {
	case '"', '\'':
		return p.str()
	case '[':
		p.i++
		var out []any
		for {
			p.skipBlank()
			if p.i >= len(p.s) {
				return nil, false
			}
			if p.s[p.i] == ']' {
				p.i++
				return out, true
			}
			if p.s[p.i] == ',' {
				p.i++
				continue
			}
			v, ok := p.value()
			if !ok {
				return nil, false
			}
			out = append(out, v)
		}
	case '{':
		p.i++
		m := map[string]any{}
		for {
			p.skipSpace()
			if p.i >= len(p.s) || p.s[p.i] == '\n' {
				return nil, false
			}
			if p.s[p.i] == '}' {
				p.i++
				return m, true
			}
			if p.s[p.i] == ',' {
				p.i++
				continue
			}
			keys := p.keyPath('=')
			if len(keys) == 0 || p.i >= len(p.s) || p.s[p.i] != '=' {
				return nil, false
			}
			p.i++
			v, ok := p.value()
			if !ok {
				return nil, false
			}
			tomlTable(m, keys[:len(keys)-1])[keys[len(keys)-1]] = v
		}
	}
	j := p.i
	for j < len(p.s) && !strings.ContainsRune(",]}\n#", rune(p.s[j])) {
		j++
	}
	v := strings.TrimSpace(p.s[p.i:j])
	p.i = j
	return v, v != ""
}
