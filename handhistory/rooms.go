package handhistory

import (
	"regexp"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
)

// This file holds what the readers of the other rooms (Full Tilt, OnGame, Merge, Boss) share with
// the PokerStars reader: each fills a psParser's state (seats, names, the awards the room printed)
// and a draft, and assemble turns the hands of a file into tables and events, so that every room
// gets the same checks, the same ids (derived from the room and its hand number), the same
// sessions, rebuys, comings and goings.

// splitAt returns the indexes of the lines header matches: where the hands of a text file begin.
func splitAt(lines []string, header *regexp.Regexp) []int {
	var starts []int
	for i, l := range lines {
		if header.MatchString(l) {
			starts = append(starts, i)
		}
	}
	return starts
}

// importText reads a text file of a room whose hands begin at lines header matches: text before
// the first hand must be blank; each hand is lines[start:next start], read by parse.
func importText(name, prefix, room string, data []byte, header *regexp.Regexp,
	parse func(p *psParser) (*psHand, int, error)) *Result {
	res := &Result{}
	lines := textLines(data)
	starts := splitAt(lines, header)
	end := len(lines)
	if len(starts) > 0 {
		end = starts[0]
	}
	if i := firstNonBlank(lines, 0, end); i >= 0 {
		res.Skipped = append(res.Skipped, &Error{File: name, Line: i + 1,
			Err: errf(ErrMalformed, "not a %s hand history: %q", room, clip(lines[i]))})
	}
	var blocks []psBlock
	for k, s := range starts {
		e := len(lines)
		if k+1 < len(starts) {
			e = starts[k+1]
		}
		p := &psParser{file: name, lines: lines, start: s, end: e}
		h, stray, err := parse(p)
		blocks = append(blocks, psBlock{h, err})
		if stray > 0 {
			res.Skipped = append(res.Skipped, &Error{File: name, Line: stray + 1,
				Err: errf(ErrMalformed, "stray line after the hand's summary: %q", clip(lines[stray]))})
		}
	}
	assemble(res, name, prefix, blocks)
	return res
}

// newRoomHand starts the draft of a hand of room numbered number, read from line (0-based).
func newRoomHand(room, number string, line int) *psHand {
	d := &draft{line: line + 1, endLine: line + 1, source: number,
		hand:  uuid.NewSHA1(Namespace, []byte(room+"/"+number)),
		dealt: map[events.Seat][]cards.Card{}, final: map[events.Seat][]cards.Card{}}
	return &psHand{d: d, number: number}
}

// seatPlayer adds a player to p's seat lists; dealtIn says whether he is dealt into the hand.
func (p *psParser) seatPlayer(s events.Seat, name string, stack events.Chips, dealtIn bool) error {
	if s < 1 || s > events.MaxSeat {
		return errf(ErrUnsupported, "seat %d: seats are 1 to %d", s, events.MaxSeat)
	}
	if p.bySeat == nil {
		p.bySeat, p.byName, p.dealtIn = map[events.Seat]string{}, map[string]events.Seat{}, map[events.Seat]bool{}
		p.stacks, p.inRound, p.summary = map[events.Seat]events.Chips{}, map[events.Seat]events.Chips{}, map[events.Seat]bool{}
	}
	if _, dup := p.bySeat[s]; dup {
		return errf(ErrMalformed, "seat %d is listed twice", s)
	}
	if _, dup := p.byName[name]; dup {
		return errf(ErrMalformed, "player %q sits in two seats", name)
	}
	p.bySeat[s], p.byName[name], p.stacks[s] = name, s, stack
	p.names = append(p.names, name)
	// Longest names first, so that "Bob Smith" is not read as "Bob".
	slices.SortFunc(p.names, func(a, b string) int { return len(b) - len(a) })
	p.dealtIn[s] = dealtIn && stack > 0
	return nil
}

// actor splits "NAME rest" (sep between them: " " or ": ") for a seated player.
func (p *psParser) actor(l, sep string) (events.Seat, string, bool) {
	for _, n := range p.names {
		if strings.HasPrefix(l, n) && strings.HasPrefix(l[len(n):], sep) {
			return p.byName[n], strings.TrimSpace(l[len(n)+len(sep):]), true
		}
	}
	return 0, "", false
}

