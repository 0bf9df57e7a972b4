package snapshot_test

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/graphsnap/snap/snapshot"
	"github.com/graphsnap/snap/snapshot/memstore"
)

// careless is a store that ignores conditional writes, as some
// S3-compatible servers do.
type careless struct{ snapshot.Store }

func (c careless) Put(ctx context.Context, key string, r io.Reader, _ snapshot.PutOptions) (snapshot.Info, error) {
	return c.Store.Put(ctx, key, r, snapshot.PutOptions{})
}

func TestCheckup(t *testing.T) {
	ctx := context.Background()
	st := memstore.New()
	res := snapshot.Checkup(ctx, st)
	if !res.OK || len(res.Checks) != 5 {
		t.Fatalf("checkup of a good store: %+v", res)
	}
	if left, _ := st.List(ctx, ""); len(left) != 0 {
		t.Errorf("checkup left %d objects behind", len(left))
	}

	res = snapshot.Checkup(ctx, careless{memstore.New()})
	if res.OK {
		t.Fatal("checkup passes a store that ignores conditional writes")
	}
	byName := map[string]string{}
	for _, c := range res.Checks {
		if !c.OK {
			byName[c.Name] = c.Detail
		}
	}
	if d := byName["create-if-absent"]; !strings.Contains(d, "ignores conditional writes") {
		t.Errorf("create-if-absent detail: %q", d)
	}
	if d := byName["compare-and-swap"]; !strings.Contains(d, "not checked") {
		t.Errorf("compare-and-swap after a failed check: %q", d)
	}
}
