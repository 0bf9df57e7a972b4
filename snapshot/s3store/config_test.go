package s3store_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/graphsnap/snap/snapshot/s3store"
)

func TestParseURL(t *testing.T) {
	t.Setenv("AWS_REGION", "")
	t.Setenv("AWS_DEFAULT_REGION", "")
	for _, tt := range []struct {
		url  string
		want s3store.Config
	}{
		{"s3://bucket", s3store.Config{Bucket: "bucket", Endpoint: "s3.amazonaws.com", Region: "us-east-1"}},
		{"s3://bucket/", s3store.Config{Bucket: "bucket", Endpoint: "s3.amazonaws.com", Region: "us-east-1"}},
		{"S3://bucket/team/snaps/", s3store.Config{Bucket: "bucket", Prefix: "team/snaps", Endpoint: "s3.amazonaws.com", Region: "us-east-1"}},
		{"s3://my.bucket-1/a%20b?region=eu-west-3", s3store.Config{Bucket: "my.bucket-1", Prefix: "a b", Endpoint: "s3.amazonaws.com", Region: "eu-west-3"}},
		{"s3://b12/p?endpoint=http://127.0.0.1:9000", s3store.Config{Bucket: "b12", Prefix: "p", Endpoint: "127.0.0.1:9000", PlainHTTP: true, Region: "us-east-1", PathStyle: true}},
		{"s3://b12?endpoint=https://minio.example.com", s3store.Config{Bucket: "b12", Endpoint: "minio.example.com", Region: "us-east-1", PathStyle: true}},
		{"s3://b12?endpoint=minio.example.com:9000/&path_style=false", s3store.Config{Bucket: "b12", Endpoint: "minio.example.com:9000", Region: "us-east-1"}},
		{"s3://b12?endpoint=http%3A%2F%2Flocalhost%3A9000&region=x&path_style=1", s3store.Config{Bucket: "b12", Endpoint: "localhost:9000", PlainHTTP: true, Region: "x", PathStyle: true}},
		{"s3://b12?path_style=true", s3store.Config{Bucket: "b12", Endpoint: "s3.amazonaws.com", Region: "us-east-1", PathStyle: true}},
		{"s3://b12/...x/a..b", s3store.Config{Bucket: "b12", Prefix: "...x/a..b", Endpoint: "s3.amazonaws.com", Region: "us-east-1"}},
	} {
		got, err := s3store.ParseURL(tt.url)
		if err != nil {
			t.Errorf("ParseURL(%q): %v", tt.url, err)
			continue
		}
		if got != tt.want {
			t.Errorf("ParseURL(%q) = %#v, want %#v", tt.url, got, tt.want)
			continue
		}
		// The String form parses back to the same Config.
		again, err := s3store.ParseURL(got.String())
		if err != nil || again != got {
			t.Errorf("ParseURL(%q).String() = %q, which parses to %#v, %v", tt.url, got.String(), again, err)
		}
	}
}

func TestParseURLRegionFromEnv(t *testing.T) {
	t.Setenv("AWS_REGION", "")
	t.Setenv("AWS_DEFAULT_REGION", "ap-south-1")
	if cfg, err := s3store.ParseURL("s3://bucket"); err != nil || cfg.Region != "ap-south-1" {
		t.Errorf("with AWS_DEFAULT_REGION: region %q, %v", cfg.Region, err)
	}
	t.Setenv("AWS_REGION", "eu-north-1")
	if cfg, err := s3store.ParseURL("s3://bucket"); err != nil || cfg.Region != "eu-north-1" {
		t.Errorf("with AWS_REGION: region %q, %v", cfg.Region, err)
	}
	if cfg, err := s3store.ParseURL("s3://bucket?region=us-west-2"); err != nil || cfg.Region != "us-west-2" {
		t.Errorf("region in the URL: region %q, %v", cfg.Region, err)
	}
}

