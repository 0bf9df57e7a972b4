package s3store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"syscall"

	"github.com/minio/minio-go/v7"

	"github.com/graphsnap/snap/snapshot"
)

// Errors a Store wraps, so that callers can tell the common failures
// apart with errors.Is. snapshot.ErrUnavailable is wrapped when the server
// cannot be reached at all.
var (
	// ErrNoBucket is wrapped when the URL's bucket does not exist.
	ErrNoBucket = errors.New("bucket does not exist")

	// ErrAccessDenied is wrapped when the server refuses the credentials
	// (unknown key, wrong secret, expired token) or what they may do.
	ErrAccessDenied = errors.New("access denied")
)

// classified is an error whose message says what went wrong and what to
// do, while errors.Is and errors.As still see both the kind (one of the
// sentinels above) and the client's original error.
type classified struct {
	kind error
	msg  string
	err  error
}

func (e *classified) Error() string   { return e.msg }
func (e *classified) Unwrap() []error { return []error{e.kind, e.err} }

// accessCodes are the S3 error codes that mean the credentials were
// refused. XAdminUserNotFound is versitygw's answer to an unknown key.
var accessCodes = map[string]bool{
	"AccessDenied":          true,
	"AllAccessDisabled":     true,
	"ExpiredToken":          true,
	"InvalidAccessKeyId":    true,
	"InvalidToken":          true,
	"SignatureDoesNotMatch": true,
	"XAdminUserNotFound":    true,
}

// classify turns a client error into one a caller can branch on, without
// losing the original. It never includes credentials: S3 error messages
// do not quote the secret, and the access key is left out.
func (s *Store) classify(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	if ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		return err
	}
	where := s.cfg.endpointURL()
	resp := minio.ToErrorResponse(err)
	switch {
	case resp.Code == "NoSuchBucket":
		return &classified{ErrNoBucket, fmt.Sprintf("bucket %q does not exist at %s: create it, or fix the bucket in the URL", s.cfg.Bucket, where), err}
	case accessCodes[resp.Code] || (resp.Code == "" && resp.StatusCode == http.StatusForbidden):
		code := resp.Code
		if code == "" {
			code = http.StatusText(resp.StatusCode)
		}
		return &classified{ErrAccessDenied, fmt.Sprintf("%s refused access to bucket %q (%s): check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE)", where, s.cfg.Bucket, code), err}
	case resp.Region != "" && resp.Region != s.cfg.Region &&
		(resp.Code == "AuthorizationHeaderMalformed" || resp.Code == "PermanentRedirect" || resp.Code == "IllegalLocationConstraintException"):
		return fmt.Errorf("bucket %q is in region %s, not %s: add region=%s to the URL: %w", s.cfg.Bucket, resp.Region, s.cfg.Region, resp.Region, err)
	case resp.Code == "SlowDown" || resp.Code == "ServiceUnavailable" ||
		resp.StatusCode == http.StatusBadGateway || resp.StatusCode == http.StatusServiceUnavailable || resp.StatusCode == http.StatusGatewayTimeout:
		return &classified{snapshot.ErrUnavailable, fmt.Sprintf("%s is unavailable (%s), try again later", where, err), err}
	case resp.Code != "":
		return err
	case unreachable(err):
		detail := err
		var uerr *url.Error // "Get "http://…/bucket/key": dial tcp …": keep the part after the URL
		if errors.As(err, &uerr) {
			detail = uerr.Err
		}
		return &classified{snapshot.ErrUnavailable, fmt.Sprintf("cannot reach %s: %v", where, detail), err}
	}
	return err
}

// unreachable reports whether err means the server could not be reached
// or dropped the connection: refused, reset, timed out, unknown host.
func unreachable(err error) bool {
	var opErr *net.OpError
	var dnsErr *net.DNSError
	var netErr net.Error
	return errors.As(err, &opErr) || errors.As(err, &dnsErr) ||
		(errors.As(err, &netErr) && netErr.Timeout()) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)
}

// notFound reports whether err says the object does not exist.
func notFound(err error) bool {
	resp := minio.ToErrorResponse(err)
	return resp.Code == "NoSuchKey" || (resp.Code == "" && resp.StatusCode == http.StatusNotFound)
}
