package web

import (
	"encoding/json"

	"github.com/fechado/fechado/events"
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
// stored line byte for byte. With hidden true (the hand is in progress) every card nobody has
// seen face up and any seed are removed: card.dealt and card.burned lose their card,
// cards.discarded its cards (a count stays), deck.shuffled its gathered cards, deck.revealed its
// seed.
func publicEvent(e *events.Event, hidden bool) json.RawMessage {
	if !hidden {
		return json.RawMessage(e.Raw)
	}
	var drop []string
	var count int
	switch d := e.Data.(type) {
	case *events.CardDealt, *events.CardBurned:
		drop = []string{"card"}
	case *events.CardsDiscarded:
		drop, count = []string{"cards"}, len(d.Cards)
	case *events.DeckShuffled:
		drop = []string{"cards"}
	case *events.DeckRevealed:
		drop = []string{"seed"}
	default:
		return json.RawMessage(e.Raw)
	}
	var env map[string]json.RawMessage
	if err := json.Unmarshal(e.Raw, &env); err != nil {
		return nil // not reachable: the line decoded with events.Parse
	}
	var data map[string]json.RawMessage
	if err := json.Unmarshal(env["data"], &data); err != nil {
		return nil
	}
	for _, k := range drop {
		delete(data, k)
	}
	// prev is the hash of the previous stored line: with it, 52 guesses recover a hidden card.
	delete(env, "prev")
	if e.Type == events.CardsDiscardedType {
		data["count"], _ = json.Marshal(count)
	}
	env["data"], _ = json.Marshal(data)
	env["redacted"] = json.RawMessage("true")
	b, _ := json.Marshal(env)
	return b
}
