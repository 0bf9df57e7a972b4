package query_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/graphsnap/snap/query"
)

func TestContextPicksMatches(t *testing.T) {
	e := build(t)
	for _, tc := range []struct {
		task string
		top  []string // the first symbol is one of these
		has  []string // and these are picked
	}{
		{"add retry to the HTTP client's redirect handling", []string{"net/http.(*Client).do"}, []string{"net/http.(*Client).Do"}},
		{"save a user with a database session", []string{"app.models.user.User.save"}, []string{"app.models.user.Admin.save"}},
		{"accept incoming connections on the listener", []string{"net/http.(*Server).Serve", "net/http.Serve"}, nil},
		{"run the RPC server on a connection with a codec", []string{"net/rpc.(*Server).ServeConn", "net/rpc.(*Server).ServeCodec"}, nil},
		{"display names of users", []string{"app.models.user.User.display_name"}, nil},
	} {
		t.Run(tc.task, func(t *testing.T) {
			res := e.Context(tc.task, query.ContextOptions{Tokens: 2000})
			if len(res.Symbols) == 0 {
				t.Fatal("nothing picked")
			}
			got := make([]string, len(res.Symbols))
			for i, s := range res.Symbols {
				got[i] = e.Node(s.Node).QualifiedName
			}
			if !slices.Contains(tc.top, got[0]) {
				t.Errorf("picked %v, want one of %v first", got, tc.top)
			}
			for _, h := range tc.has {
				if !slices.Contains(got, h) {
					t.Errorf("picked %v, want %s among them", got, h)
				}
			}
			if len(res.Symbols[0].Matched) == 0 || res.Symbols[0].Why() == "" {
				t.Errorf("first pick without a reason: %+v", res.Symbols[0])
			}
			for i := 1; i < len(res.Symbols); i++ {
				if res.Symbols[i-1].Score < res.Symbols[i].Score {
					t.Errorf("not sorted by score at %d", i)
				}
			}
		})
	}
}

func TestContextBudget(t *testing.T) {
	e := build(t)
	const task = "HTTP server listen and serve connections with a handler"
	for _, budget := range []int{20, 60, 100, 250, 1000, 5000} {
		res := e.Context(task, query.ContextOptions{Tokens: budget})
		sum := 0
		for _, s := range res.Symbols {
			sum += s.Tokens
			switch s.Shown {
			case query.CodeBody, query.CodeTruncated:
				body, _ := e.Body(s.Node)
				if !strings.HasPrefix(string(body), s.Code) || (s.Shown == query.CodeTruncated) == (len(s.Code) == len(body)) {
					t.Errorf("budget %d: %s: %v code of %d bytes, body %d", budget, e.Node(s.Node).QualifiedName, s.Shown, len(s.Code), len(body))
				}
				if s.Shown == query.CodeTruncated && !res.Truncated {
					t.Errorf("budget %d: a truncated body, but the result does not say so", budget)
				}
			case query.CodeSignature:
				if s.Code != e.Node(s.Node).Signature {
					t.Errorf("budget %d: signature %q", budget, s.Code)
				}
			}
		}
		if res.Tokens != sum || res.Tokens > budget || res.Budget != budget {
			t.Errorf("budget %d: used %d, symbols add up to %d", budget, res.Tokens, sum)
		}
		if budget >= 250 && len(res.Symbols) < 3 {
			t.Errorf("budget %d: only %d symbols", budget, len(res.Symbols))
		}
		if budget == 5000 && res.Truncated {
			t.Errorf("budget %d: truncated", budget)
		}
	}
	// A body cut to fit: a budget too small for the best match's body.
	res := e.Context("accept incoming connections on the listener", query.ContextOptions{Tokens: 70})
	if len(res.Symbols) == 0 || res.Symbols[0].Shown != query.CodeTruncated || !strings.HasSuffix(res.Symbols[0].Code, "\n") || !res.Truncated {
		t.Errorf("budget 70: %+v, want a body cut at a line", res.Symbols)
	}
	if len(e.Context(task, query.ContextOptions{Limit: 2}).Symbols) != 2 {
		t.Error("limit 2 not kept")
	}
}

func TestContextTermsAndFilters(t *testing.T) {
	e := build(t)
	res := e.Context("Please fix the frobnicator in the user sessions", query.ContextOptions{})
	if !reflect.DeepEqual(res.Terms, []string{"frobnicator", "user", "sessions"}) {
		t.Errorf("terms %q", res.Terms)
	}
	if !reflect.DeepEqual(res.Unmatched, []string{"frobnicator"}) {
		t.Errorf("unmatched %q", res.Unmatched)
	}
	if res.Budget != query.DefaultContextTokens {
		t.Errorf("budget %d", res.Budget)
	}
	if got := e.Context("zzyzx qwfp", query.ContextOptions{}); len(got.Symbols) != 0 || len(got.Unmatched) != 2 {
		t.Errorf("no match: %+v", got)
	}
	if got := e.Context("the of and", query.ContextOptions{}); len(got.Symbols) != 0 || len(got.Terms) != 0 {
		t.Errorf("stop words only: %+v", got)
	}
	for _, s := range e.Context("server handler", query.ContextOptions{Language: "python"}).Symbols {
		t.Errorf("language python: %s picked", e.Node(s.Node).QualifiedName)
	}
	for _, s := range e.Context("server", query.ContextOptions{File: "net/rpc/server.go"}).Symbols {
		if n := e.Node(s.Node); n.File != "src/net/rpc/server.go" {
			t.Errorf("file filter: %s picked", n.QualifiedName)
		}
	}
	// Deterministic.
	a := e.Context("user session save", query.ContextOptions{})
	b := e.Context("user session save", query.ContextOptions{})
	if !reflect.DeepEqual(a, b) {
		t.Error("two runs differ")
	}
	// Graph expansion names its reason.
	var via bool
	for _, s := range e.Context("redirect", query.ContextOptions{}).Symbols {
		via = via || strings.HasPrefix(s.Via, "called by net/http.(*Client).do") || strings.HasPrefix(s.Via, "calls net/http.(*Client).do")
	}
	if !via {
		t.Error(`"redirect": no symbol picked for being next to (*Client).do`)
	}
}

func TestContextInside(t *testing.T) {
	e := build(t)
	res := e.Context("session add commit flush get", query.ContextOptions{Tokens: 3000})
	var session bool
	for _, s := range res.Symbols {
		n := e.Node(s.Node)
		if n.QualifiedName == "app.db.Session" && s.Shown == query.CodeBody {
			session = true
		}
		if session && strings.HasPrefix(n.QualifiedName, "app.db.Session.") && (s.Shown != query.CodeInside || s.Code != "") {
			t.Errorf("%s shown again (%v) after its class", n.QualifiedName, s.Shown)
		}
	}
}
