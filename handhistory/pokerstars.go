package handhistory

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/rules"
)

// ImportPokerStars converts PokerStars text hand histories of "5 Card Draw" (Limit, Pot Limit and
// No Limit; cash games and tournaments) to events, one hand at a time.
//
// It reads what real exports contain: a UTF-8 byte-order mark, CRLF or LF line ends, hands
// separated by blank lines, "Game #" (older) and "Hand #" (2016 on) headers, one time or a local
// time followed by "[… ET]", player names with spaces, table traffic and chat lines between
// actions, "and is all-in", "Uncalled bet (…) returned to …", main and side pots, rake, and a
// draw without a section header (it begins at the first "discards" or "stands pat" line).
//
// Mapping: the hand's time is the ET time (US Eastern, America/New_York), written in RFC 3339 with
// its offset; a local time is used only when it is the only one and is ET, PT, MT, CT, AT, UTC or
// GMT (PokerStars prints the local zone's standard-time name all year, so it cannot be trusted).
// Cash amounts become cents ($0.10 → 10); tournament and play-money chips stay as they are. The
// hand's UUID is derived from the PokerStars hand number, so the same hand imported from two files
// is one hand. The table id is "ps-", the table name, and the number of the first hand of that
// table in the file, so that each session is a table of its own; hand numbers count the hands of
// a table in the file from 1; previous links each to the one before it, and a player whose stack
// grew between two hands of the session is given that growth as rebuy. Between two hands of a
// session the seat lists say who came and went (events-v1.md §7): a player seated with chips but
// not dealt in ("is sitting out", waiting for the big blind) is away; one new at the table
// joined, his stack his buy-in; one of the last hand (dealt in or away) no longer seated left,
// taking his last stack. The dealer is the button's seat as PokerStars prints it, even on a seat
// nobody is dealt in from (a dead button). Side pots follow the
// pot layers of presets.md (a short all-in player who mucks no longer makes a layer of his own,
// so PokerStars' main and side pot may become one pot); the rake is taken from the pot
// PokerStars took it from (it prints the main pot net of rake, side pots gross).
func ImportPokerStars(name string, data []byte) *Result {
	res := &Result{}
	lines := textLines(data)
	// A file that did not end in a newline, concatenated with the next, glues the next file's
	// first header to its own last line: a header that starts inside a line begins a new one.
	for i := 0; i < len(lines); i++ {
		if j := strings.Index(lines[i], "PokerStars "); j > 0 && reHeader().MatchString(lines[i][j:]) {
			lines = slices.Insert(lines, i+1, lines[i][j:])
			lines[i] = strings.TrimRight(lines[i][:j], " ")
		}
	}

	// Split the file at hand headers; text between hands must be blank.
	var starts []int
	for i, l := range lines {
		if reHeader().MatchString(l) {
			starts = append(starts, i)
		}
	}
	end := len(lines)
	if len(starts) > 0 {
		end = starts[0]
	}
	if i := firstNonBlank(lines, 0, end); i >= 0 {
		res.Skipped = append(res.Skipped, &Error{File: name, Line: i + 1,
			Err: errf(ErrMalformed, "not a PokerStars hand history: %q", clip(lines[i]))})
	}

	var blocks []psBlock
	for k, s := range starts {
		e := len(lines)
		if k+1 < len(starts) {
			e = starts[k+1]
		}
		p := &psParser{file: name, lines: lines, start: s, end: e}
		h, stray, err := p.parse()
		blocks = append(blocks, psBlock{h, err})
		if stray > 0 {
			res.Skipped = append(res.Skipped, &Error{File: name, Line: stray + 1,
				Err: errf(ErrMalformed, "stray line after the hand's summary: %q", clip(lines[stray]))})
		}
	}

	assemble(res, name, "ps", blocks)
	return res
}

// psBlock is a hand as a reader parsed it, and the first problem found in it.
type psBlock struct {
	h   *psHand
	err error
}

