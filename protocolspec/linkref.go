package protocolspec

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// linkRefs is goldmark's link reference transformer run only on
// paragraphs that can start with a definition. goldmark's builds a block
// reader for every paragraph, and almost none holds a definition: one
// must be the paragraph's first non-space byte, a '['. gfm_test.go
// compares the trees with goldmark's (TestGFMMatchesGoldmark, FuzzGFM).
type linkRefs struct{}

func (linkRefs) Transform(p *ast.Paragraph, reader text.Reader, pc parser.Context) {
	if c, ok := firstNonSpace(p.Lines(), reader.Source()); ok && c != '[' {
		return
	}
	parser.LinkReferenceParagraphTransformer.Transform(p, reader, pc)
}

// firstNonSpace is the first byte of lines that util.IsSpace does not
// take (goldmark's reader skips those before looking for the '[').
func firstNonSpace(lines *text.Segments, src []byte) (byte, bool) {
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		for _, c := range src[seg.Start:seg.Stop] {
			if !util.IsSpace(c) {
				return c, true
			}
		}
	}
	return 0, false
}
