package s3store

import (
	"context"

	"github.com/graphsnap/snap/snapshot"
)

func init() {
	snapshot.Register("s3", snapshot.Scheme{Open: openURL, Label: label, Form: "s3://BUCKET/PREFIX"})
}

// openURL opens the store an s3:// URL names (see ParseURL and New). A
// URL ParseURL refuses is a *snapshot.URLError.
func openURL(_ context.Context, url string) (snapshot.Store, error) {
	cfg, err := ParseURL(url)
	if err != nil {
		return nil, &snapshot.URLError{Err: err}
	}
	st, err := New(cfg)
	if err != nil {
		return nil, err
	}
	return st, nil
}

// label is the URL as Config.String shows it, without credentials; ""
// when it does not parse.
func label(url string) string {
	cfg, err := ParseURL(url)
	if err != nil {
		return ""
	}
	return cfg.String()
}
