package explain

import (
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/lang"
	"github.com/fechado/fechado/replay"
)

// Result says how the hand of st ended, in words: who won what with which hand, one sentence a
// winner; or that it was passed out, declared a misdeal, or has no end in the log.
func (h *Hand) Result(l *lang.Lang, st *replay.State) []string {
	switch {
	case st.Misdeal:
		return []string{l.T("result.misdeal", nil)}
	case st.Passed:
		return []string{l.T("result.passed", nil)}
	case !st.Ended:
		return []string{l.T("result.unfinished", nil)}
	}
	var out []string
	for _, s := range st.Seats {
		if s.Won == 0 {
			continue
		}
		name := ""
		if s.Shown {
			name = h.HandName(l, s.Cards)
		}
		if name == "" {
			out = append(out, l.T("result.win.nohand", lang.Args{"player": s.Player, "amount": s.Won}))
		} else {
			out = append(out, l.T("result.win", lang.Args{"player": s.Player, "amount": s.Won, "hand": name}))
		}
	}
	return out
}

// ShownHands names the hands shown in st by seat, in full ("pair of nines"), for the plates of the
// table's drawing.
func (h *Hand) ShownHands(l *lang.Lang, st *replay.State) map[events.Seat]string {
	out := map[events.Seat]string{}
	for _, s := range st.Seats {
		if s.Shown {
			if name := h.HandName(l, s.Cards); name != "" {
				out[s.Seat] = name
			}
		}
	}
	return out
}

// Actor returns the seat whose own act e is (a bet, a fold, a discard, a hand shown or mucked),
// 0 when e is the dealer's, the table's or the machine's.
func Actor(e *events.Event) events.Seat {
	switch d := e.Data.(type) {
	case *events.PlayerActed:
		return d.Seat
	case *events.CardsDiscarded:
		return d.Seat
	case *events.OpenersShown:
		return d.Seat
	case *events.HandShown:
		return d.Seat
	case *events.HandMucked:
		return d.Seat
	}
	return 0
}

// LineAt returns the line of lines that tells event seq, and false when none does.
func LineAt(lines []Line, seq events.Seq) (Line, bool) {
	for _, ln := range lines {
		if seq >= ln.Seq && seq <= ln.Last {
			return ln, true
		}
	}
	return Line{}, false
}