// assemble turns the parsed hands of a file into events, table by table: the sessions of a table
// name get one table id (prefix, the name, the room's number of its first hand in the file), hand
// numbers from 1, previous links, rebuys from stacks that grew, and the comings and goings of
// events-v1.md §7. A hand that fails is reported in res.Skipped and keeps its place in the
// numbering.
func assemble(res *Result, name, prefix string, blocks []psBlock) {
	// Tables, numbers, links and rebuys, then the events.
	type tableRun struct {
		id     string
		count  int
		last   string
		finals map[string]events.Chips
		// present holds the players of the last hand imported, dealt in or away, with the stack
		// each had at its end: who may be away, gone or back at the next (events-v1.md §7).
		present map[string]events.Chips
	}
	tables := map[string]*tableRun{}
	for _, b := range blocks {
		h := b.h
		// The online rooms (PokerStars, Full Tilt, OnGame, Merge) deal their cash games with a
		// moving button (events-v1.md §7, 2026-12-05: "imports of online rooms' cash games declare
		// moving"); their tournaments keep the dead button. Boss's cash games keep it too: its
		// big blind never skips a player, and a player sitting out keeps the button (events.md,
		// Reading R6).
		h.d.moving = h.d.tournament == nil && !h.deadButton
		if h.seated {
			t := tables[h.tableName]
			if t == nil {
				t = &tableRun{id: tableID(prefix, h.tableName, h.number), finals: map[string]events.Chips{}}
				tables[h.tableName] = t
			}
			t.count++
			h.d.table, h.d.number = t.id, t.count
			if t.last != "" {
				prev := t.last
				h.d.previous = &prev
			}
			t.last = h.d.hand.String()
			if b.err == nil {
				for i := range h.d.players {
					p := &h.d.players[i]
					if f, ok := t.finals[p.name]; ok && p.stack > f {
						r := p.stack - f
						p.rebuy = &r
					}
				}
				if t.present != nil {
					h.d.comings(t.present)
				}
			}
		}
		err := b.err
		var evs []*events.Event
		if err == nil {
			evs, err = h.d.build()
		}
		if err != nil {
			res.Skipped = append(res.Skipped, &Error{File: name, Line: lineOf(err, h.d.line), Hand: h.number, Err: cause(err)})
			continue
		}
		t := tables[h.tableName]
		ended := evs[len(evs)-1].Data.(*events.HandEnded)
		t.present = map[string]events.Chips{}
		for i, p := range h.d.players {
			t.finals[p.name] = ended.Stacks[i].Stack
			t.present[p.name] = ended.Stacks[i].Stack
		}
		for _, a := range h.d.away {
			t.present[a.Player] = a.Stack
		}
		res.Hands = append(res.Hands, Hand{File: name, Line: h.d.line, Source: h.number, Table: h.d.table,
			ID: h.d.hand.String(), Events: evs, Dropped: h.d.dropped})
	}
}

const amt = `[$€£]?[0-9][0-9,]*(?:\.[0-9]+)?`

var (
	reHeader  = lazyRegexp(`^PokerStars (?:Home Game |Zoom |Rush )?(?:Game|Hand) #(\d+): +(.*)$`)
	reWhen    = lazyRegexp(`^(.*?) - (\d{4}/\d{1,2}/\d{1,2} \d{1,2}:\d{2}:\d{2}) ([A-Za-z]+)(?: \[(\d{4}/\d{1,2}/\d{1,2} \d{1,2}:\d{2}:\d{2}) ([A-Za-z]+)\])?\s*$`)
	reTourney = lazyRegexp(`^Tournament #(\d+), (.*)$`)
	reLevel   = lazyRegexp(`\bLevel ([IVXLC]+)\b`)
	reGame    = lazyRegexp(`\b5 Card Draw (Pot Limit|No Limit|Limit)\b`)
	reStakes  = lazyRegexp(`\((` + amt + `)/(` + amt + `)(?: [A-Z]{3})?\)`)
	reTable   = lazyRegexp(`^Table '(.*)' (\d+)-max(?: \(Play Money\))? Seat #(\d+) is the button\s*$`)
	reSeat    = lazyRegexp(`^Seat (\d+): (.+?) \((` + amt + `) in chips(?:, [^)]*)?\)(.*)$`)
	reSection = lazyRegexp(`^\*\*\* (.+?) \*\*\*\s*$`)
	reDealt   = lazyRegexp(`^Dealt to (.+?)(?: \[([^\]]*)\])?(?: \[([^\]]*)\])?\s*$`)
	reReturn  = lazyRegexp(`^Uncalled bet \((` + amt + `)\) returned to (.+?)\s*$`)
	reCollect = lazyRegexp(`^(.+?) collected (` + amt + `) from (pot|main pot|side pot(?:-(\d+))?)\s*$`)
	reChat    = lazyRegexp(`^(.+?) said, ".*"\s*$`)
	reTraffic = lazyRegexp(`^(.+?):? (?:joins the table at seat #\d+|leaves the table|will be allowed to play after the button|` +
		`is disconnected|is connected|has timed out(?: while (?:being )?disconnected)?|has returned|is back|` +
		`was removed from the table(?: for failing to post)?|finished the tournament(?: in \d+\S* place)?(?: and received .*)?|` +
		`wins the tournament(?: and receives .*)?|re-buys and receives .*|takes the add-on and receives .*|is sitting out|sits out)\s*$`)
	reTotal   = lazyRegexp(`^Total pot (` + amt + `)(.*?) \| Rake (` + amt + `)\s*$`)
	reSumSeat = lazyRegexp(`^Seat (\d+): (.*)$`)
	reSumShow = lazyRegexp(`\b(?:showed|mucked) \[([^\]]*)\]`)

	reAllIn     = lazyRegexp(` and is all-in\s*$`)
	rePostSB    = lazyRegexp(`^posts small blind (` + amt + `)$`)
	rePostBB    = lazyRegexp(`^posts big blind (` + amt + `)$`)
	rePostBoth  = lazyRegexp(`^posts small & big blinds (` + amt + `)$`)
	rePostAnte  = lazyRegexp(`^posts the ante (` + amt + `)$`)
	reFold      = lazyRegexp(`^folds(?: \[[^\]]*\])?$`)
	reCheck     = lazyRegexp(`^checks$`)
	reCall      = lazyRegexp(`^calls (` + amt + `)$`)
	reBet       = lazyRegexp(`^bets (` + amt + `)$`)
	reRaise     = lazyRegexp(`^raises (` + amt + `) to (` + amt + `)$`)
	reDiscard   = lazyRegexp(`^discards (\d+) cards?(?: \[([^\]]*)\])?$`)
	rePat       = lazyRegexp(`^stands pat(?: on)?(?: \[([^\]]*)\])?$`)
	reShows     = lazyRegexp(`^shows \[([^\]]*)\](?: \(.*\))?$`)
	reMucks     = lazyRegexp(`^mucks hand(?: \[[^\]]*\])?$`)
	reNoShow    = lazyRegexp(`^doesn't show hand$`)
	reSitOut    = lazyRegexp(`^(?:is sitting out|sits out)$`)
	reSeatNoise = lazyRegexp(`^(?:is disconnected|is connected|has timed out(?: while (?:being )?disconnected)?|has returned|is back|leaves the table|will be allowed to play after the button)$`)
)

