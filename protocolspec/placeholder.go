package protocolspec

import (
	"regexp"
	"sync"
)

// placeholderRE is {changed}, {changed:GLOB}, {staged} or {staged:GLOB} in a
// gate command.
var placeholderRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{(changed|staged)(?::([^}]*))?\}`) })

// Quoting is the sh quoting context a placeholder sits in.
type Quoting int

// Quoting contexts.
const (
	Unquoted Quoting = iota
	InSingleQuotes
	InDoubleQuotes
)

// Placeholder is one {changed:GLOB} or {staged:GLOB} in a command line.
type Placeholder struct {
	Start, End int    // byte offsets of the placeholder in the line
	Source     string // "changed" or "staged"
	Glob       string // "" for every file
	Quoting    Quoting
}

// Placeholders finds the file-list placeholders of a command line and the
// sh quoting context of each, so the runner can splice file names in as
// positional parameters whatever the quotes around them (file names are data,
// never shell syntax) and lint can point at quoted ones.
func Placeholders(line string) []Placeholder {
	locs := placeholderRE().FindAllStringSubmatchIndex(line, -1)
	if len(locs) == 0 {
		return nil
	}
	out := make([]Placeholder, 0, len(locs))
	q, i := Unquoted, 0
	for _, loc := range locs {
		q, _ = scanQuotes(line, i, loc[0], q)
		p := Placeholder{Start: loc[0], End: loc[1], Source: line[loc[2]:loc[3]], Quoting: q}
		if loc[4] >= 0 {
			p.Glob = line[loc[4]:loc[5]]
		}
		out = append(out, p)
		i = loc[1]
	}
	return out
}

// scanQuotes advances the sh quoting state over line[from:to].
func scanQuotes(line string, from, to int, q Quoting) (Quoting, int) {
	for i := from; i < to; i++ {
		c := line[i]
		switch q {
		case InSingleQuotes:
			if c == '\'' {
				q = Unquoted
			}
		case InDoubleQuotes:
			switch c {
			case '\\':
				i++
			case '"':
				q = Unquoted
			}
		default:
			switch c {
			case '\\':
				i++
			case '\'':
				q = InSingleQuotes
			case '"':
				q = InDoubleQuotes
			}
		}
	}
	return q, to
}
