package typescript

import "strings"

// globals are the names JavaScript engines, browsers, Node.js and test
// runners define without an import. Calls of globals, and of members of
// their values, make no edge.
var globals = func() map[string]bool {
	m := make(map[string]bool)
	for _, n := range strings.Fields(`
globalThis undefined NaN Infinity eval isFinite isNaN parseFloat parseInt
decodeURI decodeURIComponent encodeURI encodeURIComponent escape unescape
Object Function Boolean Symbol Error AggregateError EvalError RangeError
ReferenceError SyntaxError TypeError URIError Number BigInt Math Date String
RegExp Array Int8Array Uint8Array Uint8ClampedArray Int16Array Uint16Array
Int32Array Uint32Array Float32Array Float64Array BigInt64Array
BigUint64Array Map Set WeakMap WeakSet WeakRef FinalizationRegistry
ArrayBuffer SharedArrayBuffer DataView Atomics JSON Promise Proxy Reflect
Intl Iterator
console setTimeout clearTimeout setInterval clearInterval setImmediate
clearImmediate queueMicrotask structuredClone requestAnimationFrame
cancelAnimationFrame fetch Request Response Headers URL URLSearchParams
AbortController AbortSignal Blob File FormData TextEncoder TextDecoder
Event EventTarget CustomEvent WebSocket Worker crypto performance atob btoa
alert confirm prompt window document navigator location history
localStorage sessionStorage self
process Buffer require module exports __dirname __filename global
describe it test expect beforeEach afterEach beforeAll afterAll jest vi
suite context before after
`) {
		m[n] = true
	}
	return m
}()

// objectMembers are the members every object has.
var objectMembers = map[string]bool{
	"toString": true, "toLocaleString": true, "valueOf": true, "hasOwnProperty": true,
	"isPrototypeOf": true, "propertyIsEnumerable": true, "constructor": true,
}
