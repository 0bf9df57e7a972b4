package cfamily

import (
	"slices"
	"strings"

	"github.com/graphsnap/snap/indexer/overload"
	"github.com/graphsnap/snap/schemas"
)

// C++ overloads of one arity are told apart by the static types of the
// arguments (argtype.go) and C++'s ranking of standard conversions,
// simplified: what it cannot rank soundly is overload.Unknown.

// callArgs are the arguments of a call: their number (-1 for no call)
// and, in C++, their types as the Expr writes them; file and src are
// where the call is.
type callArgs struct {
	n     int
	types []string
	file  string
	src   uint64
}

var noCall = callArgs{n: -1}

// ctype is a type read back from its normalized form: a base (an
// arithmetic type's name or a class), pointer marks, a const pointee, a
// reference mark; cls is the class row of a class base, -1 when it names
// none known.
type ctype struct {
	base      string
	ptr       int
	constPtee bool
	ref       bool
	cls       int32
	arith     bool
}

// ctypeOf reads t, written in the code of src in file; ok is false when
// nothing about it is known.
func (r *resolver) ctypeOf(t, file string, src uint64) (ctype, bool) {
	if t == "?" || t == "" || strings.HasPrefix(t, "^") || strings.Contains(t, "...") {
		return ctype{}, false
	}
	var c ctype
	c.ref = strings.HasSuffix(t, "&")
	t = strings.TrimRight(t, "&")
	c.ptr = len(t) - len(strings.TrimRight(t, "*"))
	t = strings.TrimRight(t, "*")
	t, c.constPtee = strings.CutPrefix(t, "const ")
	c.base, c.cls = t, -1
	if _, ok := arithmetic[t]; ok {
		c.arith = t != "void"
		return c, true
	}
	f := r.typeOf(normType(t), file, src, 0)
	if f.node < 0 || !isClassKind(r.nodes[f.node].Kind) {
		return c, false
	}
	c.cls = f.node
	return c, true
}

// promotes lists the arithmetic types that promote to int (those of a
// fixed rank; wchar_t and the charN_t types vary by platform).
var promotes = map[string]bool{"bool": true, "char": true, "signed char": true, "unsigned char": true, "short": true, "unsigned short": true}

// byTypes picks among the candidate definitions defs and declarations
// decls of a C++ call the one its argument types choose, or -1. A
// declaration whose parameters match a definition's is that definition.
func (r *resolver) byTypes(defs, decls []int32, a callArgs) int32 {
	if len(a.types) != a.n || a.n == 0 || len(defs)+len(decls) < 2 {
		return -1
	}
	cands := slices.Clone(defs)
	for _, d := range decls {
		if !slices.ContainsFunc(defs, func(i int32) bool { return r.sigs[r.nodes[i].ID] == r.sigs[r.nodes[d].ID] }) {
			cands = append(cands, d)
		}
	}
	params := make([][]string, len(cands))
	ranks := make([][]overload.Rank, len(cands))
	for i, c := range cands {
		n := &r.nodes[c]
		if n.Language != "cpp" {
			return -1
		}
		sig, ok := r.sigs[n.ID]
		if !ok {
			return -1
		}
		if sig != "" {
			params[i] = splitTop(sig)
		}
		ranks[i] = make([]overload.Rank, a.n)
		for j, arg := range a.types {
			ranks[i][j] = overload.Unknown
			if j < len(params[i]) && !strings.HasSuffix(params[i][j], "...") && !r.templates[n.ID] {
				p := strings.TrimSuffix(params[i][j], "=")
				params[i][j] = p
				ranks[i][j] = r.rank(arg, a, p, n)
			}
		}
	}
	same := func(c, d, j int) bool {
		return j < len(params[c]) && j < len(params[d]) && normType(params[c][j]) == normType(params[d][j])
	}
	if i, outcome := overload.ChooseRanked(ranks, same); outcome == overload.Chosen {
		return cands[i]
	}
	return -1
}

