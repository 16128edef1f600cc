package config

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Error is one problem at a place in the config file. Line and Col are
// 1-based; 0 means unknown.
type Error struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *Error) Error() string {
	switch {
	case e.Line == 0:
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	case e.Col == 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

// Errors is every problem found in one file, one per line.
type Errors []*Error

func (es Errors) Error() string {
	s := make([]string, len(es))
	for i, e := range es {
		s[i] = e.Error()
	}
	return strings.Join(s, "\n")
}

// PhaseRef is a phase id the config file names, with where: the keys of
// commands and the items of hooks.pre-commit and hooks.pre-push.
type PhaseRef struct {
	ID        string
	Key       string // e.g. "commands.QA_VALIDATION", "hooks.pre-push[0]"
	Line, Col int
}

// CheckPhases reports every phase id the file names that the protocol
// lacks (ids are the protocol's phase ids), each with its line and column.
// A typo in a phase id would otherwise disable that gate silently.
func (c *Config) CheckPhases(ids []string) error {
	var es Errors
	for _, r := range c.phaseRefs {
		if slices.Contains(ids, r.ID) {
			continue
		}
		msg := fmt.Sprintf("%s names phase %q, which the protocol does not have", r.Key, r.ID)
		if s := closest(r.ID, ids); s != "" {
			msg += fmt.Sprintf(" (did you mean %s?)", s)
		}
		msg += fmt.Sprintf("; its phases: %s", strings.Join(ids, ", "))
		es = append(es, &Error{File: c.Path, Line: r.Line, Col: r.Col, Msg: msg})
	}
	if len(es) == 0 {
		return nil
	}
	return es
}

// PhaseRefs returns the phase ids the file names, in file order.
func (c *Config) PhaseRefs() []PhaseRef { return slices.Clone(c.phaseRefs) }

// pos is where a key's value starts.
type pos struct{ line, col int }

// checker walks the YAML nodes against the Config type before decoding:
// unknown and duplicate keys anywhere, values that are not durations, and
// the phase ids the file names, all with line and column.
type checker struct {
	file string
	errs Errors
	pos  map[string]pos
	refs []PhaseRef
}

var unmarshalerType = reflect.TypeFor[yaml.Unmarshaler]()

func (k *checker) errAt(n *yaml.Node, format string, a ...any) {
	k.errs = append(k.errs, &Error{File: k.file, Line: n.Line, Col: n.Column, Msg: fmt.Sprintf(format, a...)})
}

func (k *checker) walk(n *yaml.Node, t reflect.Type, key string) {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if key != "" {
		k.pos[key] = pos{n.Line, n.Column}
	}
	if t == reflect.TypeFor[Duration]() {
		if n.Kind == yaml.ScalarNode {
			if _, err := time.ParseDuration(n.Value); err != nil {
				k.errAt(n, "%s: %q is not a duration (use e.g. 24h, 90s)", key, n.Value)
			}
		}
		return
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) {
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			return // the decoder reports the type error
		}
		fields := map[string]reflect.StructField{}
		var names []string
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			if name == "-" || !f.IsExported() {
				continue
			}
			if name == "" {
				name = strings.ToLower(f.Name)
			}
			fields[name] = f
			names = append(names, name)
		}
		seen := map[string]*yaml.Node{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			kn, vn := n.Content[i], n.Content[i+1]
			sub := join(key, kn.Value)
			if prev, dup := seen[kn.Value]; dup {
				k.errAt(kn, "key %s is defined twice (first at line %d)", sub, prev.Line)
				continue
			}
			seen[kn.Value] = kn
			f, ok := fields[kn.Value]
			if !ok {
				msg := fmt.Sprintf("unknown key %s", sub)
				if s := closest(kn.Value, names); s != "" {
					msg += fmt.Sprintf(" (did you mean %s?)", join(key, s))
				}
				sort.Strings(names)
				k.errAt(kn, "%s; known keys%s: %s", msg, inKey(key), strings.Join(names, ", "))
				continue
			}
			k.walk(vn, f.Type, sub)
		}
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			return
		}
		seen := map[string]*yaml.Node{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			kn, vn := n.Content[i], n.Content[i+1]
			sub := join(key, kn.Value)
			if prev, dup := seen[kn.Value]; dup {
				k.errAt(kn, "key %s is defined twice (first at line %d)", sub, prev.Line)
				continue
			}
			seen[kn.Value] = kn
			if key == "commands" {
				k.refs = append(k.refs, PhaseRef{ID: kn.Value, Key: sub, Line: kn.Line, Col: kn.Column})
			}
			k.walk(vn, t.Elem(), sub)
		}
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			return
		}
		for i, it := range n.Content {
			sub := fmt.Sprintf("%s[%d]", key, i)
			if (key == "hooks.pre-commit" || key == "hooks.pre-push" || key == "observed") && it.Kind == yaml.ScalarNode {
				k.refs = append(k.refs, PhaseRef{ID: it.Value, Key: sub, Line: it.Line, Col: it.Column})
			}
			k.walk(it, t.Elem(), sub)
		}
	}
}

