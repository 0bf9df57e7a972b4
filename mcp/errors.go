package mcp

import "fmt"

// Error codes of tool results. They are a contract: clients branch on them.
const (
	CodeSymbolNotFound   = "SYMBOL_NOT_FOUND"
	CodeAmbiguousSymbol  = "AMBIGUOUS_SYMBOL"
	CodeInvalidArgument  = "INVALID_ARGUMENT"
	CodeFileNotFound     = "FILE_NOT_FOUND"
	CodePathOutsideRoot  = "PATH_OUTSIDE_ROOT"
	CodeIndexNotReady    = "INDEX_NOT_READY"
	CodePagination       = "PAGINATION_ERROR"
	CodeSnapshotNotFound = "SNAPSHOT_NOT_FOUND"
	CodeStoreUnavailable = "STORE_UNAVAILABLE"
	// CodeLimitExceeded is a call over one of the server's bounds: an
	// argument too long, a list too long, a memory too large, a call
	// that ran out of time. The details name the bound ("limit") and the
	// argument at fault when there is one.
	CodeLimitExceeded = "LIMIT_EXCEEDED"
	// CodeIncomparable is a comparison of two snapshots whose rows mean
	// different things (their feature versions differ), so their ids do
	// not compare. The details name both versions.
	CodeIncomparable = "SNAPSHOTS_INCOMPARABLE"
)

// ToolError is a tool's failure as its caller sees it: a stable code, a
// message for people and models, and details to act on (the candidates of
// an ambiguous name, the argument at fault). Tools return it as a result,
// not as a protocol error, so a model can read it and correct itself.
type ToolError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Details any    `json:"details,omitempty"`
}

func (e *ToolError) Error() string { return e.Code + ": " + e.Message }

func toolErr(code string, details any, format string, args ...any) *ToolError {
	return &ToolError{Code: code, Message: fmt.Sprintf(format, args...), Details: details}
}

// limitErr is a LIMIT_EXCEEDED error about one argument (arg may be "")
// over a bound of limit.
func limitErr(arg string, limit int, format string, args ...any) *ToolError {
	details := map[string]any{"limit": limit}
	msg := fmt.Sprintf(format, args...)
	if arg != "" {
		details["argument"] = arg
		msg = arg + ": " + msg
	}
	return &ToolError{Code: CodeLimitExceeded, Message: msg, Details: details}
}

// argErr is an INVALID_ARGUMENT error about one argument.
func argErr(arg string, format string, args ...any) *ToolError {
	return toolErr(CodeInvalidArgument, map[string]string{"argument": arg}, "%s: %s", arg, fmt.Sprintf(format, args...))
}