// psHand is a parsed PokerStars hand.
type psHand struct {
	d         *draft
	number    string // the PokerStars hand number
	tableName string
	seated    bool // the table line was read: tableName is known
	// deadButton says the room deals its cash games by the TDA dead button, not the moving button
	// of the other online rooms (Boss: events.md, Reading R6).
	deadButton bool
}

// psParser reads one hand: lines[start:end].
type psParser struct {
	file       string
	lines      []string
	start, end int

	scale    int64 // 100 for cash (cents), 1 for chips
	names    []string
	bySeat   map[events.Seat]string
	byName   map[string]events.Seat
	dealtIn  map[events.Seat]bool
	inRound  map[events.Seat]events.Chips
	phase    int
	awards   []psAward
	total    events.Chips
	rake     events.Chips
	haveSum  bool
	summary  map[events.Seat]bool
	totalRow int
	stacks   map[events.Seat]events.Chips // the other rooms' readers: stacks by seat
}

type psAward struct {
	seat   events.Seat
	pot    int // PokerStars' pot: -1 "pot", 0 "main pot", k "side pot-k" ("side pot" is 1)
	amount events.Chips
	line   int
}

const (
	phasePreDeal = iota
	phaseFirst
	phaseDraw
	phaseSecond
	phaseShowdown
	phaseSummary
)

