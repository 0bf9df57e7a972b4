package server

import (
	st "example.com/shop/store"
	"fmt"
)

// Base logs.
type Base struct {
	prefix string
}

func (b *Base) Logf(format string, args ...any) {
	fmt.Printf(b.prefix+format, args...)
}

// Server serves a store.
type Server struct {
	Base
	store st.Store
	hook  func(string)
}

// New makes a server.
func New(s st.Store) *Server {
	srv := &Server{store: s}
	srv.Logf("new server")
	return srv
}

// Lookup finds a price.
func (s *Server) Lookup(key string) int {
	it, err := s.store.Get(key)
	if err != nil {
		s.hook(key)
		return 0
	}
	return st.Total(it)
}

func (s *Server) Fill(keys []string) {
	for _, k := range keys {
		if k != "" {
			s.store.Put(k, st.Item{Name: k})
		}
	}
	var extra st.MemStore
	extra.Len()
	mem := st.NewMemStore()
	mem.Put("x", st.Item{})
	local := new(Base)
	local.Logf("filled")
}

// Map applies f: the call of a function value stays unresolved.
func Map[T any](xs []T, f func(T) T) []T {
	for i, x := range xs {
		xs[i] = f(x)
	}
	return xs
}

// Describe narrows a reader in a type switch: v has another type per case.
func Describe(r st.Reader) string {
	switch v := r.(type) {
	case *st.MemStore:
		v.Len()
	}
	r.Get("k")
	return ""
}
