package handhistory

import (
	"strconv"
	"strings"
	"time"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
)

// ImportOnGame converts OnGame network text hand histories of FIVE_CARD_DRAW (LIMIT, POT_LIMIT,
// NO_LIMIT cash games) to events.
//
// The layout is the one FPDB's OnGameToFpdb.py reads: "***** History for hand R5-…-N *****", the
// start time with its zone ("GMT+0100", "CET", "EEST"…), "Table: NAME [id] (LIMIT FIVE_CARD_DRAW
// $0.05/$0.10, Real money)", "Button: seat N", the seats, the blinds ("posts small blind ($X)",
// "posts big blind ($X)", "posts dead blind ($X)"), "Dealing to NAME: [Tc, 9h, …]", the bets
// ("raises $X to $Y", "[all in]"), the draw ("changed N cards", "New hand for NAME: [..]"), "---"
// between streets (sometimes left out), and the summary: "Main pot: $X won by NAME ($Y)", side
// pots, "Rake taken: $X", and a line per seat whose cards, when listed, are the hand shown at
// the showdown (OnGame writes no showdown lines). OnGame prints no returned bets: what nobody
// matched goes back at the end of its round. Hand ids derive from "ongame/" and the hand's
// name; tables are "og-" and the table's name.
func ImportOnGame(name string, data []byte) *Result {
	return importText(name, "og", "OnGame", data, reOGHeader(), parseOG)
}

var (
	reOGHeader  = lazyRegexp(`^\*\*\*\*\* History for hand ([A-Z0-9-]+) \*\*\*\*\*\s*$`)
	reOGEnd     = lazyRegexp(`^\*\*\*\*\* End of hand ([A-Z0-9-]+) \*\*\*\*\*\s*$`)
	reOGStart   = lazyRegexp(`^Start hand: \w{3} (\w{3} \d{1,2} \d{1,2}:\d{2}:\d{2}) (\S+) (\d{4})$`)
	reOGTable   = lazyRegexp(`^Table: (.+?) \[(\d+)\] \((NO_LIMIT|POT_LIMIT|LIMIT) ([A-Z_]+) (` + amt + `)/(` + amt + `)(?:, ([^)]*))?\)$`)
	reOGButton  = lazyRegexp(`^Button: seat (\d+)$`)
	reOGSeat    = lazyRegexp(`^Seat (\d+): (.+) \((` + amt + `)\)$`)
	reOGDealt   = lazyRegexp(`^(Dealing to|New hand for) (.+?): \[([^\]]*)\]$`)
	rePotWon    = lazyRegexp(`^(Main pot|Side pot(?: (\d+))?): (` + amt + `) won by (.+)$`)
	reOGWinner  = lazyRegexp(`^(.+?) \((` + amt + `)\)(?:, |$)`)
	reOGRake    = lazyRegexp(`^Rake taken: (` + amt + `)$`)
	reOGSumSeat = lazyRegexp(`^Seat (\d+): (.+?) \((` + amt + `)\)(?:, net: [-+]?` + amt + `)?(?:, \[([^\]]*)\].*)?$`)
	reOGSB      = lazyRegexp(`^posts small blind \((` + amt + `)\)$`)
	reOGBB      = lazyRegexp(`^posts big blind \((` + amt + `)\)$`)
	reOGDead    = lazyRegexp(`^posts dead blind \((` + amt + `)\)$`)
	reOGAnte    = lazyRegexp(`^posts ante \(?(` + amt + `)\)?$`)
	reOGCall    = lazyRegexp(`^calls (` + amt + `)$`)
	reOGBet     = lazyRegexp(`^bets (` + amt + `)$`)
	reOGRaise   = lazyRegexp(`^raises (` + amt + `) to (` + amt + `)$`)
	reOGChanged = lazyRegexp(`^changed (\d+) cards?$`)
	reOGAllIn   = lazyRegexp(` (?:\[all in\]|and is all-in)$`)
	reOGNoise   = lazyRegexp(`^(?:sits out|is sitting out|has returned|sits in|joins the table|leaves the table|timed out|is disconnected|is connected)$`)
)

