package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/graphsnap/snap/mcp"
	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/query/querytest"
	"github.com/graphsnap/snap/schemas/schematest"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

func holder(t testing.TB) *query.Holder {
	t.Helper()
	e, err := query.Build(querytest.Fixture())
	if err != nil {
		t.Fatal(err)
	}
	h := new(query.Holder)
	h.Store(e)
	return h
}

func registry(t testing.TB, h *query.Holder) *mcp.Registry {
	t.Helper()
	r, err := mcp.NewRegistry(h)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// idOf returns the decimal id of the symbol with that qualified name.
func idOf(t testing.TB, h *query.Holder, qname string) string {
	t.Helper()
	e := h.Load()
	rows := e.Find(qname, "")
	if len(rows) != 1 {
		t.Fatalf("%s: %d symbols", qname, len(rows))
	}
	return strconv.FormatUint(e.Node(rows[0]).ID, 10)
}

// calls are real questions with their answers kept under testdata/.
var calls = []struct{ golden, tool, args string }{
	{"rank", "snap_rank", `{"limit":3}`},
	{"rank_seeded", "snap_rank", `{"names":["Client.Do"],"kinds":["method","function"],"limit":3}`},
	{"explore", "snap_explore", `{"name":"Client.Do"}`},
	{"map", "snap_map", `{"names":["main.main","Client.Do","Client.send"]}`},
	{"context", "snap_context", `{"task":"send an HTTP request with the client","tokens":300}`},
	{"context_markdown", "snap_context", `{"task":"save a user","tokens":200,"format":"markdown"}`},
	{"ask_callers", "snap_ask", `{"question":"who calls Client.Do?"}`},
	{"ask_path", "snap_ask", `{"question":"how does main.main reach Client.send"}`},
	{"ask_words", "snap_ask", `{"question":"where are users saved"}`},
	{"verify_calls", "snap_verify", `{"claim":"Client.do calls Client.send"}`},
	{"verify_reaches", "snap_verify", `{"claim":"Client.Do reaches Client.send"}`},
	{"verify_contradicted", "snap_verify", `{"claim":"create_user calls main.main"}`},
	{"symbols_overview_kinds", "snap_symbols_overview", `{"file":"net/http/client.go","kinds":["method"],"limit":2}`},
	{"resolve_import_go", "snap_resolve_import", `{"import":"\"net/http\""}`},
	{"resolve_import_python", "snap_resolve_import", `{"import":"app.models.user"}`},
	{"resolve_import_relative", "snap_resolve_import", `{"import":"../views","from":"app/models/user.py"}`},
	{"resolve_import_external", "snap_resolve_import", `{"import":"log"}`},
	{"status", "snap_status", `{}`},
	{"stats", "snap_status", `{"detail":"stats"}`},
	{"manifest", "snap_status", `{"detail":"manifest"}`},
	{"find_references", "snap_find_references", `{"name":"net/http.Handler"}`},
	{"find_references_calls", "snap_find_references", `{"name":"Server.Serve","kinds":["calls"]}`},
	{"list_dir_root", "snap_list_dir", `{}`},
	{"dependencies_file", "snap_dependencies", `{"name":"app/views.py"}`},
	{"dependencies_package", "snap_dependencies", `{"name":"net/http"}`},
	{"dependents", "snap_dependents", `{"name":"app.models.user"}`},
	{"list_dir", "snap_list_dir", `{"dir":"src/net/http"}`},
	{"list_dir_missing", "snap_list_dir", `{"dir":"nope"}`},
	{"list_dir_outside", "snap_list_dir", `{"dir":"../etc"}`},
	{"find_file_glob", "snap_find_file", `{"pattern":"**/*.py"}`},
	{"find_file_text", "snap_find_file", `{"pattern":"server"}`},
	{"call_details", "snap_call_details", `{"from":"net/http.Serve","to":"Server.Serve"}`},
	{"call_details_none", "snap_call_details", `{"from":"create_user","to":"main.main"}`},
	{"stats_parse_errors", "snap_status", `{"detail":"stats","file_status":"parse_error","limit":1}`},
	{"search_serve", "snap_search", `{"query":"Serve","limit":4}`},
	{"search_python_words", "snap_search", `{"query":"user","language":"python","kinds":["function"]}`},
	{"search_misspelled", "snap_search", `{"query":"ListenAndSrve"}`},
	{"search_none", "snap_search", `{"query":"Sever","kinds":["function"]}`},
	{"find_symbol_body", "snap_symbol", `{"name":"Client.Do","include_body":true}`},
	{"find_symbol_file", "snap_symbol", `{"name":"Server","file":"rpc/server.go"}`},
	{"find_symbol_ambiguous", "snap_symbol", `{"name":"ServeHTTP"}`},
	{"find_symbol_not_found", "snap_symbol", `{"name":"Sever"}`},
	{"node", "snap_symbol", `{"id":"ID(net/http.Server)"}`},
	{"symbols_overview_go", "snap_symbols_overview", `{"file":"net/http/client.go"}`},
	{"symbols_overview_python", "snap_symbols_overview", `{"file":"app/models/user.py"}`},
	{"callers", "snap_calls", `{"name":"Server.Serve"}`},
	{"callers_of_class", "snap_calls", `{"name":"User","file":"models/user.py"}`},
	{"callers_none", "snap_calls", `{"name":"main.main"}`},
	{"callees_unresolved", "snap_calls", `{"name":"main.main","direction":"out"}`},
	{"callees_python", "snap_calls", `{"name":"Admin.save","direction":"out"}`},
	{"impact_cycle", "snap_impact", `{"name":"Client.Do"}`},
	{"impact_interface", "snap_impact", `{"name":"net/http.Handler","depth":2}`},
	{"impact_out", "snap_impact", `{"name":"create_user","direction":"out","kinds":["calls","instantiates"]}`},
	{"path", "snap_path", `{"from":"main.main","to":"Handler.ServeHTTP"}`},
	{"path_both", "snap_path", `{"from":"HandlerFunc","to":"serverHandler","direction":"both"}`},
	{"path_none", "snap_path", `{"from":"HandlerFunc","to":"serverHandler"}`},
	{"read_file_range", "snap_read_file", `{"file":"app/views.py","start_line":4,"end_line":6}`},
	{"read_file_outside", "snap_read_file", `{"file":"../../etc/passwd"}`},
}

func TestGolden(t *testing.T) {
	h := holder(t)
	r := registry(t, h)
	for _, c := range calls {
		t.Run(c.golden, func(t *testing.T) {
			args := c.args
			if i := strings.Index(args, `"ID(`); i >= 0 {
				j := strings.Index(args[i:], `)"`) + i
				args = args[:i] + `"` + idOf(t, h, args[i+4:j]) + `"` + args[j+2:]
			}
			out, isError := r.CallJSON(context.Background(), c.tool, json.RawMessage(args))
			if tool, _ := r.Tool(c.tool); !isError {
				schematest.Validate(t, tool.OutputSchema, "", out)
			}
			var m map[string]any
			if err := json.Unmarshal(out, &m); err != nil {
				t.Fatalf("answer is not a JSON object: %v\n%s", err, out)
			}
			if m["commit"] != querytest.Commit {
				t.Errorf("answer names commit %v", m["commit"])
			}
			var pretty bytes.Buffer
			json.Indent(&pretty, out, "", "  ")
			pretty.WriteByte('\n')
			file := filepath.Join("testdata", c.golden+".json")
			if *update {
				if err := os.WriteFile(file, pretty.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run go test -update to write it)", err)
			}
			if !bytes.Equal(pretty.Bytes(), want) {
				t.Errorf("%s %s:\n got %s\nwant %s", c.tool, args, pretty.Bytes(), want)
			}
		})
	}
}

// errorOf calls a tool expecting an error answer and returns it.
func errorOf(t *testing.T, r *mcp.Registry, tool, args string) (code, message string, details map[string]any) {
	t.Helper()
	out, isError := r.CallJSON(context.Background(), tool, json.RawMessage(args))
	var a struct {
		Error struct {
			Code    string         `json:"code"`
			Message string         `json:"message"`
			Details map[string]any `json:"details"`
		} `json:"error"`
	}
	if err := json.Unmarshal(out, &a); err != nil || !isError || a.Error.Code == "" {
		t.Fatalf("%s %s: want an error, got isError=%v %s", tool, args, isError, out)
	}
	return a.Error.Code, a.Error.Message, a.Error.Details
}

func TestErrors(t *testing.T) {
	h := holder(t)
	r := registry(t, h)
	for _, tc := range []struct {
		tool, args, code, mention string
	}{
		{"snap_node", `{}`, mcp.CodeInvalidArgument, "id"},
		{"snap_node", `{"id":null}`, mcp.CodeInvalidArgument, "id"},
		{"snap_node", `{"id":"12x"}`, mcp.CodeInvalidArgument, "id"},
		{"snap_node", `{"id":-3}`, mcp.CodeInvalidArgument, "id"},
		{"snap_node", `{"id":1.5}`, mcp.CodeInvalidArgument, "id"},
		{"snap_node", `{"id":"99999999999999999999"}`, mcp.CodeInvalidArgument, "id"},
		{"snap_node", `{"id":"42"}`, mcp.CodeSymbolNotFound, "42"},
		{"snap_node", `[1,2]`, mcp.CodeInvalidArgument, "JSON object"},
		{"snap_callers", `{}`, mcp.CodeInvalidArgument, "id or name"},
		{"snap_callers", `{"name":"Serve"}`, mcp.CodeAmbiguousSymbol, "2 symbols"},
		{"snap_callers", `{"name":"Server","file":"p/server.go"}`, mcp.CodeSymbolNotFound, "2 elsewhere"},
		{"snap_callers", `{"name":"Server.Serve","limit":0}`, mcp.CodeInvalidArgument, "limit"},
		{"snap_callers", `{"name":"Server.Serve","limit":-5}`, mcp.CodeInvalidArgument, "limit"},
		{"snap_callers", `{"name":"Server.Serve","limit":1e30}`, mcp.CodeInvalidArgument, "limit"},
		{"snap_callers", `{"name":"Server.Serve","limit":"ten"}`, mcp.CodeInvalidArgument, "limit: want integer"},
		{"snap_callers", `{"name":"Server.Serve","cursor":"garbage!"}`, mcp.CodePagination, "cursor"},
		{"snap_callers", `{"name":"Server.Serve","cursor":"MXx4fHl8enww"}`, mcp.CodePagination, "another snapshot"},
		{"snap_callers", `{"name":7}`, mcp.CodeInvalidArgument, "name: want string"},
		{"snap_search", `{}`, mcp.CodeInvalidArgument, "query"},
		{"snap_search", `{"query":"  "}`, mcp.CodeInvalidArgument, "query"},
		{"snap_search", `{"query":"x","kinds":"function"}`, mcp.CodeInvalidArgument, "kinds: want array of string"},
		{"snap_impact", `{"name":"Client.Do","direction":"up"}`, mcp.CodeInvalidArgument, "direction"},
		{"snap_impact", `{"name":"Client.Do","depth":0}`, mcp.CodeInvalidArgument, "depth"},
		{"snap_impact", `{"name":"Client.Do","kinds":["calls","overrides"]}`, mcp.CodeInvalidArgument, "overrides"},
		{"snap_path", `{"from":"main.main"}`, mcp.CodeInvalidArgument, "to_id or to"},
		{"snap_path", `{"from":"Serve","to":"main.main"}`, mcp.CodeAmbiguousSymbol, "Serve"},
		{"snap_symbols_overview", `{"file":"server.go"}`, mcp.CodeInvalidArgument, "2 files"},
		{"snap_symbols_overview", `{"file":"nope.go"}`, mcp.CodeFileNotFound, "nope.go"},
		{"snap_read_file", `{"file":"../x"}`, mcp.CodePathOutsideRoot, "../x"},
		{"snap_read_file", `{"file":"app/../../x"}`, mcp.CodePathOutsideRoot, "leaves"},
		{"snap_read_file", `{"file":"/etc/passwd"}`, mcp.CodePathOutsideRoot, "absolute"},
		{"snap_read_file", `{"file":"C:\\Windows\\win.ini"}`, mcp.CodePathOutsideRoot, "absolute"},
		{"snap_read_file", `{"file":"assets/logo.png"}`, mcp.CodeFileNotFound, "skipped_binary"},
		{"snap_read_file", `{"file":"app/view.py"}`, mcp.CodeFileNotFound, "app/view.py"},
		{"snap_read_file", `{"file":"app/views.py","start_line":0}`, mcp.CodeInvalidArgument, "start_line"},
		{"snap_read_file", `{"file":"app/views.py","start_line":99}`, mcp.CodeInvalidArgument, "past the end"},
		{"snap_read_file", `{"file":"app/views.py","start_line":5,"end_line":2}`, mcp.CodeInvalidArgument, "end_line"},
		{"snap_read_file", `{"file":"app/views.py","mode":"rb"}`, mcp.CodeInvalidArgument, `unknown argument "mode"`},
		{"snap_nothing", `{}`, mcp.CodeInvalidArgument, "unknown tool"},
		{"snap_resolve_import", `{"import":" \"\" "}`, mcp.CodeInvalidArgument, "import"},
		{"snap_resolve_import", `{"import":"./x","from":"../../etc/passwd"}`, mcp.CodePathOutsideRoot, "leaves"},
		{"snap_resolve_import", `{"import":"./x","from":"nope.py"}`, mcp.CodeFileNotFound, "nope.py"},
		{"snap_file_nodes", `{"file":"client.go","kinds":["lambda"]}`, mcp.CodeInvalidArgument, "lambda"},
		{"snap_context", `{"task":"  "}`, mcp.CodeInvalidArgument, "task"},
		{"snap_context", `{"task":"x","tokens":5}`, mcp.CodeInvalidArgument, "tokens"},
		{"snap_context", `{"task":"x","format":"html"}`, mcp.CodeInvalidArgument, "format"},
		{"snap_verify", `{"claim":"the code is fine"}`, mcp.CodeInvalidArgument, "claim"},
		{"snap_map", `{}`, mcp.CodeInvalidArgument, "names"},
		{"snap_map", `{"names":["Nowhere"]}`, mcp.CodeSymbolNotFound, "Nowhere"},
		{"snap_rank", `{"kinds":["lambda"]}`, mcp.CodeInvalidArgument, "lambda"},
		{"snap_explore", `{"name":"Client.Do","depth":0}`, mcp.CodeInvalidArgument, "depth"},
		{"snap_ask", `{"question":""}`, mcp.CodeInvalidArgument, "question"},
		{"snap_file_nodes", `{"file":"/etc/passwd"}`, mcp.CodePathOutsideRoot, "absolute"},
	} {
		code, msg, _ := errorOf(t, r, tc.tool, tc.args)
		if code != tc.code || !strings.Contains(msg, tc.mention) {
			t.Errorf("%s %s: %s %q, want %s mentioning %q", tc.tool, tc.args, code, msg, tc.code, tc.mention)
		}
	}

	// Ambiguity lists the candidates, never picks one.
	_, _, details := errorOf(t, r, "snap_symbol", `{"name":"save"}`)
	cands, _ := details["candidates"].([]any)
	if len(cands) != 2 {
		t.Fatalf("candidates = %v", details)
	}
	for _, c := range cands {
		c := c.(map[string]any)
		if c["id"] == "" || c["qname"] == "" || c["file"] != "app/models/user.py" || c["line"] == nil {
			t.Errorf("candidate %v", c)
		}
	}

	// A name that exists nowhere gets did-you-mean names.
	_, _, details = errorOf(t, r, "snap_callers", `{"name":"ListenAndSrve"}`)
	if dym, _ := details["did_you_mean"].([]any); len(dym) == 0 || dym[0] != "ListenAndServe" {
		t.Errorf("did_you_mean = %v", details["did_you_mean"])
	}

	// Nothing loaded yet.
	empty := registry(t, new(query.Holder))
	if code, _, _ := errorOf(t, empty, "snap_status", `{}`); code != mcp.CodeIndexNotReady {
		t.Errorf("empty holder: %s", code)
	}
}

func TestIDs(t *testing.T) {
	h := holder(t)
	r := registry(t, h)
	// Fixture ids are hashes: most need all 64 bits.
	id := idOf(t, h, "net/http.(*Client).Do")
	if v, _ := strconv.ParseUint(id, 10, 64); v < 1<<53 {
		t.Fatalf("id %s fits a float64; pick a symbol with a larger one", id)
	}
	for _, args := range []string{`{"id":"` + id + `"}`, `{"id":` + id + `}`} {
		out, isError := r.CallJSON(context.Background(), "snap_node", json.RawMessage(args))
		if isError || !strings.Contains(string(out), `"qname":"net/http.(*Client).Do"`) || !strings.Contains(string(out), `"id":"`+id+`"`) {
			t.Errorf("snap_node %s = %s", args, out)
		}
	}
}

func TestPaging(t *testing.T) {
	h := holder(t)
	r := registry(t, h)
	ctx := context.Background()
	type answer struct {
		Callers []struct {
			QName string `json:"qname"`
		} `json:"callers"`
		Total int    `json:"total"`
		Next  string `json:"next_cursor"`
	}
	page := func(args string) answer {
		t.Helper()
		out, isError := r.CallJSON(ctx, "snap_callers", json.RawMessage(args))
		var a answer
		if err := json.Unmarshal(out, &a); err != nil || isError {
			t.Fatalf("%s: %s", args, out)
		}
		return a
	}
	first := page(`{"name":"Server.Serve","limit":1}`)
	if len(first.Callers) != 1 || first.Total != 2 || first.Next == "" {
		t.Fatalf("first page = %+v", first)
	}
	second := page(`{"name":"Server.Serve","limit":1,"cursor":"` + first.Next + `"}`)
	if len(second.Callers) != 1 || second.Next != "" || second.Callers[0].QName == first.Callers[0].QName {
		t.Fatalf("second page = %+v after %+v", second, first)
	}
	// A limit above the maximum is clamped, not refused.
	if all := page(`{"name":"Server.Serve","limit":100000}`); len(all.Callers) != 2 {
		t.Fatalf("clamped limit = %+v", all)
	}

	// The cursor is for that query only.
	if code, msg, _ := errorOf(t, r, "snap_callers", `{"name":"Client.Do","cursor":"`+first.Next+`"}`); code != mcp.CodePagination || !strings.Contains(msg, "another query") {
		t.Errorf("cursor of another query: %s %s", code, msg)
	}

	// And for that snapshot only: a new one (another commit) refuses it.
	s := querytest.Fixture()
	s.Manifest.Commit = "0123456789abcdef0123456789abcdef01234567"
	e, err := query.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	h.Store(e)
	code, msg, _ := errorOf(t, r, "snap_callers", `{"name":"Server.Serve","limit":1,"cursor":"`+first.Next+`"}`)
	if code != mcp.CodePagination || !strings.Contains(msg, "another snapshot") {
		t.Errorf("cursor of another snapshot: %s %s", code, msg)
	}

	// Search pages too.
	out, _ := r.CallJSON(ctx, "snap_search", json.RawMessage(`{"query":"Serve","limit":2}`))
	var sr struct {
		Results []any  `json:"results"`
		Next    string `json:"next_cursor"`
	}
	json.Unmarshal(out, &sr)
	if len(sr.Results) != 2 || sr.Next == "" {
		t.Fatalf("search page = %s", out)
	}
	out, _ = r.CallJSON(ctx, "snap_search", json.RawMessage(`{"query":"Serve","limit":2,"cursor":"`+sr.Next+`"}`))
	if !strings.Contains(string(out), `"match":"exact"`) || !strings.Contains(string(out), `"match":"prefix"`) {
		t.Errorf("search second page = %s", out)
	}
}

func TestReadFileLimits(t *testing.T) {
	h := holder(t)
	r := registry(t, h)
	out, isError := r.CallJSON(context.Background(), "snap_read_file", json.RawMessage(`{"file":"./app/../app/views.py"}`))
	var a struct {
		File, Content string
		Start, End    int
		Lines         int
	}
	if err := json.Unmarshal(out, &a); err != nil || isError {
		t.Fatalf("%s", out)
	}
	src, _ := h.Load().Source("app/views.py")
	if a.File != "app/views.py" || a.Content != string(src) || a.Start != 1 || a.End != 12 || a.Lines != 12 {
		t.Errorf("whole file = %+v", a)
	}
}

func TestParseArgs(t *testing.T) {
	r := registry(t, holder(t))
	tool, _ := r.Tool("snap_impact")
	args, err := tool.ParseArgs(map[string][]string{
		"name": {"Client.Do"}, "depth": {"2"}, "kinds": {"calls,references", "implements"}, "id": {"18196212330119541686"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"depth":2,"id":"18196212330119541686","kinds":["calls","references","implements"],"name":"Client.Do"}`
	if string(args) != want {
		t.Errorf("ParseArgs = %s, want %s", args, want)
	}
	if _, err := tool.ParseArgs(map[string][]string{"depth": {"deep"}}); err == nil || err.Code != mcp.CodeInvalidArgument {
		t.Errorf("ParseArgs(depth=deep) = %v", err)
	}
	tool, _ = r.Tool("snap_symbol")
	args, _ = tool.ParseArgs(map[string][]string{"name": {"Client.Do"}, "include_body": {""}})
	if string(args) != `{"include_body":true,"name":"Client.Do"}` {
		t.Errorf("ParseArgs(include_body) = %s", args)
	}
}

func TestToolsets(t *testing.T) {
	h := holder(t)
	r, err := mcp.NewRegistry(h, mcp.ToolsetCallGraph, mcp.ToolsetFiles)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range r.Tools() {
		names = append(names, tool.Name)
	}
	if strings.Join(names, " ") != "snap_calls snap_config snap_read_file snap_list_dir snap_find_file" {
		t.Errorf("tools = %v", names)
	}
	if _, err := mcp.NewRegistry(h, "everything"); err == nil {
		t.Error("unknown toolset accepted")
	}
}
