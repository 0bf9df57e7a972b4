package mcp_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestSearchBySentence checks that a search in words that names no
// symbol answers the symbols snap_context ranks first, and says so.
func TestSearchBySentence(t *testing.T) {
	r := registry(t, holder(t))
	call := func(tool, args string) map[string]any {
		t.Helper()
		raw, isError := r.CallJSON(context.Background(), tool, json.RawMessage(args))
		var out map[string]any
		if err := json.Unmarshal(raw, &out); err != nil || isError {
			t.Fatalf("%s %s: %s", tool, args, raw)
		}
		return out
	}
	const task = "follow the redirect of a response"
	search := call("snap_search", `{"query":"`+task+`"}`)
	results, _ := search["results"].([]any)
	if len(results) == 0 || !strings.Contains(search["hint"].(string), "ranked by the words") {
		t.Fatalf("search %q: %v", task, search)
	}
	ctx := call("snap_context", `{"task":"`+task+`"}`)
	first := results[0].(map[string]any)
	if want := ctx["symbols"].([]any)[0].(map[string]any)["qname"]; first["qname"] != want || first["match"] != "words" {
		t.Errorf("search's first %v, context's %v", first, want)
	}
	// One word that names nothing stays unanswered; a name is found by
	// name.
	if out := call("snap_search", `{"query":"frobnicate"}`); len(out["results"].([]any)) != 0 {
		t.Errorf("one word: %v", out)
	}
	if out := call("snap_search", `{"query":"Client Do"}`); out["results"].([]any)[0].(map[string]any)["match"] == "words" {
		t.Errorf("words of a name: %v", out)
	}
}