// ogZones are the zone names OnGame prints, by their offset east of UTC in hours.
var ogZones = map[string]int{"GMT": 0, "UTC": 0, "WET": 0, "WEST": 1, "BST": 1, "CET": 1, "CEST": 2, "EET": 2, "EEST": 3, "MSK": 3,
	"EST": -5, "EDT": -4, "CST": -6, "CDT": -5, "MST": -7, "MDT": -6, "PST": -8, "PDT": -7, "AEST": 10, "AEDT": 11}

// ogTime reads "Sep 13 00:21:02", its zone ("GMT+0100", "CET") and year as RFC 3339.
func ogTime(when, zone, year string) (string, error) {
	off, ok := 0, false
	if h, known := ogZones[zone]; known {
		off, ok = h*3600, true
	} else if strings.HasPrefix(zone, "GMT") && len(zone) == 8 {
		hh, e1 := strconv.Atoi(zone[4:6])
		mm, e2 := strconv.Atoi(zone[6:8])
		if e1 == nil && e2 == nil && (zone[3] == '+' || zone[3] == '-') {
			off, ok = hh*3600+mm*60, true
			if zone[3] == '-' {
				off = -off
			}
		}
	}
	if !ok {
		return "", errf(ErrMalformed, "unknown time zone %q", zone)
	}
	t, err := time.ParseInLocation("Jan 2 15:04:05 2006", when+" "+year, time.FixedZone(zone, off))
	if err != nil {
		return "", errf(ErrMalformed, "bad time %q: %v", when, err)
	}
	return t.Format(time.RFC3339), nil
}

// ogCards reads "Tc, 9h, 7c" (OnGame separates cards with commas).
func ogCards(s string) ([]cards.Card, error) {
	return cards.ParseList(strings.ReplaceAll(s, ",", " "))
}

