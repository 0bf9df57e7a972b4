package s3store_test

import (
	"flag"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/minio/minio-go/v7/pkg/s3utils"

	"github.com/graphsnap/snap/snapshot"
	"github.com/graphsnap/snap/snapshot/s3store"
)

var updateSeeds = flag.Bool("update-fuzz-seeds", false, "rewrite the seed corpora under testdata/fuzz")

// userinfo returns what in s could be credentials: the user and password
// of every authority ("scheme://USER:PASSWORD@host"), and of the endpoint
// query parameter once unescaped.
func userinfo(s string) []string {
	var out []string
	for rest := s; ; {
		i := strings.Index(rest, "://")
		if i < 0 {
			break
		}
		rest = rest[i+3:]
		auth := rest
		if j := strings.IndexAny(auth, "/?#&"); j >= 0 {
			auth = auth[:j]
		}
		if at := strings.LastIndex(auth, "@"); at >= 0 {
			info := auth[:at]
			out = append(out, info)
			out = append(out, strings.Split(info, ":")...)
		}
	}
	if _, q, ok := strings.Cut(s, "?"); ok {
		if vals, err := url.ParseQuery(q); err == nil {
			for _, v := range vals["endpoint"] {
				if v != s {
					out = append(out, userinfo(v)...)
				}
			}
		}
	}
	return out
}

// FuzzParseURL fuzzes the store URLs snap reads from flags, SNAP_STORE and
// git's configuration. ParseURL must refuse credentials in the URL without
// echoing them, say what is wrong in one line, and accept only a valid
// bucket and a prefix that keeps every key under it; what it accepts
// prints (String) back to the same configuration.
func FuzzParseURL(f *testing.F) {
	f.Add("s3://bucket/prefix?endpoint=http://127.0.0.1:9000&region=us-east-1")
	f.Fuzz(func(t *testing.T, raw string) {
		cfg, err := s3store.ParseURL(raw)
		creds := userinfo(raw)
		if err != nil {
			msg := err.Error()
			if !strings.HasPrefix(msg, "invalid s3 URL: ") || strings.ContainsAny(msg, "\r\n") {
				t.Fatalf("unclear error: %q", msg)
			}
			// The advice names the variables credentials go in, and the
			// form of a URL.
			msg = strings.ReplaceAll(msg, "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY", "")
			msg = strings.ReplaceAll(msg, s3store.URLForm, "")
			for _, c := range creds {
				if len(c) >= 6 && strings.Contains(msg, c) {
					t.Fatalf("error %q echoes %q, which may be a credential", msg, c)
				}
			}
			return
		}
		for _, c := range creds {
			if c != "" {
				t.Fatalf("accepted %q, which holds credentials (%q)", raw, c)
			}
		}
		if err := s3utils.CheckValidBucketNameStrict(cfg.Bucket); err != nil {
			t.Fatalf("accepted bucket %q: %v", cfg.Bucket, err)
		}
		if cfg.Prefix != "" && snapshot.ValidateKey(cfg.Prefix) != nil {
			t.Fatalf("accepted prefix %q", cfg.Prefix)
		}
		if cfg.AccessKey != "" || cfg.SecretKey != "" || cfg.SessionToken != "" {
			t.Fatalf("credentials from the URL: %#v", cfg)
		}
		again, err := s3store.ParseURL(cfg.String())
		if err != nil || again != cfg {
			t.Fatalf("ParseURL(%q) = %#v, whose String %q parses to %#v, %v", raw, cfg, cfg.String(), again, err)
		}
	})
}

// TestFuzzSeeds keeps testdata/fuzz/FuzzParseURL in step with the URLs of
// the other tests; -update-fuzz-seeds rewrites them.
func TestFuzzSeeds(t *testing.T) {
	seeds := map[string]string{
		"aws":             "s3://bucket/team/snaps/?region=eu-west-3",
		"endpoint":        "s3://b12/p?endpoint=http://127.0.0.1:9000&path_style=false",
		"escaped":         "s3://b12?endpoint=http%3A%2F%2Flocalhost%3A9000&region=x&path_style=1",
		"prefix_escapes":  "s3://my.bucket-1/a%20b/%C3%BC/...x",
		"credentials":     "s3://AKIAEXAMPLE:wJalrXUtnFEMI7K7MDENG@bucket/prefix",
		"broken_userinfo": "s3://AKIAEXAMPLE:wJalrXUtnFEMI7K7MDENG%zz@bucket",
		"endpoint_creds":  "s3://bucket?endpoint=https://AKIAEXAMPLE:wJalrXUtnFEMI7K7MDENG@host",
		"traversal":       "s3://bucket/a/../../b",
		"nul":             "s3://bucket/a%00b",
		"colon":           "s3://localhost:9000/bucket",
		"colon_secret":    "s3://AKIAEXAMPLE://XAMPLE:@", // the bucket's text is also what may be a secret
		"bucket_secret":   "s3://XAMPLE/://XAMPLE@",
		"unknown":         "s3://bucket?endpont=http://h:1&b=1",
		"fragment":        "s3://bucket/p#frag",
	}
	for name, raw := range seeds {
		dir := filepath.Join("testdata", "fuzz", "FuzzParseURL")
		p := filepath.Join(dir, name)
		want := "go test fuzz v1\nstring(" + strconv.Quote(raw) + ")\n"
		if *updateSeeds {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if got, err := os.ReadFile(p); err != nil || string(got) != want {
			t.Errorf("%s is missing or stale (%v): run go test -run TestFuzzSeeds -update-fuzz-seeds ./snapshot/s3store", p, err)
		}
	}
}
