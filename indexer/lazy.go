package indexer

// Lazy is a value worked out on first use from others like it, such as
// the Expr of a local bound to an initializer that names other locals:
// Get computes it once, and gives a stand-in when asked again while
// computing it (a cycle). The zero Lazy is yet to be computed.
type Lazy[T any] struct {
	value T
	state uint8 // 0 to compute, 1 computing, 2 known
}

// Known returns a Lazy that holds v.
func Known[T any](v T) Lazy[T] { return Lazy[T]{value: v, state: 2} }

// Get returns the value, computing it first with compute; asked while
// computing it, it returns onCycle.
func (l *Lazy[T]) Get(compute func() T, onCycle T) T {
	switch l.state {
	case 2:
		return l.value
	case 1:
		return onCycle
	}
	l.state = 1
	l.value = compute()
	l.state = 2
	return l.value
}
