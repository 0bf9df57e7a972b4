package ci

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
)

// The text forms of what the store commands answer (push, pull, ls, gc,
// doctor, verify); their JSON forms are the schemas types themselves.

// Transfer is the record of a push or pull (op) of repo's branch between
// a store, named by label, and the local cache.
func Transfer(op, label, repo, branch, commit string, res snapshot.CopyResult, mv snapshot.HeadMove, took time.Duration) schemas.Transfer {
	return schemas.Transfer{
		Op: op, Store: label, Repo: repo, Branch: branch, Commit: commit,
		ManifestSHA256: res.ManifestSHA256, Tables: res.Tables, Bytes: res.Bytes, Present: res.Present,
		DurationMS: took.Milliseconds(),
		Head: schemas.Move{
			Moved: mv.Moved, From: mv.From.Commit, To: mv.To.Commit, Generation: mv.To.Generation, Reason: mv.Reason,
		},
	}
}

// TransferText writes a push or pull for people: what was copied, and
// where HEAD went.
func TransferText(w io.Writer, t schemas.Transfer) {
	short := snapshot.ShortCommit
	dir := "to"
	if t.Op == "pull" {
		dir = "from"
	}
	if t.Present {
		fmt.Fprintf(w, "%s %s %s: %s already holds it\n", t.Repo, t.Branch, short(t.Commit), map[string]string{"push": "the store", "pull": "the cache"}[t.Op])
	} else {
		secs := max(float64(t.DurationMS)/1000, 0.001)
		fmt.Fprintf(w, "%sed %s %s %s %s %s: %d tables, %s in %.1fs (%s/s)\n", t.Op, t.Repo, t.Branch, short(t.Commit), dir, t.Store,
			t.Tables, Bytesize(t.Bytes), secs, Bytesize(int64(float64(t.Bytes)/secs)))
	}
	switch {
	case t.Head.Moved && t.Head.From == "":
		fmt.Fprintf(w, "HEAD created at %s (generation %d)\n", short(t.Head.To), t.Head.Generation)
	case t.Head.Moved:
		fmt.Fprintf(w, "HEAD moved %s → %s (generation %d)\n", short(t.Head.From), short(t.Head.To), t.Head.Generation)
	default:
		fmt.Fprintf(w, "HEAD stays at %s: %s\n", short(t.Head.To), t.Head.Reason)
	}
}

// ListingText writes a store's branches and snapshots as a table, times
// in the local zone.
func ListingText(w io.Writer, list []schemas.BranchListing) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "REPO\tBRANCH\tCOMMIT\tSTORED\tSIZE\t")
	for _, b := range list {
		for _, s := range b.Snapshots {
			mark := ""
			switch {
			case s.Head:
				mark = fmt.Sprintf("HEAD (generation %d)", b.Generation)
			case !s.Complete:
				mark = "incomplete"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", b.Repo, b.Branch, snapshot.ShortCommit(s.Commit),
				s.StoredAt.Local().Format("2006-01-02 15:04:05"), Bytesize(s.Bytes), mark)
		}
	}
	return tw.Flush()
}

// GCText writes what a collection deleted, or would.
func GCText(w io.Writer, res schemas.Collection) {
	verb := "deleted"
	if res.DryRun {
		verb = "would delete"
	}
	for _, d := range res.Deleted {
		fmt.Fprintf(w, "%s %s %s %s (%s, %s)\n", verb, d.Repo, d.Branch, snapshot.ShortCommit(d.Commit), d.Reason, Bytesize(d.Bytes))
	}
	fmt.Fprintf(w, "%s %d snapshots (%s); %d kept\n", verb, len(res.Deleted), Bytesize(res.Bytes), res.Kept)
}

// CheckupText writes a store checkup, a check a line.
func CheckupText(w io.Writer, res schemas.Checkup) {
	for _, ch := range res.Checks {
		mark := "ok  "
		if !ch.OK {
			mark = "FAIL"
		}
		fmt.Fprintf(w, "%s %-17s %s (%d ms)\n", mark, ch.Name, ch.Detail, ch.DurationMS)
	}
}

// VerifiedText writes the line that says a snapshot, whose manifest is
// m, verified: what it is a snapshot of, its format, and its tables'
// rows.
func VerifiedText(w io.Writer, m *schemas.Manifest) {
	var rows int64
	for _, t := range m.Tables {
		rows += t.Rows
	}
	fmt.Fprintf(w, "ok: %s %s %s, format %d, %d tables, %d rows\n",
		m.Repo, m.Branch, m.Commit, m.FormatVersion, len(m.Tables), rows)
}

// Bytesize writes n bytes for people: B, KiB, MiB or GiB.
func Bytesize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
