package schemas_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/schemas/schematest"
)

// TestCLIMatchesSchema holds the Go types of the --json answers and
// cli.schema.json together: the schema requires every field and allows
// no other, so a field added to or dropped from either side fails here.
func TestCLIMatchesSchema(t *testing.T) {
	c1, c2 := strings.Repeat("a", 40), strings.Repeat("b", 40)+"-dirty-0123456789abcdef-build-fedcba9876543210"
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	cases := []struct {
		def string
		v   any
	}{
		{"transfer", schemas.Transfer{Op: "push", Store: "s3://b/p", Repo: "o/r", Branch: "main", Commit: c1,
			ManifestSHA256: strings.Repeat("c", 64), Tables: 5, Bytes: 10, DurationMS: 3,
			Head: schemas.Move{Moved: true, From: c2, To: c1, Generation: 2}}},
		{"listing", schemas.Listing{Store: ".snap", Branches: []schemas.BranchListing{{Repo: "o/r", Branch: "main", Head: c1,
			Generation: 1, UpdatedAt: at, Snapshots: []schemas.SnapshotListing{{Commit: c1, Head: true, Complete: true, Objects: 6, Bytes: 9, StoredAt: at}}}}}},
		{"collection", schemas.Collection{Store: ".snap", Keep: 2, Deleted: []schemas.DeletedListing{{Repo: "o/r", Branch: "b",
			Commit: c2, Reason: "old", Objects: 6, Bytes: 9}}, Kept: 2, Objects: 6, Bytes: 9}},
		{"diff", schemas.Diff{From: schemas.DiffSide{Repo: "o/r", Branch: "main", Commit: c1, IndexedAt: at}, To: schemas.DiffSide{Repo: "o/r", Branch: "x", Commit: c2, IndexedAt: at},
			Summary: schemas.DiffSummary{SymbolsRemoved: 1, Broken: 1},
			Files:   []schemas.FileChange{{Path: "a.go", Change: "changed", Language: "go", SymbolsRemoved: 1}},
			Symbols: []schemas.SymbolDelta{{Change: "removed", ID: "12", Kind: "function", QName: "a.F", OldLocation: "a.go:3", OldSignature: "func F()",
				Callers: []schemas.CallSite{{QName: "b.G", Location: "b.go:4:2"}}, CallersTotal: 1}},
			Edges:  []schemas.EdgeDelta{{Change: "added", Kind: "calls", From: "b.G", To: "?a.F", Location: "b.go:4"}},
			Impact: []schemas.Affected{{QName: "b.H", Kind: "function", Location: "b.go:9", Depth: 1, Via: "a.F"}}}},
		{"checkup", schemas.Checkup{Store: ".snap", OK: true, Checks: []schemas.Check{{Name: "list", OK: true, Detail: "fine", DurationMS: 1}}}},
	}
	for _, tc := range cases {
		data, err := json.Marshal(tc.v)
		if err != nil {
			t.Fatal(err)
		}
		schematest.Validate(t, schemas.CLISchema, "#/$defs/"+tc.def, data)
		// And the schema refuses what is wrong: a field of another name.
		bad := strings.Replace(strings.Replace(string(data), `"store"`, `"stores"`, 1), `"summary"`, `"summaries"`, 1)
		if schematest.Check(schemas.CLISchema, "#/$defs/"+tc.def, []byte(bad)) == nil {
			t.Errorf("%s: the schema accepts an unknown field", tc.def)
		}
	}
}
