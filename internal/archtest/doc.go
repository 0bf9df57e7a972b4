// Package archtest holds the module's import rules, as a test: which
// package may import which (DESIGN.md, Layout). It has no code of its own.
package archtest
