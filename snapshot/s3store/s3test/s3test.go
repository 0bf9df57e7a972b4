// Package s3test runs a real S3 server for tests: versitygw serving a
// temporary folder through its posix backend, with random credentials
// and one bucket. Tests that need it call Start; it skips them when
// versitygw is not installed, or fails them when SNAP_REQUIRE_S3 is set,
// so that CI cannot pass by skipping.
package s3test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/graphsnap/snap/snapshot/s3store"
)

// Install is the command that installs the versitygw this package expects.
const Install = "go install github.com/versity/versitygw/cmd/versitygw@v1.8.0"

// Region is the region the server claims.
const Region = "us-east-1"

// Server is a running versitygw. Its fields are fixed for its lifetime,
// across Stop and Restart.
type Server struct {
	Endpoint  string // http://127.0.0.1:PORT
	AccessKey string
	SecretKey string
	Bucket    string
	// Dir is the posix root: the bucket is the folder Dir/Bucket, and an
	// object is a file below it (see Path).
	Dir string

	t    testing.TB
	args []string
	mu   sync.Mutex
	cmd  *exec.Cmd
	exit chan struct{} // closed when cmd has exited
	log  *syncBuffer
}

// Start starts a server on a free loopback port, serving a new temporary
// folder, creates its bucket and stops it when the test ends.
//
// It finds versitygw through $VERSITYGW, then $PATH, then
// $(go env GOPATH)/bin. When there is none, it skips the test, or fails it
// if $SNAP_REQUIRE_S3 is set.
func Start(t testing.TB) *Server {
	t.Helper()
	bin, err := findBinary()
	if err != nil {
		msg := fmt.Sprintf("s3test: %v; install it with: %s", err, Install)
		if os.Getenv("SNAP_REQUIRE_S3") != "" {
			t.Fatal(msg + " (SNAP_REQUIRE_S3 is set, so this does not skip)")
		}
		t.Skip(msg)
	}
	tmp := t.TempDir()
	s := &Server{
		AccessKey: "AK" + randomHex(9),
		SecretKey: randomHex(20),
		Bucket:    "snap-test",
		Dir:       filepath.Join(tmp, "root"),
		t:         t,
		log:       new(syncBuffer),
	}
	if err := os.Mkdir(s.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		s.Stop()
		if t.Failed() {
			t.Logf("s3test: versitygw output:\n%s", s.log.String())
		}
	})

	// A port found free may be taken before versitygw binds it: try a few.
	meta := "" // sidecar metadata folder, when the file system lacks xattrs
	for try := 0; ; try++ {
		addr, err := freePort()
		if err != nil {
			t.Fatalf("s3test: %v", err)
		}
		s.Endpoint = "http://" + addr
		s.args = serverArgs(addr, s.AccessKey, s.SecretKey, s.Dir, meta)
		err = s.start(bin)
		if err == nil {
			break
		}
		if meta == "" && strings.Contains(s.log.String(), "xattr") {
			// The temporary folder's file system has no extended
			// attributes: keep the metadata in a sidecar folder instead.
			meta = filepath.Join(tmp, "meta")
			if err := os.Mkdir(meta, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if try == 2 {
			t.Fatalf("s3test: %v\n%s", err, s.log.String())
		}
	}

	client, err := minio.New(strings.TrimPrefix(s.Endpoint, "http://"), &minio.Options{
		Creds:        credentials.NewStaticV4(s.AccessKey, s.SecretKey, ""),
		Region:       Region,
		BucketLookup: minio.BucketLookupPath,
	})
	if err != nil {
		t.Fatalf("s3test: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := client.MakeBucket(ctx, s.Bucket, minio.MakeBucketOptions{Region: Region}); err != nil {
		t.Fatalf("s3test: create bucket %s: %v", s.Bucket, err)
	}
	return s
}

// serverArgs is versitygw's command line. --quiet drops the per-request
// log; the posix backend keeps object metadata (ETags included) in
// extended attributes, or in the sidecar folder meta if it is not "".
func serverArgs(addr, access, secret, dir, meta string) []string {
	args := []string{
		"--port", addr, "--access", access, "--secret", secret,
		"--region", Region, "--quiet", "posix",
	}
	if meta != "" {
		args = append(args, "--sidecar", meta)
	}
	return append(args, dir)
}

// findBinary looks for versitygw where Start says.
func findBinary() (string, error) {
	if p := os.Getenv("VERSITYGW"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("$VERSITYGW: %w", err)
		}
		return p, nil
	}
	if p, err := exec.LookPath("versitygw"); err == nil {
		return p, nil
	}
	gopath := os.Getenv("GOPATH")
	if gopath == "" {
		out, err := exec.Command("go", "env", "GOPATH").Output()
		if err == nil {
			gopath = strings.TrimSpace(string(out))
		}
	}
	for dir := range strings.SplitSeq(gopath, string(os.PathListSeparator)) {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, "bin", "versitygw")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", errors.New("versitygw not found in $VERSITYGW, $PATH or $(go env GOPATH)/bin")
}

// freePort returns a loopback address with a port nothing listens on.
func freePort() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().String(), nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return strings.ToUpper(hex.EncodeToString(b))
}