// parse reads the hand. It returns the hand as far as it could be read (seated once its table
// line was), the index of the first stray line after the summary (0 if none), and the
// first problem.
func (p *psParser) parse() (*psHand, int, error) {
	hl := p.start
	m := reHeader().FindStringSubmatch(p.lines[hl])
	number := m[1]
	d := &draft{line: hl + 1, endLine: hl + 1, source: number, hand: uuid.NewSHA1(Namespace, []byte("pokerstars/"+number)),
		dealt: map[events.Seat][]cards.Card{}, final: map[events.Seat][]cards.Card{}}
	h := &psHand{d: d, number: number}
	fail := func(line int, kind error, format string, a ...any) (*psHand, int, error) {
		return h, 0, atLine(line+1, errf(kind, format, a...))
	}
	w := reWhen().FindStringSubmatch(m[2])
	if w == nil {
		return fail(hl, ErrMalformed, "header without a date and time: %q", clip(p.lines[hl]))
	}
	game := w[1]
	at, err := psTime(w[2], w[3], w[4], w[5])
	if err != nil {
		return fail(hl, ErrMalformed, "%v", err)
	}
	d.at = at
	if t := reTourney().FindStringSubmatch(game); t != nil {
		d.tournament = &events.Tournament{ID: t[1], Level: romanLevel(t[2])}
		game = t[2]
	}
	g := reGame().FindStringSubmatch(game)
	if g == nil {
		return fail(hl, ErrUnsupported, "game %q is not 5 Card Draw (the online-draw preset is five-card draw high with one draw)", clip(game))
	}
	st := reStakes().FindAllStringSubmatch(game, -1)
	if st == nil {
		return fail(hl, ErrMalformed, "no stakes in the header: %q", clip(game))
	}
	stakes := st[len(st)-1]
	p.scale = 1
	if strings.ContainsAny(stakes[0], "$€£") || reCurrency().MatchString(stakes[0]) {
		p.scale = 100
	}
	lo, err1 := p.amount(stakes[1])
	hi, err2 := p.amount(stakes[2])
	if err1 != nil || err2 != nil || lo <= 0 || hi < lo {
		return fail(hl, ErrMalformed, "bad stakes %q", stakes[0])
	}
	switch g[1] {
	case "Limit":
		d.structure = "fixed"
		d.stakes = events.Stakes{MinBet: lo, MaxBet: hi}
	case "Pot Limit":
		d.structure = "pot"
		d.stakes = events.Stakes{MinBet: hi}
	default:
		d.structure = "no"
		d.stakes = events.Stakes{MinBet: hi}
	}
	bigBlind := d.stakes.MinBet

	// The table line.
	i := p.next(hl + 1)
	if i < 0 {
		return fail(p.end-1, ErrMalformed, "the hand is cut short after its header")
	}
	t := reTable().FindStringSubmatch(p.lines[i])
	if t == nil {
		return fail(i, ErrMalformed, "want the table line, got %q", clip(p.lines[i]))
	}
	button, _ := strconv.Atoi(t[3])
	d.button = events.Seat(button)
	h.tableName, h.seated = t[1], true
	failH := fail

	// The seats.
	p.bySeat, p.byName, p.dealtIn = map[events.Seat]string{}, map[string]events.Seat{}, map[events.Seat]bool{}
	stacks := map[events.Seat]events.Chips{}
	for i = p.next(i + 1); i >= 0; i = p.next(i + 1) {
		sm := reSeat().FindStringSubmatch(p.lines[i])
		if sm == nil {
			break
		}
		n, _ := strconv.Atoi(sm[1])
		s := events.Seat(n)
		if s < 1 || s > events.MaxSeat {
			return failH(i, ErrUnsupported, "seat %d: seats are 1 to %d", n, events.MaxSeat)
		}
		if _, dup := p.bySeat[s]; dup {
			return failH(i, ErrMalformed, "seat %d is listed twice", n)
		}
		if _, dup := p.byName[sm[2]]; dup {
			return failH(i, ErrMalformed, "player %q sits in two seats", sm[2])
		}
		c, err := p.amount(sm[3])
		if err != nil {
			return failH(i, ErrMalformed, "seat %d: %v", n, err)
		}
		p.bySeat[s], p.byName[sm[2]], stacks[s] = sm[2], s, c
		p.names = append(p.names, sm[2])
		rest := sm[4]
		p.dealtIn[s] = !strings.Contains(rest, "sitting out") && !strings.Contains(rest, "out of hand") && c > 0
	}
	if len(p.bySeat) == 0 {
		return failH(max(i, p.start), ErrMalformed, "no seats listed")
	}
	// Longest names first, so that "Bob Smith" is not read as "Bob".
	slices.SortFunc(p.names, func(a, b string) int { return len(b) - len(a) })

	// The body.
	p.inRound = map[events.Seat]events.Chips{}
	p.summary = map[events.Seat]bool{}
	lastLine := p.start
	stray := 0
	for ; i >= 0 && i < p.end; i++ {
		l := p.lines[i]
		if strings.TrimSpace(l) == "" {
			if p.phase == phaseSummary && p.haveSum {
				if k := firstNonBlank(p.lines, i, p.end); k >= 0 {
					stray = k
				}
				break
			}
			continue
		}
		lastLine = i
		if err := p.line(d, i, l, bigBlind); err != nil {
			return h, 0, err
		}
	}
	if !p.haveSum {
		return failH(lastLine, ErrMalformed, "the hand is cut short: no summary with its total pot")
	}
	d.endLine = p.totalRow + 1
	for _, pl := range p.sortedSeats() {
		if !p.dealtIn[pl] {
			continue
		}
		if !p.summary[pl] {
			return failH(lastLine, ErrMalformed, "the hand is cut short: the summary has no line for seat %d", pl)
		}
		d.players = append(d.players, player{seat: pl, name: p.bySeat[pl], stack: stacks[pl]})
	}
	for _, s := range p.sortedSeats() {
		if !p.dealtIn[s] && stacks[s] > 0 {
			// Seated with chips, not dealt in: sitting out, or waiting for the big blind.
			d.away = append(d.away, events.AwaySeat{Seat: s, Player: p.bySeat[s], Stack: stacks[s]})
		}
	}
	for _, s := range d.steps {
		if s.kind == stepAnte {
			d.stakes.Ante = max(d.stakes.Ante, s.amount)
		}
	}
	d.settle = p.settle
	return h, stray, nil
}

var reCurrency = lazyRegexp(` [A-Z]{3}\)$`)

func (p *psParser) sortedSeats() []events.Seat {
	ss := make([]events.Seat, 0, len(p.bySeat))
	for s := range p.bySeat {
		ss = append(ss, s)
	}
	slices.Sort(ss)
	return ss
}

// next returns the index of the next non-blank line from i within the hand, or -1.
func (p *psParser) next(i int) int { return firstNonBlank(p.lines, i, p.end) }

