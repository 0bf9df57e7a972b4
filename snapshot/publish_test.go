package snapshot_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
	"github.com/graphsnap/snap/snapshot/memstore"
)

// chain writes snapshots of commits c0 ← c1 ← … ← c(n-1) of one branch,
// each recording its parent, and returns their manifests and digests.
func chain(t *testing.T, st snapshot.Store, branch string, n int, from string) ([]schemas.Manifest, []string) {
	t.Helper()
	var ms []schemas.Manifest
	var sums []string
	parent := from
	for i := range n {
		s := sample()
		s.Manifest.Branch = branch
		s.Manifest.Commit = fmt.Sprintf("%s%02d", strings.Repeat("c", 38), i)
		if from != "" {
			s.Manifest.Commit = fmt.Sprintf("%s%02d", from[:38], i+50)
		}
		s.Manifest.Parents = nil
		if parent != "" {
			s.Manifest.Parents = []string{parent}
		}
		s.Manifest.Dirty = false
		prefix, err := snapshot.Prefix(s.Manifest.Repo, branch, s.Manifest.Commit)
		if err != nil {
			t.Fatal(err)
		}
		m, err := snapshot.Write(context.Background(), st, prefix, s)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := snapshot.EncodeManifest(m)
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
		sums = append(sums, sha256Hex(raw))
		parent = m.Commit
	}
	return ms, sums
}

func TestMoveHeadForwardOnly(t *testing.T) {
	ctx := context.Background()
	st := memstore.New()
	ms, sums := chain(t, st, "main", 4, "")
	repo := ms[0].Repo
	move := func(i int, opts snapshot.HeadOptions) (snapshot.HeadMove, error) {
		return snapshot.MoveHead(ctx, st, repo, "main", ms[i], sums[i], opts)
	}

	mv, err := move(1, snapshot.HeadOptions{})
	if err != nil || !mv.Moved || mv.To.Generation != 1 || mv.To.Commit != ms[1].Commit {
		t.Fatalf("first move: %+v, %v", mv, err)
	}
	// c3 descends from c1 through c2's recorded parents.
	if mv, err = move(3, snapshot.HeadOptions{}); err != nil || !mv.Moved || mv.To.Generation != 2 {
		t.Fatalf("forward move: %+v, %v", mv, err)
	}
	// c0 and c2 are older: HEAD stays, and that is no error.
	for _, i := range []int{0, 2} {
		mv, err = move(i, snapshot.HeadOptions{})
		if err != nil || mv.Moved || mv.Reason != "HEAD is newer" || mv.To.Commit != ms[3].Commit {
			t.Fatalf("backward move of c%d: %+v, %v", i, mv, err)
		}
	}
	if mv, err = move(3, snapshot.HeadOptions{}); err != nil || mv.Moved || mv.Reason != "already there" {
		t.Fatalf("same move: %+v, %v", mv, err)
	}
	// Force moves backwards (a local cache follows the checkout).
	if mv, err = move(0, snapshot.HeadOptions{Force: true}); err != nil || !mv.Moved || mv.To.Generation != 3 {
		t.Fatalf("forced move: %+v, %v", mv, err)
	}
	head, _, err := snapshot.ReadHead(ctx, st, repo, "main")
	if err != nil || head.Commit != ms[0].Commit || head.ManifestSHA256 != sums[0] {
		t.Fatalf("HEAD = %+v, %v", head, err)
	}
}

