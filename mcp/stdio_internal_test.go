package mcp

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// TestMarshalMessage: the bytes marshalMessage writes are json.Marshal's,
// for the results it writes itself and for every other message; but for
// a tool's structured content, which goes in as the tool encoded it (not
// compacted again, nor its <, > and & escaped): there, the JSON value is
// json.Marshal's.
func TestMarshalMessage(t *testing.T) {
	answer := `{"symbol":{"name":"a<b>&c","doc":"line\u2028sep é"},"total":2,"items":[1,2.5,null,true]}`
	msgs := map[string]any{
		"tool result": response(int64(7), mcpgo.CallToolResult{
			Content: []mcpgo.Content{mcpgo.NewTextContent(answer)}, StructuredContent: json.RawMessage(answer),
		}),
		"tool error, string id": response("req-1", &mcpgo.CallToolResult{
			Content: []mcpgo.Content{mcpgo.NewTextContent(`{"error":{}}`)}, IsError: true,
		}),
		"tool error with structured content": response(int64(8), &mcpgo.CallToolResult{
			Content: []mcpgo.Content{mcpgo.NewTextContent(answer)}, StructuredContent: json.RawMessage(answer), IsError: true,
			Result: mcpgo.Result{Meta: &mcpgo.Meta{AdditionalFields: map[string]any{"k": "v"}}},
		}),
		"other result": response(int64(1), map[string]any{"a": "<b>"}),
		"error":        mcpgo.NewJSONRPCError(mcpgo.NewRequestId(int64(2)), mcpgo.PARSE_ERROR, "bad <json>", nil),
		"notification": mcpgo.JSONRPCNotification{JSONRPC: mcpgo.JSONRPC_VERSION,
			Notification: mcpgo.Notification{Method: "notifications/tools/list_changed"}},
	}
	for name, msg := range msgs {
		want, err := json.Marshal(msg)
		if err != nil {
			t.Fatal(err)
		}
		got, err := marshalMessage(msg)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if strings.HasPrefix(name, "tool") && strings.Contains(string(want), "structuredContent") {
			var g, w any
			if err := json.Unmarshal(got, &g); err != nil {
				t.Fatalf("%s: not JSON: %v\n%s", name, err, got)
			}
			json.Unmarshal(want, &w)
			if !reflect.DeepEqual(g, w) || !bytes.Contains(got, []byte(`"structuredContent":`+answer)) {
				t.Errorf("%s: not the same value, or the structured content not as given:\n got %s\nwant %s", name, got, want)
			}
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
}

// response is what mcp-go's HandleMessage returns for a request id.
func response(id, result any) mcpgo.JSONRPCResponse {
	return mcpgo.JSONRPCResponse{JSONRPC: mcpgo.JSONRPC_VERSION, ID: mcpgo.NewRequestId(id), Result: result}
}