// rank ranks the conversion of the argument of type arg of a call to the
// parameter of candidate cand declared with type p.
func (r *resolver) rank(arg string, a callArgs, p string, cand *schemas.Node) overload.Rank {
	pt, ok := r.ctypeOf(normType(p), cand.File, cand.ID)
	if !ok || pt.ref {
		return overload.Unknown // a type or a reference binding the facts do not tell
	}
	switch arg {
	case "0", "nullptr":
		switch {
		case pt.ptr > 0:
			return overload.Conversion
		case pt.cls >= 0:
			return overload.UserDefined
		case arg == "nullptr":
			return overload.NotViable
		case pt.base == "int":
			return overload.Exact
		}
		return overload.Conversion
	case "this":
		c := r.enclosingClass(a.src)
		if c < 0 {
			return overload.Unknown
		}
		at := ctype{base: r.nodes[c].QualifiedName, ptr: 1, cls: c}
		if i, ok := r.byID[a.src]; !ok || strings.Contains(r.nodes[i].Signature, ") const") {
			at.constPtee = true // or may be: this in a const method
			if !pt.constPtee && pt.ptr == 1 {
				return overload.Unknown
			}
		}
		return r.convert(at, pt)
	}
	at, ok := r.ctypeOf(arg, a.file, a.src)
	if !ok {
		return overload.Unknown
	}
	return r.convert(at, pt)
}

// convert ranks the conversion of a value of type a to a parameter of type p.
func (r *resolver) convert(a, p ctype) overload.Rank {
	switch {
	case a.ptr == 0 && p.ptr == 0 && a.arith && p.arith:
		switch {
		case a.base == p.base:
			return overload.Exact
		case promotes[a.base] && p.base == "int" || a.base == "float" && p.base == "double":
			return overload.Promotion
		case strings.HasPrefix(a.base, "wchar") || strings.HasPrefix(a.base, "char") && a.base != "char":
			return overload.Unknown
		}
		return overload.Conversion
	case a.cls >= 0 && a.ptr == 0 || p.cls >= 0 && p.ptr == 0:
		if a.cls >= 0 && a.cls == p.cls && a.ptr == 0 && p.ptr == 0 {
			return overload.Exact
		}
		if a.ptr == 0 && p.ptr == 0 && a.cls >= 0 && p.cls >= 0 && r.derives(a.cls, p.cls, 0) == overload.Yes {
			return overload.Conversion
		}
		return overload.UserDefined
	case a.ptr > 0 && p.ptr == 0:
		if p.base == "bool" {
			return overload.Conversion
		}
		return overload.NotViable
	case a.ptr == 0 && p.ptr > 0:
		return overload.NotViable
	}
	// Both pointers.
	if a.constPtee && !p.constPtee {
		return overload.NotViable
	}
	sameBase := a.base == p.base && a.arith == p.arith && (a.cls < 0 || a.cls == p.cls)
	switch {
	case a.ptr == p.ptr && sameBase && (a.cls >= 0 || a.arith || a.base == "void"):
		if a.ptr > 1 && a.constPtee != p.constPtee {
			return overload.Unknown
		}
		return overload.Exact
	case p.ptr == 1 && p.base == "void":
		return overload.Conversion
	case a.ptr > 1 || a.ptr != p.ptr:
		if a.ptr == p.ptr {
			return overload.Unknown
		}
		return overload.NotViable
	case a.cls >= 0 && p.cls >= 0:
		switch r.derives(a.cls, p.cls, 0) {
		case overload.Yes:
			return overload.Conversion
		case overload.Maybe:
			return overload.Unknown
		}
	}
	// Pointers to different known types: pointers convert by no
	// user-defined conversion.
	return overload.NotViable
}

// derives reports whether class d derives from class b (unambiguity and
// access aside).
func (r *resolver) derives(d, b int32, depth int) overload.Answer {
	if depth > maxDepth {
		return overload.Maybe
	}
	n := &r.nodes[d]
	ans := overload.No
	for _, base := range r.bases[n.ID] {
		t := r.typeOf(base, n.File, n.ID, depth+1)
		switch {
		case t.node < 0:
			ans = overload.Maybe
		case t.node == b:
			return overload.Yes
		default:
			if x := r.derives(t.node, b, depth+1); x == overload.Yes {
				return x
			} else if x == overload.Maybe {
				ans = overload.Maybe
			}
		}
	}
	return ans
}