// line reads one line of the body.
func (p *psParser) line(d *draft, i int, l string, bigBlind events.Chips) error {
	bad := func(kind error, format string, a ...any) error { return atLine(i+1, errf(kind, format, a...)) }
	if p.phase == phaseSummary {
		if m := reTotal().FindStringSubmatch(l); m != nil {
			t, err1 := p.amount(m[1])
			r, err2 := p.amount(m[3])
			if err1 != nil || err2 != nil {
				return bad(ErrMalformed, "bad amount in %q", clip(l))
			}
			p.total, p.rake, p.haveSum, p.totalRow = t, r, true, i
			return nil
		}
		if m := reSumSeat().FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[1])
			s := events.Seat(n)
			if _, ok := p.bySeat[s]; !ok {
				return bad(ErrMalformed, "summary line for seat %d, which is not listed", n)
			}
			p.summary[s] = true
			if c := reSumShow().FindStringSubmatch(m[2]); c != nil {
				cs, err := cards.ParseList(c[1])
				if err != nil || len(cs) != 5 {
					return bad(ErrMalformed, "bad cards %q", c[1])
				}
				if p.dealtIn[s] {
					d.final[s] = cs
				}
			}
			return nil
		}
		return bad(ErrMalformed, "unknown summary line %q", clip(l))
	}
	if m := reSection().FindStringSubmatch(l); m != nil {
		switch m[1] {
		case "DEALING HANDS":
			if p.phase != phasePreDeal {
				return bad(ErrMalformed, "a second deal")
			}
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
		case "FIRST DRAW", "SECOND DRAW", "THIRD DRAW":
			return bad(ErrUnsupported, "%q: a triple-draw game, not five-card draw", m[1])
		default:
			return bad(ErrMalformed, "unknown section %q", m[1])
		}
		return nil
	}
	if m := reDealt().FindStringSubmatch(l); m != nil {
		return atLine(i+1, p.dealtTo(d, l, m[1], m[2], m[3]))
	}
	if m := reReturn().FindStringSubmatch(l); m != nil {
		s, ok := p.byName[m[2]]
		if !ok {
			return bad(ErrMalformed, "bet returned to %q, who has no seat", m[2])
		}
		a, err := p.amount(m[1])
		if err != nil {
			return bad(ErrMalformed, "%v", err)
		}
		d.steps = append(d.steps, &step{kind: stepReturn, line: i + 1, seat: s, amount: a})
		return nil
	}
	if m := reCollect().FindStringSubmatch(l); m != nil {
		if s, ok := p.byName[m[1]]; ok {
			a, err := p.amount(m[2])
			if err != nil {
				return bad(ErrMalformed, "%v", err)
			}
			pot := -1
			switch {
			case m[3] == "main pot":
				pot = 0
			case m[4] != "":
				pot, _ = strconv.Atoi(m[4])
				if pot < 1 {
					return bad(ErrMalformed, "bad pot %q", m[3])
				}
			case strings.HasPrefix(m[3], "side pot"):
				pot = 1
			}
			p.awards = append(p.awards, psAward{seat: s, pot: pot, amount: a, line: i + 1})
			return nil
		}
	}
	if name, rest, ok := p.player(l); ok {
		return p.action(d, i, p.byName[name], rest, bigBlind)
	}
	if reChat().MatchString(l) || reTraffic().MatchString(l) {
		return nil
	}
	return bad(ErrMalformed, "unknown line %q", clip(l))
}

// player splits "NAME: rest" for a seated player.
func (p *psParser) player(l string) (string, string, bool) {
	for _, n := range p.names {
		if strings.HasPrefix(l, n) && strings.HasPrefix(l[len(n):], ": ") {
			return n, strings.TrimRight(l[len(n)+2:], " \t"), true
		}
	}
	return "", "", false
}

func (p *psParser) startDraw() {
	p.phase = phaseDraw
	clear(p.inRound)
}

func (p *psParser) lastDraw(d *draft, s events.Seat) *step {
	for k := len(d.steps) - 1; k >= 0; k-- {
		if st := d.steps[k]; st.kind == stepDraw && st.seat == s {
			return st
		}
	}
	return nil
}

