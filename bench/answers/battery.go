package main

// A question of a battery: the snap tool and arguments that ask it, and
// the peer's tool and arguments where the peer has one for it.
type question struct {
	label    string
	tool     string
	args     map[string]any
	peerTool string
	peerArgs map[string]any
}

// A battery is the questions typical of an agent at work on one
// repository, pinned to the commit whose names they use.
type battery struct {
	repo      string // where it comes from, at which commit
	questions []question
}

type args = map[string]any

// batteries are keyed by language. Each asks the same ten kinds of
// question: callers, callees, impact at depth 3, context for a task,
// search, a file's outline, references of a type, a path, a symbol's
// details, and a neighbourhood.
var batteries = map[string]battery{
	"go": {repo: "github.com/spf13/cobra v1.8.1", questions: []question{
		{"callers of ExecuteC", "snap_calls", args{"name": "ExecuteC"}, "codegraph_callers", args{"symbol": "ExecuteC"}},
		{"callees of Execute", "snap_calls", args{"name": "github.com/spf13/cobra.(*Command).Execute", "direction": "out"}, "codegraph_callees", args{"symbol": "Execute"}},
		{"impact of AddCommand, depth 3", "snap_impact", args{"name": "AddCommand", "depth": 3}, "codegraph_impact", args{"symbol": "AddCommand", "depth": 3}},
		{"context: how are flags parsed", "snap_context", args{"task": "how are flags parsed"}, "codegraph_explore", args{"query": "how are flags parsed"}},
		{"search Flag", "snap_search", args{"query": "Flag"}, "codegraph_search", args{"query": "Flag"}},
		{"outline of command.go", "snap_symbols_overview", args{"file": "command.go"}, "", nil},
		{"references of Command", "snap_find_references", args{"name": "github.com/spf13/cobra.Command"}, "", nil},
		{"path Execute → ExecuteC", "snap_path", args{"from": "github.com/spf13/cobra.(*Command).Execute", "to": "ExecuteC"}, "", nil},
		{"node Command", "snap_symbol", args{"name": "github.com/spf13/cobra.Command"}, "codegraph_node", args{"symbol": "Command"}},
		{"explore ExecuteC", "snap_explore", args{"name": "ExecuteC"}, "codegraph_explore", args{"query": "ExecuteC"}},
	}},
	"python": {repo: "github.com/psf/requests v2.34.2", questions: []question{
		{"callers of Session.request", "snap_calls", args{"name": "requests.sessions.Session.request"}, "codegraph_callers", args{"symbol": "request", "file": "src/requests/sessions.py"}},
		{"callees of Session.send", "snap_calls", args{"name": "requests.sessions.Session.send", "direction": "out"}, "codegraph_callees", args{"symbol": "send", "file": "src/requests/sessions.py"}},
		{"impact of PreparedRequest.prepare, depth 3", "snap_impact", args{"name": "requests.models.PreparedRequest.prepare", "depth": 3}, "codegraph_impact", args{"symbol": "prepare", "file": "src/requests/models.py", "depth": 3}},
		{"context: how are redirects followed", "snap_context", args{"task": "how are redirects followed and when is the Authorization header stripped"}, "codegraph_explore", args{"query": "how are redirects followed and when is the Authorization header stripped"}},
		{"search cookie", "snap_search", args{"query": "cookie"}, "codegraph_search", args{"query": "cookie"}},
		{"outline of sessions.py", "snap_symbols_overview", args{"file": "src/requests/sessions.py"}, "", nil},
		{"references of Response", "snap_find_references", args{"name": "requests.models.Response"}, "", nil},
		{"path get → HTTPAdapter.send", "snap_path", args{"from": "requests.api.get", "to": "requests.adapters.HTTPAdapter.send"}, "", nil},
		{"node Session", "snap_symbol", args{"name": "requests.sessions.Session"}, "codegraph_node", args{"symbol": "Session"}},
		{"explore Session.send", "snap_explore", args{"name": "requests.sessions.Session.send"}, "codegraph_explore", args{"query": "Session.send"}},
	}},
	"typescript": {repo: "github.com/colinhacks/zod v4.4.3", questions: []question{
		{"callers of _safeParse", "snap_calls", args{"name": "packages/zod/src/v4/core/parse._safeParse"}, "codegraph_callers", args{"symbol": "_safeParse", "file": "packages/zod/src/v4/core/parse.ts"}},
		{"callees of _parse", "snap_calls", args{"name": "packages/zod/src/v4/core/parse._parse", "direction": "out"}, "codegraph_callees", args{"symbol": "_parse", "file": "packages/zod/src/v4/core/parse.ts"}},
		{"impact of defineLazy, depth 3", "snap_impact", args{"name": "packages/zod/src/v4/core/util.defineLazy", "depth": 3}, "codegraph_impact", args{"symbol": "defineLazy", "file": "packages/zod/src/v4/core/util.ts", "depth": 3}},
		{"context: how are string formats checked", "snap_context", args{"task": "how are string formats like email and uuid checked"}, "codegraph_explore", args{"query": "how are string formats like email and uuid checked"}},
		{"search Check", "snap_search", args{"query": "Check"}, "codegraph_search", args{"query": "Check"}},
		{"outline of v4/core/schemas.ts", "snap_symbols_overview", args{"file": "packages/zod/src/v4/core/schemas.ts"}, "", nil},
		{"references of ZodError", "snap_find_references", args{"name": "packages/zod/src/v3/ZodError.ZodError"}, "", nil},
		{"path _parse → defineLazy", "snap_path", args{"from": "packages/zod/src/v4/core/parse._parse", "to": "packages/zod/src/v4/core/util.defineLazy"}, "", nil},
		{"node ZodType", "snap_symbol", args{"name": "packages/zod/src/v3/types.ZodType"}, "codegraph_node", args{"symbol": "ZodType", "file": "packages/zod/src/v3/types.ts"}},
		{"explore _parse", "snap_explore", args{"name": "packages/zod/src/v4/core/parse._parse"}, "codegraph_explore", args{"query": "_parse parse.ts"}},
	}},
	"java": {repo: "github.com/google/gson gson-parent-2.14.0", questions: []question{
		{"callers of JsonReader.peek", "snap_calls", args{"name": "com.google.gson.stream.JsonReader.peek"}, "codegraph_callers", args{"symbol": "peek", "file": "gson/src/main/java/com/google/gson/stream/JsonReader.java"}},
		{"callees of JsonReader.nextString", "snap_calls", args{"name": "com.google.gson.stream.JsonReader.nextString", "direction": "out"}, "codegraph_callees", args{"symbol": "nextString", "file": "gson/src/main/java/com/google/gson/stream/JsonReader.java"}},
		{"impact of JsonReader.peek, depth 3", "snap_impact", args{"name": "com.google.gson.stream.JsonReader.peek", "depth": 3}, "codegraph_impact", args{"symbol": "peek", "file": "gson/src/main/java/com/google/gson/stream/JsonReader.java", "depth": 3}},
		{"context: how are dates serialized", "snap_context", args{"task": "how are dates serialized and which date format is used"}, "codegraph_explore", args{"query": "how are dates serialized and which date format is used"}},
		{"search Adapter", "snap_search", args{"query": "Adapter"}, "codegraph_search", args{"query": "Adapter"}},
		{"outline of Gson.java", "snap_symbols_overview", args{"file": "gson/src/main/java/com/google/gson/Gson.java"}, "", nil},
		{"references of JsonElement", "snap_find_references", args{"name": "com.google.gson.JsonElement"}, "", nil},
		{"path newJsonReader → setStrictness", "snap_path", args{"from": "com.google.gson.Gson.newJsonReader", "to": "com.google.gson.stream.JsonReader.setStrictness"}, "", nil},
		{"node Gson", "snap_symbol", args{"name": "com.google.gson.Gson"}, "codegraph_node", args{"symbol": "Gson"}},
		{"explore JsonReader.peek", "snap_explore", args{"name": "com.google.gson.stream.JsonReader.peek"}, "codegraph_explore", args{"query": "JsonReader peek"}},
	}},
}
