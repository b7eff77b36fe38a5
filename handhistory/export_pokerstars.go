package handhistory

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"

	"github.com/google/uuid"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/rules"
)

// writePokerStars writes x as PokerStars writes a "5 Card Draw" hand, in the layout of 2016 on
// ("Hand #"), with amounts in chips (no currency: trackers read it as play money or tournament
// chips) and the time in ET. The lines are those FPDB's PokerStars parser reads for five-card
// draw (pyfpdb/PokerStarsToFpdb.py): no "*** DRAW ***" line (PokerStars writes none in single
// draw games; the parser inserts its own before the first discard), blinds and antes before
// "*** DEALING HANDS ***", "Dealt to" for every player whose cards the log knows, the showdown,
// the collections, and a summary line for every player dealt in.
func writePokerStars(b *bytes.Buffer, x *xHand) {
	st := x.start
	game := map[rules.Structure]string{rules.FixedLimit: "Limit", rules.PotLimit: "Pot Limit", rules.NoLimit: "No Limit"}[x.preset.Structure]
	stakes := fmt.Sprintf("(%d/%d)", x.smallBlnd, st.Stakes.MinBet)
	if x.preset.Structure == rules.FixedLimit {
		stakes = fmt.Sprintf("(%d/%d)", st.Stakes.MinBet, st.Stakes.MaxBet)
	}
	when := x.at.In(eastern()).Format("2006/01/02 15:04:05") + " ET"
	if t := st.Tournament; t != nil {
		fmt.Fprintf(b, "PokerStars Hand #%d: Tournament #%s, 5 Card Draw %s - Level %s %s - %s\n",
			psNumber(x.id), psTournament(t.ID), game, roman(max(1, t.Level)), stakes, when)
	} else {
		fmt.Fprintf(b, "PokerStars Hand #%d:  5 Card Draw %s %s - %s\n", psNumber(x.id), game, stakes, when)
	}
	top := events.Seat(0)
	for _, s := range st.Seats {
		top = max(top, s.Seat)
	}
	for _, a := range st.Away {
		top = max(top, a.Seat)
	}
	maxSeats := 6
	switch {
	case top > 9:
		maxSeats = 10
	case top > 6:
		maxSeats = 9
	}
	fmt.Fprintf(b, "Table '%s' %d-max Seat #%d is the button\n", x.table, maxSeats, st.Dealer)
	type seatLine struct {
		seat events.Seat
		text string
	}
	var seats []seatLine
	for _, s := range st.Seats {
		seats = append(seats, seatLine{s.Seat, fmt.Sprintf("Seat %d: %s (%d in chips)", s.Seat, s.Player, s.Stack)})
	}
	for _, a := range st.Away {
		seats = append(seats, seatLine{a.Seat, fmt.Sprintf("Seat %d: %s (%d in chips) is sitting out", a.Seat, a.Player, a.Stack)})
	}
	slices.SortFunc(seats, func(a, b seatLine) int { return int(a.seat) - int(b.seat) })
	for _, s := range seats {
		b.WriteString(s.text + "\n")
	}

	allIn := func(a xAct) string {
		if a.allIn {
			return " and is all-in"
		}
		return ""
	}
	sb, bb := events.Seat(0), events.Seat(0)
	dead := map[events.Seat]events.Chips{}
	for _, a := range x.acts {
		if a.kind == xBlind && a.blind == events.BlindDead {
			dead[a.seat] += a.amount
		}
	}
	dealt := false
	deal := func() {
		if dealt {
			return
		}
		dealt = true
		b.WriteString("*** DEALING HANDS ***\n")
		for _, s := range x.order {
			if cs, ok := x.deal[s]; ok {
				fmt.Fprintf(b, "Dealt to %s [%s]\n", x.names[s], cards.Join(cs, " "))
			}
		}
	}
	showdown := false
	for _, a := range x.acts {
		name := x.names[a.seat]
		switch a.kind {
		case xAnte:
			fmt.Fprintf(b, "%s: posts the ante %d%s\n", name, a.amount, allIn(a))
		case xBlind:
			switch a.blind {
			case events.BlindSmall:
				sb = a.seat
				fmt.Fprintf(b, "%s: posts small blind %d%s\n", name, a.amount, allIn(a))
			case events.BlindBig:
				bb = a.seat
				if d := dead[a.seat]; d > 0 {
					fmt.Fprintf(b, "%s: posts small & big blinds %d%s\n", name, a.amount+d, allIn(a))
				} else {
					fmt.Fprintf(b, "%s: posts big blind %d%s\n", name, a.amount, allIn(a))
				}
			}
		case xBet:
			deal()
			switch a.action {
			case events.Fold:
				fmt.Fprintf(b, "%s: folds\n", name)
			case events.Check:
				fmt.Fprintf(b, "%s: checks\n", name)
			case events.Call:
				fmt.Fprintf(b, "%s: calls %d%s\n", name, a.amount, allIn(a))
			case events.Bet:
				fmt.Fprintf(b, "%s: bets %d%s\n", name, a.amount, allIn(a))
			case events.Raise:
				fmt.Fprintf(b, "%s: raises %d to %d%s\n", name, a.raise, a.to, allIn(a))
			}
		case xDraw:
			deal()
			switch {
			case a.thrown == 0 && a.kept != nil:
				fmt.Fprintf(b, "%s: stands pat on [%s]\n", name, cards.Join(a.kept, " "))
			case a.thrown == 0:
				fmt.Fprintf(b, "%s: stands pat\n", name)
			case a.discarded != nil:
				fmt.Fprintf(b, "%s: discards %d %s [%s]\n", name, a.thrown, plural(a.thrown, "card", "cards"), cards.Join(a.discarded, " "))
			default:
				fmt.Fprintf(b, "%s: discards %d %s\n", name, a.thrown, plural(a.thrown, "card", "cards"))
			}
			if a.thrown > 0 && len(a.drawn) == a.thrown {
				if a.kept != nil {
					fmt.Fprintf(b, "Dealt to %s [%s] [%s]\n", name, cards.Join(a.kept, " "), cards.Join(a.drawn, " "))
				} else {
					fmt.Fprintf(b, "Dealt to %s [%s]\n", name, cards.Join(a.drawn, " "))
				}
			}
		case xReturn:
			deal()
			fmt.Fprintf(b, "Uncalled bet (%d) returned to %s\n", a.amount, name)
		case xShow, xMuck:
			deal()
			if !showdown {
				showdown = true
				b.WriteString("*** SHOW DOWN ***\n")
			}
			if a.kind == xMuck {
				fmt.Fprintf(b, "%s: mucks hand\n", name)
			} else {
				fmt.Fprintf(b, "%s: shows [%s] (%s)\n", name, cards.Join(a.cards, " "), x.describe(a.cards))
			}
		}
	}
	deal()
	for _, c := range x.collects {
		pot := "pot"
		switch {
		case c.pot == 0:
			pot = "main pot"
		case c.pot > 0:
			pot = "side pot-" + strconv.Itoa(c.pot)
		}
		fmt.Fprintf(b, "%s collected %d from %s\n", x.names[c.seat], c.amount, pot)
	}
	var raked events.Chips
	for _, r := range x.rakes {
		raked += r.Amount
	}
	b.WriteString("*** SUMMARY ***\n")
	fmt.Fprintf(b, "Total pot %d | Rake %d\n", x.putIn, raked)
	for _, s := range st.Seats {
		var marks strings.Builder
		if s.Seat == st.Dealer {
			marks.WriteString("(button) ")
		}
		if s.Seat == sb {
			marks.WriteString("(small blind) ")
		} else if s.Seat == bb {
			marks.WriteString("(big blind) ")
		}
		won := x.won[s.Seat]
		var what string
		r, folded := x.folded[s.Seat]
		shown, showed := x.shown[s.Seat]
		switch {
		case folded && r == events.RoundSecond:
			what = "folded after the Draw"
		case folded:
			what = "folded before the Draw"
		case showed && won > 0:
			what = fmt.Sprintf("showed [%s] and won (%d) with %s", cards.Join(shown, " "), won, x.describe(shown))
		case showed:
			what = fmt.Sprintf("showed [%s] and lost with %s", cards.Join(shown, " "), x.describe(shown))
		case x.mucked[s.Seat] && x.final[s.Seat] != nil:
			what = fmt.Sprintf("mucked [%s]", cards.Join(x.final[s.Seat], " "))
		case won > 0:
			what = fmt.Sprintf("collected (%d)", won)
		case x.mucked[s.Seat]:
			what = "mucked"
		default:
			// Nobody else stayed in and the pot was empty: a walk with no small blind.
			what = "collected (0)"
		}
		fmt.Fprintf(b, "Seat %d: %s %s%s\n", s.Seat, s.Player, marks.String(), what)
	}
}

