package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"strconv"

	"github.com/minio/minio-go/v7/pkg/signer"

	"strings"
	"testing"

	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot/s3store/s3test"
)

// setEnv sets environment variables of the form NAME=VALUE for the test.
func setEnv(t *testing.T, env []string) {
	t.Helper()
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
}

func TestS3IndexPushPullDoctor(t *testing.T) {
	srv := s3test.Start(t)
	setEnv(t, srv.Env())
	dir, commits := history(t, 2)
	url := srv.URL("cli")

	// index straight into the bucket: HEAD only moves forward there.
	if code, _, stderr := run(t, dir, "index", "-q", "--store", url); code != 0 {
		t.Fatal(stderr)
	}
	gitRun(t, dir, "checkout", "-q", commits[0])
	code, _, stderr := run(t, dir, "index", "-q", "--store", url, "--branch", "main")
	if code != 0 || !strings.Contains(stderr, "HEAD is newer") {
		t.Fatalf("index of an older commit into a shared store: exit %d, %s", code, stderr)
	}
	code, stdout, stderr := run(t, dir, "ls", "--store", url, "--json")
	if ls := jsonOf[schemas.Listing](t, "listing", stdout); code != 0 || len(ls.Branches) != 1 || ls.Branches[0].Head != commits[1] || len(ls.Branches[0].Snapshots) != 2 {
		t.Fatalf("ls: %s %s", stdout, stderr)
	}
	other := t.TempDir()
	gitRun(t, other, "init", "-q", "-b", "main")
	gitRun(t, other, "remote", "add", "origin", "https://github.com/example/shop")
	code, stdout, stderr = run(t, other, "pull", "--store", url, "--json")
	if tr := jsonOf[schemas.Transfer](t, "transfer", stdout); code != 0 || tr.Commit != commits[1] || tr.Tables != 5 {
		t.Fatalf("pull: %s %s", stdout, stderr)
	}
	code, stdout, stderr = run(t, dir, "doctor", "--store", url, "--json")
	if ck := jsonOf[schemas.Checkup](t, "checkup", stdout); code != 0 || !ck.OK || len(ck.Checks) != 5 {
		t.Fatalf("doctor: %s %s", stdout, stderr)
	}
	for _, out := range []string{stdout, stderr} {
		if strings.Contains(out, srv.SecretKey) || strings.Contains(out, srv.AccessKey) {
			t.Errorf("credentials in the output: %s", out)
		}
	}
}

// TestS3Errors holds each store failure to one clear line, the right exit
// code, and no credentials in any output.
func TestS3Errors(t *testing.T) {
	srv := s3test.Start(t)
	dir := t.TempDir()
	wrongSecret := "wrong" + srv.SecretKey
	for _, c := range []struct {
		name string
		env  []string
		url  string
		code int
		want string
	}{
		{"wrong secret", []string{"AWS_ACCESS_KEY_ID=" + srv.AccessKey, "AWS_SECRET_ACCESS_KEY=" + wrongSecret}, srv.URL("x"), 2, "AWS_SECRET_ACCESS_KEY"},
		{"unknown key", []string{"AWS_ACCESS_KEY_ID=AKIANOSUCHKEY", "AWS_SECRET_ACCESS_KEY=" + wrongSecret}, srv.URL("x"), 2, "AWS_ACCESS_KEY_ID"},
		{"missing bucket", srv.Env(), strings.Replace(srv.URL("x"), srv.Bucket, "no-such-bucket", 1), 2, `bucket "no-such-bucket" does not exist`},
		{"unreachable", srv.Env(), "s3://bkt/x?endpoint=http://127.0.0.1:1", 1, "cannot reach"},
	} {
		t.Run(c.name, func(t *testing.T) {
			setEnv(t, append([]string{"AWS_SESSION_TOKEN=", "AWS_REGION=" + s3test.Region}, c.env...))
			for _, cmd := range []string{"ls", "doctor", "pull"} {
				code, stdout, stderr := run(t, dir, cmd, "--store", c.url)
				if cmd == "doctor" {
					// doctor reports the failed check and exits 1.
					if code != 1 || !strings.Contains(stdout, "FAIL list") || !strings.Contains(stdout, c.want) {
						t.Errorf("doctor: exit %d, %s %s", code, stdout, stderr)
					}
				} else {
					if code != c.code || !strings.Contains(stderr, c.want) {
						t.Errorf("%s: exit %d (want %d), stderr %q does not say %q", cmd, code, c.code, stderr, c.want)
					}
					if n := strings.Count(strings.TrimSpace(stderr), "\n"); n > 0 {
						t.Errorf("%s: %d lines on stderr, want one: %s", cmd, n+1, stderr)
					}
				}
				if strings.Contains(stdout+stderr, wrongSecret) || strings.Contains(stdout+stderr, srv.SecretKey) {
					t.Errorf("%s: a secret appears in the output", cmd)
				}
			}
		})
	}
}

