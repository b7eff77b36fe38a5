package handhistory

import (
	"strconv"
	"strings"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
)

// ImportFullTilt converts Full Tilt Poker text hand histories of "5 Card Draw" (Limit, Pot Limit,
// No Limit cash games) to events. Full Tilt wrote UTF-16LE with CRLF (UTF-8 copies are read too).
//
// The layout is the one FPDB's FulltiltToFpdb.py reads: a header "Full Tilt Poker Game #N: Table
// NAME (6 max) - $0.10/$0.20 - Limit 5 Card Draw - 12:04:00 ET - 2010/11/06", the seats, the blinds
// ("posts the small blind of", "posts the big blind of", "posts a dead small blind of", "antes"),
// "The button is in seat #N", "*** HOLE CARDS ***", the bets ("raises to" gives the total),
// "*** DRAW ***" with every discard first ("discards N cards [..]", "stands pat") then the
// replacements ("is dealt N cards", or "Dealt to NAME [kept] [new]" for the player whose history
// it is), the showdown ("shows [..]", "mucks"), the collections ("wins the pot ($X)", "ties for
// the pot", "wins the main pot", "wins the side pot"), "Uncalled bet of $X returned to NAME" and
// the summary. Hand ids derive from "fulltilt/" and the hand number; tables are "ft-" and the
// table name, as PokerStars sessions are.
func ImportFullTilt(name string, data []byte) *Result {
	return importText(name, "ft", "Full Tilt", data, reFTHeader(), parseFT)
}

var (
	reFTHeader  = lazyRegexp(`^Full Tilt Poker Game #(\d+): (.*)$`)
	reFTGame    = lazyRegexp(`^(.+?) - (` + amt + `)/(` + amt + `)(?: Ante (` + amt + `))? - (No Limit|Pot Limit|Limit) (.+?) - (\d{1,2}:\d{2}:\d{2}) ET - (\d{4}/\d{2}/\d{2})\s*(?:\(partial\))?$`)
	reFTTable   = lazyRegexp(`^Table (.+?)(?: \((?:deep |shallow )?\d+ max\)| \(heads up\))*$`)
	reFTSeat    = lazyRegexp(`^Seat (\d+): (.+) \((` + amt + `)\)(, is sitting out)?$`)
	reFTButton  = lazyRegexp(`^The button is in seat #(\d+)$`)
	reFTSection = lazyRegexp(`^\*\*\* (.+?) \*\*\*(?: \(Pot: .*\))?$`)
	reFTDealt   = lazyRegexp(`^Dealt to (.+?) \[([^\]]*)\](?: \[([^\]]*)\])?$`)
	reFTReturn  = lazyRegexp(`^Uncalled bet of (` + amt + `) returned to (.+)$`)
	reFTTotal   = lazyRegexp(`^Total pot (` + amt + `)(.*?) \| Rake (` + amt + `)$`)
	reFTWin     = lazyRegexp(`^(wins|ties for) (the pot|the main pot|the side pot|side pot #(\d+)|pot (\d+)) \((` + amt + `)\)(?: with .*)?$`)

	reFTSB      = lazyRegexp(`^posts the small blind of (` + amt + `)$`)
	reFTBB      = lazyRegexp(`^posts (?:the big blind of )?(` + amt + `)$`)
	reFTDead    = lazyRegexp(`^posts a dead small blind of (` + amt + `)$`)
	reFTAnte    = lazyRegexp(`^antes (` + amt + `)$`)
	reFTCall    = lazyRegexp(`^calls (` + amt + `)$`)
	reFTBet     = lazyRegexp(`^bets (` + amt + `)$`)
	reFTRaise   = lazyRegexp(`^raises to (` + amt + `)$`)
	reFTDiscard = lazyRegexp(`^discards (\d+) cards?(?: \[([^\]]*)\])?$`)
	reFTPat     = lazyRegexp(`^stands pat(?: on)?(?: \[([^\]]*)\])?$`)
	reFTIsDealt = lazyRegexp(`^is dealt (\d+) cards?$`)
	reFTShows   = lazyRegexp(`^shows \[([^\]]*)\](?: .*)?$`)
	reFTMucks   = lazyRegexp(`^mucks(?: hand)?$`)
	reFTNoise   = lazyRegexp(`^(?:has \d+ seconds left to act|has timed out|has been disconnected|has reconnected|sits out|is sitting out|has returned|stands up|sits down|is feeling .*|adds ` + amt + `.*|has requested TIME|seconds left to act)$`)
	reFTAllIn   = lazyRegexp(`,? and is all in$`)
)