func parseOG(p *psParser) (*psHand, int, error) {
	hl := p.start
	m := reOGHeader().FindStringSubmatch(p.lines[hl])
	h := newRoomHand("ongame", m[1], hl)
	d := h.d
	fail := func(i int, kind error, format string, a ...any) (*psHand, int, error) {
		return h, 0, atLine(i+1, errf(kind, format, a...))
	}
	button, ended, lastLine := 0, false, hl
	var shows []*step
	folded := map[events.Seat]bool{}
	for i := hl + 1; i < p.end; i++ {
		l := strings.TrimRight(p.lines[i], " \t")
		if l == "" {
			continue
		}
		if ended {
			return h, i, nil
		}
		lastLine = i
		bad := func(kind error, format string, a ...any) (*psHand, int, error) { return fail(i, kind, format, a...) }
		money := func(a string) events.Chips {
			c, err := p.amount(a)
			if err != nil {
				c = -1
			}
			return c
		}
		switch {
		case reOGEnd().MatchString(l):
			ended = true
			continue
		case reOGStart().MatchString(l):
			t := reOGStart().FindStringSubmatch(l)
			at, err := ogTime(t[1], t[2], t[3])
			if err != nil {
				return h, 0, atLine(i+1, err)
			}
			d.at = at
			continue
		case reOGTable().MatchString(l):
			t := reOGTable().FindStringSubmatch(l)
			if t[4] != "FIVE_CARD_DRAW" {
				return bad(ErrUnsupported, "game %s is not five-card draw (the online-draw preset is five-card draw high with one draw)", t[4])
			}
			h.tableName, h.seated = t[1], true
			p.scale = 1
			if strings.ContainsAny(t[5], "$€£") {
				p.scale = 100
			}
			lo, hi := money(t[5]), money(t[6])
			if lo <= 0 || hi < lo {
				return bad(ErrMalformed, "bad stakes %s/%s", t[5], t[6])
			}
			switch t[3] {
			case "LIMIT":
				d.structure, d.stakes = "fixed", events.Stakes{MinBet: lo, MaxBet: hi}
			case "POT_LIMIT":
				d.structure, d.stakes = "pot", events.Stakes{MinBet: hi}
			default:
				d.structure, d.stakes = "no", events.Stakes{MinBet: hi}
			}
			continue
		case strings.HasPrefix(l, "User: ") || strings.HasPrefix(l, "Players in round: ") || l == "---":
			continue
		case reOGButton().MatchString(l):
			button, _ = strconv.Atoi(reOGButton().FindStringSubmatch(l)[1])
			continue
		case l == "Dealing pocket cards":
			p.phase = phaseFirst
			continue
		case l == "Summary:":
			p.phase = phaseSummary
			continue
		}
		if p.phase == phaseSummary {
			switch {
			case rePotWon().MatchString(l):
				w := rePotWon().FindStringSubmatch(l)
				pot := -1
				if w[1] != "Main pot" {
					pot = 1
					if w[2] != "" {
						pot, _ = strconv.Atoi(w[2])
					}
				} else if strings.Contains(strings.Join(p.lines[p.start:p.end], "\n"), "\nSide pot") {
					pot = 0
				}
				p.total += money(w[3])
				for rest := w[4]; rest != ""; {
					wm := reOGWinner().FindStringSubmatch(rest)
					if wm == nil {
						return bad(ErrMalformed, "bad winners %q", clip(w[4]))
					}
					s, ok := p.byName[wm[1]]
					if !ok {
						return bad(ErrMalformed, "%q wins but has no seat", wm[1])
					}
					p.awards = append(p.awards, psAward{seat: s, pot: pot, amount: money(wm[2]), line: i + 1})
					rest = rest[len(wm[0]):]
				}
				p.haveSum, p.totalRow = true, i
			case reOGRake().MatchString(l):
				p.rake = money(reOGRake().FindStringSubmatch(l)[1])
			case reOGSumSeat().MatchString(l):
				sm := reOGSumSeat().FindStringSubmatch(l)
				n, _ := strconv.Atoi(sm[1])
				s := events.Seat(n)
				if p.bySeat[s] != sm[2] {
					return bad(ErrMalformed, "summary line for seat %d, which is not %q's", n, sm[2])
				}
				p.summary[s] = true
				if sm[4] != "" && p.dealtIn[s] {
					cs, err := ogCards(sm[4])
					if err != nil || len(cs) != 5 {
						return bad(ErrMalformed, "bad cards %q", sm[4])
					}
					d.final[s] = cs
					if !folded[s] {
						shows = append(shows, &step{kind: stepShow, line: i + 1, seat: s, shown: cs})
					}
				}
			default:
				return bad(ErrMalformed, "unknown summary line %q", clip(l))
			}
			continue
		}
		if sm := reOGSeat().FindStringSubmatch(l); sm != nil && p.phase == phasePreDeal {
			n, _ := strconv.Atoi(sm[1])
			if err := p.seatPlayer(events.Seat(n), sm[2], money(sm[3]), true); err != nil {
				return h, 0, atLine(i+1, err)
			}
			continue
		}
		if p.bySeat == nil {
			return bad(ErrMalformed, "want the seats, got %q", clip(l))
		}
		if dm := reOGDealt().FindStringSubmatch(l); dm != nil {
			s, ok := p.byName[dm[2]]
			if !ok {
				return bad(ErrMalformed, "cards dealt to %q, who has no seat", dm[2])
			}
			cs, err := ogCards(dm[3])
			if err != nil || len(cs) != 5 {
				return bad(ErrMalformed, "bad cards in %q", clip(l))
			}
			if dm[1] == "Dealing to" {
				d.dealt[s] = cs
			} else if ds := p.lastDraw(d, s); ds != nil {
				ds.after = cs
			} else {
				// OnGame sometimes leaves out the change line of the player whose history it is
				// (and never writes "changed 0 cards"): his deal and his new hand tell how many
				// cards he changed.
				n := 0
				if deal := d.dealt[s]; deal != nil {
					n = len(minus(deal, cs))
				}
				if err := p.discard(d, i, s, n, nil); err != nil {
					return h, 0, atLine(i+1, err)
				}
				d.steps[len(d.steps)-1].after = cs
			}
			continue
		}
		s, rest, ok := p.actor(l, " ")
		if !ok {
			return bad(ErrMalformed, "unknown line %q", clip(l))
		}
		rest = reOGAllIn().ReplaceAllString(rest, "")
		var err error
		switch {
		case reOGNoise().MatchString(rest):
		case reOGSB().MatchString(rest):
			p.blind(d, i, s, events.BlindSmall, money(reOGSB().FindStringSubmatch(rest)[1]))
		case reOGBB().MatchString(rest):
			p.blind(d, i, s, events.BlindBig, money(reOGBB().FindStringSubmatch(rest)[1]))
		case reOGDead().MatchString(rest):
			p.blind(d, i, s, events.BlindDead, money(reOGDead().FindStringSubmatch(rest)[1]))
		case reOGAnte().MatchString(rest):
			d.steps = append(d.steps, &step{kind: stepAnte, line: i + 1, seat: s, amount: money(reOGAnte().FindStringSubmatch(rest)[1])})
		case rest == "folds":
			folded[s] = true
			err = p.act(d, i, s, events.Fold, 0, 0)
		case rest == "checks":
			err = p.act(d, i, s, events.Check, 0, 0)
		case reOGCall().MatchString(rest):
			err = p.act(d, i, s, events.Call, money(reOGCall().FindStringSubmatch(rest)[1]), 0)
		case reOGBet().MatchString(rest):
			err = p.act(d, i, s, events.Bet, money(reOGBet().FindStringSubmatch(rest)[1]), 0)
		case reOGRaise().MatchString(rest):
			err = p.act(d, i, s, events.Raise, 0, money(reOGRaise().FindStringSubmatch(rest)[2]))
		case reOGChanged().MatchString(rest):
			n, _ := strconv.Atoi(reOGChanged().FindStringSubmatch(rest)[1])
			err = p.discard(d, i, s, n, nil)
		default:
			return bad(ErrMalformed, "unknown action %q", clip(rest))
		}
		if err != nil {
			return h, 0, atLine(i+1, err)
		}
	}
	if !ended || !p.haveSum {
		return fail(lastLine, ErrMalformed, "the hand is cut short: no summary and end line")
	}
	for _, st := range d.steps {
		if st.amount < 0 {
			return fail(st.line-1, ErrMalformed, "bad amount")
		}
	}
	if button == 0 || d.at == "" || !h.seated {
		return fail(hl, ErrMalformed, "no start time, table or button line")
	}
	d.button = events.Seat(button)
	d.endLine = p.totalRow + 1
	// A showdown when two or more did not fold: the cards the summary lists are the hands
	// shown; who did not fold and shows nothing mucked.
	live := 0
	for s := range p.dealtIn {
		if p.dealtIn[s] && !folded[s] {
			live++
		}
	}
	if live > 1 {
		d.steps = append(d.steps, shows...)
		won := map[events.Seat]bool{}
		for _, a := range p.awards {
			won[a.seat] = true
		}
		for _, s := range p.sortedSeats() {
			// A winner whose cards OnGame does not list showed them to the table, unknown
			// to us: neither shown nor mucked.
			if p.dealtIn[s] && !folded[s] && d.final[s] == nil && !won[s] {
				d.steps = append(d.steps, &step{kind: stepMuck, line: d.endLine, seat: s})
			}
		}
	}
	p.seatsDealt(d)
	positionalBigBlind(d)
	returnUnmatched(d)
	d.settle = p.settle
	return h, 0, nil
}

// positionalBigBlind puts first the big blind posted from the big blind's place when several
// players post one (a player back or new posts one from where he sits, even the small blind's
// place, which then has no small blind): the rules take the first big blind posted as the
// table's, and the player left of it speaks first.
func positionalBigBlind(d *draft) {
	order := clockwise(d.players, d.button)
	if len(order) < 3 {
		return
	}
	var bigs []int
	var small events.Seat
	for k, s := range d.steps {
		if s.kind == stepBlind && s.blind == events.BlindBig {
			bigs = append(bigs, k)
		}
		if s.kind == stepBlind && s.blind == events.BlindSmall {
			small = s.seat
		}
	}
	if len(bigs) < 2 {
		return
	}
	want := order[1] // the small blind's place is order[0]
	if small != 0 {
		for k, s := range order {
			if s == small && k+1 < len(order) {
				want = order[k+1]
			}
		}
	}
	for _, k := range bigs {
		if d.steps[k].seat == want && k != bigs[0] {
			d.steps[bigs[0]], d.steps[k] = d.steps[k], d.steps[bigs[0]]
			return
		}
	}
}
