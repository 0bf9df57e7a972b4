package query

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
)

// DiffOptions bound a Diff.
type DiffOptions struct {
	// MaxCallers is how many call sites each symbol lists (all are
	// counted); 0 means 20.
	MaxCallers int
	// ImpactDepth is how far the impact of changed symbols goes; 0 means 2.
	ImpactDepth int
	// MaxImpact bounds the impact's symbols; 0 means 500.
	MaxImpact int
}

// Diff compares snapshot a with snapshot b: files, symbols (matched by
// their stable ids; a symbol whose id is gone but whose kind and qualified
// name reappear once elsewhere has moved), the wiring between symbols both
// have, the callers a removal or a signature change leaves behind, and
// what the changed symbols reach in b.
func Diff(a, b *Engine, opt DiffOptions) *schemas.Diff {
	opt.MaxCallers = cmp.Or(opt.MaxCallers, 20)
	opt.ImpactDepth = cmp.Or(opt.ImpactDepth, 2)
	opt.MaxImpact = cmp.Or(opt.MaxImpact, 500)
	d := &schemas.Diff{
		From: side(a), To: side(b),
		Files: []schemas.FileChange{}, Symbols: []schemas.SymbolDelta{},
		Edges: []schemas.EdgeDelta{}, Impact: []schemas.Affected{},
	}
	files := diffFiles(a, b, d)

	// Symbols.
	type key struct{ lang, kind, qname string }
	var removed, added []int32
	for r := range a.nodes {
		n := a.Node(int32(r))
		if n.Kind == schemas.KindFile || n.Kind == schemas.KindPackage {
			continue
		}
		if _, ok := b.Lookup(n.ID); !ok {
			removed = append(removed, int32(r))
		}
	}
	for r := range b.nodes {
		n := b.Node(int32(r))
		if n.Kind == schemas.KindFile || n.Kind == schemas.KindPackage {
			continue
		}
		if _, ok := a.Lookup(n.ID); !ok {
			added = append(added, int32(r))
		}
	}
	byKey := func(e *Engine, rows []int32) map[key][]int32 {
		m := make(map[key][]int32)
		for _, r := range rows {
			k := key{e.nodeLang(r), e.NodeKind(r), e.NodeQName(r)}
			m[k] = append(m[k], r)
		}
		return m
	}
	gone, come := byKey(a, removed), byKey(b, added)
	moved := make(map[int32]int32) // b row → a row
	movedFrom := make(map[int32]bool)
	for k, ar := range gone {
		if br := come[k]; len(ar) == 1 && len(br) == 1 {
			moved[br[0]], movedFrom[ar[0]] = ar[0], true
		}
	}
	var changed []int32 // b rows whose signature or body changed, or moved
	for _, r := range removed {
		if movedFrom[r] {
			continue
		}
		n := a.Node(r)
		sd := delta(a, r, "removed")
		sd.OldLocation, sd.Location = sd.Location, ""
		sd.OldSignature, sd.Signature = n.Signature, ""
		d.Symbols = append(d.Symbols, brokenUses(a, b, r, -1, sd, opt.MaxCallers))
		files.touch(n.File, func(f *schemas.FileChange) { f.SymbolsRemoved++ })
	}
	for _, r := range added {
		n := b.Node(r)
		if ar, ok := moved[r]; ok {
			sd := delta(b, r, "moved")
			sd.OldLocation, sd.OldSignature = loc(a.Node(ar)), a.nodeSig(ar)
			d.Symbols = append(d.Symbols, sd)
			changed = append(changed, r)
			files.touch(n.File, func(f *schemas.FileChange) { f.SymbolsChanged++ })
			continue
		}
		d.Symbols = append(d.Symbols, delta(b, r, "added"))
		files.touch(n.File, func(f *schemas.FileChange) { f.SymbolsAdded++ })
	}
	for r := range b.nodes {
		n := b.Node(int32(r))
		if n.Kind == schemas.KindFile || n.Kind == schemas.KindPackage {
			continue
		}
		ar, ok := a.Lookup(n.ID)
		if !ok {
			continue
		}
		o := a.Node(ar)
		change := ""
		switch {
		case o.Signature != n.Signature:
			change = "signature"
		case o.BodyHash != n.BodyHash:
			change = "body"
		default:
			continue
		}
		sd := delta(b, int32(r), change)
		sd.OldLocation, sd.OldSignature = loc(o), o.Signature
		if change == "signature" {
			sd = brokenUses(a, b, ar, int32(r), sd, opt.MaxCallers)
		}
		d.Symbols = append(d.Symbols, sd)
		changed = append(changed, int32(r))
		files.touch(n.File, func(f *schemas.FileChange) { f.SymbolsChanged++ })
	}
	slices.SortFunc(d.Symbols, func(x, y schemas.SymbolDelta) int {
		return cmp.Or(compareLoc(cmp.Or(x.Location, x.OldLocation), cmp.Or(y.Location, y.OldLocation)), cmp.Compare(x.QName, y.QName))
	})
	for _, s := range d.Symbols {
		switch s.Change {
		case "added":
			d.Summary.SymbolsAdded++
		case "removed":
			d.Summary.SymbolsRemoved++
		case "moved":
			d.Summary.SymbolsMoved++
		case "body":
			d.Summary.BodiesChanged++
		case "signature":
			d.Summary.SignaturesChanged++
		}
		if s.CallersTotal > 0 {
			d.Summary.Broken++
		}
	}
	d.Files = files.list()
	for _, f := range d.Files {
		switch f.Change {
		case "added":
			d.Summary.FilesAdded++
		case "removed":
			d.Summary.FilesRemoved++
		case "changed":
			d.Summary.FilesChanged++
		}
	}

	diffEdges(a, b, d)
	diffImpact(b, changed, opt, d)
	return d
}

