package main

import (
	"context"
	"path/filepath"

	"github.com/graphsnap/snap/ci"
)

// identity is what a snapshot is filed under (ci.Identity).
type identity = ci.Identity

// detect finds the repository and branch of dir (ci.Detect).
func detect(ctx context.Context, dir string) identity { return ci.Detect(ctx, dir) }

// memoriesDir is where the memory tools keep their notes: beside the
// local cache of the repository around the working directory, never in
// a snapshot.
func memoriesDir(ctx context.Context) string {
	return filepath.Join(detect(ctx, ".").Root, ".snap", "memories")
}