// dealtTo takes a "Dealt to NAME [FIRST] [SECOND]" line of the PokerStars and Full Tilt texts:
// the five cards of the deal, or in the draw the cards kept and drawn (FIRST, SECOND), the hand
// after it, or the cards drawn alone. A line that shows no card (another player's, in the hero's
// history) says nothing.
func (p *psParser) dealtTo(d *draft, l, name, firstCards, secondCards string) error {
	s, ok := p.byName[name]
	if !ok {
		return errf(ErrMalformed, "cards dealt to %q, who has no seat", name)
	}
	if firstCards == "" && secondCards == "" {
		return nil
	}
	first, err := cards.ParseList(firstCards)
	if err != nil {
		return errf(ErrMalformed, "bad cards in %q: %v", clip(l), err)
	}
	var second []cards.Card
	if secondCards != "" {
		if second, err = cards.ParseList(secondCards); err != nil {
			return errf(ErrMalformed, "bad cards in %q: %v", clip(l), err)
		}
	}
	switch p.phase {
	case phasePreDeal, phaseFirst:
		if second != nil || len(first) != 5 {
			return errf(ErrMalformed, "a deal of %q: want five cards", clip(l))
		}
		if d.dealt[s] != nil {
			return errf(ErrMalformed, "seat %d is dealt twice", s)
		}
		d.dealt[s] = first
		p.phase = phaseFirst
	case phaseDraw:
		ds := p.lastDraw(d, s)
		if ds == nil {
			return errf(ErrMalformed, "cards dealt to %s in the draw before he discards", name)
		}
		switch {
		case second != nil:
			ds.kept, ds.drawn = first, second
		case ds.count == 0:
			ds.after = first
		case len(first) == ds.count:
			ds.drawn = first
		case len(first) == 5:
			ds.after = first
		default:
			return errf(ErrInconsistent, "%d cards dealt to %s for %d thrown", len(first), name, ds.count)
		}
	default:
		return errf(ErrMalformed, "cards dealt after the draw: %q", clip(l))
	}
	return nil
}

// action reads "NAME: rest" for seat s.
func (p *psParser) action(d *draft, i int, s events.Seat, rest string, bigBlind events.Chips) error {
	bad := func(kind error, format string, a ...any) error { return atLine(i+1, errf(kind, format, a...)) }
	add := func(st *step) error {
		st.line, st.seat = i+1, s
		// A player who posts or acts was dealt in, even if marked as sitting out: a tournament
		// deals to absent players and folds their hands.
		p.dealtIn[s] = true
		d.steps = append(d.steps, st)
		return nil
	}
	money := func(a string) (events.Chips, error) {
		c, err := p.amount(a)
		if err != nil {
			return 0, bad(ErrMalformed, "%v", err)
		}
		return c, nil
	}
	rest = reAllIn().ReplaceAllString(rest, "")
	switch {
	case reSitOut().MatchString(rest):
		if p.phase == phasePreDeal {
			p.dealtIn[s] = false
		}
		return nil
	case reSeatNoise().MatchString(rest), reNoShow().MatchString(rest):
		return nil
	}
	if m := rePostSB().FindStringSubmatch(rest); m != nil {
		return p.post(d, i, s, m[1], events.BlindSmall, bigBlind, add, money)
	}
	if m := rePostBB().FindStringSubmatch(rest); m != nil {
		return p.post(d, i, s, m[1], events.BlindBig, bigBlind, add, money)
	}
	if m := rePostBoth().FindStringSubmatch(rest); m != nil {
		return p.post(d, i, s, m[1], events.BlindDead, bigBlind, add, money)
	}
	if m := rePostAnte().FindStringSubmatch(rest); m != nil {
		if p.phase != phasePreDeal {
			return bad(ErrMalformed, "an ante after the deal")
		}
		a, err := money(m[1])
		if err != nil {
			return err
		}
		return add(&step{kind: stepAnte, amount: a})
	}
	bet := func(action events.Action, amount events.Chips) error {
		switch p.phase {
		case phasePreDeal:
			p.phase = phaseFirst
		case phaseDraw:
			p.phase = phaseSecond
		case phaseShowdown:
			return bad(ErrMalformed, "a bet after the showdown began")
		}
		round := events.RoundFirst
		if p.phase == phaseSecond {
			round = events.RoundSecond
		}
		p.inRound[s] += amount
		return add(&step{kind: stepAct, action: action, amount: amount, round: round})
	}
	switch {
	case reFold().MatchString(rest):
		return bet(events.Fold, 0)
	case reCheck().MatchString(rest):
		return bet(events.Check, 0)
	}
	if m := reCall().FindStringSubmatch(rest); m != nil {
		a, err := money(m[1])
		if err != nil {
			return err
		}
		return bet(events.Call, a)
	}
	if m := reBet().FindStringSubmatch(rest); m != nil {
		a, err := money(m[1])
		if err != nil {
			return err
		}
		return bet(events.Bet, a)
	}
	if m := reRaise().FindStringSubmatch(rest); m != nil {
		to, err := money(m[2])
		if err != nil {
			return err
		}
		if to <= p.inRound[s] {
			return bad(ErrInconsistent, "raises to %d having %d in already", to, p.inRound[s])
		}
		return bet(events.Raise, to-p.inRound[s])
	}
	if m := reDiscard().FindStringSubmatch(rest); m != nil {
		n, _ := strconv.Atoi(m[1])
		st := &step{kind: stepDraw, count: n}
		if m[2] != "" {
			cs, err := cards.ParseList(m[2])
			if err != nil {
				return bad(ErrMalformed, "bad cards %q: %v", m[2], err)
			}
			st.discarded = cs
		}
		if err := p.drawPhase(bad); err != nil {
			return err
		}
		return add(st)
	}
	if m := rePat().FindStringSubmatch(rest); m != nil {
		st := &step{kind: stepDraw, discarded: []cards.Card{}}
		if m[1] != "" {
			cs, err := cards.ParseList(m[1])
			if err != nil || len(cs) != 5 {
				return bad(ErrMalformed, "bad cards %q", m[1])
			}
			st.after = cs
		}
		if err := p.drawPhase(bad); err != nil {
			return err
		}
		return add(st)
	}
	if m := reShows().FindStringSubmatch(rest); m != nil {
		cs, err := cards.ParseList(m[1])
		if err != nil {
			return bad(ErrMalformed, "bad cards %q: %v", m[1], err)
		}
		if len(cs) != 5 {
			return bad(ErrMalformed, "shows %d cards: want five", len(cs))
		}
		return add(&step{kind: stepShow, shown: cs})
	}
	if reMucks().MatchString(rest) {
		return add(&step{kind: stepMuck})
	}
	return bad(ErrMalformed, "unknown action %q", clip(rest))
}

