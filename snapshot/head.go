package snapshot

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/graphsnap/snap/schemas"
)

// maxHeadSize bounds what ReadHead reads: HEAD.json is a few lines.
const maxHeadSize = 1 << 20

// ReadHead reads the HEAD.json of a repository's branch. The returned
// Info's ETag is what WriteHead takes as prevETag to move it. A branch
// without HEAD gives an error wrapping fs.ErrNotExist.
func ReadHead(ctx context.Context, st Store, repo, branch string) (schemas.Head, Info, error) {
	key, err := HeadKey(repo, branch)
	if err != nil {
		return schemas.Head{}, Info{}, fmt.Errorf("read head: %w", err)
	}
	raw, info, err := readSmall(ctx, st, key, maxHeadSize)
	if err != nil {
		return schemas.Head{}, Info{}, fmt.Errorf("read head: %w", err)
	}
	var h schemas.Head
	if err := json.Unmarshal(raw, &h); err != nil {
		return schemas.Head{}, Info{}, fmt.Errorf("read head %s: %w", key, clipErr(err))
	}
	if err := checkHead(h); err != nil {
		return schemas.Head{}, Info{}, fmt.Errorf("read head %s: %w", key, err)
	}
	return h, info, nil
}

// checkHead checks what readers of a HEAD rely on: a commit that can be a
// key segment, a generation that counts up from 0, and a manifest digest
// that is empty or 64 lowercase hex digits.
func checkHead(h schemas.Head) error {
	if err := ValidateCommit(h.Commit); err != nil {
		return err
	}
	if h.Generation < 0 || h.Generation == math.MaxInt64 {
		return fmt.Errorf("invalid generation %d", h.Generation)
	}
	if s := h.ManifestSHA256; s != "" && (len(s) != 64 || strings.Trim(s, "0123456789abcdef") != "") {
		return fmt.Errorf("invalid manifest_sha256 %.70q: want 64 lowercase hex digits", s)
	}
	return nil
}

// WriteHead moves a branch's HEAD.json to head by compare-and-swap: it
// creates HEAD when prevETag is "" and replaces it only while its ETag is
// still prevETag otherwise. Losing the race gives an error wrapping
// ErrPrecondition: re-read HEAD and decide again. Call it after Write has
// stored the snapshot head names.
func WriteHead(ctx context.Context, st Store, repo, branch string, head schemas.Head, prevETag string) (Info, error) {
	key, err := HeadKey(repo, branch)
	if err != nil {
		return Info{}, fmt.Errorf("write head: %w", err)
	}
	if err := checkHead(head); err != nil {
		return Info{}, fmt.Errorf("write head %s: %w", key, err)
	}
	raw, err := json.MarshalIndent(head, "", "  ")
	if err != nil {
		return Info{}, fmt.Errorf("write head %s: %w", key, err)
	}
	raw = append(raw, '\n')
	opts := PutOptions{IfMatch: prevETag, IfNoneMatch: prevETag == ""}
	info, err := st.Put(ctx, key, bytes.NewReader(raw), opts)
	if err != nil {
		return Info{}, fmt.Errorf("write head: %w", err)
	}
	return info, nil
}