// act adds a bet of seat s in the round of the current phase; to > 0 gives a raise's total in the
// round instead of its amount.
func (p *psParser) act(d *draft, i int, s events.Seat, action events.Action, amount, to events.Chips) error {
	switch p.phase {
	case phasePreDeal:
		p.phase = phaseFirst
	case phaseDraw:
		p.phase = phaseSecond
	case phaseShowdown, phaseSummary:
		return atLine(i+1, errf(ErrMalformed, "a bet after the showdown began"))
	}
	round := events.RoundFirst
	if p.phase == phaseSecond {
		round = events.RoundSecond
	}
	if to > 0 {
		if to <= p.inRound[s] {
			return atLine(i+1, errf(ErrInconsistent, "raises to %d having %d in already", to, p.inRound[s]))
		}
		amount = to - p.inRound[s]
	}
	p.inRound[s] += amount
	p.dealtIn[s] = true
	d.steps = append(d.steps, &step{kind: stepAct, line: i + 1, seat: s, action: action, amount: amount, round: round})
	return nil
}

// blind adds a forced bet of seat s before the deal.
func (p *psParser) blind(d *draft, i int, s events.Seat, kind events.BlindKind, amount events.Chips) {
	if kind != events.BlindDead {
		p.inRound[s] += amount
	}
	p.dealtIn[s] = true
	d.steps = append(d.steps, &step{kind: stepBlind, line: i + 1, seat: s, amount: amount, blind: kind})
}

// discard adds seat s's draw: n cards thrown, the cards when the room showed them.
func (p *psParser) discard(d *draft, i int, s events.Seat, n int, cs []cards.Card) error {
	switch p.phase {
	case phaseFirst, phasePreDeal:
		p.startDraw()
	case phaseDraw:
	case phaseSecond:
		return atLine(i+1, errf(ErrUnsupported, "a second draw: the online-draw preset has one"))
	default:
		return atLine(i+1, errf(ErrMalformed, "a draw outside the hand's draw"))
	}
	st := &step{kind: stepDraw, line: i + 1, seat: s, count: n, discarded: cs}
	if n == 0 {
		st.discarded = []cards.Card{}
	}
	d.steps = append(d.steps, st)
	return nil
}

// seatsDealt lists the players dealt in as the draft wants them, and the away players.
func (p *psParser) seatsDealt(d *draft) {
	for _, s := range p.sortedSeats() {
		switch {
		case p.dealtIn[s]:
			d.players = append(d.players, player{seat: s, name: p.bySeat[s], stack: p.stacks[s]})
		case p.stacks[s] > 0:
			d.away = append(d.away, events.AwaySeat{Seat: s, Player: p.bySeat[s], Stack: p.stacks[s]})
		}
	}
	for _, s := range d.steps {
		if s.kind == stepAnte {
			d.stakes.Ante = max(d.stakes.Ante, s.amount)
		}
	}
}

// returnUnmatched adds the returns of chips nobody matched, for rooms that do not print them:
// at the end of each betting round, what the highest bettor put in above the next highest goes
// back to him.
func returnUnmatched(d *draft) {
	var out []*step
	in := map[events.Seat]events.Chips{}
	var round events.Round = events.RoundFirst
	flush := func(line int) {
		var hi, second events.Chips
		var at events.Seat
		for s, c := range in {
			switch {
			case c > hi:
				second, hi, at = hi, c, s
			case c > second:
				second = c
			}
		}
		if hi > second && at != 0 {
			out = append(out, &step{kind: stepReturn, line: line, seat: at, amount: hi - second})
		}
		clear(in)
	}
	for _, s := range d.steps {
		switch s.kind {
		case stepBlind:
			if s.blind != events.BlindDead {
				in[s.seat] += s.amount
			}
		case stepAct:
			if s.round != round {
				flush(s.line)
				round = s.round
			}
			in[s.seat] += s.amount
		case stepDraw, stepShow, stepMuck:
			if round == events.RoundFirst || s.kind != stepDraw {
				flush(s.line)
				round = events.RoundSecond
				if s.kind != stepDraw {
					round = "" // the betting is over
				}
			}
		case stepReturn:
			in[s.seat] -= s.amount
		}
		out = append(out, s)
	}
	flush(d.endLine)
	d.steps = out
}