func parseFT(p *psParser) (*psHand, int, error) {
	hl := p.start
	m := reFTHeader().FindStringSubmatch(p.lines[hl])
	h := newRoomHand("fulltilt", m[1], hl)
	d := h.d
	fail := func(i int, kind error, format string, a ...any) (*psHand, int, error) {
		return h, 0, atLine(i+1, errf(kind, format, a...))
	}
	g := reFTGame().FindStringSubmatch(m[2])
	if g == nil {
		if !strings.Contains(m[2], "5 Card Draw") {
			return fail(hl, ErrUnsupported, "game %q is not 5 Card Draw (the online-draw preset is five-card draw high with one draw)", clip(m[2]))
		}
		return fail(hl, ErrMalformed, "unknown header %q", clip(m[2]))
	}
	if g[6] != "5 Card Draw" {
		return fail(hl, ErrUnsupported, "game %q is not 5 Card Draw (the online-draw preset is five-card draw high with one draw)", g[6])
	}
	table := g[1]
	if t := reFTTable().FindStringSubmatch(table); t != nil {
		table = t[1]
	}
	h.tableName, h.seated = table, true
	p.scale = 1
	if strings.ContainsAny(g[2], "$€£") {
		p.scale = 100
	}
	lo, err1 := p.amount(g[2])
	hi, err2 := p.amount(g[3])
	if err1 != nil || err2 != nil || lo <= 0 || hi < lo {
		return fail(hl, ErrMalformed, "bad stakes %s/%s", g[2], g[3])
	}
	switch g[5] {
	case "Limit":
		// Full Tilt names fixed-limit games by their bets ($0.10/$0.20); the blinds are half and
		// the whole small bet.
		d.structure, d.stakes = "fixed", events.Stakes{MinBet: lo, MaxBet: hi}
	case "Pot Limit":
		d.structure, d.stakes = "pot", events.Stakes{MinBet: hi}
	default:
		d.structure, d.stakes = "no", events.Stakes{MinBet: hi}
	}
	at, err := psTime(strings.ReplaceAll(g[8], "-", "/")+" "+g[7], "ET", "", "")
	if err != nil {
		return fail(hl, ErrMalformed, "%v", err)
	}
	d.at = at

	button := 0
	lastLine := hl
	stray := 0
	for i := hl + 1; i < p.end; i++ {
		l := strings.TrimRight(p.lines[i], " \t")
		if l == "" {
			if p.phase == phaseSummary && p.haveSum {
				if k := firstNonBlank(p.lines, i, p.end); k >= 0 {
					stray = k
				}
				break
			}
			continue
		}
		lastLine = i
		bad := func(kind error, format string, a ...any) (*psHand, int, error) { return fail(i, kind, format, a...) }
		if p.phase == phaseSummary {
			if t := reFTTotal().FindStringSubmatch(l); t != nil {
				tot, e1 := p.amount(t[1])
				rk, e2 := p.amount(t[3])
				if e1 != nil || e2 != nil {
					return bad(ErrMalformed, "bad amount in %q", clip(l))
				}
				p.total, p.rake, p.haveSum, p.totalRow = tot, rk, true, i
				continue
			}
			if sm := reSumSeat().FindStringSubmatch(l); sm != nil {
				n, _ := strconv.Atoi(sm[1])
				s := events.Seat(n)
				if _, ok := p.bySeat[s]; !ok {
					return bad(ErrMalformed, "summary line for seat %d, which is not listed", n)
				}
				p.summary[s] = true
				if c := reSumShow().FindStringSubmatch(sm[2]); c != nil && p.dealtIn[s] {
					cs, err := cards.ParseList(c[1])
					if err != nil || len(cs) != 5 {
						return bad(ErrMalformed, "bad cards %q", c[1])
					}
					d.final[s] = cs
				}
				continue
			}
			return bad(ErrMalformed, "unknown summary line %q", clip(l))
		}
		if sm := reFTSeat().FindStringSubmatch(l); sm != nil && p.phase == phasePreDeal {
			n, _ := strconv.Atoi(sm[1])
			c, err := p.amount(sm[3])
			if err != nil {
				return bad(ErrMalformed, "seat %d: %v", n, err)
			}
			if err := p.seatPlayer(events.Seat(n), sm[2], c, sm[4] == ""); err != nil {
				return h, 0, atLine(i+1, err)
			}
			continue
		}
		if b := reFTButton().FindStringSubmatch(l); b != nil {
			button, _ = strconv.Atoi(b[1])
			continue
		}
		if sec := reFTSection().FindStringSubmatch(l); sec != nil {
			switch sec[1] {
			case "HOLE CARDS":
				p.phase = phaseFirst
			case "DRAW":
				if p.phase > phaseDraw {
					return bad(ErrUnsupported, "a second draw: the online-draw preset has one")
				}
				p.startDraw()
			case "SHOW DOWN":
				p.phase = phaseShowdown
			case "SUMMARY":
				p.phase = phaseSummary
			case "FIRST DRAW", "SECOND DRAW", "THIRD DRAW", "FLOP", "TURN", "RIVER":
				return bad(ErrUnsupported, "%q: not five-card draw", sec[1])
			default:
				return bad(ErrMalformed, "unknown section %q", sec[1])
			}
			continue
		}
		if p.bySeat == nil {
			return bad(ErrMalformed, "want the seats, got %q", clip(l))
		}
		if dm := reFTDealt().FindStringSubmatch(l); dm != nil {
			if err := p.dealtTo(d, l, dm[1], dm[2], dm[3]); err != nil {
				return h, 0, atLine(i+1, err)
			}
			continue
		}
		if r := reFTReturn().FindStringSubmatch(l); r != nil {
			s, ok := p.byName[r[2]]
			if !ok {
				return bad(ErrMalformed, "bet returned to %q, who has no seat", r[2])
			}
			a, err := p.amount(r[1])
			if err != nil {
				return bad(ErrMalformed, "%v", err)
			}
			p.inRound[s] -= a
			d.steps = append(d.steps, &step{kind: stepReturn, line: i + 1, seat: s, amount: a})
			continue
		}
		s, rest, ok := p.actor(l, " ")
		if !ok {
			if cs, _, isChat := p.actor(l, ": "); isChat && cs != 0 {
				continue // chat
			}
			return bad(ErrMalformed, "unknown line %q", clip(l))
		}
		rest = reFTAllIn().ReplaceAllString(rest, "")
		money := func(a string) events.Chips {
			c, e := p.amount(a)
			if e != nil && err == nil {
				err = e
			}
			return c
		}
		err = nil
		switch {
		case reFTNoise().MatchString(rest):
			if strings.HasPrefix(rest, "sits out") || strings.HasPrefix(rest, "is sitting out") {
				if p.phase == phasePreDeal {
					p.dealtIn[s] = false
				}
			}
		case reFTSB().MatchString(rest):
			p.blind(d, i, s, events.BlindSmall, money(reFTSB().FindStringSubmatch(rest)[1]))
		case reFTDead().MatchString(rest):
			p.blind(d, i, s, events.BlindDead, money(reFTDead().FindStringSubmatch(rest)[1]))
		case reFTBB().MatchString(rest):
			p.blind(d, i, s, events.BlindBig, money(reFTBB().FindStringSubmatch(rest)[1]))
		case reFTAnte().MatchString(rest):
			p.dealtIn[s] = true
			d.steps = append(d.steps, &step{kind: stepAnte, line: i + 1, seat: s, amount: money(reFTAnte().FindStringSubmatch(rest)[1])})
		case rest == "folds":
			err = p.act(d, i, s, events.Fold, 0, 0)
		case rest == "checks":
			err = p.act(d, i, s, events.Check, 0, 0)
		case reFTCall().MatchString(rest):
			err = p.act(d, i, s, events.Call, money(reFTCall().FindStringSubmatch(rest)[1]), 0)
		case reFTBet().MatchString(rest):
			err = p.act(d, i, s, events.Bet, money(reFTBet().FindStringSubmatch(rest)[1]), 0)
		case reFTRaise().MatchString(rest):
			err = p.act(d, i, s, events.Raise, 0, money(reFTRaise().FindStringSubmatch(rest)[1]))
		case reFTDiscard().MatchString(rest):
			dm := reFTDiscard().FindStringSubmatch(rest)
			n, _ := strconv.Atoi(dm[1])
			var cs []cards.Card
			if dm[2] != "" {
				if cs, err = cards.ParseList(dm[2]); err != nil {
					return bad(ErrMalformed, "bad cards %q: %v", dm[2], err)
				}
			}
			err = p.discard(d, i, s, n, cs)
		case reFTPat().MatchString(rest):
			err = p.discard(d, i, s, 0, nil)
			if pm := reFTPat().FindStringSubmatch(rest); err == nil && pm[1] != "" {
				cs, e := cards.ParseList(pm[1])
				if e != nil || len(cs) != 5 {
					return bad(ErrMalformed, "bad cards %q", pm[1])
				}
				d.steps[len(d.steps)-1].after = cs
			}
		case reFTIsDealt().MatchString(rest):
			n, _ := strconv.Atoi(reFTIsDealt().FindStringSubmatch(rest)[1])
			if ds := p.lastDraw(d, s); ds == nil || ds.count != n || p.phase != phaseDraw {
				return bad(ErrInconsistent, "%s is dealt %d cards without throwing as many", p.bySeat[s], n)
			}
		case reFTShows().MatchString(rest):
			cs, e := cards.ParseList(reFTShows().FindStringSubmatch(rest)[1])
			if e != nil || len(cs) != 5 {
				return bad(ErrMalformed, "bad cards in %q", clip(l))
			}
			d.steps = append(d.steps, &step{kind: stepShow, line: i + 1, seat: s, shown: cs})
		case reFTMucks().MatchString(rest):
			d.steps = append(d.steps, &step{kind: stepMuck, line: i + 1, seat: s})
		case reFTWin().MatchString(rest):
			w := reFTWin().FindStringSubmatch(rest)
			pot := -1
			switch {
			case w[2] == "the main pot":
				pot = 0
			case w[2] == "the side pot":
				pot = 1
			case w[3] != "":
				pot, _ = strconv.Atoi(w[3])
			case w[4] != "":
				pot, _ = strconv.Atoi(w[4])
				pot--
			}
			p.awards = append(p.awards, psAward{seat: s, pot: pot, amount: money(w[5]), line: i + 1})
		default:
			return bad(ErrMalformed, "unknown action %q", clip(rest))
		}
		if err != nil {
			return h, 0, atLine(i+1, err)
		}
	}
	if !p.haveSum {
		return fail(lastLine, ErrMalformed, "the hand is cut short: no summary with its total pot")
	}
	if button == 0 {
		return fail(hl, ErrMalformed, "no line says where the button is")
	}
	d.button = events.Seat(button)
	d.endLine = p.totalRow + 1
	p.seatsDealt(d)
	for _, pl := range d.players {
		if !p.summary[pl.seat] {
			return fail(lastLine, ErrMalformed, "the hand is cut short: the summary has no line for seat %d", pl.seat)
		}
	}
	d.settle = p.settle
	return h, stray, nil
}
