package testrun

import (
	"strings"
)

// A test deleted with "the code it tested" passes as dead code (issue 25).
// The lazy agent's version renames the code instead: Greeting becomes Text
// with the same body, or greet.go moves to text.go, and the failing test
// goes as dead. A definition or file is gone only when what it said does
// not reappear under another name.

// minDistinct is the length under which a line (`return nil`, `}`, `pass`)
// says too little to tell one body from another.
const minDistinct = 10

// distinctLines are src's trimmed lines of at least minDistinct
// characters, comments aside.
func distinctLines(src string) []string {
	var out []string
	for _, l := range strings.Split(src, "\n") {
		l = strings.TrimSpace(l)
		if len(l) < minDistinct || strings.HasPrefix(l, "//") || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "*") || strings.HasPrefix(l, "/*") {
			continue
		}
		out = append(out, l)
	}
	return out
}

// reappears: more than half of body's distinct lines (git's rename rule
// is half the content) are lines of one of others; a body with none
// reappears nowhere.
func reappears(body []string, others [][]string) bool {
	if len(body) == 0 {
		return false
	}
	for _, o := range others {
		set := map[string]bool{}
		for _, l := range o {
			set[l] = true
		}
		n := 0
		for _, l := range body {
			if set[l] {
				n++
			}
		}
		if 2*n > len(body) {
			return true
		}
	}
	return false
}

// defBodies maps each name src (kind k) defines to its distinct lines:
// the header after the name when it is a one-liner, else the lines up to
// the next definition.
func defBodies(k string, src []byte) map[string][]string {
	out := map[string][]string{}
	re := defREs()[k]
	if re == nil {
		return out
	}
	s := string(src)
	ms := re.FindAllStringSubmatchIndex(s, -1)
	for i, m := range ms {
		name, end := "", m[1]
		for g := 1; 2*g+1 < len(m); g++ {
			if m[2*g] >= 0 {
				name, end = s[m[2*g]:m[2*g+1]], m[2*g+1]
				break
			}
		}
		if name == "" || notCode()[name] {
			continue
		}
		stop := len(s)
		if i+1 < len(ms) {
			stop = ms[i+1][0]
		}
		text := s[end:stop]
		header, rest, _ := strings.Cut(text, "\n")
		lines := distinctLines(rest)
		if len(lines) == 0 {
			lines = distinctLines(header)
		}
		out[name] = lines
	}
	return out
}

// renames holds what the session's change stopped defining and what it
// began to define, by kind, to tell a deletion from a rename.
type renames struct {
	gone  map[string]map[string][]string // kind -> name -> body at the start
	added map[string][][]string          // kind -> bodies of names new to their file
	files map[string][]string            // deleted source file -> its names at the start
	// edited: kind -> names defined at the start and now whose body
	// changed (the code a lazy agent broke beside the code it deleted).
	edited map[string]map[string]bool
}

func newRenames() *renames {
	return &renames{gone: map[string]map[string][]string{}, added: map[string][][]string{}, files: map[string][]string{}, edited: map[string]map[string]bool{}}
}

// renamed: the body of k's gone name n reappears under a new name.
func (r *renames) renamed(k, n string) bool {
	return reappears(r.gone[k][n], r.added[k])
}

// CodeMoved reports whether source file f's code (was: its content
// before it was deleted) lives on in nows (files added): each name it
// defined is defined there, or its body is under a new name. A file
// that defined nothing moved nowhere. For readers of a commit range,
// such as verify's dead-code rule, whose renames are an added file.
func CodeMoved(f string, was []byte, nows [][]byte) bool {
	k := sourceKind(f)
	names := definitions(k, was)
	if len(names) == 0 {
		return false
	}
	have := map[string]bool{}
	var added [][]string
	for _, b := range nows {
		for n, body := range defBodies(k, b) {
			have[n] = true
			added = append(added, body)
		}
	}
	bodies := defBodies(k, was)
	for n := range names {
		if !have[n] && !reappears(bodies[n], added) {
			return false
		}
	}
	return true
}
