package mcp

import "testing"

func TestText(t *testing.T) {
	answer := `{"commit":"abc","symbol":{"qname":"p.F","kind":"function","loc":"a.go:3","id":"12"},` +
		`"callers":[{"qname":"p.G","kind":"method","at":"b.go:9"}],"kinds":["calls","references"],` +
		`"stats":{"nodes":3,"complete":true},"total":1,"next":null}`
	want := "commit: abc\n" +
		"symbol: function p.F  a.go:3\n" +
		"callers (1):\n" +
		"  method p.G  b.go:9\n" +
		"kinds: calls, references\n" +
		"stats:\n" +
		"  nodes: 3\n" +
		"  complete: true\n" +
		"total: 1\n" +
		"next: null\n"
	if got := Text([]byte(answer)); got != want {
		t.Errorf("Text:\n%s\nwant\n%s", got, want)
	}
	if got := Text([]byte("not json")); got != "not json\n" {
		t.Errorf("Text of what is not JSON: %q", got)
	}
}