// psNumber gives a hand a PokerStars hand number (twelve digits) derived from its id, so that
// the same hand exported twice has the same number, and an import of the export the same id.
func psNumber(id string) uint64 {
	u, err := uuid.Parse(id)
	if err != nil {
		h := fnv.New64a()
		h.Write([]byte(id))
		return h.Sum64()%900_000_000_000 + 100_000_000_000
	}
	return binary.BigEndian.Uint64(u[8:])%900_000_000_000 + 100_000_000_000
}

// psTournament gives a tournament a PokerStars tournament number: its id when it is one, else
// ten digits derived from it.
func psTournament(id string) string {
	if id != "" && strings.Trim(id, "0123456789") == "" {
		return id
	}
	h := fnv.New64a()
	h.Write([]byte(id))
	return strconv.FormatUint(h.Sum64()%9_000_000_000+1_000_000_000, 10)
}

// roman writes n (1–3999) in Roman numerals, as PokerStars numbers tournament levels.
func roman(n int) string {
	vals := []int{1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1}
	syms := []string{"M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"}
	var b strings.Builder
	for i, v := range vals {
		for n >= v {
			b.WriteString(syms[i])
			n -= v
		}
	}
	return b.String()
}

func plural(n int, one, other string) string {
	if n == 1 {
		return one
	}
	return other
}
