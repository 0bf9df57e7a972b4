package mcp

import (
	"fmt"
	"strings"
	"sync"

	"github.com/graphsnap/snap/query"
)

// An engine with a working-tree overlay answers partly from files of the
// checkout that differ from the snapshot. Every answer that names one of
// them says so in its hint, so a reader knows which results reflect
// unpushed edits; snap_status lists all of them. (A field of its own on
// every result would cost every client about 1.5 KB more of tools/list.)

// overlayFiles caches, per overlay, the set of its files answers can name.
var overlayFiles sync.Map // *query.Overlay → map[string]bool

func overlaySet(o *query.Overlay) map[string]bool {
	if s, ok := overlayFiles.Load(o); ok {
		return s.(map[string]bool)
	}
	s := make(map[string]bool, len(o.Modified)+len(o.Added))
	for _, p := range o.Modified {
		s[p] = true
	}
	for _, p := range o.Added {
		s[p] = true
	}
	overlayFiles.Store(o, s)
	return s
}

// maxOverlayNamed bounds the files a hint names.
const maxOverlayNamed = 5

// markOverlay adds to the hint of a, encoded as enc, the overlay's files
// that enc names: as a path, or as a location path:line[:col].
func markOverlay(a answer, enc []byte, o *query.Overlay) {
	set := overlaySet(o)
	if len(set) == 0 {
		return
	}
	var named []string
	seen := make(map[string]bool)
	eachString(enc, func(s string) {
		p := s
		if !set[p] {
			p = trimLocation(p)
		}
		if set[p] && !seen[p] {
			seen[p] = true
			named = append(named, p)
		}
	})
	if len(named) == 0 {
		return
	}
	note := "from the working tree, not the snapshot: " + strings.Join(named[:min(len(named), maxOverlayNamed)], ", ")
	if len(named) > maxOverlayNamed {
		note += fmt.Sprintf(" and %d more (snap_status lists them)", len(named)-maxOverlayNamed)
	}
	h := a.head()
	if h.Hint != "" {
		h.Hint += "; "
	}
	h.Hint += note
}

// trimLocation drops a trailing :line or :line:col.
func trimLocation(s string) string {
	for range 2 {
		i := strings.LastIndexByte(s, ':')
		if i < 0 || i == len(s)-1 || strings.Trim(s[i+1:], "0123456789") != "" {
			break
		}
		s = s[:i]
	}
	return s
}

// eachString calls fn with every string of the JSON document enc that
// holds no escape (paths of the answers need none).
func eachString(enc []byte, fn func(string)) {
	for i := 0; i < len(enc); i++ {
		if enc[i] != '"' {
			continue
		}
		j, plain := i+1, true
		for ; j < len(enc) && enc[j] != '"'; j++ {
			if enc[j] == '\\' {
				plain = false
				j++
			}
		}
		if plain && j < len(enc) {
			fn(string(enc[i+1 : j]))
		}
		i = j
	}
}
