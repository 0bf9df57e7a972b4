package snapshot

import (
	"cmp"
	"context"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Scheme is how the stores of one URL scheme are opened and named. A
// store package registers its scheme in an init function (Register); a
// program that opens stores by URL imports the packages of the schemes it
// wants, as a program using database/sql imports its drivers.
type Scheme struct {
	// Open opens the store url names.
	Open func(ctx context.Context, url string) (Store, error)
	// Label returns url without credentials, for logs and messages; ""
	// when it cannot tell (Label then falls back to the scheme alone).
	Label func(url string) string
	// Form says how the scheme's URLs look, for messages: "s3://BUCKET/PREFIX".
	Form string
}

// FileScheme is the scheme of local folders: a URL without a scheme is a
// folder's path, opened as a file:// URL is.
const FileScheme = "file"

var schemes struct {
	sync.RWMutex
	m map[string]Scheme
}

// Register makes the stores of scheme (lower case, without "://") open
// through Open. It panics when scheme is registered twice, or when s has
// no Open.
func Register(scheme string, s Scheme) {
	if s.Open == nil {
		panic("snapshot: Register " + scheme + " without Open")
	}
	schemes.Lock()
	defer schemes.Unlock()
	if _, dup := schemes.m[scheme]; dup {
		panic("snapshot: Register called twice for scheme " + scheme)
	}
	if schemes.m == nil {
		schemes.m = make(map[string]Scheme)
	}
	schemes.m[scheme] = s
}

// URLError is a store URL that names no store: a scheme no package
// registered, or a URL its scheme's package refuses. The caller's to fix.
type URLError struct{ Err error }

func (e *URLError) Error() string { return e.Err.Error() }
func (e *URLError) Unwrap() error { return e.Err }

// Open opens the store url names: a folder's path, or a URL whose scheme
// a package registered (file://PATH by filestore, s3://BUCKET/PREFIX by
// s3store). An unknown scheme is a *URLError naming the known ones.
func Open(ctx context.Context, url string) (Store, error) {
	name, ok := schemeOf(url)
	schemes.RLock()
	s, known := schemes.m[name]
	schemes.RUnlock()
	if known {
		return s.Open(ctx, url)
	}
	shown := strconv.Quote(name)
	if !ok {
		shown = "(not shown: it is no scheme, and may hold credentials)"
	}
	return nil, &URLError{fmt.Errorf("store URL scheme %s is not supported: use %s", shown, knownForms())}
}

// Label returns url without what may be a secret, for logs and messages:
// a folder's path as it is, a registered scheme's URL as its package
// shows it, any other URL without its user, query and fragment.
func Label(raw string) string {
	name, ok := schemeOf(raw)
	if !ok {
		return "(a store URL, not shown)"
	}
	schemes.RLock()
	s := schemes.m[name]
	schemes.RUnlock()
	if s.Label != nil {
		if l := s.Label(raw); l != "" {
			return l
		}
	}
	if name == FileScheme {
		return LocalPath(raw)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return name + "://…"
	}
	return (&url.URL{Scheme: name, Host: u.Host, Path: u.Path}).String()
}

// LocalPath returns the folder a plain path or a file:// URL names; ""
// for any other URL.
func LocalPath(url string) string {
	if !strings.Contains(url, "://") {
		return url
	}
	if name, _ := schemeOf(url); name == FileScheme {
		return url[len(FileScheme+"://"):]
	}
	return ""
}

// schemeOf returns the scheme of url in lower case, FileScheme for a
// plain path; ok is false when what precedes "://" cannot be a scheme.
func schemeOf(url string) (scheme string, ok bool) {
	scheme, _, found := strings.Cut(url, "://")
	if !found {
		return FileScheme, true
	}
	scheme = strings.ToLower(scheme)
	if scheme == "" || strings.Trim(scheme, "abcdefghijklmnopqrstuvwxyz0123456789+.-") != "" {
		return "", false
	}
	return scheme, true
}

// knownForms lists how a store may be named: "a folder, file://PATH or
// s3://BUCKET/PREFIX".
func knownForms() string {
	schemes.RLock()
	var forms []string
	for name, s := range schemes.m {
		forms = append(forms, cmp.Or(s.Form, name+"://…"))
	}
	_, folders := schemes.m[FileScheme]
	schemes.RUnlock()
	slices.Sort(forms)
	if folders {
		forms = append([]string{"a folder"}, forms...)
	}
	switch len(forms) {
	case 0:
		return "a registered scheme (none is)"
	case 1:
		return forms[0]
	}
	return strings.Join(forms[:len(forms)-1], ", ") + " or " + forms[len(forms)-1]
}
