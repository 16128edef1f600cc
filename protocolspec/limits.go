package protocolspec

import (
	"bytes"
	"fmt"
)

// Limits on what Parse accepts. Real protocols are tens of kilobytes and
// nest a few levels; the markdown parser's cost grows faster than linearly
// with nesting, so a document past these bounds is refused before parsing,
// which keeps parsing linear in size and bounded in memory.
const (
	// MaxProtocolBytes is the largest protocol document accepted.
	MaxProtocolBytes = 1 << 20
	// MaxNesting is the deepest nesting of blockquotes and list items, with
	// every two columns of indentation counted as one level.
	MaxNesting = 40
	// MaxPhases is the most phases a protocol may declare.
	MaxPhases = 500
)

// checkBounds refuses a document too large or too deeply nested to parse
// in bounded time and memory, naming the first offending line.
func checkBounds(file string, data []byte) error {
	if err := checkSize(file, data); err != nil {
		return err
	}
	line := 0
	for len(data) > 0 {
		line++
		end := bytes.IndexByte(data, '\n')
		if end < 0 {
			end = len(data)
		}
		if d := nesting(data[:end]); d > MaxNesting {
			return nestingError(file, line, d)
		}
		if end == len(data) {
			break
		}
		data = data[end+1:]
	}
	return nil
}

// checkSize is checkBounds' size limit alone.
func checkSize(file string, data []byte) error {
	if len(data) > MaxProtocolBytes {
		return ErrorList{{File: file, Line: 1, Msg: fmt.Sprintf("document is %d bytes; the limit is %d (1 MiB): a session protocol this large is not supported", len(data), MaxProtocolBytes)}}
	}
	return nil
}

// checkNesting is checkBounds' nesting limit on the lines s has indexed
// already; they are the document's when normalize left it as it was.
func (s *source) checkNesting(file string) error {
	for i := range s.starts {
		if d := nesting(s.line(i)); d > MaxNesting {
			return nestingError(file, i+1, d)
		}
	}
	return nil
}

func nestingError(file string, line, depth int) error {
	return ErrorList{{File: file, Line: line, Msg: fmt.Sprintf("blockquotes, lists and indentation nest %d levels deep here; the limit is %d", depth, MaxNesting)}}
}

// nesting estimates the container depth a line opens: each leading ">",
// each leading list marker and every two columns of indentation count one.
// It stops counting once past MaxNesting, so a hostile line costs O(limit).
func nesting(l []byte) int {
	depth, cols := 0, 0
	for i := 0; i < len(l) && depth+cols/2 <= MaxNesting; {
		switch c := l[i]; {
		case c == ' ':
			cols++
			i++
		case c == '\t':
			cols += 4
			i++
		case c == '>':
			depth++
			i++
		case (c == '-' || c == '*' || c == '+') && i+1 < len(l) && (l[i+1] == ' ' || l[i+1] == '\t'):
			depth++
			i++
		case c >= '0' && c <= '9':
			j := i
			for j < len(l) && j-i < 10 && l[j] >= '0' && l[j] <= '9' {
				j++
			}
			if j+1 < len(l) && (l[j] == '.' || l[j] == ')') && (l[j+1] == ' ' || l[j+1] == '\t') {
				depth++
				i = j + 1
				continue
			}
			return depth + cols/2
		default:
			return depth + cols/2
		}
	}
	return depth + cols/2
}

// checkNUL refuses a NUL byte: markdown turns it into U+FFFD, so a gate
// command "make\x00 test" would run something other than what any editor
// shows. No text protocol holds one.
func checkNUL(file string, data []byte) error {
	i := bytes.IndexByte(data, 0)
	if i < 0 {
		return nil
	}
	line := 1 + bytes.Count(data[:i], []byte{'\n'})
	col := i - bytes.LastIndexByte(data[:i], '\n')
	return ErrorList{{File: file, Line: line, Msg: fmt.Sprintf("NUL byte at column %d: a protocol is text; remove it", col)}}
}
