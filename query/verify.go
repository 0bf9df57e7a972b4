package query

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// ClaimKind is the relation a claim states.
type ClaimKind uint8

// Claim kinds.
const (
	ClaimCalls      ClaimKind = iota + 1 // Subject calls (or instantiates) Object directly
	ClaimReaches                         // Subject reaches Object through calls
	ClaimImports                         // Subject imports Object
	ClaimExtends                         // Subject extends Object, directly or through ancestors
	ClaimImplements                      // Subject implements Object, directly or through ancestors
	ClaimAffects                         // changing Subject affects Object (Object depends on Subject)
	ClaimContains                        // Subject contains Object (Object is declared in Subject)
)

var claimKindNames = [...]string{"", "calls", "reaches", "imports", "extends", "implements", "affects", "contains"}

// String returns the kind's name ("calls").
func (k ClaimKind) String() string {
	if int(k) < len(claimKindNames) && k > 0 {
		return claimKindNames[k]
	}
	return fmt.Sprintf("ClaimKind(%d)", k)
}

// ParseClaimKind returns the kind named s ("calls").
func ParseClaimKind(s string) (ClaimKind, bool) {
	i := slices.Index(claimKindNames[:], s)
	return ClaimKind(max(i, 0)), i > 0
}

// Claim is a structural statement about two symbols: "Subject Kind Object".
type Claim struct {
	Kind            ClaimKind
	Subject, Object string
}

// String returns the claim in words: "A calls B".
func (c Claim) String() string { return c.Subject + " " + c.Kind.String() + " " + c.Object }

// ErrClaim says a claim's text has none of the forms ParseClaim reads.
var ErrClaim = errors.New(`unrecognised claim: want a form like "A calls B", "A calls B indirectly", "A imports B", "A extends B", "A implements B", "changing A affects B", "B depends on A", "A contains B" or "B is defined in A"`)

// claimForms are the claims' English forms, most specific first; {A} and
// {B} are the subject and object as the form writes them, swap says the
// claim's Subject is {B}.
var claimForms = []struct {
	form string
	kind ClaimKind
	swap bool
}{
	{"changing {A} affects {B}", ClaimAffects, false},
	{"changing {A} breaks {B}", ClaimAffects, false},
	{"a change to {A} affects {B}", ClaimAffects, false},
	{"changes to {A} affect {B}", ClaimAffects, false},
	{"{A} affects {B}", ClaimAffects, false},
	{"{A} is affected by changing {B}", ClaimAffects, true},
	{"{A} is affected by {B}", ClaimAffects, true},
	{"{A} depends on {B}", ClaimAffects, true},
	{"{A} calls {B} indirectly", ClaimReaches, false},
	{"{A} calls {B} transitively", ClaimReaches, false},
	{"{A} indirectly calls {B}", ClaimReaches, false},
	{"{A} transitively calls {B}", ClaimReaches, false},
	{"{A} eventually calls {B}", ClaimReaches, false},
	{"{A} reaches {B}", ClaimReaches, false},
	{"{A} can reach {B}", ClaimReaches, false},
	{"{A} directly calls {B}", ClaimCalls, false},
	{"{A} calls {B}", ClaimCalls, false},
	{"{A} invokes {B}", ClaimCalls, false},
	{"{A} instantiates {B}", ClaimCalls, false},
	{"{A} is called by {B}", ClaimCalls, true},
	{"{A} imports {B}", ClaimImports, false},
	{"{A} is imported by {B}", ClaimImports, true},
	{"{A} extends {B}", ClaimExtends, false},
	{"{A} inherits from {B}", ClaimExtends, false},
	{"{A} is a subclass of {B}", ClaimExtends, false},
	{"{A} subclasses {B}", ClaimExtends, false},
	{"{A} derives from {B}", ClaimExtends, false},
	{"{A} is derived from {B}", ClaimExtends, false},
	{"{A} implements {B}", ClaimImplements, false},
	{"{A} is implemented by {B}", ClaimImplements, true},
	{"{A} contains {B}", ClaimContains, false},
	{"{A} is defined in {B}", ClaimContains, true},
	{"{A} is declared in {B}", ClaimContains, true},
	{"{A} is a member of {B}", ClaimContains, true},
}

