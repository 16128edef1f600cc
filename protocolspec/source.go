package protocolspec

import (
	"bytes"
	"sort"

	"github.com/yuin/goldmark/text"
)

// source is one markdown buffer being walked: the document itself, or the
// body of a ```markdown fence parsed on its own. Line numbers are always
// reported in the outer document's terms, so a fence body carries a map
// from its own lines to the document's.
type source struct {
	src    []byte
	starts []int // byte offset where each line starts
	outer  []int // outer line of each inner line; nil for the document itself
}

func newSource(src []byte) *source {
	starts := make([]int, 1, bytes.Count(src, []byte{'\n'})+1)
	for i := 0; ; {
		j := bytes.IndexByte(src[i:], '\n') // not a byte at a time: this runs on every document
		if j < 0 || i+j+1 == len(src) {
			break
		}
		i += j + 1
		starts = append(starts, i)
	}
	return &source{src: src, starts: starts}
}

// lineOf returns the 1-based line of a byte offset, in outer-document terms.
func (s *source) lineOf(off int) int {
	if off < 0 {
		off = 0
	}
	l := sort.SearchInts(s.starts, off+1) // first start > off
	if s.outer != nil {
		if l-1 < len(s.outer) {
			return s.outer[l-1]
		}
		return s.outer[len(s.outer)-1]
	}
	return l
}

// normalize strips a UTF-8 byte-order mark and turns CRLF (and lone CR)
// line endings into LF, so a Windows-edited protocol parses exactly like
// the LF original. Line count is unchanged.
func normalize(data []byte) []byte {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if bytes.IndexByte(data, '\r') < 0 {
		return data
	}
	out := make([]byte, 0, len(data))
	for i := 0; i < len(data); i++ {
		c := data[i]
		if c == '\r' {
			if i+1 < len(data) && data[i+1] == '\n' {
				continue
			}
			c = '\n'
		}
		out = append(out, c)
	}
	return out
}

// subSource builds a source from a block's content lines (a fenced code
// block's body), remembering each line's outer line number.
func (s *source) subSource(lines *text.Segments) *source {
	buf := make([]byte, 0, segmentsLen(lines))
	outer := make([]int, 0, lines.Len())
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		buf = append(buf, seg.Value(s.src)...)
		outer = append(outer, s.lineOf(seg.Start))
	}
	sub := newSource(buf)
	if len(outer) == 0 {
		outer = []int{1}
	}
	sub.outer = outer
	return sub
}

// segText is text assembled from several source segments (an HTML block's
// lines, a raw-HTML inline's pieces) that can still map an index in the
// assembled text back to a source offset.
type segText struct {
	text  []byte
	idx   []int // start index in text of each piece
	start []int // source offset of each piece
}

func (t *segText) add(src []byte, seg text.Segment) {
	t.idx = append(t.idx, len(t.text))
	t.start = append(t.start, seg.Start)
	t.text = append(t.text, src[seg.Start:seg.Stop]...)
}

// offset maps an index in t.text to a source offset.
func (t *segText) offset(i int) int {
	k := sort.SearchInts(t.idx, i+1) - 1
	if k < 0 {
		return 0
	}
	return t.start[k] + i - t.idx[k]
}

// segmentsLen is the length of the text of segments, a fence's body with
// its forced final newline: buffers for it are made at once, not grown.
func segmentsLen(lines *text.Segments) int {
	n := 0
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		n += seg.Len() + 1
	}
	return n
}
