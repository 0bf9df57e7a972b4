package golang

import "testing"

// TestQueryPlanned holds Go's query to the shallow kind the scanner walks
// by plan (see indexer.Query): a pattern that does not fit moves every
// Go file back onto the slower query cursor.
func TestQueryPlanned(t *testing.T) {
	l := New()
	l.init()
	if l.err != nil {
		t.Fatal(l.err)
	}
	if !l.query.Planned() {
		t.Fatal("the Go query runs on the query cursor, not by plan")
	}
}
