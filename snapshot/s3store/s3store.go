// Package s3store is a snapshot.Store in an S3 bucket (AWS, MinIO,
// versitygw, or any server speaking the S3 API), addressed by a URL such
// as s3://bucket/prefix?endpoint=http://127.0.0.1:9000.
//
// Each key is the object PREFIX/key. ETags are the server's, without
// quotes: usually the MD5 of the content for an object sent in one
// request, and "MD5-OF-PART-MD5S-NPARTS" for a multipart one. Conditional
// Puts send If-None-Match: * and If-Match: "etag", so the compare-and-swap
// is the server's own; a server that ignores those headers breaks it
// (storetest checks it). AWS honours both since late 2024, versitygw
// v1.8.0 does, under a per-object lock.
//
// Objects of more than PartSize bytes go up in parts of PartSize, except
// conditional Puts, which always go as one request (S3 checks conditions
// when a multipart upload completes, and minio-go does not pass them on).
package s3store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/graphsnap/snap/snapshot"
)

// PartSize is the part size of multipart uploads. A Put of a larger
// object goes up in parts; an upload of unknown size holds one part in
// memory at a time. At S3's limit of 10000 parts, objects can reach
// 160 GiB.
const PartSize = 16 << 20

// Bounds on retrying an unreachable server.
//
// minio-go retries a request on any transport error (connection refused
// or reset, timeout, unknown host), on HTTP 408, 429, 499, 500, 502, 503,
// 504 and 520, and on S3 codes such as SlowDown, InternalError and
// RequestTimeout. After each attempt it sleeps a random time of up to
// 200ms·2^attempt, capped at 1s. It rewinds the body with Seek, so it
// retries a PUT only when the body can seek (sized below sees to that for
// objects up to PartSize). Its defaults, 10 attempts and a 30s dial
// timeout, would make a dead server hang a command for minutes; with these
// values a refused connection fails within ~3.5s and a black-holed one
// within ~55s. Parts of a multipart upload are retried one by one.
const (
	maxAttempts = 5
	dialTimeout = 10 * time.Second
)

// Store is a snapshot.Store in an S3 bucket. It is safe for concurrent
// use.
type Store struct {
	cfg    Config
	client *minio.Client
	// once sends conditional Puts without retries: a retry of a Put whose
	// response was lost would fail its own condition and report a
	// conflict that never was. Without one, the caller sees
	// snapshot.ErrUnavailable, meaning the outcome is unknown.
	once *minio.Client
}

var _ snapshot.Store = (*Store)(nil)

// New returns a store for cfg. It sends no request; Ping checks that the
// bucket is there and the credentials work.
//
// Unless cfg carries an access key, credentials come from the first of:
// AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN; the
// shared credentials file (~/.aws/credentials, profile $AWS_PROFILE or
// "default"); MINIO_ROOT_USER and MINIO_ROOT_PASSWORD; an EC2, ECS or EKS
// role. With none of them, requests go unsigned.
func New(cfg Config) (*Store, error) {
	if err := cfg.check(); err != nil {
		return nil, fmt.Errorf("s3 store %s: %w", cfg, err)
	}
	var creds *credentials.Credentials
	if cfg.AccessKey != "" {
		creds = credentials.NewStaticV4(cfg.AccessKey, cfg.SecretKey, cfg.SessionToken)
	} else {
		creds = credentials.NewChainCredentials([]credentials.Provider{
			&credentials.EnvAWS{},
			&credentials.FileAWSCredentials{},
			&credentials.EnvMinio{},
			&credentials.IAM{},
		})
	}
	tr, err := minio.DefaultTransport(!cfg.PlainHTTP)
	if err != nil {
		return nil, fmt.Errorf("s3 store %s: %w", cfg, err)
	}
	tr.DialContext = (&net.Dialer{Timeout: dialTimeout, KeepAlive: 30 * time.Second}).DialContext

	lookup := minio.BucketLookupAuto // virtual-host style on AWS when the name allows it
	switch {
	case cfg.PathStyle:
		lookup = minio.BucketLookupPath
	case cfg.endpoint() != AWSEndpoint:
		lookup = minio.BucketLookupDNS
	}
	newClient := func(attempts int) (*minio.Client, error) {
		return minio.New(cfg.endpoint(), &minio.Options{
			Creds:        creds,
			Secure:       !cfg.PlainHTTP,
			Transport:    tr,
			Region:       cfg.Region,
			BucketLookup: lookup,
			MaxRetries:   attempts,
		})
	}
	s := &Store{cfg: cfg}
	if s.client, err = newClient(maxAttempts); err != nil {
		return nil, fmt.Errorf("s3 store %s: %w", cfg, err)
	}
	if s.once, err = newClient(1); err != nil {
		return nil, fmt.Errorf("s3 store %s: %w", cfg, err)
	}
	return s, nil
}

