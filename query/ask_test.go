package query_test

import (
	"testing"

	"github.com/graphsnap/snap/query"
)

func TestParseQuestion(t *testing.T) {
	q := func(i query.Intent, s, o string) query.Question {
		return query.Question{Intent: i, Subject: s, Object: o}
	}
	for _, tc := range []struct {
		text string
		want query.Question
	}{
		// callers
		{"who calls Serve?", q(query.IntentCallers, "Serve", "")},
		{"What calls `net/http.(*Server).Serve`", q(query.IntentCallers, "net/http.(*Server).Serve", "")},
		{"where is the function load_user called from?", q(query.IntentCallers, "load_user", "")},
		{"Where is Session.add used", q(query.IntentCallers, "Session.add", "")},
		{"can you tell me who calls the Serve method?", q(query.IntentCallers, "Serve", "")},
		{"show me the callers of Client.Do", q(query.IntentCallers, "Client.Do", "")},
		{"which functions call save()", q(query.IntentCallers, "save", "")},
		// callees: not callers
		{"what does Serve call?", q(query.IntentCallees, "Serve", "")},
		{"What is called by main.main", q(query.IntentCallees, "main.main", "")},
		{"callees of do", q(query.IntentCallees, "do", "")},
		// impact
		{"what breaks if I change Session.add?", q(query.IntentImpact, "Session.add", "")},
		{"What would break if Handler changed", q(query.IntentImpact, "Handler", "")},
		{"what depends on app.db", q(query.IntentImpact, "app.db", "")},
		{"impact of changing the User class", q(query.IntentImpact, "User", "")},
		{"blast radius of Client.send", q(query.IntentImpact, "Client.send", "")},
		// path
		{"how does main reach Serve?", q(query.IntentPath, "main", "Serve")},
		{"How does main.main get to net/http.(*conn).serve", q(query.IntentPath, "main.main", "net/http.(*conn).serve")},
		{"what is the call path from create_user to Session.commit?", q(query.IntentPath, "create_user", "Session.commit")},
		{"is Session.flush reachable from create_user", q(query.IntentPath, "create_user", "Session.flush")},
		{"does Get call do", q(query.IntentPath, "Get", "do")},
		// definition
		{"where is ListenAndServe defined?", q(query.IntentDefinition, "ListenAndServe", "")},
		{"What is HandlerFunc", q(query.IntentDefinition, "HandlerFunc", "")},
		{"what's the Server struct?", q(query.IntentDefinition, "Server", "")},
		{"find `load_user`", q(query.IntentDefinition, "load_user", "")},
		{"show me net/http.Client", q(query.IntentDefinition, "net/http.Client", "")},
		{"User.save", q(query.IntentDefinition, "User.save", "")},
		{"definition of Admin", q(query.IntentDefinition, "Admin", "")},
		// implementations
		{"what implements Handler?", q(query.IntentImplementations, "Handler", "")},
		{"who implements the Handler interface", q(query.IntentImplementations, "Handler", "")},
		{"list the subclasses of User", q(query.IntentImplementations, "User", "")},
		{"what inherits from User", q(query.IntentImplementations, "User", "")},
		// references: not callers
		{"who references DefaultClient", q(query.IntentReferences, "DefaultClient", "")},
		{"what uses the DefaultClient variable", q(query.IntentReferences, "DefaultClient", "")},
		{"find references to index", q(query.IntentReferences, "index", "")},
		// dependencies and dependents: not callees, not impact
		{"what does cmd/app/main.go import?", q(query.IntentDependencies, "cmd/app/main.go", "")},
		{"what does app/views.py depend on", q(query.IntentDependencies, "app/views.py", "")},
		{"dependencies of the app.views module", q(query.IntentDependencies, "app.views", "")},
		{"who imports net/http?", q(query.IntentDependents, "net/http", "")},
		{"which files import app.db", q(query.IntentDependents, "app.db", "")},
		// outline: not definition
		{"what is in app/db.py?", q(query.IntentOutline, "app/db.py", "")},
		{"What's in the file src/net/http/client.go", q(query.IntentOutline, "src/net/http/client.go", "")},
		{"outline of app/models/user.py", q(query.IntentOutline, "app/models/user.py", "")},
		{"what is defined in app/views.py", q(query.IntentOutline, "app/views.py", "")},
		// context: questions that are not about one name
		{"add retry to the HTTP client's redirect handling", q(query.IntentContext, "add retry to the HTTP client's redirect handling", "")},
		{"what is the best way to add caching?", q(query.IntentContext, "what is the best way to add caching?", "")},
		{"who calls the retry logic in the client", q(query.IntentContext, "who calls the retry logic in the client", "")},
		{"how does authentication work", q(query.IntentContext, "how does authentication work", "")},
		{"what does it call", q(query.IntentContext, "what does it call", "")},
		{"where is this used?", q(query.IntentContext, "where is this used?", "")},
		{"", q(query.IntentContext, "", "")},
	} {
		if got := query.ParseQuestion(tc.text); got != tc.want {
			t.Errorf("ParseQuestion(%q) = %+v (%v), want %+v (%v)", tc.text, got, got.Intent, tc.want, tc.want.Intent)
		}
	}
	for i := query.IntentContext; i <= query.IntentOutline; i++ {
		if i.String() == "" || i.String()[0] == 'I' {
			t.Errorf("Intent(%d).String() = %q", i, i.String())
		}
	}
}
