package query_test

import (
	"errors"
	"testing"

	"github.com/graphsnap/snap/query"
)

func TestParseClaim(t *testing.T) {
	for _, tc := range []struct {
		text string
		want query.Claim
	}{
		{"A calls B", query.Claim{query.ClaimCalls, "A", "B"}},
		{"`net/http.(*Client).Do` invokes `net/http.(*Client).do`.", query.Claim{query.ClaimCalls, "net/http.(*Client).Do", "net/http.(*Client).do"}},
		{"The function Foo CALLS the method Bar", query.Claim{query.ClaimCalls, "Foo", "Bar"}},
		{"Bar is called by Foo", query.Claim{query.ClaimCalls, "Foo", "Bar"}},
		{"A reaches B", query.Claim{query.ClaimReaches, "A", "B"}},
		{"A calls B indirectly", query.Claim{query.ClaimReaches, "A", "B"}},
		{"A transitively calls B", query.Claim{query.ClaimReaches, "A", "B"}},
		{"main.go imports \"net/http\"", query.Claim{query.ClaimImports, "main.go", "net/http"}},
		{"Admin extends User", query.Claim{query.ClaimExtends, "Admin", "User"}},
		{"Admin inherits from User", query.Claim{query.ClaimExtends, "Admin", "User"}},
		{"class Admin is a subclass of class User", query.Claim{query.ClaimExtends, "Admin", "User"}},
		{"HandlerFunc implements the Handler interface", query.Claim{query.ClaimImplements, "HandlerFunc", "Handler"}},
		{"changing Session.add affects create_user", query.Claim{query.ClaimAffects, "Session.add", "create_user"}},
		{"Session.add affects create_user", query.Claim{query.ClaimAffects, "Session.add", "create_user"}},
		{"create_user depends on Session.add", query.Claim{query.ClaimAffects, "Session.add", "create_user"}},
		{"app/db.py contains Session", query.Claim{query.ClaimContains, "app/db.py", "Session"}},
		{"Session is defined in app/db.py", query.Claim{query.ClaimContains, "app/db.py", "Session"}},
		{"  save   is declared in   User  ", query.Claim{query.ClaimContains, "User", "save"}},
	} {
		got, err := query.ParseClaim(tc.text)
		if err != nil || got != tc.want {
			t.Errorf("ParseClaim(%q) = %v, %v; want %v", tc.text, got, err, tc.want)
		}
	}
	for _, text := range []string{"", "A likes B", "calls B", "A calls", "the retry loop calls B", "A calls B and C"} {
		if c, err := query.ParseClaim(text); !errors.Is(err, query.ErrClaim) {
			t.Errorf("ParseClaim(%q) = %v, %v; want ErrClaim", text, c, err)
		}
	}
	for k := query.ClaimCalls; k <= query.ClaimContains; k++ {
		if got, ok := query.ParseClaimKind(k.String()); !ok || got != k {
			t.Errorf("ParseClaimKind(%q) = %v, %v", k.String(), got, ok)
		}
	}
}

