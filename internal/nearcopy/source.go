package nearcopy

import "strings"

// SourceShare is the share of a line's shingles found in the source at and
// above which the line is the source's text, not the writer's.
const SourceShare = 0.8

// Source is a text a file may quote without it being the writer's words:
// the protocol the session follows. An earlier session's handoff renumbered
// and padded with the protocol's own prose (visible, as long as the
// protocol) made the copy less than half of the file and passed as new work
// (round 25, c1); with the protocol's lines set aside, it is the copy it is.
type Source struct {
	sh map[uint64]struct{}
}

// NewSource prepares text (the protocol) to be set aside from others; nil
// for an empty one.
func NewSource(text string) *Source {
	w := Words(text)
	if len(w) < shingle {
		return nil
	}
	return &Source{sh: shingles(w)}
}

// Strip is text without the lines that are the source's: lines of at least
// four words (one shingle) whose shingles are SourceShare or more the
// source's. Shorter lines (a heading, "## Done") stay: they pad little,
// and both texts compared keep them alike. A nil Source strips nothing.
func (s *Source) Strip(text string) string {
	if s == nil {
		return text
	}
	var b strings.Builder
	for _, l := range strings.SplitAfter(text, "\n") {
		w := Words(l)
		if len(w) < shingle {
			b.WriteString(l)
			continue
		}
		sh := shingles(w)
		in := 0
		for k := range sh {
			if _, ok := s.sh[k]; ok {
				in++
			}
		}
		if float64(in) < SourceShare*float64(len(sh)) {
			b.WriteString(l)
		}
	}
	return b.String()
}
