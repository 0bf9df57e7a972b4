package csharp

import (
	"regexp"
	"strings"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/indexer/srctext"
	"github.com/graphsnap/snap/schemas"
)

// The arguments of a call, as its Expr records them for the resolver to
// tell overloads of the same arity apart (see Expr): the static type of
// each argument where the code at hand tells it.

const (
	exprUnknown = "?"
	exprNull    = "?null"
	exprFn      = "?fn"
	// constPrefix marks an integer literal: an int constant converts to
	// the smaller integral types when its value fits.
	constPrefix = "#"
)

// argList returns the arguments of the argument list at s: "(" arg { ","
// arg } ")".
func (f *fileState) argList(s span, depth int) string {
	var b strings.Builder
	b.WriteByte('(')
	for i, a := range f.argv[s.Start] {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(f.argOf(a, depth))
	}
	b.WriteByte(')')
	return b.String()
}

// argOf returns the type of the argument or expression at s: "{" type "}"
// (type as in Expr, "[]" after an array type), "#" type for an integer
// literal, "this", ?null, ?fn for a lambda or anonymous method, or ? when
// it is not known here (a named argument, ref and out arguments, any
// expression but a literal, a local or parameter, a cast, new T(...) and
// this).
func (f *fileState) argOf(s span, depth int) string {
	if depth > indexer.MaxExprDepth {
		return exprUnknown
	}
	if it := indexer.ItemAt(f.Items, f.exprs, s); it != nil {
		switch it.Kind {
		case kNew, kCast:
			return f.argDecl(it.Role[indexer.RoleType])
		case kParen:
			return f.argOf(it.Role[indexer.RoleValue], depth+1)
		}
		return exprUnknown
	}
	t := srctext.Squeeze(f.Text(s))
	switch {
	case t == "null":
		return exprNull
	case t == "true" || t == "false":
		return "{System.Boolean}"
	case t == "this":
		return "this"
	case t == "":
		return exprUnknown
	case isStringLit(t):
		return "{System.String}"
	case isCharLit(t):
		return "{System.Char}"
	case t[0] >= '0' && t[0] <= '9':
		return numLiteral(t)
	case isLambda(t):
		return exprFn
	case isIdent(t):
		b := f.lookup(t, s.Start)
		if b == nil {
			return exprUnknown // a field, a property, a method group
		}
		if b.arg == "" { // var: its initializer's type
			b.arg = exprUnknown
			if a := f.argOf(b.value, depth+1); strings.HasPrefix(a, "{") || strings.HasPrefix(a, constPrefix) {
				b.arg = "{" + strings.Trim(a, constPrefix+"{}") + "}"
			}
		}
		return b.arg
	}
	return exprUnknown
}

// isLambda reports whether the expression t is a lambda or an anonymous
// method.
func isLambda(t string) bool {
	t = strings.TrimPrefix(t, "async ")
	if strings.HasPrefix(t, "delegate") && (len(t) == 8 || !isIdentByte(t[8])) {
		return true
	}
	head, _, ok := strings.Cut(t, "=>")
	if !ok {
		return false
	}
	head = strings.TrimSpace(head)
	if isIdent(head) {
		return true
	}
	return strings.HasPrefix(head, "(") && strings.HasSuffix(head, ")") && !strings.ContainsAny(head[1:len(head)-1], "()")
}

var (
	intLit  = regexp.MustCompile(`^(?:0x[0-9a-f]+|0b[01]+|[0-9]+)(ul|lu|u|l)?$`)
	realLit = regexp.MustCompile(`^[0-9]*(?:\.[0-9]+)?(?:e[+-]?[0-9]+)?([mfd]?)$`)
)

// numLiteral returns the type of the numeric literal t, ? when t is
// another expression or when its value decides its type.
func numLiteral(t string) string {
	t = strings.ToLower(strings.ReplaceAll(t, "_", ""))
	if m := intLit.FindStringSubmatch(t); m != nil {
		digits := len(t) - len(m[1])
		if strings.HasPrefix(t, "0x") || strings.HasPrefix(t, "0b") {
			digits = 0 // a hexadecimal or binary int may be a uint
		}
		switch {
		case m[1] == "ul" || m[1] == "lu":
			return "{System.UInt64}"
		case digits == 0:
		case m[1] == "" && digits <= 9:
			return constPrefix + "System.Int32"
		case m[1] == "l" && digits <= 18:
			return "{System.Int64}"
		case m[1] == "u" && digits <= 9:
			return "{System.UInt32}"
		}
		return exprUnknown // uint, long or ulong, by its value
	}
	if m := realLit.FindStringSubmatch(t); m != nil {
		switch m[1] {
		case "m":
			return "{System.Decimal}"
		case "f":
			return "{System.Single}"
		}
		return "{System.Double}"
	}
	return exprUnknown
}

// isStringLit reports whether t is one string literal, regular or
// verbatim. (An interpolated string may also convert to a handler type,
// better than to string.)
func isStringLit(t string) bool {
	verbatim := strings.HasPrefix(t, "@")
	t = strings.TrimPrefix(t, "@")
	if len(t) < 2 || t[0] != '"' || t[len(t)-1] != '"' {
		return false
	}
	in := t[1 : len(t)-1]
	for i := 0; i < len(in); i++ {
		switch {
		case in[i] == '\\' && !verbatim:
			i++
		case in[i] == '"' && verbatim && i+1 < len(in) && in[i+1] == '"':
			i++
		case in[i] == '"':
			return false
		}
	}
	return true
}

// isCharLit reports whether t is one character literal.
func isCharLit(t string) bool {
	if len(t) < 3 || t[0] != '\'' || t[len(t)-1] != '\'' {
		return false
	}
	in := t[1 : len(t)-1]
	return len(in) == 1 && in != "\\" || in[0] == '\\' && !strings.Contains(in[1:], "'") && len(in) > 1
}

// argDecl returns the argument type of a value of the declared type at
// t: "{" type "}" (with "?" when nullable), or ? for a type parameter, a
// generic type, a tuple, var or dynamic.
func (f *fileState) argDecl(t span) string {
	raw := srctext.Squeeze(f.Text(t))
	if strings.ContainsAny(raw, "<(,*") {
		return exprUnknown
	}
	base := strings.TrimRight(raw, "[]")
	n := typeName(base)
	if n == "" || n == "dynamic" || f.isTypeVar(n, t.Start) {
		return exprUnknown
	}
	if strings.HasSuffix(base, "?") {
		n += "?" // the resolver knows whether T? is T or Nullable<T>
	}
	return "{" + n + raw[len(base):] + "}"
}

// paramArg returns the argument type of the parameter it.
func (f *fileState) paramArg(it *item) string {
	if !it.HasRole(indexer.RoleType) {
		return exprUnknown
	}
	return f.argDecl(it.Role[indexer.RoleType])
}

// conversion records an implicit conversion operator of a type: a params
// fact of the type reading "implicit". The resolver then knows no
// conversion to or from that type by its bases alone.
func (f *fileState) conversion(it *item) {
	t := f.owner(it.Start)
	if t == nil {
		return
	}
	text := f.Text(it.Span)
	if op := strings.Index(text, "operator"); op < 0 || !strings.Contains(text[:op], "implicit") {
		return
	}
	n := &f.Nodes[t.node]
	f.AddRef(schemas.RefParams, n.ID, it.Span, n.Name, "implicit")
}