func (p *psParser) drawPhase(bad func(error, string, ...any) error) error {
	switch p.phase {
	case phaseFirst:
		p.startDraw()
	case phaseDraw:
	case phaseSecond:
		return bad(ErrUnsupported, "a second draw: the online-draw preset has one")
	default:
		return bad(ErrMalformed, "a draw outside the hand's draw")
	}
	return nil
}

// post reads a blind. "posts small & big blinds X" is a live big blind plus a dead small blind.
func (p *psParser) post(d *draft, i int, s events.Seat, a string, kind events.BlindKind, bigBlind events.Chips,
	add func(*step) error, money func(string) (events.Chips, error)) error {
	if p.phase != phasePreDeal {
		return atLine(i+1, errf(ErrMalformed, "a blind after the deal"))
	}
	c, err := money(a)
	if err != nil {
		return err
	}
	if kind == events.BlindDead {
		live := min(c, bigBlind)
		p.inRound[s] += live
		if err := add(&step{kind: stepBlind, amount: live, blind: events.BlindBig}); err != nil {
			return err
		}
		if c > live {
			return add(&step{kind: stepBlind, amount: c - live, blind: events.BlindDead})
		}
		return nil
	}
	p.inRound[s] += c
	return add(&step{kind: stepBlind, amount: c, blind: kind})
}

// amount reads a PokerStars amount ("$0.10", "1,500", "€2") in the hand's unit.
func (p *psParser) amount(s string) (events.Chips, error) {
	return parseAmount(s, p.scale)
}

func parseAmount(s string, scale int64) (events.Chips, error) {
	t := strings.TrimLeft(s, "$€£")
	t = strings.ReplaceAll(t, ",", "")
	whole, frac, _ := strings.Cut(t, ".")
	if whole == "" || len(whole) > 15 {
		return 0, errf(ErrMalformed, "bad amount %q", s)
	}
	n, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		return 0, errf(ErrMalformed, "bad amount %q", s)
	}
	digits := 0
	if scale == 100 {
		digits = 2
	}
	frac = strings.TrimRight(frac, "0")
	if len(frac) > digits {
		return 0, errf(ErrMalformed, "amount %q has more decimals than the game's unit", s)
	}
	for len(frac) < digits {
		frac += "0"
	}
	f := int64(0)
	if frac != "" {
		if f, err = strconv.ParseInt(frac, 10, 64); err != nil {
			return 0, errf(ErrMalformed, "bad amount %q", s)
		}
	}
	return events.Chips(n*scale + f), nil
}

// psTime returns the hand's time in RFC 3339: the ET time when the header gives one.
func psTime(date, zone, date2, zone2 string) (string, error) {
	if date2 != "" {
		date, zone = date2, zone2
	}
	var loc *time.Location
	switch zone {
	case "ET":
		loc = eastern()
	case "PT":
		loc = mustLocation("America/Los_Angeles")
	case "MT":
		loc = mustLocation("America/Denver")
	case "CT":
		loc = mustLocation("America/Chicago")
	case "AT":
		loc = mustLocation("America/Halifax")
	case "UTC", "GMT":
		loc = time.UTC
	default:
		return "", errf(ErrMalformed, "time zone %q: want ET (or the bracketed ET time)", zone)
	}
	t, err := time.ParseInLocation("2006/1/2 15:04:05", date, loc)
	if err != nil {
		return "", errf(ErrMalformed, "bad time %q: %v", date, err)
	}
	return t.Format(time.RFC3339), nil
}

