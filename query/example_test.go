package query_test

import (
	"fmt"
	"log"

	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/query/querytest"
)

func Example() {
	e, err := query.Build(querytest.Fixture())
	if err != nil {
		log.Fatal(err)
	}

	// Who calls (*Server).Serve, and from where?
	serve := e.Find("Server.Serve", "")[0]
	for _, l := range e.Callers(serve) {
		site := e.Edge(l.Edge)
		fmt.Printf("%s at %s:%d:%d\n", e.Node(l.Node).QualifiedName, site.File, site.Line, site.Col)
	}

	// How does main reach it?
	hops, _ := e.Path(e.Find("main.main", "")[0], serve, query.PathOptions{})
	for _, h := range hops {
		fmt.Printf("%s -%s-> %s\n", e.Node(h.From).Name, e.Edge(h.Edge).Kind, e.Node(h.To).Name)
	}

	// What breaks if it changes?
	for _, lv := range e.Impact([]int32{serve}, query.ImpactOptions{}).Levels {
		fmt.Println(lv.Depth, len(lv.Nodes), "symbols")
	}
	// Output:
	// net/http.(*Server).ListenAndServe at src/net/http/server.go:30:9
	// net/http.Serve at src/net/http/server.go:76:9
	// main -calls-> ListenAndServe
	// ListenAndServe -calls-> ListenAndServe
	// ListenAndServe -calls-> Serve
	// 1 2 symbols
	// 2 1 symbols
	// 3 1 symbols
}
