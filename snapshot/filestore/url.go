package filestore

import (
	"context"
	"path/filepath"

	"github.com/graphsnap/snap/snapshot"
)

func init() {
	snapshot.Register(snapshot.FileScheme, snapshot.Scheme{Open: openURL, Form: "file://PATH"})
}

// openURL opens the folder a plain path or a file:// URL names (see
// snapshot.Open). A folder named .snap is a checkout's, whatever was
// committed there: it must not be a link, which would send every write
// elsewhere (Options.NoLinkedRoot).
func openURL(_ context.Context, url string) (snapshot.Store, error) {
	path := snapshot.LocalPath(url)
	st, err := Open(path, Options{NoLinkedRoot: filepath.Base(filepath.Clean(path)) == ".snap"})
	if err != nil {
		return nil, err
	}
	return st, nil
}