// settle maps the PokerStars collections onto the pot layers of presets.md, as rules builds them.
// PokerStars builds its pots from the all-in levels of every player still in (mucked or not);
// presets.md from those of the live players only, so PokerStars' pots nest inside ours. Both
// come from rules: PokerStars' by replaying the hand without its mucks. The amounts recorded are
// the ones the room says it paid, so that the auditor can find a wrong payout.
func (p *psParser) settle(g *game, sd *showdown) ([]award, []rake, error) {
	var in events.Chips
	for _, st := range g.seats {
		in += st.in
	}
	if in != p.total {
		return nil, nil, errf(ErrInconsistent, "the total pot is %d, but the bets less the returns add up to %d", p.total, in)
	}
	if len(p.awards) == 0 {
		if p.total == 0 && p.rake == 0 {
			// A walk with no small blind: the big blind is returned whole and the pot is empty.
			return nil, nil, nil
		}
		return nil, nil, errf(ErrMalformed, "nobody collected the pot")
	}
	unmucked, err := replay(sd.events, func(e *events.Event) bool {
		_, muck := e.Data.(*events.HandMucked)
		return muck
	})
	if err != nil {
		return nil, nil, err
	}
	stars, ours := unmucked.Pots(), sd.pots
	if len(stars) == 0 {
		return nil, nil, errf(ErrInconsistent, "no pot to collect")
	}
	// A pot is placed by the chips of the pots below it and its own: both grow with the level a
	// layer ends at, so PokerStars' pot lies inside ours exactly when its span of chips does.
	slo, shi := potSpans(stars)
	olo, ohi := potSpans(ours)
	inside := func(lo, hi events.Chips) (int, bool) {
		for k := range ours {
			if olo[k] <= lo && hi <= ohi[k] {
				return k, true
			}
		}
		return 0, false
	}
	whole := false
	paid := make([]events.Chips, len(stars))
	var awards []award
	for _, a := range p.awards {
		lo, hi := slo[0], shi[len(stars)-1]
		if a.pot < 0 {
			whole = true
		} else {
			if a.pot >= len(stars) {
				return nil, nil, atLine(a.line, errf(ErrInconsistent, "%s collects from pot %d, but the bets make %d pot(s)",
					p.bySeat[a.seat], a.pot, len(stars)))
			}
			lo, hi = slo[a.pot], shi[a.pot]
			paid[a.pot] += a.amount
		}
		k, ok := inside(lo, hi)
		if !ok {
			return nil, nil, atLine(a.line, errf(ErrInconsistent, "%s collects from a pot that spans several side pots", p.bySeat[a.seat]))
		}
		merged := false
		for j := range awards {
			if awards[j].pot == k && awards[j].seat == a.seat {
				awards[j].amount += a.amount
				merged = true
			}
		}
		if !merged {
			awards = append(awards, award{seat: a.seat, pot: k, amount: a.amount})
		}
	}
	var rakes []rake
	if whole {
		if slices.ContainsFunc(p.awards, func(a psAward) bool { return a.pot >= 0 }) {
			return nil, nil, errf(ErrInconsistent, "collections from \"pot\" and from main or side pots in one hand")
		}
		var got events.Chips
		for _, a := range p.awards {
			got += a.amount
		}
		if got+p.rake != p.total {
			return nil, nil, errf(ErrInconsistent, "%d collected and %d raked from a pot of %d", got, p.rake, p.total)
		}
		if p.rake > 0 {
			k, _ := inside(slo[0], shi[len(stars)-1])
			rakes = append(rakes, rake{pot: k, amount: p.rake})
		}
		return awards, rakes, nil
	}
	var raked events.Chips
	for j, l := range stars {
		r := l.Amount - paid[j]
		if r < 0 {
			return nil, nil, errf(ErrInconsistent, "%d collected from a pot of %d", paid[j], l.Amount)
		}
		if r > 0 {
			k, _ := inside(slo[j], shi[j])
			rakes = append(rakes, rake{pot: k, amount: r})
		}
		raked += r
	}
	if raked != p.rake {
		return nil, nil, errf(ErrInconsistent, "the pots less what was collected leave %d, but the rake is %d", raked, p.rake)
	}
	return awards, rakes, nil
}

// potSpans returns, for each pot in order, the chips of the pots below it (lo) and with it (hi).
func potSpans(pots []rules.Pot) (lo, hi []events.Chips) {
	var sum events.Chips
	for _, pt := range pots {
		lo = append(lo, sum)
		sum += pt.Amount
		hi = append(hi, sum)
	}
	return lo, hi
}

func firstNonBlank(lines []string, from, to int) int {
	for i := from; i < to && i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "" {
			return i
		}
	}
	return -1
}

// clip shortens a line for an error message.
func clip(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// romanLevel reads the blind level of a tournament header ("Level V (50/100)"); 1 when it names
// none, since v1.1 requires a level of at least 1.
func romanLevel(game string) int {
	m := reLevel().FindStringSubmatch(game)
	if m == nil {
		return 1
	}
	val := map[byte]int{'I': 1, 'V': 5, 'X': 10, 'L': 50, 'C': 100}
	n := 0
	for i := 0; i < len(m[1]); i++ {
		v := val[m[1][i]]
		if i+1 < len(m[1]) && val[m[1][i+1]] > v {
			n -= v
		} else {
			n += v
		}
	}
	return max(n, 1)
}
