// Package store keeps items.
package store

import "errors"

// ErrNotFound is returned for missing keys.
var ErrNotFound = errors.New("not found")

// Reader reads items.
type Reader interface {
	Get(key string) (Item, error)
}

// Store reads and writes items.
type Store interface {
	Reader
	Put(key string, it Item) error
}

// Item is one thing for sale.
type Item struct {
	Name  string
	Price int
}

// MemStore is a Store in memory.
type MemStore struct {
	items map[string]Item
}

// NewMemStore returns an empty store.
func NewMemStore() *MemStore {
	return &MemStore{items: make(map[string]Item)}
}

func (m *MemStore) Get(key string) (Item, error) {
	it, ok := m.items[key]
	if !ok {
		return Item{}, ErrNotFound
	}
	return it, nil
}

func (m *MemStore) Put(key string, it Item) error {
	m.items[key] = it
	return nil
}

// Len is not part of any interface.
func (m MemStore) Len() int { return len(m.items) }

// BadStore has Get with the wrong signature: it is not a Reader.
type BadStore struct{}

func (BadStore) Get(key int) (Item, error) { return Item{}, nil }

// Total sums prices.
func Total(items ...Item) int {
	sum := 0
	for _, it := range items {
		sum += it.Price
	}
	return sum
}

// Pair holds two stores declared in one line.
type Pair struct {
	left, right *MemStore
}

// Swap puts a into both: grouped parameters and a shadowing binding.
func Swap(a, b *MemStore, p Pair) (out Item) {
	p.right.Put("a", out)
	b.Len()
	a := a.Len()
	_ = a
	return out
}