// ParseClaim reads a claim in English: "A calls B", "A invokes B", "A
// reaches B", "A calls B indirectly", "A imports B", "A extends B", "A
// inherits from B", "A is a subclass of B", "A implements B", "changing A
// affects B", "A affects B", "B depends on A", "A contains B", "B is
// defined in A", and a few more. Words match ignoring case; names keep
// theirs, may be qualified ("net/http.(*Client).Do") and may be quoted or
// backquoted, and lose a leading "the function", "class", … A trailing '.'
// is ignored. It returns ErrClaim when no form fits.
func ParseClaim(text string) (Claim, error) {
	text = normalizeSentence(text)
	for _, f := range claimForms {
		a, b, ok := matchForm(f.form, text)
		if !ok {
			continue
		}
		if f.swap {
			a, b = b, a
		}
		return Claim{Kind: f.kind, Subject: a, Object: b}, nil
	}
	return Claim{}, ErrClaim
}

// Outcome is a verdict's answer.
type Outcome uint8

// Outcomes.
const (
	Inconclusive Outcome = iota // the graph cannot tell: an unknown or ambiguous name, or an edge the index may have missed
	Corroborated                // the graph holds the relation; Edges or Path show it
	Contradicted                // the graph proves the relation absent
)

// String returns "inconclusive", "corroborated" or "contradicted".
func (o Outcome) String() string {
	switch o {
	case Inconclusive:
		return "inconclusive"
	case Corroborated:
		return "corroborated"
	case Contradicted:
		return "contradicted"
	}
	return fmt.Sprintf("Outcome(%d)", o)
}

// Verdict is what the graph says of a claim.
type Verdict struct {
	Claim   Claim
	Outcome Outcome
	Reason  string  // one sentence
	Subject []int32 // the rows the subject resolved to (several when ambiguous)
	Object  []int32 // likewise for the object
	Edges   []int32 // edges that hold the relation directly (calls, imports, extends, implements, contains)
	Path    []Hop   // a chain that holds it (reaches, affects, inheritance through ancestors, nested containment)
	Missed  []int32 // unresolved edges whose target names the object: why the answer is inconclusive
}

// Verification bounds: a reaches or affects search that meets them is
// inconclusive rather than contradicted.
const (
	verifyDepth = MaxPathDepth
	verifyNodes = 200000
	verifyScope = 10000 // symbols a subject or object stands for with its members
)