func join(key, sub string) string {
	if key == "" {
		return sub
	}
	return key + "." + sub
}

func inKey(key string) string {
	if key == "" {
		return ""
	}
	return " in " + key
}

// checkText refuses bytes that are not UTF-8 text, naming where the first
// bad byte is: YAML would read UTF-16 or binary and report garbage.
func checkText(file string, b []byte) error {
	bad := -1
	switch {
	case len(b) >= 2 && (b[0] == 0xff && b[1] == 0xfe || b[0] == 0xfe && b[1] == 0xff):
		return &Error{File: file, Line: 1, Col: 1, Msg: "the file is UTF-16 text; save it as UTF-8"}
	case !utf8.Valid(b):
		for i := 0; i < len(b); {
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size <= 1 {
				bad = i
				break
			}
			i += size
		}
	default:
		bad = strings.IndexByte(string(b), 0)
	}
	if bad < 0 {
		return nil
	}
	line := 1 + strings.Count(string(b[:bad]), "\n")
	col := 1 + utf8.RuneCount(b[strings.LastIndexByte(string(b[:bad]), '\n')+1:bad])
	return &Error{File: file, Line: line, Col: col, Msg: fmt.Sprintf("byte 0x%02x is not UTF-8 text; the config must be a UTF-8 YAML file", b[bad])}
}

var yamlLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`) })

// syntaxError turns yaml.v3's "yaml: line N: msg" into FILE:LINE[:COL]: msg.
func syntaxError(file string, b []byte, err error) error {
	m := yamlLine().FindStringSubmatch(err.Error())
	if m == nil {
		return &Error{File: file, Msg: strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	line, _ := strconv.Atoi(m[1])
	e := &Error{File: file, Line: line, Msg: "YAML syntax: " + m[2]}
	// Point at a tab in the indentation near the error: YAML indents with
	// spaces only, and yaml.v3 reports a tab in several ways.
	lines := strings.Split(string(b), "\n")
	for _, l := range []int{line - 1, line} {
		if l < 0 || l >= len(lines) {
			continue
		}
		indent := lines[l][:len(lines[l])-len(strings.TrimLeft(lines[l], " \t"))]
		if i := strings.IndexByte(indent, '\t'); i >= 0 || strings.Contains(m[2], "tab character") && strings.IndexByte(lines[l], '\t') >= 0 {
			if i < 0 {
				i = strings.IndexByte(lines[l], '\t')
			}
			e.Line, e.Col = l+1, 1+utf8.RuneCountInString(lines[l][:i])
			if !strings.Contains(m[2], "tab") {
				e.Msg += " (a tab character: YAML indents with spaces only)"
			}
			break
		}
	}
	return e
}

var goTypes = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`!!str|!!int|!!bool|!!seq|!!map|!!float|\bconfig\.Config\b|\[\]string|map\[string\]string|\bint\b|\bbool\b|\bstring\b`)
})

var typeNames = map[string]string{"!!str": "text", "!!int": "a number", "!!bool": "true/false", "!!seq": "a list",
	"!!map": "a mapping", "!!float": "a number", "config.Config": "the config", "[]string": "a list of text",
	"map[string]string": "a mapping of text", "int": "a number", "bool": "true/false", "string": "text"}

// readable names YAML tags and Go types the way the file's author thinks of them.
func readable(msg string) string {
	return goTypes().ReplaceAllStringFunc(msg, func(m string) string { return typeNames[m] })
}

// decodeError turns yaml.v3's TypeError lines into positioned errors.
func decodeError(file string, root *yaml.Node, err error) error {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return &Error{File: file, Msg: strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	var es Errors
	for _, s := range te.Errors {
		m := yamlLine().FindStringSubmatch(s)
		if m == nil {
			es = append(es, &Error{File: file, Msg: s})
			continue
		}
		line, _ := strconv.Atoi(m[1])
		es = append(es, &Error{File: file, Line: line, Col: firstColumn(root, line), Msg: readable(m[2])})
	}
	return es
}

// firstColumn is the column of the last node that starts on line: the value
// a type error on that line is about.
func firstColumn(n *yaml.Node, line int) int {
	col := 0
	var walk func(*yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Line == line && n.Column > col {
			col = n.Column
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(n)
	return col
}

// closest returns the candidate within edit distance 2 of s, if any.
func closest(s string, cands []string) string {
	best, bestD := "", 3
	for _, c := range cands {
		if d := editDistance(strings.ToLower(s), strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