// start runs versitygw with s.args and waits until it answers HTTP.
func (s *Server) start(bin string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	fmt.Fprintf(s.log, "$ versitygw %s\n", strings.Join(s.redactedArgs(), " "))
	cmd := exec.Command(bin, s.args...)
	cmd.Env = childEnv()
	cmd.Stdout = s.log
	cmd.Stderr = s.log
	setDeathSignal(cmd)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start versitygw: %w", err)
	}
	exit := make(chan struct{})
	go func() {
		cmd.Wait()
		close(exit)
	}()
	s.cmd, s.exit = cmd, exit

	client := &http.Client{Timeout: time.Second}
	deadline := time.Now().Add(30 * time.Second)
	for {
		select {
		case <-exit:
			s.cmd = nil
			return fmt.Errorf("versitygw exited at start: %v", cmd.ProcessState)
		default:
		}
		resp, err := client.Get(s.Endpoint + "/")
		if err == nil {
			resp.Body.Close()
			return nil // any answer, even 403, means it is serving
		}
		if time.Now().After(deadline) {
			s.stopLocked()
			return fmt.Errorf("versitygw did not answer on %s within 30s: %v", s.Endpoint, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// redactedArgs are the arguments with the secret hidden, for the log.
func (s *Server) redactedArgs() []string {
	args := append([]string(nil), s.args...)
	for i := range args {
		if i > 0 && args[i-1] == "--secret" {
			args[i] = "REDACTED"
		}
	}
	return args
}

// childEnv is the environment without the variables versitygw reads as
// settings, so that the caller's environment cannot change the server.
func childEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "VGW_") && !strings.HasPrefix(kv, "ROOT_ACCESS_KEY") && !strings.HasPrefix(kv, "ROOT_SECRET") {
			env = append(env, kv)
		}
	}
	return env
}

// Stop stops the server, if it runs: SIGTERM, then SIGKILL after 5s.
// Requests then fail with a refused connection. Stopping twice is fine.
func (s *Server) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopLocked()
}

func (s *Server) stopLocked() {
	if s.cmd == nil {
		return
	}
	if err := s.cmd.Process.Signal(os.Interrupt); err != nil {
		s.cmd.Process.Kill()
	}
	select {
	case <-s.exit:
	case <-time.After(5 * time.Second):
		s.cmd.Process.Kill()
		<-s.exit
	}
	s.cmd = nil
}

// Restart stops the server, if it runs, and starts it again on the same
// port, folder and credentials. If it cannot, it fails the test that
// called Start (with Errorf, so it may be called from a subtest) and the
// server stays stopped.
func (s *Server) Restart() {
	s.Stop()
	bin, err := findBinary()
	if err == nil {
		err = s.start(bin)
	}
	if err != nil {
		s.t.Errorf("s3test: restart: %v\n%s", err, s.log.String())
	}
}

// URL returns the store URL of prefix ("" for the whole bucket) on this
// server, in the form s3store.ParseURL reads. It has no credentials:
// see Env.
func (s *Server) URL(prefix string) string {
	u := "s3://" + s.Bucket
	if prefix != "" {
		u += "/" + (&url.URL{Path: strings.Trim(prefix, "/")}).EscapedPath()
	}
	return u + "?endpoint=" + s.Endpoint + "&region=" + Region
}

// Env returns the environment variables that give a process the server's
// credentials, to append to os.Environ() for a command under test.
func (s *Server) Env() []string {
	return []string{
		"AWS_ACCESS_KEY_ID=" + s.AccessKey,
		"AWS_SECRET_ACCESS_KEY=" + s.SecretKey,
		"AWS_SESSION_TOKEN=",
		"AWS_REGION=" + Region,
	}
}

// Config returns the s3store configuration of prefix, with credentials.
func (s *Server) Config(prefix string) s3store.Config {
	cfg, err := s3store.ParseURL(s.URL(prefix))
	if err != nil {
		panic("s3test: " + err.Error()) // a bad prefix is the test's bug
	}
	cfg.AccessKey, cfg.SecretKey = s.AccessKey, s.SecretKey
	return cfg
}

// Store returns a store on prefix ("" for the whole bucket).
func (s *Server) Store(t testing.TB, prefix string) *s3store.Store {
	t.Helper()
	st, err := s3store.New(s.Config(prefix))
	if err != nil {
		t.Fatalf("s3test: %v", err)
	}
	return st
}

// Path returns the file that holds the object named key, the full S3
// object name: a store's prefix, a slash and the store key, as in
// Path("myprefix/repo=x/HEAD.json"). Tests may read or damage it.
func (s *Server) Path(key string) string {
	return filepath.Join(s.Dir, s.Bucket, filepath.FromSlash(key))
}

// syncBuffer collects the server's output from two pipes.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
