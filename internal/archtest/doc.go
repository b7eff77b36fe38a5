// Package archtest holds the allowed-imports test of the whole module: which package may import
// which (docs/architecture.md draws the same graph). It has no code of its own; its test loads the
// module's packages with go list and fails on an import the architecture does not allow.
package archtest