// carelessGateway is an S3 gateway in front of srv that drops the
// conditions of conditional writes (If-Match, If-None-Match) and signs
// what it forwards anew, as S3-compatible servers without conditional
// writes behave: every write goes through.
func carelessGateway(t *testing.T, srv *s3test.Server) string {
	t.Helper()
	backend, err := url.Parse(srv.Endpoint)
	if err != nil {
		t.Fatal(err)
	}
	proxy := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(backend)
			out := r.Out
			out.Host = backend.Host
			out.Header.Del("If-Match")
			out.Header.Del("If-None-Match")
			out.Header.Del("Authorization")
			if out.Header.Get("Content-Encoding") == "aws-chunked" {
				// Chunk signatures chain from the request's: decode the
				// body and send it whole, signed by its digest.
				body, err := decodeChunked(out.Body)
				if err != nil {
					t.Errorf("gateway: %v", err)
				}
				sum := sha256.Sum256(body)
				out.Header.Del("Content-Encoding")
				out.Header.Del("X-Amz-Decoded-Content-Length")
				out.Header.Set("X-Amz-Content-Sha256", hex.EncodeToString(sum[:]))
				out.Body, out.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
				out.Header.Set("Content-Length", strconv.Itoa(len(body)))
			}
			*out = *signer.SignV4(*out, srv.AccessKey, srv.SecretKey, "", s3test.Region)
		},
	}
	gw := httptest.NewServer(proxy)
	t.Cleanup(gw.Close)
	return gw.URL
}

// decodeChunked reads an aws-chunked body: "<hex size>;chunk-signature=…"
// lines, each followed by that many bytes and a CRLF, up to a 0-size chunk.
func decodeChunked(r io.Reader) ([]byte, error) {
	br := bufio.NewReader(r)
	var out []byte
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return nil, err
		}
		sizeHex, _, _ := strings.Cut(strings.TrimSpace(line), ";")
		n, err := strconv.ParseInt(sizeHex, 16, 64)
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return out, nil
		}
		chunk := make([]byte, n+2)
		if _, err := io.ReadFull(br, chunk); err != nil {
			return nil, err
		}
		out = append(out, chunk[:n]...)
	}
}

func TestDoctorFindsCarelessStore(t *testing.T) {
	srv := s3test.Start(t)
	setEnv(t, srv.Env())
	dir := t.TempDir()
	if code, stdout, stderr := run(t, dir, "doctor", "--store", srv.URL("good")); code != 0 {
		t.Fatalf("doctor of versitygw: exit %d\n%s%s", code, stdout, stderr)
	}
	gw := carelessGateway(t, srv)
	careless := "s3://" + srv.Bucket + "/careless?endpoint=" + gw + "&region=" + s3test.Region
	code, stdout, stderr := run(t, dir, "doctor", "--store", careless, "--json")
	ck := jsonOf[schemas.Checkup](t, "checkup", stdout)
	if code != 1 || ck.OK {
		t.Fatalf("doctor of a store that ignores conditional writes: exit %d\n%s%s", code, stdout, stderr)
	}
	failed := map[string]string{}
	for _, c := range ck.Checks {
		if !c.OK {
			failed[c.Name] = c.Detail
		}
	}
	if _, ok := failed["list"]; ok {
		t.Fatalf("the gateway does not work at all: %v", failed)
	}
	if !strings.Contains(failed["create-if-absent"], "ignores conditional writes") {
		t.Errorf("doctor did not name the failure: %v", failed)
	}
}

// TestS3BranchNames files snapshots under branch and repository names that
// could collide or climb out of the prefix if they were not escaped.
func TestS3BranchNames(t *testing.T) {
	srv := s3test.Start(t)
	setEnv(t, srv.Env())
	dir, _ := history(t, 1)
	url := srv.URL("names")
	type name struct{ repo, branch string }
	names := []name{
		{"example/shop", "feature/x"}, {"example/shop", "feature%2Fx"}, {"example/shop", "with space"},
		{"example/shop", "ünïcödé/分支"}, {"example/shop", ".."}, {"example/shop", "../../../escape"},
		{"example/shop", "a/../b"}, {"../evil", "main"}, {"example%2Fshop", "feature/x"},
	}
	for _, n := range names {
		if code, _, stderr := run(t, dir, "index", "-q", "--store", url, "--repo", n.repo, "--branch", n.branch); code != 0 {
			t.Fatalf("index %q %q: %s", n.repo, n.branch, stderr)
		}
	}
	code, stdout, stderr := run(t, dir, "ls", "--store", url, "--json")
	if code != 0 {
		t.Fatal(stderr)
	}
	ls := jsonOf[schemas.Listing](t, "listing", stdout)
	var got []name
	for _, b := range ls.Branches {
		got = append(got, name{b.Repo, b.Branch})
		if b.Head == "" || len(b.Snapshots) != 1 || !b.Snapshots[0].Complete {
			t.Errorf("%q %q: %+v", b.Repo, b.Branch, b)
		}
	}
	if len(got) != len(names) {
		t.Fatalf("ls lists %d branches, want %d: %v", len(got), len(names), got)
	}
	for _, n := range names {
		if !slices.Contains(got, n) {
			t.Errorf("%q %q is missing from ls: %v", n.repo, n.branch, got)
		}
	}
	// Every object stays under the store's prefix in the bucket.
	infos, err := srv.Store(t, "").List(t.Context(), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range infos {
		if !strings.HasPrefix(in.Key, "names/repo=") {
			t.Errorf("object %q escaped the store's prefix", in.Key)
		}
	}
	// And each branch answers from its own snapshot.
	for _, n := range names {
		code, stdout, stderr := run(t, dir, "query", "status", "--store", url, "--repo", n.repo, "--branch", n.branch, "--json")
		var st struct{ Repo, Branch string }
		json.Unmarshal([]byte(stdout), &st)
		if code != 0 || st.Repo != n.repo || st.Branch != n.branch {
			t.Errorf("query %q %q: %s %s", n.repo, n.branch, stdout, stderr)
		}
	}
}
