package indexer_test

import (
	"context"
	"testing"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/schemas"
)

type testKind uint8

// passes is a File walked by recording the order of its passes.
type passes struct {
	indexer.File[testKind]
	order []string
}

func (p *passes) Prepare(context.Context) { p.order = append(p.order, "prepare") }
func (p *passes) Finish(context.Context)  { p.order = append(p.order, "finish") }

func (p *passes) Run(ctx context.Context) {
	p.order = append(p.order, "run")
	for _, it := range p.Each(ctx) {
		p.AddNode(schemas.KindFunction, p.Str[it.Start:it.End], p.Str[it.Start:it.End], -1, it.Span)
	}
}

func TestRunPasses(t *testing.T) {
	s := &indexer.Scanned[testKind]{
		Path:  "src/a_test.x",
		Src:   []byte("f g"),
		Items: []indexer.Match[testKind]{{Span: indexer.Span{Start: 0, End: 1}}, {Span: indexer.Span{Start: 2, End: 3}}},
		Lines: []uint32{0},
	}
	p := &passes{File: indexer.NewFile(s, "x", func(path string) bool { return path == "src/a_test.x" })}
	nodes, refs, isTest := indexer.RunPasses(context.Background(), p)
	if got := p.order; len(got) != 3 || got[0] != "prepare" || got[1] != "run" || got[2] != "finish" {
		t.Errorf("passes ran in order %q", got)
	}
	if len(nodes) != 2 || nodes[0].Name != "f" || nodes[1].Name != "g" || nodes[1].StartCol != 3 || nodes[1].Language != "x" {
		t.Errorf("nodes = %+v", nodes)
	}
	if len(refs) != 0 || !isTest {
		t.Errorf("refs = %v, isTest = %v", refs, isTest)
	}
}

func TestEachStops(t *testing.T) {
	f := indexer.File[testKind]{Items: make([]indexer.Match[testKind], 200)}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	n := 0
	for range f.Each(ctx) {
		n++
	}
	if n != 0 {
		t.Errorf("Each yielded %d items after ctx was done", n)
	}
	n = 0
	for range f.Each(context.Background()) {
		n++
	}
	if n != 200 {
		t.Errorf("Each yielded %d of 200 items", n)
	}
}

func TestElements(t *testing.T) {
	s := []int{1, 2, 3}
	for i, p := range indexer.Elements(context.Background(), s) {
		if p != &s[i] {
			t.Errorf("element %d is not the address of s[%d]", i, i)
		}
		*p *= 10
	}
	if s[0] != 10 || s[2] != 30 {
		t.Errorf("s = %v after writing through Elements", s)
	}
}

func TestCountKinds(t *testing.T) {
	items := []indexer.Match[testKind]{{Kind: 2}, {Kind: 0}, {Kind: 2}}
	if got := indexer.CountKinds(context.Background(), items, 3); len(got) != 3 || got[0] != 1 || got[1] != 0 || got[2] != 2 {
		t.Errorf("CountKinds = %v, want [1 0 2]", got)
	}
}
