package explain

import (
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/lang"
	"github.com/fechado/fechado/rules"
)

// Line is one line of a hand's timeline: what happened at an event, in words.
type Line struct {
	// Seq is the event's seq (the first one, when a line tells several: the cards of the deal).
	Seq events.Seq `json:"seq"`
	// Last is the last event the line tells.
	Last events.Seq `json:"last"`
	// Seat is the player who acted (0: the dealer, the table or the machine).
	Seat events.Seat `json:"seat"`
	Text string      `json:"text"`
}

// Timeline tells the hand event by event in l. The cards of the deal make one line, and the
// replacements a player receives in the draw another; every other event has a line of its own.
func (h *Hand) Timeline(l *lang.Lang) []Line {
	var out []Line
	add := func(e *events.Event, seat events.Seat, key string, a lang.Args) {
		out = append(out, Line{Seq: e.Seq, Last: e.Seq, Seat: seat, Text: l.T(key, a)})
	}
	opened := false
	openers := h.rules != nil && h.rules.Preset.Openers != rules.OpenFree
	for i, e := range h.Events {
		switch d := e.Data.(type) {
		case *events.HandStarted:
			add(e, 0, "ev.started", lang.Args{"number": d.Number, "table": e.Table, "preset": PresetName(l, d.Rules.Name),
				"dealer": h.Name(l, d.Dealer)})
		case *events.DeckShuffled:
			switch {
			case d.Cards != nil:
				add(e, 0, "ev.reshuffled", lang.Args{"n": len(d.Cards)})
			case d.Commitment != "":
				add(e, 0, "ev.shuffled.machine", nil)
			case d.Count != nil && d.By != nil:
				add(e, *d.By, "ev.shuffled.hand", lang.Args{"player": h.Name(l, *d.By), "n": *d.Count})
			default:
				add(e, 0, "ev.shuffled.nobody", nil)
			}
		case *events.DeckCut:
			if d.At == 0 {
				add(e, 0, "ev.cut.none", nil)
			} else {
				add(e, 0, "ev.cut", lang.Args{"n": d.At})
			}
		case *events.AntePosted:
			add(e, d.Seat, "ev.ante", lang.Args{"player": h.Name(l, d.Seat), "amount": d.Amount})
		case *events.BlindPosted:
			add(e, d.Seat, "ev.blind", lang.Args{"player": h.Name(l, d.Seat), "amount": d.Amount})
		case *events.CardDealt:
			prev := previous(h.Events, i)
			if k := len(out) - 1; k >= 0 && prev != nil {
				if pd, ok := prev.Data.(*events.CardDealt); ok && pd.Phase == d.Phase && (d.Phase == events.PhaseDeal || pd.Seat == d.Seat) {
					out[k].Last = e.Seq
					n := int(out[k].Last-out[k].Seq) + 1
					if d.Phase == events.PhaseDeal {
						out[k].Text = l.T("ev.deal", lang.Args{"n": n})
					} else {
						out[k].Text = l.T("ev.receive", lang.Args{"player": h.Name(l, d.Seat), "n": n})
					}
					continue
				}
			}
			if d.Phase == events.PhaseDeal {
				add(e, 0, "ev.deal", lang.Args{"n": 1})
			} else {
				add(e, d.Seat, "ev.receive", lang.Args{"player": h.Name(l, d.Seat), "n": 1})
			}
		case *events.CardBurned:
			add(e, 0, "ev.burned", lang.Args{"card": Symbol(d.Card)})
		case *events.CardExposed:
			add(e, 0, "ev.exposed", lang.Args{"card": SymbolWords(l, d.Card)})
		case *events.MisdealDeclared:
			add(e, 0, "ev.misdeal", nil)
		case *events.PlayerActed:
			a := lang.Args{"player": h.Name(l, d.Seat), "amount": d.Amount}
			switch d.Action {
			case events.Check:
				add(e, d.Seat, "ev.check", a)
			case events.Bet:
				if d.Round == events.RoundFirst && !opened && openers {
					opened = true
					a["hand"] = h.heldName(l, e.Seq, d.Seat)
					if a["hand"] == "" {
						add(e, d.Seat, "ev.open.unknown", a)
					} else {
						add(e, d.Seat, "ev.open", a)
					}
				} else {
					add(e, d.Seat, "ev.bet", a)
				}
			case events.Call:
				add(e, d.Seat, "ev.call", a)
			case events.Raise:
				add(e, d.Seat, "ev.raise", a)
			case events.Fold:
				add(e, d.Seat, "ev.fold", a)
			}
		case *events.CardsDiscarded:
			// A hand's public view keeps the count, not the cards (events.Public).
			n := len(d.Cards)
			if n == 0 && d.Declared != nil {
				n = *d.Declared
			}
			if n == 0 {
				add(e, d.Seat, "ev.pat", lang.Args{"player": h.Name(l, d.Seat)})
			} else {
				add(e, d.Seat, "ev.draw", lang.Args{"player": h.Name(l, d.Seat), "n": n})
			}
		case *events.OpenersShown:
			add(e, d.Seat, "ev.openers", lang.Args{"player": h.Name(l, d.Seat), "cards": Symbols(d.Cards)})
		case *events.HandShown:
			a := lang.Args{"player": h.Name(l, d.Seat), "cards": Symbols(d.Cards), "hand": h.HandName(l, d.Cards)}
			if a["hand"] == "" {
				add(e, d.Seat, "ev.shown.unknown", a)
			} else {
				add(e, d.Seat, "ev.shown", a)
			}
		case *events.HandMucked:
			add(e, d.Seat, "ev.mucked", lang.Args{"player": h.Name(l, d.Seat)})
		case *events.BetReturned:
			add(e, d.Seat, "ev.returned", lang.Args{"player": h.Name(l, d.Seat), "amount": d.Amount})
		case *events.PotRaked:
			add(e, 0, "ev.raked", lang.Args{"amount": d.Amount})
		case *events.PotAwarded:
			a := lang.Args{"player": h.Name(l, d.Seat), "amount": d.Amount, "n": d.Pot}
			if d.Pot == 0 {
				add(e, d.Seat, "ev.awarded.main", a)
			} else {
				add(e, d.Seat, "ev.awarded.side", a)
			}
		case *events.HandPassed:
			add(e, 0, "ev.passed", nil)
		case *events.DeckRevealed:
			add(e, 0, "ev.revealed", nil)
		case *events.HandEnded:
			if d.Carry > 0 {
				add(e, 0, "ev.ended.carry", lang.Args{"amount": d.Carry})
			} else {
				add(e, 0, "ev.ended", nil)
			}
		}
	}
	return out
}

func previous(evs []*events.Event, i int) *events.Event {
	if i == 0 {
		return nil
	}
	return evs[i-1]
}

// heldName names the hand seat held after event seq, or "" when its five cards are not known.
func (h *Hand) heldName(l *lang.Lang, seq events.Seq, seat events.Seat) string {
	st := h.state(seq)
	if st == nil {
		return ""
	}
	for _, s := range st.Seats {
		if s.Seat == seat {
			return h.HandName(l, s.Cards)
		}
	}
	return ""
}
