package handhistory

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
)

// The rooms that write XML: Boss Media (and its skins, Opoker among them) and the Merge network.
// Both files are a sequence of hands, with or without a root element around them; each hand is
// read on its own, all or nothing, as the text rooms' are.

// xmlHands walks data and calls read for every element named tag, with the line it starts on;
// a problem of the XML itself ends the walk and is reported at its line. An element nested
// deeper than MaxDepth refuses the file whole: res holds that error alone, and no block is
// returned.
func xmlHands(name string, data []byte, tag string, res *Result, read func(dec *xml.Decoder, start xml.StartElement, line int) (*psHand, error)) []psBlock {
	// The texts are UTF-8, or UTF-16 like other rooms' exports: decode once, then read bytes.
	text := []byte(decodeText(data))
	text = bytes.TrimPrefix(text, []byte("\uFEFF"))
	raw := xml.NewDecoder(bytes.NewReader(text))
	raw.Strict = false
	// The elements are counted as they are read, a hand's too (DecodeElement reads through
	// dec): the first one deeper than MaxDepth stops the walk, before more names are kept.
	depth := &depthReader{dec: raw}
	dec := xml.NewTokenDecoder(depth)
	dec.Strict = false
	var blocks []psBlock
	for {
		line, _ := raw.InputPos()
		tok, err := dec.Token()
		if depth.err != nil {
			*res = *overLimit(name, depth.line, depth.err)
			return nil
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			res.Skipped = append(res.Skipped, &Error{File: name, Line: line, Err: errf(ErrMalformed, "not well-formed XML: %v", err)})
			break
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != tag {
			continue
		}
		h, err := read(dec, se, line)
		if depth.err != nil {
			*res = *overLimit(name, depth.line, depth.err)
			return nil
		}
		blocks = append(blocks, psBlock{h, err})
	}
	return blocks
}

// ---- Boss Media ----

type bossHistory struct {
	ID       string       `xml:"ID,attr"`
	Table    string       `xml:"TABLE,attr"`
	Game     string       `xml:"GAME,attr"`
	Kind     string       `xml:"GAMEKIND,attr"`
	Currency string       `xml:"TABLECURRENCY,attr"`
	Limit    string       `xml:"LIMIT,attr"`
	Stakes   string       `xml:"STAKES,attr"`
	Date     string       `xml:"DATE,attr"`
	Players  []bossPlayer `xml:"PLAYER"`
	Actions  []bossAction `xml:"ACTION"`
	Showdown *struct {
		Pot     string       `xml:"POT,attr"`
		Rake    string       `xml:"RAKE,attr"`
		Results []bossResult `xml:"RESULT"`
	} `xml:"SHOWDOWN"`
}

type bossPlayer struct {
	Name   string `xml:"NAME,attr"`
	Seat   int    `xml:"SEAT,attr"`
	Amount string `xml:"AMOUNT,attr"`
	State  string `xml:"STATE,attr"`
	Dealer string `xml:"DEALER,attr"`
}

type bossCard struct {
	Link string `xml:"LINK,attr"`
}

type bossAction struct {
	Type   string     `xml:"TYPE,attr"`
	Player string     `xml:"PLAYER,attr"`
	Kind   string     `xml:"KIND,attr"`
	Value  string     `xml:"VALUE,attr"`
	Count  string     `xml:"COUNT,attr"`
	Cards  []bossCard `xml:"CARD"`
}

type bossResult struct {
	Player string     `xml:"PLAYER,attr"`
	Win    string     `xml:"WIN,attr"`
	Hand   string     `xml:"HAND,attr"`
	Cards  []bossCard `xml:"CARD"`
}

// bossCards reads Boss's card numbers: n%13 is the rank from the ace (0) to the king (12), n/13
// the suit: diamonds, clubs, hearts, spades (FPDB's BossToFpdb.py). "b", a card face down, makes
// the list unknown (nil).
func bossCards(cs []bossCard) ([]cards.Card, error) {
	var out []cards.Card
	for _, c := range cs {
		if c.Link == "b" {
			return nil, nil
		}
		n, err := strconv.Atoi(c.Link)
		if err != nil || n < 0 || n > 51 {
			return nil, errf(ErrMalformed, "bad card %q", c.Link)
		}
		rank := "A23456789TJQK"[n%13]
		suit := "dchs"[n/13]
		card, err := cards.Parse(string([]byte{rank, suit}))
		if err != nil {
			return nil, errf(ErrMalformed, "bad card %q", c.Link)
		}
		out = append(out, card)
	}
	return out, nil
}

// ImportBoss converts Boss Media XML hand histories of five-card draw (GAME_FCD; FL, PL and NL
// cash games) to events: the files FPDB's BossToFpdb.py reads, a sequence of <HISTORY> elements
// with or without a <ROOT> around them, whatever their file name (.txt or .xml). Seats, stacks and
// the dealer come from <PLAYER>; blinds, deals, bets (VALUE is the player's total in the round),
// draws (<ACTION TYPE="CHANGECARD" COUNT="N">, with the new hand for the player whose history it
// is) from <ACTION>; the pot, rake and winnings from <SHOWDOWN>, whose <RESULT> cards are the
// hands shown (a winner of an uncontested pot shows none). Boss prints no returned bets: what
// nobody matched goes back at the end of its round. The time is DATE (Unix seconds). Hand ids
// derive from "boss/" and the hand's ID; tables are "boss-" and the table's name.
func ImportBoss(name string, data []byte) *Result {
	res := &Result{}
	blocks := xmlHands(name, data, "HISTORY", res, func(dec *xml.Decoder, se xml.StartElement, line int) (*psHand, error) {
		var bh bossHistory
		if err := dec.DecodeElement(&bh, &se); err != nil {
			h := newRoomHand("boss", strconv.Itoa(line), line-1)
			return h, atLine(line, errf(ErrMalformed, "bad hand: %v", err))
		}
		return readBoss(name, &bh, line)
	})
	assemble(res, name, "boss", blocks)
	return res
}

func readBoss(name string, bh *bossHistory, line int) (*psHand, error) {
	h := newRoomHand("boss", bh.ID, line-1)
	h.deadButton = true
	d := h.d
	bad := func(kind error, format string, a ...any) (*psHand, error) {
		return h, atLine(line, errf(kind, format, a...))
	}
	if bh.Game != "GAME_FCD" {
		return bad(ErrUnsupported, "game %s is not five-card draw (GAME_FCD)", bh.Game)
	}
	if bh.Kind != "" && bh.Kind != "GAMEKIND_CASH" {
		return bad(ErrUnsupported, "%s: only cash games are read", bh.Kind)
	}
	p := &psParser{file: name, scale: 100}
	if bh.Currency == "" {
		p.scale = 1
	}
	h.tableName, h.seated = bh.Table, true
	lo, hi, ok := strings.Cut(bh.Stakes, "/")
	small, err1 := p.amount(lo)
	big, err2 := p.amount(hi)
	if !ok || err1 != nil || err2 != nil || small <= 0 || big < small {
		return bad(ErrMalformed, "bad stakes %q", bh.Stakes)
	}
	switch bh.Limit {
	case "FL":
		d.structure, d.stakes = "fixed", events.Stakes{MinBet: small, MaxBet: big}
	case "PL":
		d.structure, d.stakes = "pot", events.Stakes{MinBet: big}
	case "NL":
		d.structure, d.stakes = "no", events.Stakes{MinBet: big}
	default:
		return bad(ErrUnsupported, "limit %q", bh.Limit)
	}
	sec, err := strconv.ParseInt(bh.Date, 10, 64)
	if err != nil {
		return bad(ErrMalformed, "bad DATE %q", bh.Date)
	}
	d.at = time.Unix(sec, 0).UTC().Format(time.RFC3339)
	for _, pl := range bh.Players {
		if pl.State == "STATE_EMPTY" {
			continue
		}
		c, err := p.amount(pl.Amount)
		if err != nil {
			return bad(ErrMalformed, "seat %d: %v", pl.Seat, err)
		}
		if err := p.seatPlayer(events.Seat(pl.Seat), pl.Name, c, pl.State == "STATE_PLAYING"); err != nil {
			return h, atLine(line, err)
		}
		if pl.Dealer == "Y" {
			d.button = events.Seat(pl.Seat)
		}
	}
	if p.bySeat == nil || d.button == 0 {
		return bad(ErrMalformed, "no players or no dealer")
	}
	who := func(n string) (events.Seat, error) {
		s, ok := p.byName[n]
		if !ok {
			return 0, atLine(line, errf(ErrMalformed, "%q acts but has no seat", n))
		}
		return s, nil
	}
	folded := map[events.Seat]bool{}
	for _, a := range bh.Actions {
		if a.Type == "HAND_BOARD" {
			continue
		}
		s, err := who(a.Player)
		if err != nil {
			return h, err
		}
		amount := func() events.Chips {
			c, e := p.amount(a.Value)
			if e != nil && err == nil {
				err = atLine(line, e)
			}
			return c
		}
		switch a.Type {
		case "HAND_BLINDS":
			switch a.Kind {
			case "HAND_SB":
				p.blind(d, line-1, s, events.BlindSmall, amount())
			case "HAND_BB":
				p.blind(d, line-1, s, events.BlindBig, amount())
			case "HAND_AB":
				// Both blinds at once: a live big blind and a dead small one.
				c := amount()
				live := min(c, d.stakes.MinBet)
				p.blind(d, line-1, s, events.BlindBig, live)
				if c > live {
					p.blind(d, line-1, s, events.BlindDead, c-live)
				}
			default:
				return bad(ErrUnsupported, "blind %q", a.Kind)
			}
		case "HAND_ANTE":
			d.steps = append(d.steps, &step{kind: stepAnte, line: line, seat: s, amount: amount()})
		case "HAND_DEAL":
			cs, e := bossCards(a.Cards)
			if e != nil {
				return h, atLine(line, e)
			}
			if cs != nil {
				if len(cs) != 5 {
					return bad(ErrMalformed, "%d cards dealt to %s", len(cs), a.Player)
				}
				d.dealt[s] = cs
			}
			p.phase = phaseFirst
		case "ACTION_FOLD":
			folded[s] = true
			err = p.act(d, line-1, s, events.Fold, 0, 0)
		case "ACTION_CHECK":
			err = p.act(d, line-1, s, events.Check, 0, 0)
		case "ACTION_CALL":
			err = p.act(d, line-1, s, events.Call, 0, amount())
		case "ACTION_BET":
			err = p.act(d, line-1, s, events.Bet, 0, amount())
		case "ACTION_RAISE":
			err = p.act(d, line-1, s, events.Raise, 0, amount())
		case "ACTION_ALLIN":
			// All in: a call, bet or raise to VALUE.
			to := amount()
			top := events.Chips(0)
			for _, c := range p.inRound {
				top = max(top, c)
			}
			act := events.Raise
			switch {
			case to <= top:
				act = events.Call
			case top == 0:
				act = events.Bet
			}
			err = p.act(d, line-1, s, act, 0, to)
		case "CHANGECARD":
			n, e := strconv.Atoi(a.Count)
			if e != nil {
				return bad(ErrMalformed, "bad COUNT %q", a.Count)
			}
			if err = p.discard(d, line-1, s, n, nil); err == nil {
				cs, e := bossCards(a.Cards)
				if e != nil {
					return h, atLine(line, e)
				}
				if len(cs) == 5 {
					d.steps[len(d.steps)-1].after = cs
				}
			}
		default:
			return bad(ErrMalformed, "unknown action %q", a.Type)
		}
		if err != nil {
			return h, err
		}
	}
	if bh.Showdown == nil {
		return bad(ErrMalformed, "the hand is cut short: no showdown with its pot")
	}
	pot, e1 := p.amount(bh.Showdown.Pot)
	rk := events.Chips(0)
	var e2 error
	if bh.Showdown.Rake != "" {
		rk, e2 = p.amount(bh.Showdown.Rake)
	}
	if e1 != nil || e2 != nil {
		return bad(ErrMalformed, "bad pot or rake")
	}
	// POT is what the winners share, the rake already taken.
	p.total, p.rake = pot+rk, rk
	live := 0
	for s := range p.bySeat {
		if p.dealtIn[s] && !folded[s] {
			live++
		}
	}
	for _, r := range bh.Showdown.Results {
		s, err := who(r.Player)
		if err != nil {
			return h, err
		}
		w, err := p.amount(r.Win)
		if err != nil {
			return h, atLine(line, err)
		}
		if w > 0 {
			p.awards = append(p.awards, psAward{seat: s, pot: -1, amount: w, line: line})
		}
		cs, err := bossCards(r.Cards)
		if err != nil {
			return h, atLine(line, err)
		}
		switch {
		case live < 2:
		case len(cs) == 5 && w == 0 && strings.Contains(r.Hand, "MUCK"):
			d.final[s] = cs
			d.steps = append(d.steps, &step{kind: stepMuck, line: line, seat: s})
		case len(cs) == 5:
			d.final[s] = cs
			d.steps = append(d.steps, &step{kind: stepShow, line: line, seat: s, shown: cs})
		case w == 0:
			d.steps = append(d.steps, &step{kind: stepMuck, line: line, seat: s})
		}
	}
	p.seatsDealt(d)
	returnUnmatched(d)
	d.settle = p.settle
	h.number = bh.ID
	return h, nil
}

// ---- Merge ----

type mergeGame struct {
	ID        string `xml:"id,attr"`
	StartTime string `xml:"starttime,attr"`
	Data      string `xml:"data,attr"`
	Players   struct {
		Dealer int           `xml:"dealer,attr"`
		List   []mergePlayer `xml:"player"`
	} `xml:"players"`
	Rounds []mergeRound `xml:"round"`
}

type mergePlayer struct {
	Seat     int    `xml:"seat,attr"`
	Nickname string `xml:"nickname,attr"`
	Balance  string `xml:"balance,attr"`
	DealtIn  string `xml:"dealtin,attr"`
}

type mergeRound struct {
	ID    string `xml:"id,attr"`
	Items []struct {
		XMLName   xml.Name
		Type      string `xml:"type,attr"`
		Timestamp string `xml:"timestamp,attr"`
		Player    string `xml:"player,attr"`
		Amount    string `xml:"amount,attr"`
		Text      string `xml:"text,attr"`
		Cards     string `xml:"cards,attr"`
		Uncalled  string `xml:"uncalled,attr"`
		Pot       string `xml:"potnumber,attr"`
	} `xml:",any"`
}

// ImportMerge converts Merge network XML hand histories of five-card draw ("5-Draw") to events:
// the files FPDB's MergeToFpdb.py reads, a <description type="5-Draw" stakes="Pot Limit
// ($0.05/$0.10)"/> and <game> elements, each with its players (seats from 0, the dealer's seat),
// and rounds of events: blinds (SMALL_BLIND, BIG_BLIND, INITIAL_BLIND: a big blind posted by a
// player new at the table), CALL, BET and ALL_IN with the chips added, RAISE to the player's total
// in the round, CHECK, FOLD, DRAW (text: the count), MUCK; <cards> of the player whose history it
// is (HOLE, DRAW_DRAWN_CARDS) and of hands shown (SHOWN, MUCKED); <winner> amounts (uncalled="true"
// is a bet returned). The rake is what the bets leave after the winnings. The time is the first
// event's timestamp (Unix milliseconds), else starttime in ET. Hand ids derive from "merge/" and
// the game's id; tables are "mg-" and the table's name.
func ImportMerge(name string, data []byte) *Result {
	res := &Result{}
	// The description (game and stakes) stands before the games it is about.
	desc := ""
	if m := reMergeDesc().FindStringSubmatch(decodeText(data)); m != nil {
		desc = m[1]
	}
	blocks := xmlHands(name, data, "game", res, func(dec *xml.Decoder, se xml.StartElement, line int) (*psHand, error) {
		var g mergeGame
		if err := dec.DecodeElement(&g, &se); err != nil {
			h := newRoomHand("merge", strconv.Itoa(line), line-1)
			return h, atLine(line, errf(ErrMalformed, "bad hand: %v", err))
		}
		return readMerge(name, desc, &g, line)
	})
	assemble(res, name, "mg", blocks)
	return res
}

var (
	reMergeDesc   = lazyRegexp(`<description ([^>]*)/?>`)
	reMergeStakes = lazyRegexp(`type="(5-Draw)" stakes="(No Limit|Pot Limit|Limit) \((` + amt + `)/(` + amt + `)\)"`)
)

func readMerge(name, desc string, g *mergeGame, line int) (*psHand, error) {
	h := newRoomHand("merge", g.ID, line-1)
	d := h.d
	bad := func(kind error, format string, a ...any) (*psHand, error) {
		return h, atLine(line, errf(kind, format, a...))
	}
	dm := reMergeStakes().FindStringSubmatch(desc)
	if dm == nil {
		return bad(ErrUnsupported, "game %q is not five-card draw (5-Draw)", desc)
	}
	p := &psParser{file: name, scale: 1}
	if strings.ContainsAny(dm[3], "$€£") {
		p.scale = 100
	}
	lo, e1 := p.amount(dm[3])
	hi, e2 := p.amount(dm[4])
	if e1 != nil || e2 != nil || lo <= 0 || hi < lo {
		return bad(ErrMalformed, "bad stakes %q", desc)
	}
	switch dm[2] {
	case "Limit":
		d.structure, d.stakes = "fixed", events.Stakes{MinBet: lo, MaxBet: hi}
	case "Pot Limit":
		d.structure, d.stakes = "pot", events.Stakes{MinBet: hi}
	default:
		d.structure, d.stakes = "no", events.Stakes{MinBet: hi}
	}
	// data="20110909|Shishapangma (40346359)|40346359|40346359-19|false": the table is the second field.
	fields := strings.Split(g.Data, "|")
	if len(fields) < 2 {
		return bad(ErrMalformed, "no table in data=%q", g.Data)
	}
	h.tableName, h.seated = strings.TrimSpace(fields[1]), true
	bySeat := map[int]events.Seat{}
	for _, pl := range g.Players.List {
		c, err := p.amount(pl.Balance)
		if err != nil {
			return bad(ErrMalformed, "seat %d: %v", pl.Seat, err)
		}
		s := events.Seat(pl.Seat + 1)
		bySeat[pl.Seat] = s
		if err := p.seatPlayer(s, pl.Nickname, c, pl.DealtIn == "true"); err != nil {
			return h, atLine(line, err)
		}
	}
	if p.bySeat == nil {
		return bad(ErrMalformed, "no players")
	}
	d.button = events.Seat(g.Players.Dealer + 1)
	who := func(ps string) (events.Seat, error) {
		n, err := strconv.Atoi(ps)
		s, ok := bySeat[n]
		if err != nil || !ok {
			return 0, atLine(line, errf(ErrMalformed, "player %q has no seat", ps))
		}
		return s, nil
	}
	folded := map[events.Seat]bool{}
	shown := map[events.Seat]bool{}
	var firstTS int64
	for _, r := range g.Rounds {
		switch r.ID {
		case "BLINDS", "PRE_FIRST_DRAW", "FIRST_DRAW", "POST_FIRST_DRAW", "END_OF_FOLDED_GAME", "END_OF_GAME", "SHOWDOWN":
		default:
			return bad(ErrUnsupported, "round %s: not five-card draw with one draw", r.ID)
		}
		for _, it := range r.Items {
			if it.Timestamp != "" && firstTS == 0 {
				firstTS, _ = strconv.ParseInt(it.Timestamp, 10, 64)
			}
			if it.Player == "" {
				continue
			}
			s, err := who(it.Player)
			if err != nil {
				return h, err
			}
			amount := func() events.Chips {
				c, e := p.amount(it.Amount)
				if e != nil && err == nil {
					err = atLine(line, e)
				}
				return c
			}
			switch it.XMLName.Local + " " + it.Type {
			case "event SMALL_BLIND":
				p.blind(d, line-1, s, events.BlindSmall, amount())
			case "event BIG_BLIND", "event INITIAL_BLIND":
				p.blind(d, line-1, s, events.BlindBig, amount())
			case "event ANTE":
				d.steps = append(d.steps, &step{kind: stepAnte, line: line, seat: s, amount: amount()})
			case "event FOLD", "event SIT_OUT":
				folded[s] = true
				p.phase = max(p.phase, phaseFirst)
				err = p.act(d, line-1, s, events.Fold, 0, 0)
			case "event CHECK":
				err = p.act(d, line-1, s, events.Check, 0, 0)
			case "event CALL":
				err = p.act(d, line-1, s, events.Call, amount(), 0)
			case "event BET":
				err = p.act(d, line-1, s, events.Bet, amount(), 0)
			case "event RAISE", "event COMPLETE":
				err = p.act(d, line-1, s, events.Raise, 0, amount())
			case "event ALL_IN":
				add := amount()
				top := events.Chips(0)
				for _, c := range p.inRound {
					top = max(top, c)
				}
				act := events.Raise
				switch {
				case p.inRound[s]+add <= top:
					act = events.Call
				case top == 0:
					act = events.Bet
				}
				err = p.act(d, line-1, s, act, add, 0)
			case "event DRAW":
				n, e := strconv.Atoi(it.Text)
				if e != nil {
					return bad(ErrMalformed, "bad draw count %q", it.Text)
				}
				err = p.discard(d, line-1, s, n, nil)
			case "event MUCK":
				// The winner of an uncontested pot throws his cards away: nothing to record.
			case "cards HOLE", "cards DRAW_DRAWN_CARDS", "cards SHOWN", "cards MUCKED":
				cs, e := ogCards(it.Cards)
				if e != nil || len(cs) != 5 {
					return bad(ErrMalformed, "bad cards %q", it.Cards)
				}
				switch it.Type {
				case "HOLE":
					d.dealt[s] = cs
				case "DRAW_DRAWN_CARDS":
					if ds := p.lastDraw(d, s); ds != nil {
						ds.after = cs
					}
				case "SHOWN":
					d.final[s], shown[s] = cs, true
					d.steps = append(d.steps, &step{kind: stepShow, line: line, seat: s, shown: cs})
				case "MUCKED":
					d.final[s], shown[s] = cs, true
					d.steps = append(d.steps, &step{kind: stepMuck, line: line, seat: s})
				}
			case "winner ":
				w := amount()
				if it.Uncalled == "true" {
					d.steps = append(d.steps, &step{kind: stepReturn, line: line, seat: s, amount: w})
					continue
				}
				p.awards = append(p.awards, psAward{seat: s, pot: -1, amount: w, line: line})
			default:
				return bad(ErrMalformed, "unknown %s %q", it.XMLName.Local, it.Type)
			}
			if err != nil {
				return h, err
			}
		}
	}
	if len(p.awards) == 0 {
		return bad(ErrMalformed, "the hand is cut short: nobody wins")
	}
	switch {
	case firstTS > 0:
		d.at = time.UnixMilli(firstTS).UTC().Format(time.RFC3339)
	case len(g.StartTime) == 14:
		at, err := psTime(g.StartTime[0:4]+"/"+g.StartTime[4:6]+"/"+g.StartTime[6:8]+" "+g.StartTime[8:10]+":"+g.StartTime[10:12]+":"+g.StartTime[12:14], "ET", "", "")
		if err != nil {
			return h, atLine(line, err)
		}
		d.at = at
	default:
		return bad(ErrMalformed, "no time")
	}
	live := 0
	for s := range p.bySeat {
		if p.dealtIn[s] && !folded[s] {
			live++
		}
	}
	if live > 1 {
		won := map[events.Seat]bool{}
		for _, a := range p.awards {
			won[a.seat] = true
		}
		for _, s := range p.sortedSeats() {
			if p.dealtIn[s] && !folded[s] && !shown[s] && !won[s] {
				d.steps = append(d.steps, &step{kind: stepMuck, line: line, seat: s})
			}
		}
	}
	p.seatsDealt(d)
	returnUnmatched(d)
	// Merge counts a bet nobody called in the winner's amount (FPDB: setUncalledBets): what
	// went back to a winner is not part of what he won.
	for _, st := range d.steps {
		if st.kind != stepReturn {
			continue
		}
		for k := range p.awards {
			if p.awards[k].seat == st.seat && p.awards[k].amount >= st.amount {
				p.awards[k].amount -= st.amount
				break
			}
		}
	}
	p.awards = slices.DeleteFunc(p.awards, func(a psAward) bool { return a.amount == 0 })
	// The total is the bets less the returns; what the winners did not get is the rake.
	var in, paid events.Chips
	for _, st := range d.steps {
		switch st.kind {
		case stepAnte, stepBlind, stepAct:
			in += st.amount
		case stepReturn:
			in -= st.amount
		}
	}
	for _, a := range p.awards {
		paid += a.amount
	}
	p.total, p.rake = in, in-paid
	d.settle = p.settle
	return h, nil
}
