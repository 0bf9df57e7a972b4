package snapshot_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphsnap/snap/snapshot"
	"github.com/graphsnap/snap/snapshot/filestore"
)

var trickyNames = []string{
	"main", "feature/x", "feature%2Fx", "feature x", "ü/ñ", "..", ".", "../../etc", "a/../b",
	"x=y", "HEAD.json", `a\b`, "a\x00b", "commit=abc", "branch=main", "%", "a/", "/a", "日本語",
	"\xff\xfe", // not UTF-8
}

func TestKeysNeitherCollideNorEscape(t *testing.T) {
	const commit = "0123456789abcdef0123456789abcdef01234567"
	seen := map[string]string{}
	for _, repo := range []string{"graphsnap/snap", "graphsnap%2Fsnap", "..", "a b"} {
		for _, branch := range trickyNames {
			who := repo + " | " + branch
			p, err := snapshot.Prefix(repo, branch, commit)
			if err != nil {
				t.Fatalf("Prefix(%q, %q): %v", repo, branch, err)
			}
			hk, err := snapshot.HeadKey(repo, branch)
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range []string{p, hk, p + "/manifest.json"} {
				if err := snapshot.ValidateKey(k); err != nil {
					t.Errorf("%s: key %q is invalid: %v", who, k, err)
				}
				if prev, ok := seen[k]; ok {
					t.Errorf("%s and %s share key %q", who, prev, k)
				}
				seen[k] = who
			}
			segs := strings.Split(p, "/")
			if len(segs) != 3 || !strings.HasPrefix(segs[0], "repo=") || !strings.HasPrefix(segs[1], "branch=") || segs[2] != "commit="+commit {
				t.Errorf("%s: prefix %q is not repo=/branch=/commit=", who, p)
			}
			if !strings.HasPrefix(hk, segs[0]+"/"+segs[1]+"/") || strings.Count(hk, "/") != 2 {
				t.Errorf("%s: HEAD key %q is not beside the commits", who, hk)
			}
			for _, k := range []string{p + "/nodes.parquet", hk} {
				ref, rest, err := snapshot.ParseKey(k)
				if err != nil {
					t.Errorf("ParseKey(%q): %v", k, err)
					continue
				}
				if ref.Repo != repo || ref.Branch != branch {
					t.Errorf("ParseKey(%q) = %+v, want repo %q, branch %q", k, ref, repo, branch)
				}
				if wantRest := k[strings.LastIndex(k, "/")+1:]; rest != wantRest {
					t.Errorf("ParseKey(%q) rest = %q, want %q", k, rest, wantRest)
				}
			}
		}
	}
}

func TestKeysStayUnderTheStoreRoot(t *testing.T) {
	ctx := context.Background()
	root := filepath.Join(t.TempDir(), "store")
	st, err := filestore.New(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, branch := range trickyNames {
		hk, err := snapshot.HeadKey("o/r", branch)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.Put(ctx, hk, strings.NewReader(branch), snapshot.PutOptions{}); err != nil {
			t.Fatalf("Put(%q): %v", hk, err)
		}
	}
	// Every file is two folders deep under the root, one per branch.
	var files []string
	filepath.WalkDir(filepath.Dir(root), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasPrefix(d.Name(), ".snapstore") {
			files = append(files, p)
		}
		return nil
	})
	if len(files) != len(trickyNames) {
		t.Errorf("%d files for %d branches: %q", len(files), len(trickyNames), files)
	}
	for _, f := range files {
		rel, _ := filepath.Rel(root, f)
		if parts := strings.Split(filepath.ToSlash(rel), "/"); len(parts) != 3 || parts[2] != "HEAD.json" {
			t.Errorf("file %s is not repo=/branch=/HEAD.json under the root", f)
		}
	}
	infos, err := st.List(ctx, "repo=o%2Fr")
	if err != nil || len(infos) != len(trickyNames) {
		t.Errorf("List = %d keys, %v; want %d", len(infos), err, len(trickyNames))
	}
}