// compareLoc orders "file:line" locations by file, then line as a number.
func compareLoc(a, b string) int {
	fa, la := splitLoc(a)
	fb, lb := splitLoc(b)
	return cmp.Or(cmp.Compare(fa, fb), cmp.Compare(la, lb))
}

func splitLoc(s string) (string, int) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return s, 0
	}
	n, _ := strconv.Atoi(s[i+1:])
	return s[:i], n
}

func side(e *Engine) schemas.DiffSide {
	m := e.Manifest()
	return schemas.DiffSide{Repo: m.Repo, Branch: m.Branch, Commit: m.Commit, IndexedAt: m.IndexedAt}
}

func loc(n schemas.Node) string { return fmt.Sprintf("%s:%d", n.File, n.StartLine) }

func delta(e *Engine, r int32, change string) schemas.SymbolDelta {
	n := e.Node(r)
	return schemas.SymbolDelta{
		Change: change, ID: strconv.FormatUint(n.ID, 10), Kind: n.Kind, QName: n.QualifiedName,
		Location: loc(n), Signature: n.Signature, Exported: n.Exported, Callers: []schemas.CallSite{},
	}
}

// useKinds are the edges whose sites break when their target is removed:
// a call, a construction, a use of a type, a subclass or an implementation.
var useKinds = []EdgeKind{Calls, Instantiates, References, Extends, Implements}

