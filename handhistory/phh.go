package handhistory

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/google/uuid"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
)

// The PHH variant codes ImportPHH reads. PHH (phh-std 0.0.2) has no code for five-card draw high;
// these follow its pattern (structure letter, then the game) and mean five-card draw, high hands,
// one draw, blinds — what the online-draw preset plays.
const (
	PHHFixedDraw   = "F5CD" // fixed-limit five-card draw: small_bet and big_bet
	PHHPotDraw     = "P5CD" // pot-limit five-card draw: min_bet
	PHHNoLimitDraw = "N5CD" // no-limit five-card draw: min_bet
)

// PHHRefused gives, for each variant code of the PHH standard, why ImportPHH refuses it: none is
// five-card draw high with a single draw, which is all the online-draw preset can express.
var PHHRefused = map[string]string{
	"FT":    "fixed-limit Texas hold'em is not a draw game",
	"NT":    "no-limit Texas hold'em is not a draw game",
	"NS":    "no-limit short-deck hold'em is not a draw game",
	"PO":    "pot-limit Omaha is not a draw game",
	"FO/8":  "fixed-limit Omaha hi/lo is not a draw game",
	"F7S":   "seven-card stud is not a draw game",
	"F7S/8": "seven-card stud hi/lo is not a draw game",
	"FR":    "razz is not a draw game",
	"N2L1D": "2-7 lowball single draw ranks low hands; online-draw ranks high hands",
	"F2L3D": "2-7 lowball triple draw ranks low hands and has three draws; online-draw has one draw of high hands",
	"FB":    "badugi is played with four cards and three draws",
}

// ImportPHH converts PHH hand histories — one hand per .phh file, or many as numbered tables
// ([1], [2], …) of a .phhs file — to events.
//
// Only the variants PHHFixedDraw, PHHPotDraw and PHHNoLimitDraw are read; every code of the PHH
// standard is refused (PHHRefused says why). A hand must have a small and a big blind, no
// straddle and no bring-in. Players are in PHH position order (p1 left of the button, the last
// player on the button; heads-up, the blinds and antes apply reversed, as pokerkit does); seats
// come from "seats", else p1 is seat 1 and so on. Amounts with decimals are read as cents.
// Unknown cards ("??") are left out of card.dealt. PHH has no pot awards: the importer decides
// them from the pot layers of presets.md, the shown hands (standard high ranking, ties split with
// odd chips from the first winner left of the button), and, when the hands are not all known,
// from finishing_stacks; finishing_stacks, when given, must match, and a shortfall in them is
// taken as rake from the main pot. Each hand is a table of its own ("phh-" and the file name, and
// the hand's table key in a .phhs file), number 1; its UUID is derived from the file's SHA-256
// and the hand's key. The time is year, month, day and time in time_zone (an IANA name) when
// given, else midnight UTC, else 1970-01-01.
func ImportPHH(name string, data []byte) *Result {
	res := &Result{}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	text := string(data)
	if line, off, ok := tomlTooDeep(text); !ok {
		return overLimit(name, line, &LimitError{Kind: ErrTooDeep, Limit: MaxDepth, Offset: int64(off)})
	}
	lines := strings.Split(text, "\n")
	var raw map[string]any
	md, err := toml.Decode(text, &raw)
	if err != nil {
		line := 0
		var pe toml.ParseError
		if errors.As(err, &pe) {
			line = pe.Position.Line
		}
		res.Skipped = append(res.Skipped, &Error{File: name, Line: line, Err: errf(ErrMalformed, "not valid TOML: %v", err)})
		return res
	}
	sum := sha256.Sum256(data)
	fileKey := hex.EncodeToString(sum[:])
	base := strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))

	type hand struct {
		key    string
		fields map[string]any
		line   int
	}
	var hands []hand
	if _, single := raw["variant"]; single {
		hands = append(hands, hand{key: "1", fields: raw, line: 1})
	} else {
		for _, k := range md.Keys() {
			if len(k) != 1 {
				continue
			}
			if t, ok := raw[k[0]].(map[string]any); ok {
				hands = append(hands, hand{key: k[0], fields: t, line: sectionLine(lines, k[0])})
			}
		}
		if len(hands) == 0 {
			res.Skipped = append(res.Skipped, &Error{File: name, Line: 1,
				Err: errf(ErrMalformed, "no hand: neither a variant nor numbered hand tables")})
			return res
		}
	}
	for _, h := range hands {
		p := &phhParser{lines: lines, start: h.line, fields: h.fields}
		table := tableID("phh", base, "")
		if len(hands) > 1 || h.key != "1" {
			table = tableID("phh", base, h.key)
		}
		d := &draft{line: h.line, endLine: h.line, source: h.key, table: table, number: 1,
			hand:  uuid.NewSHA1(Namespace, []byte("phh/"+fileKey+"/"+h.key)),
			dealt: map[events.Seat][]cards.Card{}, final: map[events.Seat][]cards.Card{}}
		err := p.parse(d)
		var evs []*events.Event
		if err == nil {
			evs, err = d.build()
		}
		if err != nil {
			res.Skipped = append(res.Skipped, &Error{File: name, Line: lineOf(err, h.line), Hand: h.key, Err: cause(err)})
			continue
		}
		res.Hands = append(res.Hands, Hand{File: name, Line: h.line, Source: h.key, Table: d.table, ID: d.hand.String(), Events: evs, Dropped: d.dropped})
	}
	return res
}