func TestValidateCommit(t *testing.T) {
	for _, c := range []string{"0123456789abcdef0123456789abcdef01234567", strings.Repeat("ab", 32), "dirty-abc_1.2", "HEAD"} {
		if err := snapshot.ValidateCommit(c); err != nil {
			t.Errorf("ValidateCommit(%q) = %v", c, err)
		}
	}
	for _, c := range []string{"", "../x", "a/b", "a b", ".hidden", "..", strings.Repeat("a", 129), "ü", "a\x00"} {
		if err := snapshot.ValidateCommit(c); err == nil {
			t.Errorf("ValidateCommit(%q) accepted", c)
		}
		if _, err := snapshot.Prefix("o/r", "main", c); err == nil {
			t.Errorf("Prefix with commit %q accepted", c)
		}
	}
	if _, err := snapshot.Prefix("", "main", "abc"); err == nil {
		t.Errorf("Prefix with an empty repo accepted")
	}
	if _, err := snapshot.HeadKey("o/r", ""); err == nil {
		t.Errorf("HeadKey with an empty branch accepted")
	}
}

func TestParseKey(t *testing.T) {
	cases := []struct {
		key  string
		ref  snapshot.Ref
		rest string
	}{
		{"repo=o%2Fr/branch=main/commit=abc/nodes.parquet", snapshot.Ref{"o/r", "main", "abc"}, "nodes.parquet"},
		{"repo=o%2Fr/branch=f%2Fx/HEAD.json", snapshot.Ref{Repo: "o/r", Branch: "f/x"}, "HEAD.json"},
		{"repo=o%2Fr/branch=main/commit=abc", snapshot.Ref{"o/r", "main", "abc"}, ""},
		{"repo=o%2Fr/branch=main", snapshot.Ref{Repo: "o/r", Branch: "main"}, ""},
		{"repo=o%2Fr", snapshot.Ref{Repo: "o/r"}, ""},
		{"repo=o/branch=b/commit=c/sub/file", snapshot.Ref{"o", "b", "c"}, "sub/file"},
	}
	for _, c := range cases {
		ref, rest, err := snapshot.ParseKey(c.key)
		if err != nil || ref != c.ref || rest != c.rest {
			t.Errorf("ParseKey(%q) = %+v, %q, %v; want %+v, %q", c.key, ref, rest, err, c.ref, c.rest)
		}
	}
	for _, key := range []string{"", "foo/bar", "repo=", "repo=/branch=x", "repo=a/x=b", "repo=a/branch=", "repo=a/branch=b/commit=", "repo=a/branch=b/commit=../x/y", "repo=%zz"} {
		if ref, _, err := snapshot.ParseKey(key); err == nil {
			t.Errorf("ParseKey(%q) = %+v, want an error", key, ref)
		}
	}
	// A ref's prefix parses back to it.
	r := snapshot.Ref{Repo: "a b/c", Branch: "../d", Commit: "e"}
	p, err := r.Prefix()
	if err != nil {
		t.Fatal(err)
	}
	if got, _, err := snapshot.ParseKey(p); err != nil || got != r {
		t.Errorf("ParseKey(%q) = %+v, %v; want %+v", p, got, err, r)
	}
}

// TestShortCommit: two builds of one commit read apart in snap ls
// and every other line that names a snapshot.
func TestShortCommit(t *testing.T) {
	c := strings.Repeat("a", 40)
	for in, want := range map[string]string{
		c:                             "aaaaaaaaaaaa",
		c + "-dirty-0123456789abcdef": "aaaaaaaaaaaa-dirty",
		c + "-build-fedcba9876543210": "aaaaaaaaaaaa-build-fedc",
		c + "-dirty-0123456789abcdef-build-fedcba9876543210": "aaaaaaaaaaaa-dirty-build-fedc",
		"tree-0123456789abcdef-build-fedcba9876543210":       "tree-0123456789abcdef-build-fedc",
	} {
		if got := snapshot.ShortCommit(in); got != want {
			t.Errorf("ShortCommit(%s) = %s, want %s", in, got, want)
		}
	}
}