// brokenUses lists the sites that a change to symbol ar of a breaks, by
// symbols that still exist in b: ar was removed (br is -1) or re-signed
// as br of b.
//
// A site breaks when b still resolves it to the re-signed symbol, or when
// a resolved it to ar and b resolves the same use (same user, kind and
// target as written) to nothing or to another symbol: in a language that
// checks arity or types, the old call no longer matches the new
// signature, and b records why (the reason a site carries). A user whose
// body is unchanged and that b has no such use of at all still makes the
// call, as written in a; a user whose body changed and has no such use
// was updated.
func brokenUses(a, b *Engine, ar, br int32, sd schemas.SymbolDelta, max int) schemas.SymbolDelta {
	kinds := useKinds
	if br >= 0 {
		kinds = callKinds[:] // a new signature breaks its callers; its type uses still hold
	}
	counted := make(map[int32]bool) // b's edges already listed
	add := func(qname, at, reason string) {
		sd.CallersTotal++
		if len(sd.Callers) < max {
			sd.Callers = append(sd.Callers, schemas.CallSite{QName: qname, Location: at, Reason: reason})
		}
	}
	site := func(e *Engine, i int32) string {
		x := &e.edges[i]
		return fmt.Sprintf("%s:%d:%d", e.nt.files[e.edgeFile(uint32(i))], x.line, x.col)
	}
	if br >= 0 {
		for _, l := range b.References(br, kinds) {
			if l.Node == br {
				continue
			}
			counted[l.Edge] = true
			add(b.NodeQName(l.Node), site(b, l.Edge), "")
		}
	}
	self := a.nodes[ar].id
	for _, l := range a.References(ar, kinds) {
		user := &a.nodes[l.Node]
		if user.id == self {
			continue
		}
		ur, ok := b.Lookup(user.id)
		if !ok {
			continue // the user went too
		}
		ea := &a.edges[l.Edge]
		target := a.targets.str(ea.target)
		match, still := int32(-1), false
		rs := b.outRows(ur, ea.kind)
		for i := rs.lo; i < rs.hi; i++ {
			eb := &b.edges[i]
			if b.targets.str(eb.target) != target {
				continue
			}
			if br >= 0 && eb.dstRow == br {
				still = true // listed above
				continue
			}
			if match < 0 && !counted[int32(i)] {
				match = int32(i)
			}
		}
		switch {
		case match >= 0:
			counted[match] = true
			eb := &b.edges[match]
			reason := b.edgeWhy[eb.why].reason
			if eb.dstRow >= 0 {
				reason = "now resolves to " + b.NodeQName(eb.dstRow)
			} else if reason == "" {
				reason = "unresolved"
			}
			add(a.NodeQName(l.Node), site(b, match), reason)
		case still:
		case b.nodes[ur].bodyHash == user.bodyHash:
			add(a.NodeQName(l.Node), site(a, l.Edge), "")
		}
	}
	return sd
}

// fileChanges collects the changed files by path.
type fileChanges map[string]*schemas.FileChange

func (fc fileChanges) touch(path string, fn func(*schemas.FileChange)) {
	if f := fc[path]; f != nil {
		fn(f)
	}
}

func (fc fileChanges) list() []schemas.FileChange {
	out := make([]schemas.FileChange, 0, len(fc))
	for _, f := range fc {
		out = append(out, *f)
	}
	slices.SortFunc(out, func(x, y schemas.FileChange) int { return cmp.Compare(x.Path, y.Path) })
	return out
}

// diffFiles finds the files added, removed and changed by content.
func diffFiles(a, b *Engine, d *schemas.Diff) fileChanges {
	fc := make(fileChanges)
	for i := range a.files {
		f := &a.files[i]
		if g, ok := b.File(f.Path); !ok {
			fc[f.Path] = &schemas.FileChange{Path: f.Path, Change: "removed", Language: f.Language}
		} else if g.SHA256 != f.SHA256 {
			fc[f.Path] = &schemas.FileChange{Path: f.Path, Change: "changed", Language: g.Language}
		}
	}
	for i := range b.files {
		f := &b.files[i]
		if _, ok := a.File(f.Path); !ok {
			fc[f.Path] = &schemas.FileChange{Path: f.Path, Change: "added", Language: f.Language}
		}
	}
	return fc
}

// edgeKey identifies an edge across snapshots: line numbers shift when
// code moves, so they are not part of it.
type edgeKey struct {
	src, dst uint64
	kind     EdgeKind
	target   string
}

