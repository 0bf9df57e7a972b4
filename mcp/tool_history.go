package mcp

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
)

// ToolsetHistory holds the tools over more than one snapshot.
const ToolsetHistory = "history"

// Library is what the server knows of the served branch's snapshots
// besides the one it answers from: snap_snapshots lists them, snap_diff
// and snap_history read them.
type Library interface {
	// Snapshots lists the branch's complete snapshots, newest first.
	Snapshots(ctx context.Context) ([]StoredSnapshot, error)
	// Open loads the snapshot of commit, a full hash (see Snapshots).
	Open(ctx context.Context, commit string) (*query.Engine, error)
}

// StoredSnapshot is one snapshot a Library holds.
type StoredSnapshot struct {
	Manifest schemas.Manifest
	Head     bool // the branch's HEAD names it
	Bytes    int64
	StoredAt time.Time
}

// Library errors, told apart by the tools' error codes.
var (
	ErrSnapshotNotFound = errors.New("no such snapshot")
	ErrStoreUnavailable = errors.New("store unavailable")
)

// WithLibrary lets the history tools read the branch's snapshots from l.
func (r *Registry) WithLibrary(l Library) { r.library = l }

func libraryFrom(ctx context.Context) (Library, *ToolError) {
	if r := registryFrom(ctx); r != nil && r.library != nil {
		return r.library, nil
	}
	return nil, toolErr(CodeSnapshotNotFound, nil, "this server answers from one snapshot only: "+
		"start snap serve from a store (without --snapshot) to compare snapshots")
}

func libraryErr(err error) *ToolError {
	switch {
	case errors.Is(err, ErrSnapshotNotFound):
		return toolErr(CodeSnapshotNotFound, nil, "%v; snap_snapshots lists the branch's snapshots", err)
	case errors.Is(err, ErrStoreUnavailable):
		return toolErr(CodeStoreUnavailable, nil, "%v; the served snapshot still answers, retry later", err)
	}
	return toolErr(CodeStoreUnavailable, nil, "%v", err)
}

