package indexer

import (
	"strings"

	"github.com/graphsnap/snap/indexer/srctext"
)

// LineDocs gathers line comments into doc comments (see Rows.Docs): a
// run of them, each on the line after the one before, documents the code
// that starts on the line after the run; a run that a blank line parts
// from the code after it documents nothing.
type LineDocs struct {
	str     string
	docs    map[uint32]string
	comment func(lines []string) string
	lines   []string // the run's comments
	end     uint32   // where the last of them ends
}

// NewLineDocs returns the LineDocs of the text str, which puts in docs
// the doc comment that comment makes of a run's comments. comment must
// not keep the slice it is given.
func NewLineDocs(str string, docs map[uint32]string, comment func(lines []string) string) LineDocs {
	return LineDocs{str: str, docs: docs, comment: comment}
}

// Add adds the comment at s to the run; when code or a blank line comes
// between them, it ends the run first (see End) and starts the next.
func (d *LineDocs) Add(s Span) {
	if len(d.lines) > 0 && (uint32(srctext.SkipSpace(d.str, int(d.end))) != s.Start || strings.Count(d.str[d.end:s.Start], "\n") > 1) {
		d.End()
	}
	d.lines = append(d.lines, d.str[s.Start:s.End])
	d.end = s.End
}

// End ends the run: the code after it, unless a blank line comes first,
// is documented by it.
func (d *LineDocs) End() {
	if len(d.lines) > 0 {
		p := srctext.SkipSpace(d.str, int(d.end))
		if strings.Count(d.str[d.end:p], "\n") <= 1 {
			d.docs[uint32(p)] = d.comment(d.lines)
		}
	}
	d.lines = d.lines[:0]
}
