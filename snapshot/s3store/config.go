package s3store

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/minio/minio-go/v7/pkg/s3utils"

	"github.com/graphsnap/snap/snapshot"
)

// AWSEndpoint is the endpoint used when a URL names none.
const AWSEndpoint = "s3.amazonaws.com"

// URLForm is the shape ParseURL accepts, for error messages and help text.
const URLForm = "s3://BUCKET[/PREFIX][?endpoint=URL&region=REGION&path_style=true|false]"

// Config says where a Store keeps its objects and how to reach them.
// ParseURL makes one from an s3:// URL; tests may build one directly.
//
// The String, GoString and LogValue forms of a Config, and its JSON
// encoding, never include credentials.
type Config struct {
	// Bucket is the bucket's name.
	Bucket string
	// Prefix is "" or a key-like path ("team/snaps") under which every
	// object of the store is kept, as PREFIX/key.
	Prefix string
	// Endpoint is the server's host[:port]; "" means AWSEndpoint.
	Endpoint string
	// PlainHTTP speaks http:// to Endpoint instead of https://.
	PlainHTTP bool
	// Region is the bucket's region. "" lets the client ask the server
	// (on AWS, one extra request per bucket).
	Region string
	// PathStyle addresses the bucket as https://endpoint/bucket rather
	// than https://bucket.endpoint, as most servers other than AWS need.
	PathStyle bool

	// AccessKey, SecretKey and SessionToken, when AccessKey is set, are
	// used instead of the default credential chain (see New).
	AccessKey    string `json:"-"`
	SecretKey    string `json:"-"`
	SessionToken string `json:"-"`
}