func TestParseURLRejects(t *testing.T) {
	for _, tt := range []struct {
		url  string
		want string // in the error
	}{
		{"", "want s3://BUCKET"},
		{"bucket/prefix", "want s3://BUCKET"},
		{"https://bucket/prefix", "want s3://BUCKET"},
		{"s3:bucket", "want s3://BUCKET"},
		{"s3://", "no bucket"},
		{"s3:///prefix", "no bucket"},
		{"s3://?endpoint=http://h:1", "no bucket"},
		{"s3://ab", "bucket name \"ab\""},
		{"s3://Bucket", "bucket name \"Bucket\""},
		{"s3://my_bucket", "bucket name \"my_bucket\""},
		{"s3://bucket..x", "bucket name"},
		{"s3://" + strings.Repeat("b", 64), "bucket name"},
		{"s3://192.168.1.1", "bucket name"},
		{"s3://localhost:9000/bucket", "contains a colon (to name a server, add ?endpoint=http://localhost:9000)"},
		{"s3://bucket/a//b", `prefix "a//b"`},
		{"s3://bucket//a", `prefix "/a"`},
		{"s3://bucket/a/./b", `prefix "a/./b"`},
		{"s3://bucket/a/../b", `prefix "a/../b"`},
		{"s3://bucket/..", `prefix ".."`},
		{"s3://bucket/.", `prefix "."`},
		{"s3://bucket/a%5Cb", `prefix "a\\b"`},
		{"s3://bucket/a%00b", `prefix "a\x00b"`},
		{"s3://bucket/p#frag", "fragment"},
		{"s3://bucket?endpont=http://h:1", `unknown parameter "endpont" (known: endpoint, region, path_style)`},
		{"s3://bucket?b=1&a=2&region=x", `unknown parameter "a", "b"`},
		{"s3://bucket?region=a&region=b", "region is given 2 times"},
		{"s3://bucket?region=", "region is empty"},
		{"s3://bucket?endpoint=", "endpoint is empty"},
		{"s3://bucket?endpoint=ftp://h:1", `endpoint scheme is "ftp"`},
		{"s3://bucket?endpoint=http://", "names no host"},
		{"s3://bucket?endpoint=http://h:1/path", "has a path"},
		{"s3://bucket?path_style=maybe", `path_style is "maybe", want true or false`},
		{"s3://bucket?%zz", "query"},
	} {
		_, err := s3store.ParseURL(tt.url)
		if err == nil {
			t.Errorf("ParseURL(%q) succeeded, want an error containing %q", tt.url, tt.want)
			continue
		}
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseURL(%q) = %q, want it to contain %q", tt.url, err, tt.want)
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("ParseURL(%q) error spans lines: %q", tt.url, err)
		}
	}
}

// TestParseURLCredentials checks that credentials in a URL are refused
// without being echoed, however the URL is broken.
func TestParseURLCredentials(t *testing.T) {
	const secret = "wJalrXUtnFEMI7K7MDENG"
	for _, url := range []string{
		"s3://AKIAEXAMPLE:" + secret + "@bucket/prefix",
		"s3://AKIAEXAMPLE:" + secret + "/x@bucket/prefix",
		"s3://AKIAEXAMPLE:" + secret + "%zz@bucket",
		"s3://" + secret + "@bucket",
		"s3://bucket?endpoint=http://AKIAEXAMPLE:" + secret + "@127.0.0.1:9000",
		"s3://bucket?endpoint=https://AKIAEXAMPLE:" + secret + "/x@host",
	} {
		_, err := s3store.ParseURL(url)
		if err == nil {
			t.Errorf("ParseURL accepted credentials in %q", url)
			continue
		}
		if strings.Contains(err.Error(), secret) || strings.Contains(err.Error(), secret[:8]) {
			t.Errorf("ParseURL error echoes the secret: %q", err)
		}
		if !strings.Contains(err.Error(), "AWS_ACCESS_KEY_ID") {
			t.Errorf("ParseURL(%q) = %q, want it to say where credentials go", url, err)
		}
	}
}

func TestConfigHidesCredentials(t *testing.T) {
	cfg, err := s3store.ParseURL("s3://bucket/p?endpoint=http://127.0.0.1:9000")
	if err != nil {
		t.Fatal(err)
	}
	cfg.AccessKey, cfg.SecretKey, cfg.SessionToken = "AKIDKEY", "SECRETKEY", "SESSIONTOKEN"
	var logged bytes.Buffer
	slog.New(slog.NewJSONHandler(&logged, nil)).Info("x", "cfg", cfg)
	slog.New(slog.NewTextHandler(&logged, nil)).Info("x", "cfg", &cfg)
	js, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		cfg.String(), fmt.Sprint(cfg), fmt.Sprintf("%v %+v %#v %s", cfg, cfg, cfg, &cfg), logged.String(), string(js),
	} {
		for _, cred := range []string{"AKIDKEY", "SECRETKEY", "SESSIONTOKEN"} {
			if strings.Contains(s, cred) {
				t.Errorf("%q shows a credential", s)
			}
		}
	}
	if want := "s3://bucket/p?endpoint=http://127.0.0.1:9000&region="; !strings.HasPrefix(cfg.String(), want) {
		t.Errorf("String() = %q, want it to start with %q", cfg.String(), want)
	}
}

func TestNewChecksConfig(t *testing.T) {
	for _, cfg := range []s3store.Config{
		{},
		{Bucket: "Bad_Name"},
		{Bucket: "bucket", Prefix: "a/"},
		{Bucket: "bucket", Prefix: "/a"},
	} {
		if _, err := s3store.New(cfg); err == nil {
			t.Errorf("New(%#v) succeeded", cfg)
		}
	}
}

func ExampleParseURL() {
	cfg, err := s3store.ParseURL("s3://snaps/team-a?endpoint=http://127.0.0.1:9000&region=eu-west-1")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(cfg.Bucket, cfg.Prefix, cfg.Endpoint, cfg.PlainHTTP, cfg.PathStyle)
	fmt.Println(cfg)

	_, err = s3store.ParseURL("s3://AKIA:secret@snaps")
	fmt.Println(err)
	// Output:
	// snaps team-a 127.0.0.1:9000 true true
	// s3://snaps/team-a?endpoint=http://127.0.0.1:9000&region=eu-west-1
	// invalid s3 URL: it must not contain credentials: put them in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY
}