// Config returns the store's configuration.
func (s *Store) Config() Config { return s.cfg }

// String returns the store's URL, without credentials.
func (s *Store) String() string { return s.cfg.String() }

// object validates key and returns its object name.
func (s *Store) object(key string) (string, error) {
	if err := snapshot.ValidateKey(key); err != nil {
		return "", err
	}
	return s.prefix() + key, nil
}

// prefix is "" or the configured prefix with a trailing slash.
func (s *Store) prefix() string {
	if s.cfg.Prefix == "" {
		return ""
	}
	return s.cfg.Prefix + "/"
}

// Ping checks that the bucket exists and that the credentials may list
// it, with one request for at most one key under the prefix. Unlike a
// HEAD of the bucket, a listing gets an error body, so a refused key is
// not mistaken for a missing bucket.
func (s *Store) Ping(ctx context.Context) error {
	opts := minio.ListObjectsOptions{Prefix: s.prefix(), Recursive: true, MaxKeys: 1}
	for obj := range s.client.ListObjectsIter(ctx, s.cfg.Bucket, opts) {
		if obj.Err != nil {
			return fmt.Errorf("ping: %w", s.classify(ctx, obj.Err))
		}
		break
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("ping: %w", err)
	}
	return nil
}

// Get implements snapshot.Store with one GET request; the reader streams
// its body.
func (s *Store) Get(ctx context.Context, key string) (io.ReadCloser, snapshot.Info, error) {
	name, err := s.object(key)
	if err != nil {
		return nil, snapshot.Info{}, fmt.Errorf("get: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, snapshot.Info{}, fmt.Errorf("get %s: %w", key, err)
	}
	rc, obj, _, err := minio.Core{Client: s.client}.GetObject(ctx, s.cfg.Bucket, name, minio.GetObjectOptions{})
	if err != nil {
		if notFound(err) {
			return nil, snapshot.Info{}, fmt.Errorf("get %s: %w", key, fs.ErrNotExist)
		}
		return nil, snapshot.Info{}, fmt.Errorf("get %s: %w", key, s.classify(ctx, err))
	}
	return rc, snapshot.Info{Key: key, Size: obj.Size, ETag: obj.ETag, ModTime: obj.LastModified}, nil
}

// Put implements snapshot.Store. The server publishes an object only once
// all of it has arrived, so a failed Put leaves the old one in place. The
// Info it returns has no ModTime unless the server sent one (S3 does not
// for a single-request PUT).
//
// A server may refuse a conditional Put before reading the body and
// reset the connection (versitygw does); if the body is too big to be
// sent by then (megabytes), the client sees the reset, and Put fails with
// snapshot.ErrUnavailable rather than ErrPrecondition.
func (s *Store) Put(ctx context.Context, key string, r io.Reader, opts snapshot.PutOptions) (snapshot.Info, error) {
	name, err := s.object(key)
	if err != nil {
		return snapshot.Info{}, fmt.Errorf("put: %w", err)
	}
	if err := opts.Check(); err != nil {
		return snapshot.Info{}, fmt.Errorf("put %s: %w", key, err)
	}
	if err := ctx.Err(); err != nil {
		return snapshot.Info{}, fmt.Errorf("put %s: %w", key, err)
	}
	body, size, err := sized(r)
	if err != nil {
		return snapshot.Info{}, fmt.Errorf("put %s: read: %w", key, err)
	}
	client := s.client
	po := minio.PutObjectOptions{PartSize: PartSize}
	ifMatch := strings.Trim(opts.IfMatch, `"`)
	if opts.IfNoneMatch || ifMatch != "" {
		if size < 0 {
			return snapshot.Info{}, fmt.Errorf("put %s: a conditional put of more than %d MiB needs a reader of known size (bytes.Reader, strings.Reader, os.File)", key, PartSize>>20)
		}
		client = s.once
		po.DisableMultipart = true
		if opts.IfNoneMatch {
			po.SetMatchETagExcept("*")
		} else {
			po.SetMatchETag(ifMatch)
		}
	}
	up, err := client.PutObject(ctx, s.cfg.Bucket, name, body, size, po)
	if err != nil {
		resp := minio.ToErrorResponse(err)
		switch {
		case resp.StatusCode == http.StatusPreconditionFailed || resp.Code == "PreconditionFailed" || resp.Code == "ConditionalRequestConflict":
			if opts.IfNoneMatch {
				return snapshot.Info{}, fmt.Errorf("put %s: object exists: %w", key, snapshot.ErrPrecondition)
			}
			return snapshot.Info{}, fmt.Errorf("put %s: etag is not %s: %w", key, ifMatch, snapshot.ErrPrecondition)
		case ifMatch != "" && notFound(err):
			return snapshot.Info{}, fmt.Errorf("put %s: no object to match: %w", key, snapshot.ErrPrecondition)
		}
		return snapshot.Info{}, fmt.Errorf("put %s: %w", key, s.classify(ctx, err))
	}
	return snapshot.Info{Key: key, Size: up.Size, ETag: up.ETag, ModTime: up.LastModified}, nil
}

// sized returns a body for r and its length, or -1 when the body is more
// than PartSize bytes of unknown length. A reader that can seek and read
// at offsets (bytes.Reader, strings.Reader, os.File) is sent from where
// it stands, and minio-go can rewind it to retry; any other reader is
// read up to PartSize+1 bytes first, so that small objects go in one
// request and can be retried too.
func sized(r io.Reader) (io.Reader, int64, error) {
	if ra, ok := r.(interface {
		io.ReaderAt
		io.Seeker
	}); ok {
		cur, err := ra.Seek(0, io.SeekCurrent)
		if err == nil {
			var end int64
			if end, err = ra.Seek(0, io.SeekEnd); err == nil {
				if _, err = ra.Seek(cur, io.SeekStart); err != nil {
					return nil, 0, err
				}
				return io.NewSectionReader(ra, cur, end-cur), end - cur, nil
			}
		}
		// Not seekable after all (a pipe): read it as a stream.
	}
	var buf bytes.Buffer
	n, err := io.CopyN(&buf, r, PartSize+1)
	switch {
	case errors.Is(err, io.EOF):
		return bytes.NewReader(buf.Bytes()), n, nil
	case err != nil:
		return nil, 0, err
	}
	return io.MultiReader(bytes.NewReader(buf.Bytes()), r), -1, nil
}

// List implements snapshot.Store. Listed objects carry their ETags.
// Objects under the prefix whose names are not valid keys (such as the
// "dir/" markers some tools make) are left out.
func (s *Store) List(ctx context.Context, prefix string) ([]snapshot.Info, error) {
	p, err := snapshot.ListPrefix(prefix)
	if err != nil {
		return nil, err
	}
	op := strings.TrimSpace("list " + prefix)
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	var infos []snapshot.Info
	opts := minio.ListObjectsOptions{Prefix: s.prefix() + p, Recursive: true}
	for obj := range s.client.ListObjectsIter(ctx, s.cfg.Bucket, opts) {
		if obj.Err != nil {
			return nil, fmt.Errorf("%s: %w", op, s.classify(ctx, obj.Err))
		}
		key := strings.TrimPrefix(obj.Key, s.prefix())
		if snapshot.ValidateKey(key) != nil {
			continue
		}
		infos = append(infos, snapshot.Info{Key: key, Size: obj.Size, ETag: obj.ETag, ModTime: obj.LastModified})
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	// S3 lists in byte order already; not every server does.
	slices.SortFunc(infos, func(a, b snapshot.Info) int { return strings.Compare(a.Key, b.Key) })
	return infos, nil
}

// Delete implements snapshot.Store.
func (s *Store) Delete(ctx context.Context, key string) error {
	name, err := s.object(key)
	if err != nil {
		return fmt.Errorf("delete: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("delete %s: %w", key, err)
	}
	err = s.client.RemoveObject(ctx, s.cfg.Bucket, name, minio.RemoveObjectOptions{})
	if err != nil && !notFound(err) {
		return fmt.Errorf("delete %s: %w", key, s.classify(ctx, err))
	}
	return nil
}
