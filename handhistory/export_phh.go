package handhistory

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/rules"
)

// writePHH writes x as a PHH hand: the fields of a .phh file, under the table [k] when the file
// holds several hands (.phhs). The variant is fechado's code for five-card draw high (PHH has
// none: see PHHFixedDraw); players are in PHH position order (p1 left of the button, the button
// last), the blinds and antes by position as pokerkit places them; amounts are chips; each
// player's deal is one "d dh" action ("??" for a card the log does not know), the draw his
// "sd" (the cards he threw, "??" each when unknown) then the replacements; bets are "cbr" to the
// player's total in the round, checks and calls "cc", folds "f", the showdown "sm" with the
// cards shown (without, a muck). Returned bets are not written: PHH returns what nobody matched
// by itself. finishing_stacks close the hand, so that a reader can check the awards.
func writePHH(b *bytes.Buffer, x *xHand, k int, many bool) {
	st := x.start
	n := len(x.order)
	pos := map[events.Seat]int{} // seat → p index (1-based)
	for i, s := range x.order {
		pos[s] = i + 1
	}
	if many {
		if k > 1 {
			b.WriteString("\n")
		}
		fmt.Fprintf(b, "[%d]\n", k)
	}
	variant := map[rules.Structure]string{rules.FixedLimit: PHHFixedDraw, rules.PotLimit: PHHPotDraw, rules.NoLimit: PHHNoLimitDraw}[x.preset.Structure]
	fmt.Fprintf(b, "variant = %s\n", tomlString(variant))
	// Forced bets by position; heads-up, pokerkit applies the arrays reversed.
	at := func(i int) int {
		if n == 2 {
			return 1 - i
		}
		return i
	}
	antes := make([]events.Chips, n)
	for _, a := range x.acts {
		if a.kind == xAnte {
			antes[at(pos[a.seat]-1)] = st.Stakes.Ante
		}
	}
	blinds := make([]events.Chips, n)
	blinds[0], blinds[1] = x.smallBlnd, st.Stakes.MinBet
	fmt.Fprintf(b, "antes = %s\n", chipList(antes))
	fmt.Fprintf(b, "blinds_or_straddles = %s\n", chipList(blinds))
	if x.preset.Structure == rules.FixedLimit {
		fmt.Fprintf(b, "small_bet = %d\nbig_bet = %d\n", st.Stakes.MinBet, st.Stakes.MaxBet)
	} else {
		fmt.Fprintf(b, "min_bet = %d\n", st.Stakes.MinBet)
	}
	stacks := make([]events.Chips, n)
	finish := make([]events.Chips, n)
	seats := make([]string, n)
	names := make([]string, n)
	for i, s := range x.order {
		stacks[i] = x.stack[s]
		seats[i] = strconv.Itoa(int(s))
		names[i] = tomlString(x.names[s])
		for _, e := range x.ended.Stacks {
			if e.Seat == s {
				finish[i] = e.Stack
			}
		}
	}
	fmt.Fprintf(b, "starting_stacks = %s\n", chipList(stacks))
	fmt.Fprintf(b, "seats = [%s]\n", strings.Join(seats, ", "))
	fmt.Fprintf(b, "players = [%s]\n", strings.Join(names, ", "))
	b.WriteString("actions = [\n")
	act := func(format string, a ...any) { fmt.Fprintf(b, "  %s,\n", tomlString(fmt.Sprintf(format, a...))) }
	unknown := func(k int) string { return strings.Repeat("??", k) }
	dealt := false
	deal := func() {
		if dealt {
			return
		}
		dealt = true
		for i, s := range x.order {
			if cs, ok := x.deal[s]; ok {
				act("d dh p%d %s", i+1, phhCardString(cs))
			} else {
				act("d dh p%d %s", i+1, unknown(5))
			}
		}
	}
	// The draw: every discard, then every replacement, as pokerkit records it.
	var pending []xAct
	flushDraw := func() {
		for _, a := range pending {
			if a.thrown == 0 {
				continue
			}
			if len(a.drawn) == a.thrown {
				act("d dh p%d %s", pos[a.seat], phhCardString(a.drawn))
			} else {
				act("d dh p%d %s", pos[a.seat], unknown(a.thrown))
			}
		}
		pending = nil
	}
	for _, a := range x.acts {
		p := pos[a.seat]
		switch a.kind {
		case xBet:
			deal()
			flushDraw()
			switch a.action {
			case events.Fold:
				act("p%d f", p)
			case events.Check, events.Call:
				act("p%d cc", p)
			case events.Bet, events.Raise:
				act("p%d cbr %d", p, a.to)
			}
		case xDraw:
			deal()
			switch {
			case a.thrown == 0:
				act("p%d sd", p)
			case a.discarded != nil:
				act("p%d sd %s", p, phhCardString(a.discarded))
			default:
				act("p%d sd %s", p, unknown(a.thrown))
			}
			pending = append(pending, a)
		case xShow:
			deal()
			flushDraw()
			act("p%d sm %s", p, phhCardString(a.cards))
		case xMuck:
			deal()
			flushDraw()
			act("p%d sm", p)
		}
	}
	deal()
	flushDraw()
	b.WriteString("]\n")
	fmt.Fprintf(b, "finishing_stacks = %s\n", chipList(finish))
	// time is a TOML local time, as PHH defines it and pokerkit reads it (a datetime.time), not a
	// string.
	u := x.at.UTC()
	fmt.Fprintf(b, "year = %d\nmonth = %d\nday = %d\ntime = %s\ntime_zone = \"UTC\"\n", u.Year(), int(u.Month()), u.Day(), u.Format("15:04:05"))
	// pokerkit's table and hand are numbers: fechado's ids go in user-defined fields, which
	// pokerkit keeps without a warning when their names begin with "_".
	fmt.Fprintf(b, "hand = %d\n", st.Number)
	fmt.Fprintf(b, "_fechado_table = %s\n", tomlString(x.table))
	fmt.Fprintf(b, "_fechado_hand = %s\n", tomlString(x.id))
}

func chipList(cs []events.Chips) string {
	s := make([]string, len(cs))
	for i, c := range cs {
		s[i] = strconv.FormatInt(int64(c), 10)
	}
	return "[" + strings.Join(s, ", ") + "]"
}

func phhCardString(cs []cards.Card) string {
	var b strings.Builder
	for _, c := range cs {
		b.WriteString(c.String())
	}
	return b.String()
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