// ParseURL parses an s3:// URL of the form
//
//	s3://BUCKET[/PREFIX][?endpoint=URL&region=REGION&path_style=true|false]
//
// endpoint is http://host:port or https://host[:port]; a bare host[:port]
// means https. Without it the store is on AWS (AWSEndpoint). region
// defaults to $AWS_REGION, then $AWS_DEFAULT_REGION, then us-east-1.
// path_style defaults to true when an endpoint is given and to false on
// AWS. Credentials never go in the URL: see New.
func ParseURL(raw string) (Config, error) {
	secrets := userinfo(raw)
	bad := func(format string, args ...any) (Config, error) {
		msg := fmt.Sprintf(format, args...)
		for _, s := range secrets {
			msg = strings.ReplaceAll(msg, s, "…")
		}
		return Config{}, errors.New("invalid s3 URL: " + msg)
	}
	if !strings.HasPrefix(strings.ToLower(raw), "s3://") {
		return bad("want %s", URLForm)
	}
	u, err := url.Parse(raw)
	if err != nil {
		if strings.Contains(raw, "@") {
			// The parse error may quote a secret the URL is too broken
			// to find: say nothing about it.
			return bad("it must not contain credentials: put them in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
		}
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err
		}
		return bad("%v; want %s", err, URLForm)
	}
	if u.User != nil {
		return bad("it must not contain credentials: put them in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
	}
	if u.Fragment != "" || strings.Contains(raw, "#") {
		return bad("unexpected #fragment; want %s", URLForm)
	}
	if u.Host == "" {
		return bad("no bucket; want %s", URLForm)
	}
	if u.Port() != "" || strings.HasSuffix(u.Host, ":") {
		return bad("bucket %q contains a colon (to name a server, add ?endpoint=http://%s)", u.Host, u.Host)
	}
	cfg := Config{
		Bucket:   u.Host,
		Prefix:   strings.TrimSuffix(strings.TrimPrefix(u.Path, "/"), "/"),
		Endpoint: AWSEndpoint,
	}

	query, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return bad("query: %v", err)
	}
	var unknown []string
	for name, values := range query {
		switch name {
		case "endpoint", "region", "path_style":
			if len(values) > 1 {
				return bad("%s is given %d times", name, len(values))
			}
		default:
			unknown = append(unknown, shown(name))
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return bad("unknown parameter %s (known: endpoint, region, path_style)", strings.Join(unknown, ", "))
	}

	if values, ok := query["endpoint"]; ok {
		host, plain, err := parseEndpoint(values[0])
		if err != nil {
			return bad("%v", err)
		}
		cfg.Endpoint, cfg.PlainHTTP, cfg.PathStyle = host, plain, true
	}
	cfg.Region = query.Get("region")
	if _, ok := query["region"]; ok && cfg.Region == "" {
		return bad("region is empty")
	}
	if cfg.Region == "" {
		cfg.Region = defaultRegion()
	}
	if values, ok := query["path_style"]; ok {
		b, err := strconv.ParseBool(values[0])
		if err != nil {
			return bad("path_style is %s, want true or false", shown(values[0]))
		}
		cfg.PathStyle = b
	}
	if err := cfg.check(); err != nil {
		return bad("%v", err)
	}
	return cfg, nil
}

// userinfo returns what in raw may be credentials, as its errors must not
// quote it: the user and password of every authority
// ("scheme://USER:PASSWORD@host"), in raw as written and unescaped (an
// endpoint parameter's), when at least four bytes long.
func userinfo(raw string) []string {
	var out []string
	forms := []string{raw}
	if u, err := url.QueryUnescape(raw); err == nil && u != raw {
		forms = append(forms, u)
	}
	for _, s := range forms {
		for rest := s; ; {
			_, after, ok := strings.Cut(rest, "://")
			if !ok {
				break
			}
			rest = after
			auth := rest
			if j := strings.IndexAny(auth, "/?#&"); j >= 0 {
				auth = auth[:j]
			}
			at := strings.LastIndex(auth, "@")
			if at < 0 {
				continue
			}
			for _, c := range append(strings.Split(auth[:at], ":"), auth[:at]) {
				if len(c) >= 4 {
					out = append(out, c)
				}
			}
		}
	}
	// Longest first, so that a secret is cut whole before its parts.
	sort.Slice(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}

// shown quotes a parameter's name or value for an error message when it
// is a plain word. Anything else may be credentials typed in the wrong
// place (s3://bucket?http://KEY:SECRET@host), and is described instead.
func shown(s string) string {
	if len(s) <= 40 && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") == "" {
		return strconv.Quote(s)
	}
	return fmt.Sprintf("(%d bytes, not shown)", len(s))
}

// parseEndpoint splits an endpoint parameter into host[:port] and whether
// it speaks plain HTTP.
func parseEndpoint(s string) (host string, plain bool, err error) {
	if s == "" {
		return "", false, errors.New("endpoint is empty")
	}
	if strings.Contains(s, "@") {
		// Never part of scheme://host[:port]; quoting it may show a secret.
		return "", false, errors.New("endpoint must not contain credentials: put them in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
	}
	if !strings.Contains(s, "://") {
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		if strings.Contains(s, "@") {
			return "", false, errors.New("endpoint must not contain credentials: put them in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
		}
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err
		}
		return "", false, fmt.Errorf("endpoint: %v", err)
	}
	switch {
	case u.User != nil:
		return "", false, errors.New("endpoint must not contain credentials: put them in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
	case u.Scheme != "http" && u.Scheme != "https":
		return "", false, fmt.Errorf("endpoint scheme is %q, want http or https", u.Scheme)
	case u.Host == "":
		return "", false, fmt.Errorf("endpoint %q names no host", s)
	case strings.Trim(u.Path, "/") != "" || u.RawQuery != "" || u.Fragment != "":
		return "", false, fmt.Errorf("endpoint %q has a path; want only scheme://host[:port]", s)
	case net.ParseIP(u.Hostname()) == nil && strings.Trim(u.Hostname(), "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_") != "":
		return "", false, fmt.Errorf("endpoint %q: host %q is neither a name nor an IP address", s, u.Hostname())
	}
	return u.Host, u.Scheme == "http", nil
}

// defaultRegion is the region used when a URL names none.
func defaultRegion() string {
	for _, env := range []string{"AWS_REGION", "AWS_DEFAULT_REGION"} {
		if r := os.Getenv(env); r != "" {
			return r
		}
	}
	return "us-east-1"
}

// check validates the bucket and prefix.
func (c Config) check() error {
	if c.Bucket == "" {
		return errors.New("no bucket")
	}
	// The strict rules are AWS's for every bucket made since 2018; they
	// are also what virtual-host addressing needs.
	if err := s3utils.CheckValidBucketNameStrict(c.Bucket); err != nil {
		return fmt.Errorf("bucket name %q: %s (use 3-63 lowercase letters, digits, dots and hyphens)",
			c.Bucket, strings.ToLower(strings.TrimSuffix(err.Error(), ".")))
	}
	if c.Prefix != "" {
		if err := snapshot.ValidateKey(c.Prefix); err != nil {
			what := strconv.Quote(c.Prefix)
			if strings.Contains(c.Prefix, "@") { // as credentials in the wrong place do
				what = fmt.Sprintf("(%d bytes, not shown)", len(c.Prefix))
			}
			return fmt.Errorf("prefix %s: no empty, \".\" or \"..\" segments, backslashes or NUL bytes allowed", what)
		}
	}
	return nil
}

// endpoint returns Endpoint or its default.
func (c Config) endpoint() string {
	if c.Endpoint == "" {
		return AWSEndpoint
	}
	return c.Endpoint
}

// endpointURL returns the server's base URL, for messages.
func (c Config) endpointURL() string {
	if c.PlainHTTP {
		return "http://" + c.endpoint()
	}
	return "https://" + c.endpoint()
}

// String returns the store's URL in the form ParseURL reads, without
// credentials.
func (c Config) String() string {
	s := "s3://" + c.Bucket
	if c.Prefix != "" {
		s += "/" + (&url.URL{Path: c.Prefix}).EscapedPath()
	}
	var q []string // built by hand to keep the endpoint readable
	if c.endpoint() != AWSEndpoint || c.PlainHTTP {
		q = append(q, "endpoint="+c.endpointURL())
	}
	if c.Region != "" {
		q = append(q, "region="+url.QueryEscape(c.Region))
	}
	if awsDefault := c.endpoint() == AWSEndpoint && !c.PlainHTTP; c.PathStyle != !awsDefault {
		q = append(q, "path_style="+strconv.FormatBool(c.PathStyle))
	}
	if len(q) > 0 {
		s += "?" + strings.Join(q, "&")
	}
	return s
}

// GoString makes %#v print the String form, without credentials.
func (c Config) GoString() string { return "s3store.Config(" + strconv.Quote(c.String()) + ")" }

// LogValue makes log/slog print the String form, without credentials.
func (c Config) LogValue() slog.Value { return slog.StringValue(c.String()) }
