package web

import (
	"encoding/json"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/roles"
)

// The views of a hand the API answers with ("view" in the answer).
const (
	viewStored = "stored"         // the hand ended: the stored lines, byte for byte
	viewPublic = roles.ViewPublic // in progress: the public views, not stored lines
)

// ended reports whether the events of a hand include its hand.ended.
func ended(evs []*events.Event) bool {
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Type == events.HandEndedType {
			return true
		}
	}
	return false
}

// handView returns the events of a hand as a client may see them, and which view they are: the
// stored events once the hand has ended; while it is in progress, the events.Public view of each
// (no card nobody has seen face up, no seed, no prev: the hash of the previous line would give a
// face-down card away in 52 guesses), leaving out the events that show nothing until the end.
// The one redaction of a hand in progress is events.Public.
func handView(evs []*events.Event) ([]*events.Event, string) {
	if ended(evs) {
		return evs, viewStored
	}
	out := make([]*events.Event, 0, len(evs))
	for _, e := range evs {
		if v, ok := events.Public(e); ok {
			out = append(out, v)
		}
	}
	return out, viewPublic
}

// eventJSON is the line of an event as handView gives it.
func eventJSON(e *events.Event) json.RawMessage { return json.RawMessage(e.Raw) }
