package python

import (
	"strings"

	"github.com/graphsnap/snap/indexer/srctext"
	"github.com/graphsnap/snap/schemas"
)

func isIdentStart(c byte) bool { return srctext.IsIdentStart(c, "") }

func isIdentByte(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

type chars interface{ ~string | ~[]byte }

// identEnd returns the end of the identifier starting at p (p if none).
func identEnd[T chars](src T, p, end int) int { return srctext.IdentEnd(src, p, end, "") }

// isIdent reports whether s is one identifier.
func isIdent(s string) bool { return srctext.IsIdent(s, "") }

// syntax is Python's, as oneLine and skipSpace read it: a backslash
// continuing a line is white space.
var syntax = srctext.Syntax{
	Space:       " \t\n\r\f\\",
	LineComment: "#",
	Quotes:      `"'`,
	Open:        "([{",
	Close:       ")]}",
}

// skipSpace skips blanks, line continuations and comments from p.
func skipSpace[T chars](src T, p, end int) int { return srctext.Skip(&syntax, src, p, end) }

// oneLine returns b on one line: comments dropped, blank runs made one
// space, no blank just inside brackets, capped at srctext.MaxText bytes.
func oneLine(b string) string { return syntax.OneLine(b) }

// docstring returns the text of a string literal used as a docstring,
// cleaned as inspect.cleandoc does; ok is false for bytes and f-strings.
func docstring(lit string) (doc string, ok bool) {
	i := 0
	for i < len(lit) && lit[i] != '"' && lit[i] != '\'' {
		switch lit[i] {
		case 'r', 'R', 'u', 'U':
		default:
			return "", false
		}
		i++
	}
	s := lit[i:]
	for _, q := range []string{`"""`, `'''`, `"`, `'`} {
		if strings.HasPrefix(s, q) {
			s = strings.TrimSuffix(s[len(q):], q)
			break
		}
	}
	return cleandoc(s), true
}

// cleandoc expands tabs, strips the first line, removes the common
// indentation of the others and drops blank lines at both ends.
func cleandoc(s string) string {
	lines := strings.Split(strings.ReplaceAll(s, "\t", "        "), "\n")
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " \r")
	}
	lines[0] = strings.TrimLeft(lines[0], " ")
	indent := -1
	for _, l := range lines[1:] {
		if t := strings.TrimLeft(l, " "); t != "" {
			if n := len(l) - len(t); indent < 0 || n < indent {
				indent = n
			}
		}
	}
	if indent > 0 {
		for i := 1; i < len(lines); i++ {
			lines[i] = lines[i][min(indent, len(lines[i])):]
		}
	}
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

// annotation returns the Expr head for a type annotation naming one class
// T, or "" when it names none: "{T}" for an instance of T, "T" for the
// class itself (type[T]), "self" for typing.Self, "{C[T]}" for a
// container C whose items are instances of T (list[T], Iterator[T],
// tuple[T, ...]: see iterables). Quotes are removed, Optional[T], T | None
// and None | T mean T, and another generic T[...] means T.
func annotation(b string) string {
	t := strings.TrimSpace(b)
	for range 4 {
		if n := len(t); n >= 2 && (t[0] == '"' || t[0] == '\'') && t[n-1] == t[0] {
			t = strings.TrimSpace(t[1 : n-1])
		}
		if parts := splitTop(t, '|'); len(parts) > 1 {
			t = ""
			for _, p := range parts {
				if p = strings.TrimSpace(p); p != "None" {
					if t != "" {
						return ""
					}
					t = p
				}
			}
			continue
		}
		open := strings.IndexByte(t, '[')
		if open < 0 || !strings.HasSuffix(t, "]") {
			break
		}
		base, args := strings.TrimSpace(t[:open]), t[open+1:len(t)-1]
		switch last := base[strings.LastIndexByte(base, '.')+1:]; {
		case last == "Union":
			return ""
		case last == "Optional":
			t = strings.TrimSpace(args)
			continue
		case last == "type" || last == "Type":
			if a := annotation(args); strings.HasPrefix(a, "{") && !strings.Contains(a, "[") {
				return a[1 : len(a)-1]
			}
			return ""
		case iterables[last] && isDotted(base):
			if a := itemAnnotation(last, args); a != "" && a != "?" {
				return "{" + base + "[" + a + "]}"
			}
		}
		t = base
		break
	}
	switch {
	case !isDotted(t):
		return ""
	case t == "Self" || strings.HasSuffix(t, ".Self"):
		return "self"
	}
	return "{" + t + "}"
}

// iterables are the generic containers and iterators whose first type
// argument is the type of their items: what a for loop over one binds.
var iterables = map[string]bool{
	"list": true, "List": true, "set": true, "Set": true, "frozenset": true, "FrozenSet": true,
	"tuple": true, "Tuple": true, "deque": true, "Deque": true, "Sequence": true, "MutableSequence": true,
	"AbstractSet": true, "MutableSet": true, "Collection": true, "Iterable": true, "Iterator": true,
	"Reversible": true, "Generator": true, "AsyncIterable": true, "AsyncIterator": true, "AsyncGenerator": true,
}

// itemAnnotation returns the type of the items of container c from its
// type arguments, without braces: T of list[T] and Generator[T, S, R],
// T of tuple[T, ...]; for a tuple of several types, the types, "?" for
// one that names no class (tuple[str, A | B] reads "str,?").
func itemAnnotation(c, args string) string {
	parts := splitTop(args, ',')
	switch {
	case (c == "tuple" || c == "Tuple") && (len(parts) != 2 || strings.TrimSpace(parts[1]) != "..."):
		var types []string
		for _, p := range parts {
			a := annotation(p)
			if !strings.HasPrefix(a, "{") {
				a = "{?}"
			}
			types = append(types, a[1:len(a)-1])
		}
		return strings.Join(types, ",")
	case len(parts) != 1 && !strings.HasSuffix(c, "Generator") && c != "tuple" && c != "Tuple":
		return ""
	}
	a := annotation(parts[0])
	if !strings.HasPrefix(a, "{") {
		return ""
	}
	return a[1 : len(a)-1]
}

// splitTop splits s at the seps outside brackets.
func splitTop(s string, sep byte) []string { return srctext.SplitTop(s, sep, "[(", "])") }

// isDotted reports whether s is a dotted name.
func isDotted(s string) bool { return srctext.IsQualified(s, ".", "") }

// visibility returns the visibility of a Python name: _x and __x are
// private, dunder names public.
func visibility(name string) string {
	if strings.HasPrefix(name, "_") && !(len(name) > 4 && strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__")) {
		return schemas.Private
	}
	return schemas.Public
}
