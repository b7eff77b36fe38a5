package web

import (
	"encoding/json"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/roles"
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

// publicEvent returns the JSON of e for a client. With hidden false (the hand ended) it is the
// stored line byte for byte. With hidden true (the hand is in progress) it is roles.PublicView
// of e: no card nobody has seen face up, no seed, and no prev on any event (the hash of the
// previous line would give a face-down card away in 52 guesses).
func publicEvent(e *events.Event, hidden bool) json.RawMessage {
	if !hidden {
		return json.RawMessage(e.Raw)
	}
	v, ok := roles.PublicView(e)
	if !ok {
		return nil // not reachable: the line decoded with events.Parse
	}
	return v.JSON()
}