// sectionLine returns the line of the table header [key], or 1.
func sectionLine(lines []string, key string) int {
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if t == "["+key+"]" || t == `["`+key+`"]` || t == "['"+key+"']" {
			return i + 1
		}
	}
	return 1
}

type phhParser struct {
	lines  []string
	start  int
	fields map[string]any
	scale  int64
	n      int
	seats  []events.Seat
}

func (p *phhParser) bad(kind error, format string, a ...any) error {
	return atLine(p.start, errf(kind, format, a...))
}

// locate returns the line of the action text at or after the hand's start, or the start.
func (p *phhParser) locate(action string) int {
	for i := p.start - 1; i < len(p.lines); i++ {
		if i >= 0 && (strings.Contains(p.lines[i], `"`+action) || strings.Contains(p.lines[i], `'`+action)) {
			return i + 1
		}
	}
	return p.start
}

// decimal renders a TOML number as a decimal string.
func decimal(v any) (string, bool) {
	switch x := v.(type) {
	case int64:
		return strconv.FormatInt(x, 10), true
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return "", false
		}
		return strconv.FormatFloat(x, 'f', -1, 64), true
	}
	return "", false
}

func (p *phhParser) list(key string, need bool) ([]string, error) {
	v, ok := p.fields[key]
	if !ok {
		if need {
			return nil, p.bad(ErrMalformed, "no %s", key)
		}
		return nil, nil
	}
	arr, ok := v.([]any)
	if !ok {
		return nil, p.bad(ErrMalformed, "%s is not an array", key)
	}
	out := make([]string, len(arr))
	for i, x := range arr {
		d, ok := decimal(x)
		if !ok {
			if f, isF := x.(float64); isF && math.IsInf(f, 1) {
				return nil, p.bad(ErrUnsupported, "%s[%d] is unknown (inf)", key, i)
			}
			return nil, p.bad(ErrMalformed, "%s[%d] is not a number", key, i)
		}
		if strings.HasPrefix(d, "-") {
			return nil, p.bad(ErrMalformed, "%s[%d] is negative", key, i)
		}
		out[i] = d
	}
	return out, nil
}

func (p *phhParser) number(key string) (string, bool, error) {
	v, ok := p.fields[key]
	if !ok {
		return "", false, nil
	}
	d, ok := decimal(v)
	if !ok || strings.HasPrefix(d, "-") {
		return "", false, p.bad(ErrMalformed, "%s is not a number", key)
	}
	return d, true, nil
}

func (p *phhParser) chips(d string) (events.Chips, error) {
	c, err := parseAmount(d, p.scale)
	if err != nil {
		return 0, p.bad(ErrMalformed, "%v", err)
	}
	return c, nil
}

