package golang

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/graphsnap/snap/schemas"
)

// canonSig is a method's signature with parameter names dropped and every
// named type written with its package path, so that methods declared in
// different packages compare equal when their types are the same:
// "(w ResponseWriter, r *Request)" in net/http reads
// "(net/http.ResponseWriter,*net/http.Request)".
func (r *resolver) canonSig(i int32) string {
	n := r.nodes[i]
	f := r.files[n.File]
	if f == nil {
		return ""
	}
	s := n.Signature
	if n.Kind == schemas.KindMethod && strings.HasPrefix(s, "func") {
		s = strings.TrimSpace(s[4:])
		if strings.HasPrefix(s, "(") {
			end := matching(s, 0)
			if end < 0 {
				return ""
			}
			s = strings.TrimSpace(s[end+1:])
		}
	}
	s = strings.TrimSpace(strings.TrimPrefix(s, n.Name))
	if !strings.HasPrefix(s, "(") {
		return ""
	}
	end := matching(s, 0)
	if end < 0 {
		return ""
	}
	params, results := s[1:end], strings.TrimSpace(s[end+1:])
	var b strings.Builder
	b.WriteByte('(')
	b.WriteString(r.canonTypes(paramTypes(params), f))
	b.WriteByte(')')
	if strings.HasPrefix(results, "(") {
		if e := matching(results, 0); e > 0 {
			results = results[1:e]
		}
		b.WriteString(r.canonTypes(paramTypes(results), f))
	} else if results != "" {
		b.WriteString(r.canonType(results, f))
	}
	return b.String()
}

// matching returns the index of the bracket closing the one at s[i].
func matching(s string, i int) int {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

var typeKeywords = map[string]bool{"chan": true, "func": true, "map": true, "struct": true, "interface": true}

// paramTypes lists the types of a parameter list, names dropped:
// "a, b int, c string" gives [int int string]; "int, string" the same two.
func paramTypes(list string) []string {
	items := splitTop(list)
	type item struct{ name, typ string }
	parsed := make([]item, len(items))
	named := false
	for i, it := range items {
		sp := strings.IndexAny(it, " \t")
		if sp > 0 && isIdent(it[:sp]) && !typeKeywords[it[:sp]] {
			parsed[i] = item{it[:sp], strings.TrimSpace(it[sp:])}
			named = true
		} else {
			parsed[i] = item{typ: it}
		}
	}
	out := make([]string, len(parsed))
	if !named {
		for i, p := range parsed {
			out[i] = p.typ
		}
		return out
	}
	// Grouped names ("a, b int") take the type of the next typed item.
	next := ""
	for i := len(parsed) - 1; i >= 0; i-- {
		if parsed[i].name != "" {
			next = parsed[i].typ
		}
		out[i] = next
	}
	return out
}

func (r *resolver) canonTypes(types []string, f *fileInfo) string {
	out := make([]string, len(types))
	for i, t := range types {
		out[i] = r.canonType(t, f)
	}
	return strings.Join(out, ",")
}

// canonType rewrites the names in a type: pkg.T to path.T, and a type T
// of the file's package to path.T. Spaces go.
func (r *resolver) canonType(t string, f *fileInfo) string {
	var b strings.Builder
	for i := 0; i < len(t); {
		c, w := utf8.DecodeRuneInString(t[i:])
		if !(c == '_' || unicode.IsLetter(c)) {
			if c != ' ' && c != '\t' && c != '\n' {
				b.WriteRune(c)
			}
			i += w
			continue
		}
		j := i
		for j < len(t) {
			c, w := utf8.DecodeRuneInString(t[j:])
			if c == '_' || unicode.IsLetter(c) || unicode.IsDigit(c) {
				j += w
				continue
			}
			break
		}
		word := t[i:j]
		if j < len(t) && t[j] == '.' {
			k := j + 1
			for k < len(t) {
				c, w := utf8.DecodeRuneInString(t[k:])
				if c == '_' || unicode.IsLetter(c) || unicode.IsDigit(c) {
					k += w
					continue
				}
				break
			}
			if ipath, ok := f.imports[word]; ok {
				b.WriteString(ipath + "." + t[j+1:k])
			} else {
				b.WriteString(t[i:k])
			}
			i = k
			continue
		}
		if f.pkg.types[word] != nil {
			b.WriteString(f.pkg.path + "." + word)
		} else {
			b.WriteString(word)
			if typeKeywords[word] {
				b.WriteByte(' ')
			}
		}
		i = j
	}
	return b.String()
}
