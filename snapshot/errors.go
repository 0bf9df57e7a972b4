package snapshot

import "errors"

// ErrUnavailable is wrapped by a Store when it cannot reach its storage at
// all (connection refused, timeout, DNS failure, service unavailable), as
// opposed to reaching it and being told no. Retrying later may succeed.
// When a Put fails this way, whether it took effect is unknown: Get tells.
var ErrUnavailable = errors.New("store unavailable")
