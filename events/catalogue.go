package events

//go:generate go run ./internal/gen

// Type is an event type of the catalogue (events-v1.md §4). The catalogue itself (the types,
// their fields and payload structs) is declared once, in catalogue.txt, and generated into
// types_gen.go, decode_gen.go, encode_gen.go and the JSON Schema.
type Type string

// Known reports whether t is in the catalogue.
func (t Type) Known() bool {
	_, ok := Fields[t]
	return ok
}

// String returns the type's name.
func (t Type) String() string { return string(t) }
