package lua

import (
	"strings"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/srctext"
)

// Expr, the normalized form of a Lua reference, as this package writes it
// in refs and reads it back in Resolve.
//
// calls (Src the function whose code makes the call, or the file):
//
//	expr  = head { "." name | ":" name | "()" } | "?" reason
//	head  = "#" id          a table or function node of the file (its id
//	                        in hex): what a local, a global of the file or
//	                        self (in a method of that table) is bound to
//	      | "require(" module ")"  the value require(module) returns
//	      | name            a global the file does not define
//
// Locals were replaced by what they are bound to when they are used, by
// Lua's rules (visible from the statement after their declaration to the
// end of their block; local function from its own body on). "()" is a
// call's value: for a function with a result fact, an instance of that
// table. The reasons: ?local (a local bound to anything else, or
// assigned several values), ?self (self in a method of no known table),
// ?expr (an expression other than a name chain).
//
// imports (Src the file): the module name as written, a.b. The result
// fact: Src a function that calls setmetatable(o, C) or setmetatable(o,
// self) in a method of C; Expr "#" id of C. The export fact: Src the file,
// Target the name, Expr "#" id of the table or function the chunk returns.
// extends (Src a class table): the head of its __index table, as above.

const exprSelf = "?self"

// chainExpr returns the Expr of the name chain c (a.b.c, a:b) used at p.
func (f *fileState) chainExpr(c string, p uint32) string {
	if !isChain(c) {
		return indexer.ExprExpr
	}
	h := head(c)
	rest := c[len(h):]
	if b := f.lookup(h, p); b != nil {
		if strings.HasPrefix(b.expr, "?") {
			return b.expr
		}
		return b.expr + rest
	}
	if h == "self" {
		return exprSelf
	}
	if g, ok := f.globals[h]; ok {
		return g + rest
	}
	return c
}

// exprOf returns the Expr of the value at v.
func (f *fileState) exprOf(v span) string {
	if m, ok := f.requireOf(v); ok {
		return "require(" + m + ")"
	}
	t := srctext.Squeeze(f.Text(v))
	if i, ok := f.calls[v.Key()]; ok {
		callee := srctext.Squeeze(f.Text(f.Items[i].Role[indexer.RoleName]))
		if !isChain(callee) {
			return indexer.ExprLocal
		}
		e := f.chainExpr(callee, v.Start)
		if strings.HasPrefix(e, "?") {
			return e
		}
		return e + "()"
	}
	if isChain(t) {
		return f.chainExpr(t, v.Start)
	}
	return indexer.ExprLocal
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isIdent(s string) bool { return srctext.IsIdent(s, "") && !keywords[s] }

var keywords = map[string]bool{
	"and": true, "break": true, "do": true, "else": true, "elseif": true, "end": true, "false": true,
	"for": true, "function": true, "goto": true, "if": true, "in": true, "local": true, "nil": true,
	"not": true, "or": true, "repeat": true, "return": true, "then": true, "true": true, "until": true, "while": true,
}

// isChain reports whether s is a name chain: a, a.b.c, a.b:c.
func isChain(s string) bool {
	if s == "" {
		return false
	}
	colon := false
	start := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] != '.' && s[i] != ':' {
			continue
		}
		if !isIdent(s[start:i]) || colon && i < len(s) {
			return false
		}
		if i < len(s) && s[i] == ':' {
			colon = true
		}
		start = i + 1
	}
	return true
}

// isUpper reports whether s is written in capitals (a constant by
// convention).
func isUpper(s string) bool {
	up := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'z':
			return false
		case c >= 'A' && c <= 'Z':
			up = true
		}
	}
	return up
}

// splitSpans splits the list at s (arguments, or expressions) at its
// top-level commas, parentheses around it dropped, each part trimmed.
func splitSpans(src string, s span) []span {
	for s.Start < s.End && isSpace(src[s.Start]) {
		s.Start++
	}
	for s.End > s.Start && isSpace(src[s.End-1]) {
		s.End--
	}
	if s.End-s.Start >= 2 && src[s.Start] == '(' && src[s.End-1] == ')' {
		s.Start++
		s.End--
	}
	var out []span
	add := func(a, b uint32) {
		for a < b && isSpace(src[a]) {
			a++
		}
		for b > a && isSpace(src[b-1]) {
			b--
		}
		if b > a {
			out = append(out, span{Start: a, End: b})
		}
	}
	start := s.Start
	for _, c := range srctext.TopCommas(src[s.Start:s.End]) {
		add(start, s.Start+uint32(c))
		start = s.Start + uint32(c) + 1
	}
	add(start, s.End)
	return out
}

// docComment turns a run of -- comment lines into text: the dashes
// dropped, lines joined.
func docComment(lines []string) string {
	var parts []string
	for _, l := range lines {
		l = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "-"))
		l = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(l, "[["), "]]"))
		if l != "" {
			parts = append(parts, l)
		}
	}
	return srctext.CapText(strings.Join(parts, "\n"))
}