func TestMoveHeadDiverged(t *testing.T) {
	ctx := context.Background()
	st := memstore.New()
	ms, sums := chain(t, st, "main", 2, "")
	// A second line of history, from an unrelated root.
	other, osums := chain(t, st, "main", 1, strings.Repeat("d", 40))
	repo := ms[0].Repo
	if _, err := snapshot.MoveHead(ctx, st, repo, "main", ms[1], sums[1], snapshot.HeadOptions{}); err != nil {
		t.Fatal(err)
	}
	mv, err := snapshot.MoveHead(ctx, st, repo, "main", other[0], osums[0], snapshot.HeadOptions{})
	if !errors.Is(err, snapshot.ErrNotDescendant) || mv.Moved {
		t.Fatalf("diverged move: %+v, %v", mv, err)
	}
	for _, want := range []string{ms[1].Commit, other[0].Commit, "not moved"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	// Ancestry from git overrides the manifests: here it says yes.
	yes := func(context.Context, string, string) (bool, error) { return true, nil }
	if mv, err = snapshot.MoveHead(ctx, st, repo, "main", other[0], osums[0], snapshot.HeadOptions{Ancestry: yes}); err != nil || !mv.Moved {
		t.Fatalf("move with ancestry: %+v, %v", mv, err)
	}
	// And when it cannot tell, the manifests decide.
	unsure := func(context.Context, string, string) (bool, error) { return false, errors.New("unknown commit") }
	if mv, err = snapshot.MoveHead(ctx, st, repo, "main", ms[1], sums[1], snapshot.HeadOptions{Ancestry: unsure}); !errors.Is(err, snapshot.ErrNotDescendant) {
		t.Fatalf("move back with unsure ancestry: %+v, %v", mv, err)
	}
}

// TestMoveHeadConcurrent races writers of a linear history: every move
// that reports success must be an ancestor of the final HEAD, and the
// generation counts exactly the moves accepted.
func TestMoveHeadConcurrent(t *testing.T) {
	ctx := context.Background()
	st := memstore.New()
	ms, sums := chain(t, st, "main", 8, "")
	repo := ms[0].Repo
	var wg sync.WaitGroup
	moves := make([]snapshot.HeadMove, len(ms))
	errs := make([]error, len(ms))
	for i := range ms {
		wg.Go(func() {
			moves[i], errs[i] = snapshot.MoveHead(ctx, st, repo, "main", ms[i], sums[i], snapshot.HeadOptions{Attempts: 100})
		})
	}
	wg.Wait()
	head, _, err := snapshot.ReadHead(ctx, st, repo, "main")
	if err != nil {
		t.Fatal(err)
	}
	if head.Commit != ms[len(ms)-1].Commit {
		t.Errorf("HEAD at %s, want the newest commit %s", head.Commit, ms[len(ms)-1].Commit)
	}
	accepted := 0
	for i, mv := range moves {
		if errs[i] != nil {
			t.Errorf("writer %d: %v", i, errs[i])
		}
		if mv.Moved {
			accepted++
		}
	}
	if int(head.Generation) != accepted {
		t.Errorf("generation %d, but %d moves were accepted: a write was lost", head.Generation, accepted)
	}
}

func TestCopy(t *testing.T) {
	ctx := context.Background()
	src, dst := memstore.New(), memstore.New()
	ms, sums := chain(t, src, "main", 1, "")
	prefix, _ := snapshot.Prefix(ms[0].Repo, "main", ms[0].Commit)

	var stored []string
	var mu sync.Mutex
	res, err := snapshot.Copy(ctx, dst, src, prefix, snapshot.CopyOptions{
		ManifestSHA256: sums[0],
		AfterTable: func(t schemas.Table) {
			mu.Lock()
			stored = append(stored, t.Name)
			mu.Unlock()
		},
	})
	if err != nil || res.Present || res.Tables != len(ms[0].Tables) || len(stored) != res.Tables || res.ManifestSHA256 != sums[0] {
		t.Fatalf("copy: %+v, %v (stored %v)", res, err, stored)
	}
	if _, err := snapshot.Verify(ctx, dst, prefix); err != nil {
		t.Fatalf("copied snapshot does not verify: %v", err)
	}
	if res, err = snapshot.Copy(ctx, dst, src, prefix, snapshot.CopyOptions{}); err != nil || !res.Present {
		t.Fatalf("second copy: %+v, %v", res, err)
	}

	// A manifest that is not the one HEAD names is refused.
	if _, err := snapshot.Copy(ctx, memstore.New(), src, prefix, snapshot.CopyOptions{ManifestSHA256: strings.Repeat("0", 64)}); err == nil ||
		!strings.Contains(err.Error(), "manifest sha256 mismatch") {
		t.Fatalf("copy with wrong manifest digest: %v", err)
	}

	// A corrupt table is refused, named with both digests, and the
	// destination gets nothing.
	nodes := getRaw(t, src, prefix+"/nodes.parquet")
	bad := append([]byte(nil), nodes...)
	bad[len(bad)/2] ^= 0xff
	putRaw(t, src, prefix+"/nodes.parquet", bad)
	fresh := memstore.New()
	_, err = snapshot.Copy(ctx, fresh, src, prefix, snapshot.CopyOptions{})
	if err == nil {
		t.Fatal("copy of a corrupt table succeeded")
	}
	for _, want := range []string{"table nodes", "sha256 mismatch", sha256Hex(nodes), sha256Hex(bad)} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	if _, _, err := snapshot.ReadManifest(ctx, fresh, prefix); err == nil {
		t.Error("a failed copy left a manifest behind")
	}
	// Nor any table: every table is checked before any is stored.
	if infos, err := fresh.List(ctx, ""); err != nil || len(infos) > 0 {
		t.Errorf("a failed copy left %d objects behind (%v)", len(infos), err)
	}
}

func TestCatalogAndGC(t *testing.T) {
	ctx := context.Background()
	st := memstore.New()
	ms, sums := chain(t, st, "main", 5, "")
	repo := ms[0].Repo
	if _, err := snapshot.MoveHead(ctx, st, repo, "main", ms[2], sums[2], snapshot.HeadOptions{}); err != nil {
		t.Fatal(err)
	}
	// A torn upload: a table without its manifest.
	torn, _ := snapshot.Prefix(repo, "main", strings.Repeat("e", 40))
	putRaw(t, st, torn+"/nodes.parquet", []byte("partial"))

	list, err := snapshot.Catalog(ctx, st, "", "")
	if err != nil || len(list) != 1 {
		t.Fatalf("catalog: %+v, %v", list, err)
	}
	b := list[0]
	if b.Repo != repo || b.Branch != "main" || b.Head != ms[2].Commit || b.Generation != 1 || len(b.Snapshots) != 6 {
		t.Fatalf("branch listing: %+v", b)
	}
	if s := b.Snapshots[0]; s.Commit != ms[4].Commit || !s.Complete || s.Objects != len(ms[4].Tables)+1 || s.Bytes == 0 {
		t.Errorf("newest snapshot listed first: %+v", s)
	}
	if s := b.Snapshots[5]; s.Complete || s.Objects != 1 || s.Head {
		t.Errorf("incomplete snapshot listed last: %+v", s)
	}

	res, err := snapshot.GC(ctx, st, snapshot.GCOptions{Keep: 2, Grace: time.Hour, DryRun: true})
	if err != nil || len(res.Deleted) != 2 || res.Kept != 4 {
		t.Fatalf("dry run: %+v, %v", res, err)
	}
	if list2, _ := snapshot.Catalog(ctx, st, "", ""); len(list2[0].Snapshots) != 6 {
		t.Fatal("a dry run deleted something")
	}
	res, err = snapshot.GC(ctx, st, snapshot.GCOptions{Keep: 2, Grace: time.Hour, Now: time.Now().Add(2 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	gone := map[string]string{}
	for _, d := range res.Deleted {
		gone[d.Commit] = d.Reason
	}
	want := map[string]string{ms[0].Commit: "old", ms[1].Commit: "old", strings.Repeat("e", 40): "incomplete"}
	if fmt.Sprint(gone) != fmt.Sprint(want) || res.Kept != 3 {
		t.Fatalf("gc deleted %v (kept %d), want %v and 3 kept", gone, res.Kept, want)
	}
	for i, m := range ms {
		prefix, _ := snapshot.Prefix(repo, "main", m.Commit)
		_, err := snapshot.Verify(ctx, st, prefix)
		if _, deleted := want[m.Commit]; deleted {
			if infos, _ := st.List(ctx, prefix); len(infos) != 0 {
				t.Errorf("c%d: %d objects left after gc", i, len(infos))
			}
		} else if err != nil {
			t.Errorf("c%d kept but does not verify: %v", i, err)
		}
	}
	if _, err := snapshot.GC(ctx, st, snapshot.GCOptions{Keep: 0}); err == nil {
		t.Error("gc with keep 0 succeeded")
	}
}

func TestReadChecksManifestDigest(t *testing.T) {
	ctx := context.Background()
	st := memstore.New()
	ms, sums := chain(t, st, "main", 1, "")
	prefix, _ := snapshot.Prefix(ms[0].Repo, "main", ms[0].Commit)
	if _, err := snapshot.Read(ctx, st, prefix, snapshot.ReadOptions{ManifestSHA256: sums[0]}); err != nil {
		t.Fatal(err)
	}
	wrong := strings.Repeat("0", 64)
	_, err := snapshot.Read(ctx, st, prefix, snapshot.ReadOptions{ManifestSHA256: wrong})
	if err == nil || !strings.Contains(err.Error(), "manifest sha256 mismatch: HEAD says "+wrong+", manifest has "+sums[0]) {
		t.Fatalf("read with another manifest digest: %v", err)
	}
}
