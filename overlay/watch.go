package overlay

import (
	"context"
	"errors"
	"io/fs"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// holderPoll is how often Watch looks for a snapshot stored by a sync.
const holderPoll = time.Second

// maxDelay bounds how long a stream of changes can put a check off.
const maxDelay = 3 * time.Second

// neverWatched are folders no change in which concerns the overlay:
// version control and snap's own store, and (unless the index takes
// vendored code) the indexer's vendored folders.
var neverWatched = map[string]bool{".git": true, ".hg": true, ".svn": true, ".snap": true}

var vendoredDirs = map[string]bool{"vendor": true, "node_modules": true, "third_party": true}

// Watch checks once, then watches the checkout's folders (those holding
// files the indexer walks, and new ones as they appear unless git ignores
// them) and checks again once changes have settled for the Debounce, until
// ctx is done. A folder that cannot be watched (the system's limit on
// watches) is logged once; snap_sync still re-checks.
func (o *Overlay) Watch(ctx context.Context) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	defer w.Close()
	o.setWatching(true)
	defer o.setWatching(false)
	watched := map[string]bool{}
	warned := false
	add := func(dir string) {
		if watched[dir] {
			return
		}
		watched[dir] = true
		if err := w.Add(dir); err != nil && !warned {
			warned = true
			o.log.Warn("overlay: cannot watch every folder; changes there show at the next snap_sync or change elsewhere", "dir", dir, "err", err)
		}
	}
	sync := func() {
		o.Check(ctx)
		o.run.Lock()
		dirs := o.dirs
		o.run.Unlock()
		for _, d := range dirs {
			add(filepath.Join(o.cfg.Dir, filepath.FromSlash(d)))
		}
	}
	sync()
	// A sync that swaps in a newer snapshot does not tell the overlay:
	// look at the holder now and then.
	poll := time.NewTicker(holderPoll)
	defer poll.Stop()
	var timer <-chan time.Time
	var first time.Time // the first change not checked yet
	for {
		select {
		case <-ctx.Done():
			return nil
		case err, ok := <-w.Errors:
			if !ok {
				return nil
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				o.log.Warn("overlay: too many changes at once; checking everything")
			}
			timer, first = o.schedule(first)
		case ev, ok := <-w.Events:
			if !ok {
				return nil
			}
			if o.skip(ev.Name) {
				continue
			}
			if ev.Has(fsnotify.Create) {
				o.addTree(ev.Name, watched, add)
			}
			timer, first = o.schedule(first)
		case <-poll.C:
			if o.cfg.Holder.Load() != o.seen.Load() && timer == nil {
				timer, first = o.schedule(first)
			}
		case <-timer:
			timer, first = nil, time.Time{}
			sync()
		}
	}
}

// schedule returns the timer of the next check: the Debounce from now,
// but no later than maxDelay after the first change waiting.
func (o *Overlay) schedule(first time.Time) (<-chan time.Time, time.Time) {
	now := time.Now()
	if first.IsZero() {
		first = now
	}
	wait := min(o.cfg.Debounce, max(0, first.Add(maxDelay).Sub(now)))
	return time.After(wait), first
}

// skip reports whether a change at name cannot concern the overlay.
func (o *Overlay) skip(name string) bool {
	rel, err := filepath.Rel(o.cfg.Dir, name)
	if err != nil {
		return true
	}
	for seg := range strings.SplitSeq(filepath.ToSlash(rel), "/") {
		if neverWatched[seg] || !o.cfg.Options.Vendored && vendoredDirs[seg] {
			return true
		}
	}
	return false
}

// addTree watches a folder that appeared, and the folders under it,
// unless git ignores it.
func (o *Overlay) addTree(name string, watched map[string]bool, add func(string)) {
	filepath.WalkDir(name, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if o.skip(p) || watched[p] || o.ignored(p) {
			return filepath.SkipDir
		}
		add(p)
		return nil
	})
}

// ignored asks git whether it ignores the folder dir.
func (o *Overlay) ignored(dir string) bool {
	cmd := exec.Command("git", "-C", o.cfg.Dir, "check-ignore", "-q", dir+string(filepath.Separator))
	return cmd.Run() == nil // exit 0: ignored; 1: not; 128: no git
}

func (o *Overlay) setWatching(on bool) {
	o.mu.Lock()
	o.status.Watching = on
	o.mu.Unlock()
}