// findSnapshot returns the snapshot whose commit starts with prefix.
func findSnapshot(snaps []StoredSnapshot, arg, prefix string) (StoredSnapshot, *ToolError) {
	prefix = strings.ToLower(strings.TrimSpace(prefix))
	if len(prefix) < 4 {
		return StoredSnapshot{}, argErr(arg, "give at least 4 characters of a commit, got %q", prefix)
	}
	var found []StoredSnapshot
	for _, s := range snaps {
		if strings.HasPrefix(s.Manifest.Commit, prefix) {
			found = append(found, s)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return StoredSnapshot{}, toolErr(CodeSnapshotNotFound, map[string]string{arg: prefix},
			"no snapshot of this branch is of commit %s; snap_snapshots lists them", prefix)
	}
	var commits []string
	for _, s := range found {
		commits = append(commits, s.Manifest.Commit)
	}
	return StoredSnapshot{}, toolErr(CodeInvalidArgument, map[string]any{"argument": arg, "candidates": commits},
		"%s: %d snapshots' commits start with %s; give more of it", arg, len(found), prefix)
}

type snapshotsIn struct {
	page
}

type snapshotEntry struct {
	Commit    string         `json:"commit"`
	Head      bool           `json:"head,omitempty"`
	Serving   bool           `json:"serving,omitempty"` // the snapshot answering now
	Parents   []string       `json:"parents,omitempty"`
	Dirty     bool           `json:"dirty,omitempty"`
	IndexedAt string         `json:"indexed_at"`
	Counts    schemas.Counts `json:"counts"`
	Bytes     int64          `json:"bytes"`
}

type snapshotsOut struct {
	header
	Repo      string          `json:"repo"`
	Branch    string          `json:"branch"`
	Snapshots []snapshotEntry `json:"snapshots"`
	Total     int             `json:"total"`
	Next      string          `json:"next_cursor,omitempty"`
}

var snapshotsTool = waiting(newTool(
	"snap_snapshots", "Snapshots", ToolsetHistory,
	"The served branch's snapshots in the store, newest first: commit, parents, when indexed, counts, size, "+
		"which one HEAD names and which one answers now. Their commits are what snap_diff and snap_history take.",
	func(ctx context.Context, e *query.Engine, in *snapshotsIn) (*snapshotsOut, *ToolError) {
		lib, terr := libraryFrom(ctx)
		if terr != nil {
			return nil, terr
		}
		snaps, err := lib.Snapshots(ctx)
		if err != nil {
			return nil, libraryErr(err)
		}
		pg, next, terr := paginate(e, &in.page, snaps)
		if terr != nil {
			return nil, terr
		}
		m := e.Manifest()
		out := &snapshotsOut{Repo: m.Repo, Branch: m.Branch, Snapshots: make([]snapshotEntry, len(pg)), Total: len(snaps), Next: next}
		for i, s := range pg {
			out.Snapshots[i] = snapshotEntry{
				Commit: s.Manifest.Commit, Head: s.Head, Serving: s.Manifest.Commit == m.Commit, Parents: s.Manifest.Parents,
				Dirty: s.Manifest.Dirty, IndexedAt: s.Manifest.IndexedAt.UTC().Format(time.RFC3339), Counts: s.Manifest.Counts, Bytes: s.Bytes,
			}
		}
		if len(snaps) == 0 {
			out.Hint = "the store holds no snapshot of this branch"
		}
		return out, nil
	}))

type diffIn struct {
	From  string `json:"from" jsonschema:"the older snapshot's commit (at least 4 characters)"`
	To    string `json:"to,omitempty" jsonschema:"the newer snapshot's commit (default: the one answering now)"`
	Depth *int   `json:"depth,omitempty" jsonschema:"how far the impact of changed symbols goes (default 2, at most 5)"`
}

type diffOut struct {
	header
	schemas.Diff
}

var diffTool = waiting(newTool(
	"snap_diff", "Diff two snapshots", ToolsetHistory,
	"What changed between two snapshots of the branch, as snap diff --json says it: files, symbols added, "+
		"removed, moved or changed in body or signature, the callers a removal or a signature change leaves "+
		"behind, edges added or removed, and what the changed symbols reach.",
	func(ctx context.Context, e *query.Engine, in *diffIn) (*diffOut, *ToolError) {
		lib, terr := libraryFrom(ctx)
		if terr != nil {
			return nil, terr
		}
		depth := 2
		if in.Depth != nil {
			if *in.Depth < 1 {
				return nil, argErr("depth", "must be at least 1, got %d", *in.Depth)
			}
			depth = min(*in.Depth, 5)
		}
		snaps, err := lib.Snapshots(ctx)
		if err != nil {
			return nil, libraryErr(err)
		}
		open := func(arg, commit string) (*query.Engine, *ToolError) {
			if commit == "" || strings.HasPrefix(e.Commit(), strings.ToLower(commit)) && len(commit) >= 4 {
				return e, nil
			}
			s, terr := findSnapshot(snaps, arg, commit)
			if terr != nil {
				return nil, terr
			}
			x, err := lib.Open(ctx, s.Manifest.Commit)
			if err != nil {
				return nil, libraryErr(err)
			}
			return x, nil
		}
		if strings.TrimSpace(in.From) == "" {
			return nil, argErr("from", "required: the older snapshot's commit (snap_snapshots lists them)")
		}
		a, terr := open("from", in.From)
		if terr != nil {
			return nil, terr
		}
		b, terr := open("to", in.To)
		if terr != nil {
			return nil, terr
		}
		if terr := comparable(a, b); terr != nil {
			return nil, terr
		}
		out := &diffOut{Diff: *query.Diff(a, b, query.DiffOptions{ImpactDepth: depth})}
		if out.Summary == (schemas.DiffSummary{}) {
			out.Hint = "the two snapshots hold the same code graph"
		}
		return out, nil
	}))

type historyIn struct {
	target
	Metric string `json:"metric,omitempty" enum:"nodes,edges,files,unresolved,parse_errors,build_ms" jsonschema:"instead of a symbol, follow a count of the snapshots' manifests"`
	Limit  *int   `json:"limit,omitempty" jsonschema:"how many snapshots back (default 10; a symbol's history loads each one: at most 20)"`
}

type historyPoint struct {
	Commit    string `json:"commit"`
	IndexedAt string `json:"indexed_at"`
	// For a metric.
	Value *int64 `json:"value,omitempty"`
	// For a symbol: whether the snapshot has it, where, its signature,
	// how many call sites reach it, and what changed from the older
	// snapshot next in the list (added, removed, moved, signature, body).
	Present   *bool  `json:"present,omitempty"`
	Loc       string `json:"loc,omitempty"`
	Signature string `json:"signature,omitempty"`
	Callers   *int   `json:"callers,omitempty"`
	Change    string `json:"change,omitempty"`
}

type historyOut struct {
	header
	Symbol *sym           `json:"symbol,omitempty"`
	Metric string         `json:"metric,omitempty"`
	Points []historyPoint `json:"points"` // newest first
}

var historyTool = waiting(newTool(
	"snap_history", "History", ToolsetHistory,
	"One symbol, or one count, across the branch's snapshots, newest first. For a symbol (by id or name, "+
		"as found in the snapshot answering now, or else in the newest older one that has it): present or not, location, signature, callers, and what changed. "+
		"For a metric (nodes, edges, files, unresolved, parse_errors, build_ms): its value in each manifest.",
	func(ctx context.Context, e *query.Engine, in *historyIn) (*historyOut, *ToolError) {
		lib, terr := libraryFrom(ctx)
		if terr != nil {
			return nil, terr
		}
		limit := 10
		if in.Limit != nil {
			if *in.Limit < 1 {
				return nil, argErr("limit", "must be at least 1, got %d", *in.Limit)
			}
			limit = *in.Limit
		}
		snaps, err := lib.Snapshots(ctx)
		if err != nil {
			return nil, libraryErr(err)
		}
		if in.Metric != "" {
			if in.ID != nil || in.Name != "" {
				return nil, argErr("metric", "give a metric or a symbol, not both")
			}
			out := &historyOut{Metric: in.Metric, Points: []historyPoint{}}
			for _, s := range snaps[:min(len(snaps), max(limit, 1), 1000)] {
				v, ok := metric(&s.Manifest, in.Metric)
				if !ok {
					return nil, argErr("metric", "unknown metric %q", in.Metric)
				}
				out.Points = append(out.Points, historyPoint{Commit: s.Manifest.Commit, IndexedAt: stamp(s.Manifest.IndexedAt), Value: &v})
			}
			return out, nil
		}
		// The symbol as the snapshot answering now has it, or else as the
		// newest older snapshot that had it: a removed symbol has a
		// history too.
		home := e
		r, terr := in.resolve(e)
		for _, snap := range snaps[:min(len(snaps), limit, 20)] {
			if terr == nil || terr.Code != CodeSymbolNotFound {
				break
			}
			if snap.Manifest.Commit == e.Commit() {
				continue
			}
			x, err := lib.Open(ctx, snap.Manifest.Commit)
			if err != nil {
				return nil, libraryErr(err)
			}
			if xr, xerr := in.resolve(x); xerr == nil || xerr.Code != CodeSymbolNotFound {
				home, r, terr = x, xr, xerr
			}
		}
		if terr != nil {
			return nil, terr
		}
		n := home.Node(r)
		s := subjectOf(home, r)
		out := &historyOut{Symbol: &s, Points: []historyPoint{}}
		var prev *historyPoint
		var prevBody uint64
		for _, snap := range snaps[:min(len(snaps), limit, 20)] {
			x := e
			if snap.Manifest.Commit != e.Commit() {
				if x, err = lib.Open(ctx, snap.Manifest.Commit); err != nil {
					return nil, libraryErr(err)
				}
			}
			if x != e && query.Comparable(e, x) != nil {
				// Older snapshots made with other ids end the history.
				out.Hint = comparable(e, x).Message
				break
			}
			p := historyPoint{Commit: snap.Manifest.Commit, IndexedAt: stamp(snap.Manifest.IndexedAt)}
			var body uint64
			xr, ok := x.Lookup(n.ID)
			if !ok {
				// The id changes when a symbol moves to another file.
				if rows := x.Find(n.QualifiedName, ""); len(rows) == 1 && x.NodeKind(rows[0]) == n.Kind {
					xr, ok = rows[0], true
				}
			}
			p.Present = &ok
			if ok {
				xn := x.Node(xr)
				callers := len(x.Callers(xr))
				p.Loc, p.Signature, p.Callers = loc(xn.File, xn.StartLine), xn.Signature, &callers
				body = xn.BodyHash
			}
			if prev != nil {
				prev.Change = change(&p, prev, body, prevBody)
			}
			out.Points = append(out.Points, p)
			prev, prevBody = &out.Points[len(out.Points)-1], body
		}
		return out, nil
	}))

// comparable is CodeIncomparable when a and b cannot be compared by id.
func comparable(a, b *query.Engine) *ToolError {
	var ie *query.IncomparableError
	if !errors.As(query.Comparable(a, b), &ie) {
		return nil
	}
	return toolErr(CodeIncomparable, map[string]int{"from_feature_version": ie.FeatA, "to_feature_version": ie.FeatB}, "%s", ie.Error())
}

// change says what changed from the older point to the newer.
func change(older, newer *historyPoint, olderBody, newerBody uint64) string {
	switch {
	case !*older.Present && *newer.Present:
		return "added"
	case *older.Present && !*newer.Present:
		return "removed"
	case !*older.Present:
		return ""
	case older.Signature != newer.Signature:
		return "signature"
	case pathOf(older.Loc) != pathOf(newer.Loc):
		return "moved"
	case olderBody != newerBody:
		return "body"
	}
	return ""
}

func pathOf(loc string) string {
	p, _, _ := strings.Cut(loc, ":")
	return p
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// metric reads a count of m.
func metric(m *schemas.Manifest, name string) (int64, bool) {
	switch name {
	case "nodes":
		return int64(m.Counts.Nodes), true
	case "edges":
		return int64(m.Counts.Edges), true
	case "files":
		return int64(m.Counts.Files), true
	case "unresolved":
		return int64(m.Counts.Unresolved), true
	case "parse_errors":
		return int64(m.Counts.ParseErrors), true
	case "build_ms":
		return m.Build.DurationMS, true
	}
	return 0, false
}
