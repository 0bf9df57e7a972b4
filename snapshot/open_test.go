package snapshot_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphsnap/snap/snapshot"
	"github.com/graphsnap/snap/snapshot/filestore"
	_ "github.com/graphsnap/snap/snapshot/s3store"
)

func TestOpenUnknownScheme(t *testing.T) {
	for _, url := range []string{"ftp://host/x", "FTP://host/x"} {
		_, err := snapshot.Open(context.Background(), url)
		var ue *snapshot.URLError
		if !errors.As(err, &ue) {
			t.Fatalf("Open(%q) = %v, want a *URLError", url, err)
		}
		want := `store URL scheme "ftp" is not supported: use a folder, file://PATH or s3://BUCKET/PREFIX`
		if err.Error() != want {
			t.Errorf("Open(%q):\n got %s\nwant %s", url, err, want)
		}
	}
	// What precedes :// may be a secret pasted in the wrong place.
	_, err := snapshot.Open(context.Background(), "AKIA/secret:x://host")
	if err == nil || strings.Contains(err.Error(), "secret") {
		t.Errorf("Open of a URL whose scheme is no scheme: %v", err)
	}
}

func TestOpenFolder(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "store")
	for _, url := range []string{dir, "file://" + dir} {
		st, err := snapshot.Open(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		fs, ok := st.(*filestore.Store)
		if !ok || fs.Root() != dir {
			t.Fatalf("Open(%q) = %T %v, want a file store at %s", url, st, st, dir)
		}
		if got := snapshot.Label(url); got != dir {
			t.Errorf("Label(%q) = %q, want %q", url, got, dir)
		}
	}
	// A checkout's .snap that is a link is refused: its writes would go
	// wherever the link points.
	link := filepath.Join(t.TempDir(), ".snap")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	if _, err := snapshot.Open(ctx, link); !errors.Is(err, filestore.ErrLinkedRoot) {
		t.Errorf("Open of a linked .snap = %v, want ErrLinkedRoot", err)
	}
}

func TestLabelHidesCredentials(t *testing.T) {
	t.Setenv("AWS_REGION", "eu-west-1")
	for _, tc := range []struct{ url, want string }{
		{"s3://bucket/prefix?endpoint=http://127.0.0.1:9000", "s3://bucket/prefix?endpoint=http://127.0.0.1:9000&region=eu-west-1"},
		{"s3://AKIAEXAMPLE:wJalrXUtnFEMI@bucket/prefix", "s3://bucket/prefix"},
		{"gs://AKIAEXAMPLE:wJalrXUtnFEMI@bucket/p?key=wJalrXUtnFEMI#x", "gs://bucket/p"},
		{"AKIAEXAMPLE:wJalrXUtnFEMI://bucket", "(a store URL, not shown)"},
		{"s3://AKIAEXAMPLE:wJalrXUtnFEMI@bucket:9000/%zz", "s3://…"},
	} {
		got := snapshot.Label(tc.url)
		if got != tc.want || strings.Contains(got, "wJalrXUtnFEMI") || strings.Contains(got, "AKIA") {
			t.Errorf("Label(%q) = %q, want %q", tc.url, got, tc.want)
		}
	}
}