func (p *phhParser) chipsList(ds []string) ([]events.Chips, error) {
	out := make([]events.Chips, len(ds))
	for i, d := range ds {
		c, err := p.chips(d)
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

// phhCards reads PHH cards ("AsKd", "??" for an unknown card); known is false if any is unknown.
func phhCards(s string) (cs []cards.Card, n int, known bool, err error) {
	if len(s)%2 != 0 {
		return nil, 0, false, errf(ErrMalformed, "bad cards %q", s)
	}
	known = true
	for i := 0; i < len(s); i += 2 {
		t := s[i : i+2]
		if t == "??" {
			known = false
			n++
			continue
		}
		c, err := cards.Parse(t)
		if err != nil {
			return nil, 0, false, errf(ErrMalformed, "bad card %q", t)
		}
		cs = append(cs, c)
		n++
	}
	if !known {
		cs = nil
	}
	return cs, n, known, nil
}

// parse fills d from the hand's fields.
func (p *phhParser) parse(d *draft) error {
	variant, _ := p.fields["variant"].(string)
	switch variant {
	case PHHFixedDraw:
		d.structure = "fixed"
	case PHHPotDraw:
		d.structure = "pot"
	case PHHNoLimitDraw:
		d.structure = "no"
	default:
		if why, ok := PHHRefused[variant]; ok {
			return p.bad(ErrUnsupported, "variant %q: %s", variant, why)
		}
		return p.bad(ErrUnsupported, "variant %q: fechado reads %s, %s and %s (five-card draw high)",
			variant, PHHFixedDraw, PHHPotDraw, PHHNoLimitDraw)
	}
	if _, ok := p.fields["bring_in"]; ok {
		return p.bad(ErrUnsupported, "a bring-in: online-draw has blinds")
	}

	// Money: cents as soon as one amount has decimals.
	stacksD, err := p.list("starting_stacks", true)
	if err != nil {
		return err
	}
	p.n = len(stacksD)
	if p.n < 2 || p.n > int(events.MaxSeat) {
		return p.bad(ErrUnsupported, "%d players: want 2 to %d", p.n, events.MaxSeat)
	}
	antesD, err := p.list("antes", false)
	if err != nil {
		return err
	}
	blindsD, err := p.list("blinds_or_straddles", false)
	if err != nil {
		return err
	}
	finishD, err := p.list("finishing_stacks", false)
	if err != nil {
		return err
	}
	for _, l := range []struct {
		name string
		v    []string
	}{{"antes", antesD}, {"blinds_or_straddles", blindsD}, {"finishing_stacks", finishD}} {
		if l.v != nil && len(l.v) != p.n {
			return p.bad(ErrMalformed, "%s has %d entries for %d players", l.name, len(l.v), p.n)
		}
	}
	actions, err := p.actions()
	if err != nil {
		return err
	}
	all := slices.Concat(stacksD, antesD, blindsD, finishD)
	for _, k := range []string{"small_bet", "big_bet", "min_bet"} {
		if v, ok, err := p.number(k); err != nil {
			return err
		} else if ok {
			all = append(all, v)
		}
	}
	for _, a := range actions {
		if a.verb == "cbr" {
			all = append(all, a.arg)
		}
	}
	p.scale = 1
	for _, v := range all {
		if strings.Contains(v, ".") {
			p.scale = 100
		}
	}

	stacks, err := p.chipsList(stacksD)
	if err != nil {
		return err
	}
	antes := make([]events.Chips, p.n)
	if antesD != nil {
		if antes, err = p.chipsList(antesD); err != nil {
			return err
		}
	}
	blinds := make([]events.Chips, p.n)
	if blindsD != nil {
		if blinds, err = p.chipsList(blindsD); err != nil {
			return err
		}
	}
	var finish []events.Chips
	if finishD != nil {
		if finish, err = p.chipsList(finishD); err != nil {
			return err
		}
	}
	get := func(k string) (events.Chips, bool, error) {
		v, ok, err := p.number(k)
		if err != nil || !ok {
			return 0, ok, err
		}
		c, err := p.chips(v)
		return c, true, err
	}
	if d.structure == "fixed" {
		sb, ok1, err1 := get("small_bet")
		bb, ok2, err2 := get("big_bet")
		if err := errors.Join(err1, err2); err != nil {
			return err
		}
		if !ok1 || !ok2 || sb <= 0 || bb < sb {
			return p.bad(ErrMalformed, "a fixed-limit hand needs small_bet and big_bet")
		}
		d.stakes = events.Stakes{MinBet: sb, MaxBet: bb}
	} else {
		mb, ok, err := get("min_bet")
		if err != nil {
			return err
		}
		if !ok || mb <= 0 {
			return p.bad(ErrMalformed, "a pot- or no-limit hand needs min_bet")
		}
		d.stakes = events.Stakes{MinBet: mb}
	}
	for _, a := range antes {
		d.stakes.Ante = max(d.stakes.Ante, a)
	}

	// Seats and names, in PHH position order: p1 left of the button, pN on the button.
	p.seats = make([]events.Seat, p.n)
	if v, ok := p.fields["seats"]; ok {
		ss, err := p.list("seats", true)
		_ = v
		if err != nil {
			return err
		}
		if len(ss) != p.n {
			return p.bad(ErrMalformed, "seats has %d entries for %d players", len(ss), p.n)
		}
		for i, s := range ss {
			k, err := strconv.Atoi(s)
			if err != nil || k < 1 || k > int(events.MaxSeat) {
				return p.bad(ErrUnsupported, "seat %s: seats are 1 to %d", s, events.MaxSeat)
			}
			p.seats[i] = events.Seat(k)
		}
	} else {
		for i := range p.seats {
			p.seats[i] = events.Seat(i + 1)
		}
	}
	names, _ := p.fields["players"].([]any)
	for i := range p.n {
		nm := ""
		if i < len(names) {
			nm, _ = names[i].(string)
		}
		if strings.TrimSpace(nm) == "" {
			nm = "p" + strconv.Itoa(i+1)
		}
		d.players = append(d.players, player{seat: p.seats[i], name: nm, stack: stacks[i]})
	}
	d.button = p.seats[p.n-1]
	slices.SortFunc(d.players, func(a, b player) int { return int(a.seat) - int(b.seat) })
	if !slices.Equal(clockwise(d.players, d.button), p.seats) {
		return p.bad(ErrMalformed, "seats %v are not in PHH position order (clockwise from the seat left of the button, the button last)", p.seats)
	}
	at, err := p.when()
	if err != nil {
		return err
	}
	d.at = at

	// Forced bets; heads-up, the arrays apply reversed.
	eff := func(xs []events.Chips, i int) events.Chips {
		if p.n == 2 {
			return xs[1-i]
		}
		return xs[i]
	}
	left := slices.Clone(stacks)
	for i := range p.n {
		if a := min(eff(antes, i), left[i]); a > 0 {
			d.steps = append(d.steps, &step{kind: stepAnte, line: p.start, seat: p.seats[i], amount: a})
			left[i] -= a
		}
	}
	for j, b := range blinds {
		if j >= 2 && b > 0 {
			return p.bad(ErrUnsupported, "a straddle: online-draw has a small and a big blind only")
		}
	}
	if p.n < 2 || blinds[0] <= 0 || blinds[1] <= 0 {
		return p.bad(ErrUnsupported, "no small and big blind: online-draw deals with both")
	}
	inRound := make([]events.Chips, p.n)
	for j, kind := range []events.BlindKind{events.BlindSmall, events.BlindBig} {
		i := j
		if p.n == 2 {
			i = 1 - j
		}
		if a := min(blinds[j], left[i]); a > 0 {
			d.steps = append(d.steps, &step{kind: stepBlind, line: p.start, seat: p.seats[i], amount: a, blind: kind})
			left[i] -= a
			inRound[i] += a
		}
	}
	if err := p.play(d, actions, left, inRound); err != nil {
		return err
	}
	d.settle = func(g *game, sd *showdown) ([]award, []rake, error) { return p.settle(g, sd, stacks, finish) }
	return nil
}

type phhAction struct {
	text  string
	actor int // 0 for the dealer, k for pk
	verb  string
	arg   string // cards or amount
	extra string // the player of "d dh pK"
}

// actions reads the actions array.
func (p *phhParser) actions() ([]phhAction, error) {
	v, ok := p.fields["actions"]
	if !ok {
		return nil, p.bad(ErrMalformed, "no actions")
	}
	arr, ok := v.([]any)
	if !ok {
		return nil, p.bad(ErrMalformed, "actions is not an array")
	}
	var out []phhAction
	for _, x := range arr {
		s, ok := x.(string)
		if !ok {
			return nil, p.bad(ErrMalformed, "an action is not a string")
		}
		text := s
		if k := strings.Index(s, "#"); k >= 0 {
			s = s[:k]
		}
		f := strings.Fields(s)
		if len(f) == 0 {
			continue
		}
		bad := func(format string, a ...any) error {
			return atLine(p.locate(text), errf(ErrMalformed, "action %q: "+format, append([]any{text}, a...)...))
		}
		a := phhAction{text: text}
		actor := func(t string) (int, error) {
			if len(t) < 2 || t[0] != 'p' {
				return 0, bad("bad player %q", t)
			}
			k, err := strconv.Atoi(t[1:])
			if err != nil || k < 1 || k > p.n {
				return 0, bad("no player %q", t)
			}
			return k, nil
		}
		if f[0] == "d" {
			if len(f) < 2 {
				return nil, bad("incomplete")
			}
			a.verb = f[1]
			switch a.verb {
			case "dh":
				if len(f) != 4 {
					return nil, bad("want d dh pK CARDS")
				}
				k, err := actor(f[2])
				if err != nil {
					return nil, err
				}
				a.extra, a.arg = strconv.Itoa(k), f[3]
			case "db":
				return nil, atLine(p.locate(text), errf(ErrUnsupported, "action %q: board cards: not a draw game", text))
			default:
				return nil, bad("unknown dealer action")
			}
		} else {
			k, err := actor(f[0])
			if err != nil {
				return nil, err
			}
			a.actor = k
			if len(f) < 2 {
				return nil, bad("no action")
			}
			a.verb = f[1]
			switch a.verb {
			case "f", "cc":
				if len(f) != 2 {
					return nil, bad("extra words")
				}
			case "cbr":
				if len(f) != 3 {
					return nil, bad("want pK cbr AMOUNT")
				}
				if _, err := strconv.ParseFloat(f[2], 64); err != nil || strings.HasPrefix(f[2], "-") {
					return nil, bad("bad amount %q", f[2])
				}
				a.arg = f[2]
			case "sd", "sm":
				if len(f) > 3 {
					return nil, bad("extra words")
				}
				if len(f) == 3 {
					a.arg = f[2]
				}
			case "pb":
				return nil, atLine(p.locate(text), errf(ErrUnsupported, "action %q: a bring-in: online-draw has blinds", text))
			default:
				return nil, bad("unknown action %q", a.verb)
			}
		}
		out = append(out, a)
	}
	return out, nil
}

// play turns the actions into steps.
func (p *phhParser) play(d *draft, actions []phhAction, left, inRound []events.Chips) error {
	const (
		deal = iota
		first
		draw
		second
		showdown
	)
	phase := deal
	dealt := make([][]cards.Card, p.n)
	dealtN := make([]int, p.n)
	dealtKnown := make([]bool, p.n)
	for i := range dealtKnown {
		dealtKnown[i] = true
	}
	folded := make([]bool, p.n)
	draws := make([]*step, p.n)
	drawnN := make([]int, p.n)
	drawnKnown := make([]bool, p.n)
	hold := make([][]cards.Card, p.n) // known hands, for "sm -"
	var top events.Chips
	for i := range inRound {
		top = max(top, inRound[i])
	}
	liveCount := func() int {
		n := 0
		for _, f := range folded {
			if !f {
				n++
			}
		}
		return n
	}
	endRound := func(line int) {
		// Chips nobody matched go back.
		hi, at := events.Chips(0), -1
		for i, c := range inRound {
			if c > hi {
				hi, at = c, i
			}
		}
		var second events.Chips
		for i, c := range inRound {
			if i != at {
				second = max(second, c)
			}
		}
		if at >= 0 && hi > second {
			d.steps = append(d.steps, &step{kind: stepReturn, line: line, seat: p.seats[at], amount: hi - second})
			left[at] += hi - second
		}
		clear(inRound)
		top = 0
	}
	finishDeal := func(line int) error {
		for i := range p.n {
			switch {
			case dealtN[i] == 0:
			case dealtN[i] != 5:
				return atLine(line, errf(ErrMalformed, "p%d is dealt %d cards: want five", i+1, dealtN[i]))
			case dealtKnown[i]:
				d.dealt[p.seats[i]] = dealt[i]
				hold[i] = slices.Clone(dealt[i])
			}
		}
		return nil
	}
	finishDraw := func(line int) error {
		for i, s := range draws {
			if s == nil {
				continue
			}
			if drawnN[i] != s.count {
				return atLine(line, errf(ErrMalformed, "p%d threw %d cards and was dealt %d", i+1, s.count, drawnN[i]))
			}
			if !drawnKnown[i] {
				s.drawn = nil
			}
			if hold[i] != nil && s.discarded != nil && s.drawn != nil {
				hold[i] = append(minus(hold[i], s.discarded), s.drawn...)
			} else {
				hold[i] = nil
			}
		}
		return nil
	}
	for _, a := range actions {
		line := p.locate(a.text)
		bad := func(kind error, format string, args ...any) error {
			return atLine(line, errf(kind, "action %q: "+format, append([]any{a.text}, args...)...))
		}
		if a.actor == 0 { // d dh
			k, _ := strconv.Atoi(a.extra)
			i := k - 1
			cs, n, known, err := phhCards(a.arg)
			if err != nil {
				return atLine(line, err)
			}
			switch phase {
			case deal:
				dealtN[i] += n
				dealtKnown[i] = dealtKnown[i] && known
				dealt[i] = append(dealt[i], cs...)
			case draw:
				s := draws[i]
				if s == nil {
					return bad(ErrMalformed, "cards dealt in the draw to a player who did not discard")
				}
				drawnN[i] += n
				drawnKnown[i] = drawnKnown[i] && known
				s.drawn = append(s.drawn, cs...)
			default:
				return bad(ErrMalformed, "cards dealt outside the deal and the draw")
			}
			continue
		}
		i := a.actor - 1
		if folded[i] {
			return bad(ErrInconsistent, "p%d acts after folding", i+1)
		}
		if liveCount() < 2 && a.verb != "sm" {
			return bad(ErrInconsistent, "an action after everyone else folded")
		}
		switch a.verb {
		case "f", "cc", "cbr":
			switch phase {
			case deal:
				if err := finishDeal(line); err != nil {
					return err
				}
				phase = first
			case draw:
				if err := finishDraw(line); err != nil {
					return err
				}
				phase = second
			case showdown:
				return bad(ErrMalformed, "a bet after the showdown began")
			}
			round := events.RoundFirst
			if phase == second {
				round = events.RoundSecond
			}
			st := &step{kind: stepAct, line: line, seat: p.seats[i], round: round}
			switch a.verb {
			case "f":
				st.action = events.Fold
				folded[i] = true
			case "cc":
				owed := min(top-inRound[i], left[i])
				if owed > 0 {
					st.action, st.amount = events.Call, owed
				} else {
					st.action = events.Check
				}
			case "cbr":
				to, err := p.chips(a.arg)
				if err != nil {
					return atLine(line, cause(err))
				}
				inc := to - inRound[i]
				if inc <= 0 || to <= top {
					return bad(ErrInconsistent, "a bet or raise to %d facing %d", to, top)
				}
				if inc > left[i] {
					return bad(ErrInconsistent, "p%d bets %d with %d left", i+1, inc, left[i])
				}
				st.action, st.amount = events.Raise, inc
				if top == 0 {
					st.action = events.Bet
				}
				top = to
			}
			inRound[i] += st.amount
			left[i] -= st.amount
			d.steps = append(d.steps, st)
		case "sd":
			switch phase {
			case deal:
				// No betting when the blinds left fewer than two players with chips: the
				// draw comes right after the deal (pokerkit records no action then).
				able := 0
				for k := range p.n {
					if !folded[k] && left[k] > 0 {
						able++
					}
				}
				if able >= 2 {
					return bad(ErrMalformed, "a draw before any betting")
				}
				if err := finishDeal(line); err != nil {
					return err
				}
				endRound(line)
				phase = draw
			case first:
				endRound(line)
				phase = draw
			case draw:
			default:
				return bad(ErrUnsupported, "a second draw: online-draw has one")
			}
			if draws[i] != nil {
				return bad(ErrUnsupported, "p%d draws twice: online-draw has one draw", i+1)
			}
			st := &step{kind: stepDraw, line: line, seat: p.seats[i], discarded: []cards.Card{}}
			if a.arg != "" {
				cs, n, known, err := phhCards(a.arg)
				if err != nil {
					return atLine(line, err)
				}
				st.count, st.discarded = n, cs
				if !known {
					st.discarded = nil
				}
			}
			drawnKnown[i] = true
			draws[i] = st
			d.steps = append(d.steps, st)
		case "sm":
			switch phase {
			case first, second:
				endRound(line)
			case draw:
				if err := finishDraw(line); err != nil {
					return err
				}
			case deal:
				if err := finishDeal(line); err != nil {
					return err
				}
			}
			phase = showdown
			switch a.arg {
			case "":
				d.steps = append(d.steps, &step{kind: stepMuck, line: line, seat: p.seats[i]})
			case "-":
				if hold[i] == nil {
					return bad(ErrMalformed, "p%d shows cards nobody knows", i+1)
				}
				d.steps = append(d.steps, &step{kind: stepShow, line: line, seat: p.seats[i], shown: hold[i]})
			default:
				cs, _, known, err := phhCards(a.arg)
				if err != nil {
					return atLine(line, err)
				}
				if known { // a show with unknown cards tells nothing fechado can record
					d.steps = append(d.steps, &step{kind: stepShow, line: line, seat: p.seats[i], shown: cs})
				}
			}
		}
	}
	last := p.start
	if len(actions) > 0 {
		last = p.locate(actions[len(actions)-1].text)
	}
	switch phase {
	case deal:
		return atLine(last, errf(ErrMalformed, "the hand has no betting"))
	case first, second:
		endRound(last)
	case draw:
		if err := finishDraw(last); err != nil {
			return err
		}
		if liveCount() > 1 {
			return atLine(last, errf(ErrMalformed, "the actions stop in the draw"))
		}
	}
	d.endLine = last
	return nil
}

// settle decides the pots as rules does (one implementation of layers, splits and odd chips): a
// pot with one eligible player is his; otherwise the best shown hand takes it, ties split by the
// preset. When hands are not known, finishing_stacks must say who won.
func (p *phhParser) settle(g *game, sd *showdown, start, finish []events.Chips) ([]award, []rake, error) {
	pots := sd.pots
	var rk events.Chips
	if finish != nil {
		var a, b events.Chips
		for i := range start {
			a += start[i]
			b += finish[i]
		}
		if b > a {
			return nil, nil, errf(ErrInconsistent, "the finishing stacks hold %d chips more than the starting stacks", b-a)
		}
		rk = a - b
	}
	var rakes []rake
	if rk > 0 {
		if len(pots) == 0 || pots[0].Amount < rk {
			return nil, nil, errf(ErrInconsistent, "%d chips are missing from the finishing stacks, more than the main pot", rk)
		}
		rakes = append(rakes, rake{pot: 0, amount: rk})
		// The rake comes off the main pot before it is shared out, in rules as in the log.
		raked := &events.PotRaked{Pot: 0, Amount: rk}
		sd.hand.Apply(&events.Event{Seq: events.Seq(len(sd.events) + 1), Type: raked.EventType(), Data: raked})
	}
	// ExpectedAwards stops at the first pot contested by hands nobody showed: the pots after it
	// have no shares, and only one with a single eligible player can still be given out.
	expected, _ := sd.hand.ExpectedAwards()
	var awards []award
	unknown := -1
	for k, pot := range expected {
		if len(pot.Eligible) == 0 {
			return nil, nil, errf(ErrInconsistent, "pot %d has no player who can win it", k)
		}
		shares := pot.Shares
		if shares == nil && unknown >= 0 && len(pot.Eligible) == 1 {
			shares = map[events.Seat]events.Chips{pot.Eligible[0]: pot.Amount}
		}
		if len(shares) == 0 {
			if unknown >= 0 {
				return nil, nil, errf(ErrUnsupported, "several pots are contested by hands nobody showed")
			}
			unknown = k
			continue
		}
		for _, s := range g.order { // clockwise from the button's left, as the room pays
			if a := shares[s]; a > 0 {
				awards = append(awards, award{seat: s, pot: k, amount: a})
			}
		}
	}
	if unknown >= 0 {
		if finish == nil {
			return nil, nil, errf(ErrUnsupported, "pot %d is contested by hands nobody showed and there are no finishing_stacks to say who won", unknown)
		}
		l := expected[unknown]
		got := map[events.Seat]events.Chips{}
		for _, a := range awards {
			got[a.seat] += a.amount
		}
		var paid events.Chips
		for i, s := range p.seats {
			gain := finish[i] - g.seats[s].stack - got[s]
			if gain < 0 {
				return nil, nil, errf(ErrInconsistent, "seat %d ends with %d, less than it has after the betting", s, finish[i])
			}
			if gain > 0 {
				if !slices.Contains(l.Eligible, s) {
					return nil, nil, errf(ErrInconsistent, "seat %d gains %d from a pot it cannot win", s, gain)
				}
				awards = append(awards, award{seat: s, pot: unknown, amount: gain})
				paid += gain
			}
		}
		want := l.Amount
		if unknown == 0 {
			want -= rk
		}
		if paid != want {
			return nil, nil, errf(ErrInconsistent, "the finishing stacks pay %d from pot %d of %d", paid, unknown, want)
		}
	}
	if finish != nil {
		got := map[events.Seat]events.Chips{}
		for _, a := range awards {
			got[a.seat] += a.amount
		}
		for i, s := range p.seats {
			if end := g.seats[s].stack + got[s]; end != finish[i] {
				return nil, nil, errf(ErrInconsistent, "p%d (seat %d) ends with %d by the actions, %d by finishing_stacks", i+1, s, end, finish[i])
			}
		}
	}
	return awards, rakes, nil
}

// when returns the hand's time.
func (p *phhParser) when() (string, error) {
	geti := func(k string, def int) int {
		if v, ok := p.fields[k].(int64); ok {
			return int(v)
		}
		return def
	}
	y, mo, dd := geti("year", 1970), geti("month", 1), geti("day", 1)
	loc := time.UTC
	if z, ok := p.fields["time_zone"].(string); ok && z != "" {
		l, err := time.LoadLocation(z)
		if err != nil {
			return "", p.bad(ErrMalformed, "time_zone %q is not an IANA time zone", z)
		}
		loc = l
	}
	hh, mi, ss := 0, 0, 0
	switch t := p.fields["time"].(type) {
	case time.Time:
		hh, mi, ss = t.Hour(), t.Minute(), t.Second()
	case string:
		tt, err := time.Parse("15:04:05", t)
		if err != nil {
			return "", p.bad(ErrMalformed, "time %q: want HH:MM:SS", t)
		}
		hh, mi, ss = tt.Hour(), tt.Minute(), tt.Second()
	}
	if mo < 1 || mo > 12 || dd < 1 || dd > 31 || y < 1 || y > 9999 {
		return "", p.bad(ErrMalformed, "bad date %d-%d-%d", y, mo, dd)
	}
	return time.Date(y, time.Month(mo), dd, hh, mi, ss, 0, loc).Format(time.RFC3339), nil
}