// Verify checks claim c against the graph. resolve turns a name into rows
// (typically Find): an error, no row or several rows make the verdict
// inconclusive. A subject that contains symbols (a type, a file, a
// package) stands for its members too for calls, reaches, imports and
// affects; an object does for reaches and affects. Calls counts
// instantiations; implements and extends hold through ancestors; affects
// holds when the object depends on the subject over DefaultImpactKinds
// (see Impact). Contradicted means the graph proves the relation absent:
// both names resolved, no such edge or chain, the search was complete, and
// no unresolved edge on the way names the object (Missed lists those).
func (e *Engine) Verify(c Claim, resolve func(name string) ([]int32, error)) Verdict {
	v := Verdict{Claim: c}
	var errS, errO error
	v.Subject, errS = resolve(c.Subject)
	v.Object, errO = resolve(c.Object)
	for _, x := range []struct {
		name string
		rows []int32
		err  error
	}{{c.Subject, v.Subject, errS}, {c.Object, v.Object, errO}} {
		switch {
		case x.err != nil:
			v.Reason = fmt.Sprintf("%s: %v", x.name, x.err)
			return v
		case len(x.rows) == 0:
			v.Reason = fmt.Sprintf("no symbol named %s", x.name)
			return v
		case len(x.rows) > 1:
			v.Reason = fmt.Sprintf("%s is ambiguous: %d symbols; name one by its qualified name", x.name, len(x.rows))
			return v
		}
	}
	s, o := v.Subject[0], v.Object[0]
	sn, on := e.NodeQName(s), e.NodeQName(o)
	switch c.Kind {
	case ClaimCalls, ClaimImports:
		kinds := callKinds[:]
		verb := "calls"
		if c.Kind == ClaimImports {
			kinds, verb = []EdgeKind{Imports}, "imports"
		}
		from := e.withMembers(s)
		for _, u := range from {
			e.each(u, kinds, Out, func(edge, w int32) bool {
				if w == o {
					v.Edges = append(v.Edges, edge)
				}
				return true
			})
		}
		if len(v.Edges) > 0 {
			slices.Sort(v.Edges)
			v.Outcome = Corroborated
			v.Reason = fmt.Sprintf("%s %s %s: %d site(s)", sn, verb, on, len(v.Edges))
			return v
		}
		v.Missed = e.missed(from, kinds, []int32{o})
		v.conclude(fmt.Sprintf("%s does not %s %s", sn, strings.TrimSuffix(verb, "s"), on))
	case ClaimReaches:
		v.search(e, e.withMembers(s), e.withMembers(o), callKinds[:],
			func(n int) string { return fmt.Sprintf("%s reaches %s in %d call(s)", sn, on, n) },
			fmt.Sprintf("%s does not reach %s through resolved calls", sn, on))
	case ClaimAffects:
		// Object depends on Subject: a chain from Object to Subject.
		v.search(e, e.withMembers(o), e.withMembers(s), DefaultImpactKinds,
			func(n int) string {
				return fmt.Sprintf("%s depends on %s in %d hop(s), so changing %[2]s affects %[1]s", on, sn, n)
			},
			fmt.Sprintf("%s does not depend on %s", on, sn))
	case ClaimExtends, ClaimImplements:
		kinds := []EdgeKind{Extends}
		verb := "extends"
		if c.Kind == ClaimImplements {
			kinds, verb = []EdgeKind{Extends, Implements}, "implements"
		}
		v.search(e, []int32{s}, []int32{o}, kinds,
			func(n int) string { return fmt.Sprintf("%s %s %s (%d step(s))", sn, verb, on, n) },
			fmt.Sprintf("%s does not %s %s", sn, strings.TrimSuffix(verb, "s"), on))
		if len(v.Path) == 1 {
			v.Edges, v.Path = []int32{v.Path[0].Edge}, nil
		}
	case ClaimContains:
		// Walk up from the object: containment is structural, so the
		// graph always knows it.
		var chain []Hop
		for w, depth := o, 0; depth < 64; depth++ {
			in := e.in.edges(w, Contains)
			if len(in) == 0 {
				break
			}
			edge := int32(in[0])
			p := e.edges[edge].srcRow
			chain = append(chain, Hop{Edge: edge, From: p, To: w})
			if p == s {
				slices.Reverse(chain)
				if len(chain) == 1 {
					v.Edges = []int32{chain[0].Edge}
				} else {
					v.Path = chain
				}
				v.Outcome = Corroborated
				v.Reason = fmt.Sprintf("%s is declared in %s", on, sn)
				return v
			}
			w = p
		}
		if e.NodeKind(s) == "file" && e.nodes[s].file == e.nodes[o].file && s != o {
			v.Outcome = Corroborated
			v.Reason = fmt.Sprintf("%s is declared in the file %s", on, e.NodeFile(s))
			return v
		}
		v.Outcome = Contradicted
		v.Reason = fmt.Sprintf("%s is not declared in %s", on, sn)
	default:
		v.Reason = fmt.Sprintf("unknown claim kind %v", c.Kind)
	}
	return v
}

// conclude sets a verdict without evidence: inconclusive when an edge may
// have been missed, else contradicted with reason.
func (v *Verdict) conclude(reason string) {
	if len(v.Missed) > 0 {
		v.Outcome = Inconclusive
		v.Reason = fmt.Sprintf("%s through resolved edges, but %d unresolved edge(s) name %s", reason, len(v.Missed), v.Claim.Object)
		if v.Claim.Kind == ClaimAffects {
			v.Reason = fmt.Sprintf("%s through resolved edges, but %d unresolved edge(s) name %s", reason, len(v.Missed), v.Claim.Subject)
		}
		return
	}
	v.Outcome = Contradicted
	v.Reason = reason
}

