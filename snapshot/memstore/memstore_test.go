package memstore_test

import (
	"testing"

	"github.com/graphsnap/snap/snapshot"
	"github.com/graphsnap/snap/snapshot/memstore"
	"github.com/graphsnap/snap/snapshot/storetest"
)

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) snapshot.Store { return memstore.New() })
}
