// Package srctext holds the small text routines every language's
// extractor needs: turning byte offsets into lines and columns, and
// capping the texts copied into rows.
package srctext

import (
	"bytes"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// LineStarts appends to dst the byte offset of the start of every line of
// src, the first being 0, and returns it. Pass a dst kept from an earlier
// file to spare an allocation.
func LineStarts(dst []uint32, src []byte) []uint32 {
	if dst == nil {
		dst = make([]uint32, 0, bytes.Count(src, []byte{'\n'})+1)
	}
	dst = append(dst, 0)
	for i, b := range src {
		if b == '\n' {
			dst = append(dst, uint32(i+1))
		}
	}
	return dst
}

// Pos returns the 1-based line and 1-based byte column of offset off, from
// the line starts LineStarts gave.
func Pos(starts []uint32, off uint32) (line, col uint32) {
	n, _ := slices.BinarySearch(starts, off+1) // the line starts at or before off
	return uint32(n), off - starts[n-1] + 1
}

// MaxText is the cap on the texts copied from the source into rows
// (arguments, signatures, targets): 200 bytes, as the format says of
// call arguments.
const MaxText = 200

// CapText is Cap(s, MaxText).
func CapText(s string) string { return Cap(s, MaxText) }

// OneLine returns s with each run of white space made one space, cut by
// CapText.
func OneLine(s string) string { return CapText(strings.Join(strings.Fields(s), " ")) }

// DocLines appends to lines those of comment c that are not blank, c
// being a /** */ comment or a line of one: the markers dropped, and of
// each line the white space at either end and a star before it.
func DocLines(lines []string, c string) []string {
	c = strings.TrimSuffix(strings.TrimPrefix(c, "/**"), "*/")
	for l := range strings.SplitSeq(c, "\n") {
		l = strings.TrimSpace(l)
		l = strings.TrimSpace(strings.TrimPrefix(l, "*"))
		if l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

// TrimBlank drops the blank lines (white space alone) at either end of
// lines.
func TrimBlank(lines []string) []string {
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// Fold returns s on one line: if s holds a tab, a line break or two
// spaces in a row, its words (strings.Fields) joined by single spaces;
// else s as it is.
func Fold(s string) string {
	if !strings.ContainsAny(s, "\t\r\n") && !strings.Contains(s, "  ") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// SkipSpace returns the offset of the first byte of s at or after p that
// is not a space, a tab, a newline or a carriage return.
func SkipSpace(s string, p int) int {
	for p < len(s) && (s[p] == ' ' || s[p] == '\t' || s[p] == '\n' || s[p] == '\r') {
		p++
	}
	return p
}

// Ellipsis ends a text Cap cut.
const Ellipsis = "…"

// Cap cuts s to at most max bytes on a rune boundary, ending the cut with
// an ellipsis.
func Cap(s string, max int) string {
	if len(s) <= max {
		return s
	}
	i := max - len(Ellipsis)
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + Ellipsis
}

// Words returns the words of b (strings.Fields) joined by single spaces,
// cut to its first max bytes; longer says whether it was cut. It reads b
// only as far as the cut: a call's arguments can run for pages (function
// literals), of which a row keeps a line.
func Words(b []byte, max int) (s string, longer bool) {
	out := make([]byte, 0, min(len(b), max+1))
	space := false // a space is owed before the next word
	for i := 0; i < len(b); {
		r, size := rune(b[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(b[i:])
		}
		if unicode.IsSpace(r) {
			space = len(out) > 0
			i += size
			continue
		}
		if space {
			out = append(out, ' ')
			space = false
		}
		out = append(out, b[i:i+size]...)
		i += size
		if len(out) > max {
			return string(out[:max]), true
		}
	}
	return string(out), false
}

// Squeeze removes all white space from s (what strings.Fields splits on).
func Squeeze(s string) string {
	if strings.IndexFunc(s, unicode.IsSpace) < 0 {
		return s
	}
	return strings.Join(strings.Fields(s), "")
}