// diffEdges lists the edges added and removed between symbols both
// snapshots have, and counts every edge added and removed.
func diffEdges(a, b *Engine, d *schemas.Diff) {
	count := func(e *Engine) map[edgeKey][]int32 {
		m := make(map[edgeKey][]int32, len(e.edges))
		for i := range e.edges {
			x := &e.edges[i]
			if x.kind == Contains {
				continue
			}
			k := edgeKey{src: e.nodes[x.srcRow].id, kind: x.kind}
			if x.dstRow >= 0 {
				k.dst = e.nodes[x.dstRow].id
			} else {
				k.target = e.targets.str(x.target)
			}
			m[k] = append(m[k], int32(i))
		}
		return m
	}
	ea, eb := count(a), count(b)
	both := func(id uint64) bool {
		if id == 0 {
			return true
		}
		_, inA := a.Lookup(id)
		_, inB := b.Lookup(id)
		return inA && inB
	}
	list := func(e *Engine, rows []int32, change string) {
		for _, i := range rows {
			x := &e.edges[i]
			from, to := e.Node(x.srcRow), "?"+e.targets.str(x.target)
			var dst uint64
			if x.dstRow >= 0 {
				dst, to = e.nodes[x.dstRow].id, e.NodeQName(x.dstRow)
			}
			if !both(from.ID) || !both(dst) {
				continue
			}
			d.Edges = append(d.Edges, schemas.EdgeDelta{
				Change: change, Kind: x.kind.String(), From: from.QualifiedName, To: to,
				Location: fmt.Sprintf("%s:%d", e.nt.files[e.edgeFile(uint32(i))], x.line),
			})
		}
	}
	for k, ra := range ea {
		if rb := eb[k]; len(rb) < len(ra) {
			d.Summary.EdgesRemoved += len(ra) - len(rb)
			list(a, ra[len(rb):], "removed")
		}
	}
	for k, rb := range eb {
		if ra := ea[k]; len(ra) < len(rb) {
			d.Summary.EdgesAdded += len(rb) - len(ra)
			list(b, rb[len(ra):], "added")
		}
	}
	slices.SortFunc(d.Edges, func(x, y schemas.EdgeDelta) int {
		return cmp.Or(compareLoc(x.Location, y.Location), cmp.Compare(x.Change, y.Change), cmp.Compare(x.From, y.From), cmp.Compare(x.To, y.To))
	})
}

// diffImpact walks from each changed symbol of b to what depends on it.
func diffImpact(b *Engine, changed []int32, opt DiffOptions, d *schemas.Diff) {
	seen := make(map[int32]bool, len(changed))
	for _, r := range changed {
		seen[r] = true
	}
	for _, r := range changed {
		if len(d.Impact) >= opt.MaxImpact {
			break
		}
		res := b.Impact([]int32{r}, ImpactOptions{Direction: In, Depth: opt.ImpactDepth, MaxNodes: opt.MaxImpact})
		for _, lv := range res.Levels {
			for _, v := range lv.Nodes {
				if seen[v] || len(d.Impact) >= opt.MaxImpact {
					continue
				}
				seen[v] = true
				n := b.Node(v)
				if n.Kind == schemas.KindFile || n.Kind == schemas.KindPackage || n.Kind == schemas.KindModule {
					continue
				}
				d.Impact = append(d.Impact, schemas.Affected{
					QName: n.QualifiedName, Kind: n.Kind, Location: loc(n), Depth: lv.Depth, Via: b.NodeQName(r),
				})
			}
		}
	}
	d.Summary.Impacted = len(d.Impact)
}

// IncomparableError says two snapshots were made with different meanings
// of their rows (schemas.FeatureVersion), so their ids cannot be compared:
// every symbol would read as moved.
type IncomparableError struct {
	A, B         string // the snapshots' commits
	FeatA, FeatB int    // their feature versions; 0 is one made before they were recorded
}

func (e *IncomparableError) Error() string {
	return fmt.Sprintf("snapshots %s and %s cannot be compared by id: they were made with feature versions %s and %s; "+
		"index both with the same snap (this one writes %d)",
		snapshot.ShortCommit(e.A), snapshot.ShortCommit(e.B), featureName(e.FeatA), featureName(e.FeatB), schemas.FeatureVersion)
}

func featureName(v int) string {
	if v == 0 {
		return "unrecorded (older than feature versions)"
	}
	return strconv.Itoa(v)
}

// Comparable says whether Diff may compare a with b: both were made with
// the same, recorded feature version. It returns an *IncomparableError if
// not.
func Comparable(a, b *Engine) error {
	fa, fb := a.manifest.FeatureVersion, b.manifest.FeatureVersion
	if fa == fb && fa != 0 {
		return nil
	}
	return &IncomparableError{A: a.manifest.Commit, B: b.manifest.Commit, FeatA: fa, FeatB: fb}
}
