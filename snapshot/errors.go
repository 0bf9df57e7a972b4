package snapshot

import (
	"errors"
	"fmt"
)

// ErrUnavailable is wrapped by a Store when it cannot reach its storage at
// all (connection refused, timeout, DNS failure, service unavailable), as
// opposed to reaching it and being told no. Retrying later may succeed.
// When a Put fails this way, whether it took effect is unknown: Get tells.
var ErrUnavailable = errors.New("store unavailable")

// clippedError is an error whose message, which may quote hostile input
// at any length (a time that does not parse is quoted whole), is cut to a
// readable length. It unwraps to the original.
type clippedError struct{ err error }

func (e clippedError) Error() string {
	msg := e.err.Error()
	return fmt.Sprintf("%s... (%d bytes)", msg[:maxMessage], len(msg))
}
func (e clippedError) Unwrap() error { return e.err }

// maxMessage is how much of an error message clipErr keeps.
const maxMessage = 200

// clipErr returns err with its message cut to maxMessage bytes.
func clipErr(err error) error {
	if err == nil || len(err.Error()) <= maxMessage {
		return err
	}
	return clippedError{err}
}