// search looks for a chain from any of from to any of to over kinds, and
// sets the verdict: corroborated with the path (found says so, given its
// length), or concluded from what the search saw.
func (v *Verdict) search(e *Engine, from, to []int32, kinds []EdgeKind, found func(int) string, absent string) {
	path, seen, complete := e.reach(from, to, kinds)
	if path != nil {
		v.Outcome = Corroborated
		v.Path = path
		v.Reason = found(len(path))
		return
	}
	v.Missed = e.missed(seen, kinds, to)
	if !complete {
		v.Outcome = Inconclusive
		v.Reason = fmt.Sprintf("%s within %d hops and %d symbols; the search stopped there", absent, verifyDepth, verifyNodes)
		return
	}
	v.conclude(absent)
}

// withMembers returns r and the symbols it contains, transitively, up to
// verifyScope of them.
func (e *Engine) withMembers(r int32) []int32 {
	out := []int32{r}
	for i := 0; i < len(out) && len(out) < verifyScope; i++ {
		rs := e.outRows(out[i], Contains)
		for edge := rs.lo; edge < rs.hi; edge++ {
			if w := e.edges[edge].dstRow; w >= 0 && w != r {
				out = append(out, w)
			}
		}
	}
	return out
}

// reach searches breadth-first from every node of from along kinds for a
// node of to. It returns the shortest path found (nil for none, and for a
// from that is already in to: a member is not reached through itself), the
// nodes it visited, and whether the search ran to the end (no depth or
// node bound met).
func (e *Engine) reach(from, to []int32, kinds []EdgeKind) (path []Hop, seen []int32, complete bool) {
	target := map[int32]bool{}
	for _, t := range to {
		target[t] = true
	}
	prev := map[int32]step{}
	for _, f := range from {
		if _, ok := prev[f]; !ok {
			prev[f] = step{edge: -1, prev: -1}
			seen = append(seen, f)
		}
	}
	frontier := slices.Clone(seen)
	for depth := 1; depth <= verifyDepth && len(frontier) > 0; depth++ {
		var next []int32
		hit := int32(-1)
		for _, u := range frontier {
			e.each(u, kinds, Out, func(edge, w int32) bool {
				if _, ok := prev[w]; ok {
					return true
				}
				prev[w] = step{edge: edge, prev: u, dist: depth}
				seen = append(seen, w)
				next = append(next, w)
				if target[w] {
					hit = w
					return false
				}
				return true
			})
			if hit >= 0 {
				for w := hit; prev[w].prev >= 0; w = prev[w].prev {
					path = append(path, Hop{Edge: prev[w].edge, From: prev[w].prev, To: w})
				}
				slices.Reverse(path)
				return path, seen, true
			}
			if len(seen) > verifyNodes {
				return nil, seen, false
			}
		}
		frontier = next
	}
	return nil, seen, len(frontier) == 0
}

// missed returns the unresolved edges of kinds leaving nodes whose target
// text names one of to: what the index may have failed to resolve.
func (e *Engine) missed(nodes []int32, kinds []EdgeKind, to []int32) []int32 {
	names := map[string]bool{}
	for _, t := range to {
		names[e.NodeName(t)] = true
	}
	var out []int32
	for _, u := range nodes {
		for _, k := range kinds {
			rs := e.outRows(u, k)
			for i := rs.lo; i < rs.hi; i++ {
				if ed := &e.edges[i]; ed.dstRow < 0 && names[targetName(e.targets.str(ed.target))] {
					out = append(out, int32(i))
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// targetName returns the name an unresolved target ends with:
// "resp.redirect" → "redirect", "fmt::format" → "format", `"net/http"` →
// "http", "Foo<T>()" → "Foo".
func targetName(t string) string {
	t = strings.Trim(t, "\"'` ")
	if i := strings.IndexAny(t, "(<["); i >= 0 {
		t = t[:i]
	}
	t = strings.TrimRight(t, ".:/")
	if i := strings.LastIndexAny(t, ".:/>\\"); i >= 0 {
		t = t[i+1:]
	}
	return t
}
