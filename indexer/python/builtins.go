package python

import "strings"

// builtins are the names of Python's builtins module (3.13), true for the
// classes. Calls of builtins and of members of their instances make no
// edge.
var builtins = func() map[string]bool {
	m := make(map[string]bool)
	for _, n := range strings.Fields(`
ArithmeticError AssertionError AttributeError BaseException
BaseExceptionGroup BlockingIOError BrokenPipeError BufferError BytesWarning
ChildProcessError ConnectionAbortedError ConnectionError
ConnectionRefusedError ConnectionResetError DeprecationWarning EOFError
EncodingWarning EnvironmentError Exception ExceptionGroup FileExistsError
FileNotFoundError FloatingPointError FutureWarning GeneratorExit IOError
ImportError ImportWarning IndentationError IndexError InterruptedError
IsADirectoryError KeyError KeyboardInterrupt LookupError MemoryError
ModuleNotFoundError NameError NotADirectoryError NotImplementedError OSError
OverflowError PendingDeprecationWarning PermissionError ProcessLookupError
PythonFinalizationError RecursionError ReferenceError ResourceWarning
RuntimeError RuntimeWarning StopAsyncIteration StopIteration SyntaxError
SyntaxWarning SystemError SystemExit TabError TimeoutError TypeError
UnboundLocalError UnicodeDecodeError UnicodeEncodeError UnicodeError
UnicodeTranslateError UnicodeWarning UserWarning ValueError Warning
ZeroDivisionError bool bytearray bytes classmethod complex dict enumerate
filter float frozenset int list map memoryview object property range
reversed set slice staticmethod str super tuple type zip
`) {
		m[n] = true
	}
	for _, n := range strings.Fields(`
Ellipsis NotImplemented __import__ abs aiter all anext any ascii bin
breakpoint callable chr compile copyright credits delattr dir divmod eval
exec exit format getattr globals hasattr hash help hex id input isinstance
issubclass iter len license locals max min next oct open ord pow print quit
repr round setattr sorted sum vars
`) {
		m[n] = false
	}
	return m
}()