func TestVerify(t *testing.T) {
	e := build(t)
	find := func(name string) ([]int32, error) { return e.Find(name, ""), nil }
	for _, tc := range []struct {
		claim       string
		want        query.Outcome
		edges, path int // evidence sizes
		missed      bool
	}{
		{"net/http.(*Client).do calls net/http.(*Client).send", query.Corroborated, 1, 0, false},
		{"net/http.ListenAndServe instantiates net/http.Server", query.Corroborated, 1, 0, false},
		{"net/http.Client calls net/http.(*Client).send", query.Corroborated, 1, 0, false}, // through its method do
		{"net/http.ListenAndServe calls net/http.(*Server).Serve", query.Contradicted, 0, 0, false},
		{"net/http.ListenAndServe calls net/http.(*Server).Serve indirectly", query.Corroborated, 0, 2, false},
		{"main.main reaches net/http.(*conn).serve", query.Corroborated, 0, 4, false},
		{"net/rpc.NewServer reaches net/http.Get", query.Contradicted, 0, 0, false},
		{"net/http.(*Client).send calls net/http.(*Client).send", query.Inconclusive, 0, 0, true}, // the ambiguous send( call
		{"ListenAndServe calls Serve", query.Inconclusive, 0, 0, false},                           // ambiguous names
		{"Frobnicate calls Serve", query.Inconclusive, 0, 0, false},                               // unknown name
		{"Admin extends User", query.Corroborated, 1, 0, false},
		{"Admin is a subclass of Session", query.Contradicted, 0, 0, false},
		{"net/http.HandlerFunc implements net/http.Handler", query.Corroborated, 1, 0, false},
		{"net/http.Server implements net/http.Handler", query.Contradicted, 0, 0, false},
		{"changing app.db.Session.flush affects create_user", query.Corroborated, 0, 3, false},
		{"create_user depends on app.db.Session.add", query.Corroborated, 0, 2, false},
		{"changing create_user affects app.db.Session.flush", query.Contradicted, 0, 0, false},
		{"app.db.Session contains app.db.Session.flush", query.Corroborated, 1, 0, false},
		{"app.models.user contains app.models.user.User.save", query.Corroborated, 0, 2, false},
		{"app/db.py contains app.db.Session.flush", query.Corroborated, 0, 0, false},
		{"app.models.user.User.save is defined in app/db.py", query.Contradicted, 0, 0, false},
		{"cmd/app/main.go imports net/http", query.Corroborated, 1, 0, false},
		{"app/views.py imports app.db", query.Contradicted, 0, 0, false},
	} {
		t.Run(tc.claim, func(t *testing.T) {
			c, err := query.ParseClaim(tc.claim)
			if err != nil {
				t.Fatal(err)
			}
			v := e.Verify(c, find)
			if v.Outcome != tc.want || len(v.Edges) != tc.edges || len(v.Path) != tc.path || (len(v.Missed) > 0) != tc.missed {
				t.Errorf("%v: %d edges, path of %d, missed %v (%s); want %v, %d, %d, %v",
					v.Outcome, len(v.Edges), len(v.Path), v.Missed, v.Reason, tc.want, tc.edges, tc.path, tc.missed)
			}
			if v.Reason == "" {
				t.Error("no reason")
			}
			if v.Claim != c {
				t.Errorf("claim %v", v.Claim)
			}
		})
	}
	v := e.Verify(query.Claim{Kind: query.ClaimCalls, Subject: "a", Object: "b"}, func(string) ([]int32, error) {
		return nil, errors.New("index not ready")
	})
	if v.Outcome != query.Inconclusive || v.Reason != "a: index not ready" {
		t.Errorf("resolver error: %v %q", v.Outcome, v.Reason)
	}
}

func TestVerifyMissedEdges(t *testing.T) {
	e := tiny(t, nil, "a calls b", "b calls ?x.c", "c calls d", "e calls f")
	find := func(name string) ([]int32, error) { return e.Find(name, ""), nil }
	for _, tc := range []struct {
		claim query.Claim
		want  query.Outcome
	}{
		{query.Claim{query.ClaimReaches, "a", "c"}, query.Inconclusive}, // b's call to x.c may be c
		{query.Claim{query.ClaimReaches, "a", "d"}, query.Contradicted}, // nothing unresolved names d
		{query.Claim{query.ClaimCalls, "b", "c"}, query.Inconclusive},   // likewise, directly
		{query.Claim{query.ClaimAffects, "c", "a"}, query.Inconclusive}, // a depends on b, which may call c
		{query.Claim{query.ClaimAffects, "f", "a"}, query.Contradicted}, // a's dependencies never name f
		{query.Claim{query.ClaimAffects, "d", "c"}, query.Corroborated}, // c calls d
	} {
		v := e.Verify(tc.claim, find)
		if v.Outcome != tc.want {
			t.Errorf("%v: %v (%s), want %v", tc.claim, v.Outcome, v.Reason, tc.want)
		}
	}
}
