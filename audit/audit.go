// Package audit replays hand logs through the rules of each hand's preset and reports every
// irregularity as a finding of findings-v1.md: log integrity, the deck and the deal, betting,
// drawing, showdown and pots, and the continuity of each table from hand to hand. It streams:
// a hand is held in memory only until it ends, so memory stays flat however long the log.
package audit

import (
	"cmp"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/events/handorder"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/rules"
	"github.com/fechado/fechado/tournament"
)

// Auditor audits events fed to it in log order (or file order) and passes each finding to Report.
// Events of different hands may interleave; each hand is audited when its hand.ended arrives, or
// at Close for hands that never end.
//
// The Auditor keeps the events of the open hands only.
type Auditor struct {
	// Report receives every finding, in the order found. It may keep them.
	Report func(finding.Finding)
	// Hand, when set, receives each hand's events and its findings once audited. It may keep
	// them.
	Hand func(h *HandResult)
	// Tournament, when set, receives at Close each hand with tournament.* findings: those
	// findings, and the hand's hand.started and hand.ended as Events (the tournaments are
	// followed once every hand has been judged, tournament.Follow). It may keep them.
	Tournament func(h *HandResult)
	// HandBorrows says that Hand keeps nothing of the HandResult it is given once it returns (a
	// report that prints the hand): the Auditor then reuses the hand's events, rules state and
	// findings for the next hands, as it does when Hand is nil.
	HandBorrows bool

	chain  *events.Chain
	open   map[string]*pending
	order  []string // open hands in order of first event
	tables map[string]*tableState
	// last caches the pending hand of the previous event (nil when none): consecutive events
	// mostly belong to one hand, so the map is looked up only when the hand changes.
	last *pending
	// free holds audited pendings for reuse, and res the HandResult of each hand, when no Hand
	// callback keeps them: a long log then allocates no bookkeeping per hand or per event.
	free []*pending
	res  HandResult
	// seeds is the map of revealed seeds given to each hand's rules.Hand when no Hand callback
	// keeps the hand's state: cleared for each hand instead of made anew.
	seeds map[events.Seq]cards.Seed
	// hand is the rules.Hand of the last hand, renewed for the next one when no Hand callback
	// keeps the hand's state. It still points into the last hand's events, but is not read
	// before rules.Renew overwrites it.
	hand *rules.Hand
	// recycle, set by AuditReader while no Hand callback may keep a hand's events, gives the
	// events of each audited hand back to their Reader (events.Reader.Recycle).
	recycle func([]*events.Event)
	// continued counts the hands that left their table's state for the next (see HandAfter).
	continued int
	// prevHand, prevTable and prevSeq are the envelope of the last line fed (see note).
	prevHand, prevTable string
	prevSeq             events.Seq
	// Alone audits each hand without the tournament it belongs to: no tournament.* code, which
	// needs the hands of every table before it (Hand, and checks of single hands).
	Alone bool
	// hold, set by Judge, keeps the first hand audited in held instead of judging it against
	// the hand before it: Judgement.After judges it once that hand is known.
	hold bool
	held *pending
	// book follows the tournaments of the hands audited (tournament.go), once every hand has been
	// judged (Close); tours are those hands, in the order judged.
	book  *tournament.Book
	tours []tourHand
	// seq puts each table's hands in the order of their chain (handorder) before they are judged
	// against the hand before them: a hand that arrives before its previous hand waits for it.
	seq handorder.Sequencer[*pending]
	// at is the place in the log of the line being fed, or of the step of Close being taken, in
	// an Auditor that is one worker of a Spread: what it reports is put back in the log's order
	// by it (spread.go). seqFirst holds, by table, where the table's first hand went into seq,
	// the order seq.Close releases the tables in; closing is set while it does. All are zero
	// in an Auditor of the whole log.
	at       place
	seqFirst map[string]place
	closing  bool
	// idsApart, in a worker of a Spread, says that its chain does not track ids: the Spread's
	// reader does, in the order of the whole log, and seenID says whether the id of the line
	// being fed was seen before.
	idsApart, seenID bool
	// unsure, in a worker of a Spread, says that it met a line whose place may depend on lines
	// other workers hold: a line that is not a valid event (placed after the line before it in
	// the log, events-v1.md §8), or a line after its hand's hand.ended (recognised while the hand
	// is in the chain's window of the whole log). The Spread then audits the log on one Auditor.
	unsure bool
	// notes, in a worker of a Spread given whole files (spreadFiles), gathers what the Spread
	// checks against the other workers' files: the fingerprint of the id of every line (when the
	// ids are checked), the hand and table of every hand opened.
	notes *fileNotes
	// Hands counts the hands audited; Findings the findings reported; Errors those of severity error.
	Hands, Findings, Errors int
}

// keeps reports whether a Hand callback may keep the results, events and states it is given.
func (a *Auditor) keeps() bool { return a.Hand != nil && !a.HandBorrows }

// pending is an open hand. Its table and hand are the strings of its first event.
type pending struct {
	table  string
	hand   string
	events []*events.Event
	faults []finding.Finding // envelope faults found while the hand was open
	// lost is the seq of the first line of the hand that could not be read as an event (0: none):
	// the rules do not judge the hand from there on (events-v1.md §8).
	lost events.Seq
	// res is the hand's result once audited on its own; first its hand.started, and judge is set
	// when the hand ended and was followed, so that it is judged against the hand before it at
	// its table (continuity) and followed through its tournament.
	res   *HandResult
	first *events.Event
	judge bool
	// keep is set on a hand that waited for the hand before it: its pending is not reused.
	keep bool
	// at is the place in the log of the hand's first line, in a worker of a Spread.
	at uint64
}

// HandResult is one audited hand. Its Table, Hand and Findings are the Auditor's own copies; its
// Events and State are the events given to the Auditor and what was made of them.
type HandResult struct {
	Table    string
	Hand     string
	Events   []*events.Event
	State    *rules.Hand // nil when the hand could not be followed
	Findings []finding.Finding
}

// New returns an Auditor that reports to fn.
func New(fn func(finding.Finding)) *Auditor {
	return &Auditor{Report: fn, chain: events.NewChain(), open: map[string]*pending{}, tables: map[string]*tableState{}}
}

// Add feeds the next event of the log.
func (a *Auditor) Add(e *events.Event) { a.add(e, nil) }

// add is Add given sum, the SHA-256 of e.Raw already computed (events.Reader.LineSum); nil: the
// Auditor computes it.
func (a *Auditor) add(e *events.Event, sum *[sha256.Size]byte) {
	a.note(e)
	if a.notes != nil && a.notes.ids != nil {
		a.notes.ids.Add(e.ID)
	}
	p := a.last
	if p == nil || p.hand != e.Hand {
		p = a.open[e.Hand]
	}
	if p != nil && a.notes != nil && e.Table != p.table {
		// Where one Auditor puts it depends on the hand's other lines, which other files, of
		// other workers, may hold (the router of a spread by tables gives up on it too).
		a.unsure = true
	}
	if p == nil && a.chain.Ended(e.Hand) {
		// An event after its hand's hand.ended: log.sequence, and nothing else to replay.
		a.unsure = a.unsure || a.idsApart // the whole log's window may have forgotten it (Spread)
		for _, pr := range a.checkSum(e, sum) {
			a.emit(chainFinding(e, pr))
		}
		return
	}
	if p == nil {
		p = a.openHand(e)
	}
	a.last = p
	if p.take(e, a.checkSum(e, sum)) {
		a.finish(p)
	}
}

// checkSum is the chain's check of e (events.Chain.CheckSum), with the id's check made by a
// Spread's reader when it makes it (idsApart).
func (a *Auditor) checkSum(e *events.Event, sum *[sha256.Size]byte) []events.Problem {
	if a.idsApart {
		seen := a.seenID
		a.seenID = false
		return a.chain.CheckSumSeen(e, sum, seen)
	}
	return a.chain.CheckSum(e, sum)
}

// chainFinding is the finding of a problem the chain found with e (log.sequence,
// log.duplicate-id, log.chain).
func chainFinding(e *events.Event, pr events.Problem) finding.Finding {
	return finding.Finding{Hand: e.Hand, Table: e.Table, Seq: pr.Seq, Code: finding.Code(pr.Kind),
		Severity: finding.Code(pr.Kind).Severity(), Message: pr.Message}
}

// take adds e, an event of the open hand p, with the problems the chain found with it, and
// reports whether it ends the hand. An event naming another table than the hand's first is a
// log.schema fault; a second hand.ended is dropped (the chain has reported it).
func (p *pending) take(e *events.Event, problems []events.Problem) (ended bool) {
	for _, pr := range problems {
		p.faults = append(p.faults, chainFinding(e, pr))
	}
	if e.Table != p.table {
		p.faults = append(p.faults, mk(e.Hand, p.table, e.Seq, finding.LogSchema, 0, fmt.Sprintf("event of hand %s names table %s, not %s", e.Hand, e.Table, p.table), p.table, e.Table))
	}
	if e.Type == events.HandEndedType && len(p.events) > 0 && p.events[len(p.events)-1].Type == events.HandEndedType {
		return false
	}
	p.events = append(p.events, e)
	return e.Type == events.HandEndedType
}

// openHand opens the hand of e, its first event.
func (a *Auditor) openHand(e *events.Event) *pending {
	var p *pending
	if n := len(a.free); n > 0 {
		p = a.free[n-1]
		a.free = a.free[:n-1]
		p.table, p.hand = e.Table, e.Hand
	} else {
		p = &pending{table: e.Table, hand: e.Hand}
	}
	p.at = a.at.at
	if a.notes != nil {
		a.notes.hands = append(a.notes.hands, e.Hand)
		a.notes.tables = append(a.notes.tables, e.Table)
	}
	a.open[e.Hand] = p
	a.order = append(a.order, e.Hand)
	return p
}

// Invalid reports a line that could not be decoded as a log.schema finding. The hand and table are
// unknown when the line is not even JSON.
func (a *Auditor) Invalid(err error, hand, table string, seq events.Seq) {
	a.emit(Unreadable(err, hand, table, seq))
}

// Close audits the hands that never ended (log.incomplete), judges the hands still waiting for
// the hand before them at their table (each against the last hand judged there, handorder.Sequencer),
// then follows the tournaments (tournament.Follow) and reports their findings.
func (a *Auditor) Close() {
	for _, h := range a.order {
		if p, ok := a.open[h]; ok {
			a.finish(p)
		}
	}
	a.order = nil
	a.seq.Close()
	a.closeTournaments()
}

// emit reports f, made the Auditor's own (see detach), and returns it.
func (a *Auditor) emit(f finding.Finding) finding.Finding {
	f = detach(f)
	a.Findings++
	if f.Severity == finding.Error {
		a.Errors++
	}
	if a.Report != nil {
		a.Report(f)
	}
	return f
}

// detach returns f with copies of the strings it may share with the events it was made from —
// the hand, the table and string values (a table name, a commitment) — so that it stays as it is
// when their memory is reused. Findings are few: the copies cost nothing on a clean log.
func detach(f finding.Finding) finding.Finding {
	f.Hand, f.Table = strings.Clone(f.Hand), strings.Clone(f.Table)
	f.Expected, f.Actual = detachValue(f.Expected), detachValue(f.Actual)
	return f
}

// detachValue returns a copy of v when it is a string (of any string type), else v. The other
// values of findings are numbers, or slices made for the finding.
func detachValue(v any) any {
	if s, ok := v.(string); ok {
		return strings.Clone(s)
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.String {
		c := reflect.New(rv.Type()).Elem()
		c.SetString(strings.Clone(rv.String()))
		return c.Interface()
	}
	return v
}

func mk(hand, table string, seq events.Seq, code finding.Code, seat events.Seat, msg string, expected, actual any) finding.Finding {
	return finding.Finding{Hand: hand, Table: table, Seq: seq, Code: code, Severity: code.Severity(), Seat: seat, Message: msg, Expected: expected, Actual: actual}
}

func (a *Auditor) finish(p *pending) {
	delete(a.open, p.hand)
	if a.last == p {
		a.last = nil
	}
	if len(a.order) > 0 && a.order[0] == p.hand {
		// The oldest hand ends first, as in a log of one table: when it was the only one open,
		// the slice restarts at its base, so that appending the next hand does not allocate.
		a.order[0] = ""
		if len(a.order) == 1 {
			a.order = a.order[:0]
		} else {
			a.order = a.order[1:]
		}
	} else {
		for i, h := range a.order {
			if h == p.hand {
				a.order = slices.Delete(a.order, i, i+1) // clears the slot left at the end
				break
			}
		}
	}
	a.chain.Forget(p.hand)
	var res *HandResult
	if a.keeps() {
		res = &HandResult{Table: strings.Clone(p.table), Hand: strings.Clone(p.hand)}
	} else {
		// Nobody keeps the result: reuse the Auditor's, and its findings slice (emptied below).
		res = &a.res
		res.Table, res.Hand = p.table, p.hand
	}
	p.res = res
	a.auditHand(p, res)
	a.Hands++
	link, linked := handorder.Link{}, false
	if p.first != nil && !a.Alone {
		link, linked = handorder.LinkOf(p.first)
	}
	if !linked {
		if a.hold && a.held == nil {
			a.held = p
			return
		}
		a.judgeHand(p)
		return
	}
	if a.seq.Release == nil {
		a.seq.Release = func(l handorder.Link, p *pending) {
			if a.closing {
				first := a.seqFirst[l.Table]
				a.at = place{phase: phaseSeq + first.phase, at: first.at}
			}
			a.judgeHand(p)
		}
	}
	if !a.seq.Ready(link) {
		// It waits for the hand before it: it keeps its result, events and state, which the
		// next hands must not reuse.
		if res == &a.res {
			own := a.res
			own.Table, own.Hand = strings.Clone(p.table), strings.Clone(p.hand)
			own.Findings = slices.Clone(a.res.Findings)
			clear(a.res.Findings)
			a.res = HandResult{Findings: a.res.Findings[:0]}
			p.res = &own
		}
		if !a.keeps() {
			a.hand, a.seeds = nil, nil
		}
		p.keep = true
	}
	if a.seqFirst != nil {
		if _, ok := a.seqFirst[link.Table]; !ok {
			a.seqFirst[strings.Clone(link.Table)] = a.at
		}
	}
	a.seq.Add(link, p)
}

// judgeHand judges the audited hand p against the hand before it at its table (continuity) when
// it ended, takes it into its tournament, and reports its findings.
func (a *Auditor) judgeHand(p *pending) {
	res := p.res
	if p.judge {
		res.Findings = a.continuity(res.Findings, p.table, p.first, res.State)
		a.tournament(res.Events, p.first)
	}
	if !slices.IsSortedFunc(res.Findings, bySeq) {
		slices.SortStableFunc(res.Findings, bySeq)
	}
	for i, f := range res.Findings {
		res.Findings[i] = a.emit(f)
	}
	if a.Hand != nil {
		a.Hand(res)
	}
	if a.keeps() {
		return
	}
	// Neither the result nor the pending is referenced any more: clear them (so that they hold
	// no event or finding alive) and keep them for the next hands. Nothing the Auditor keeps
	// points to the events themselves (the table's state, the chain and the findings hold copies,
	// strings and payloads), so they go back to the Reader when there is one.
	if a.recycle != nil {
		a.recycle(p.events)
	}
	clear(res.Findings)
	*res = HandResult{Findings: res.Findings[:0]}
	if p.keep {
		return // its own result and pending, made when it waited: left to the collector
	}
	clear(p.events)
	clear(p.faults)
	*p = pending{events: p.events[:0], faults: p.faults[:0]}
	a.free = append(a.free, p)
}

// seedMap returns an empty map for the seeds of a hand: the Auditor's own, emptied, unless a
// Hand callback may keep the hand's state (and its Seeds).
func (a *Auditor) seedMap() map[events.Seq]cards.Seed {
	if a.keeps() {
		return map[events.Seq]cards.Seed{}
	}
	if a.seeds == nil {
		a.seeds = map[events.Seq]cards.Seed{}
	}
	clear(a.seeds)
	return a.seeds
}

func bySeq(x, y finding.Finding) int { return cmp.Compare(x.Seq, y.Seq) }

func eventBySeq(x, y *events.Event) int { return cmp.Compare(x.Seq, y.Seq) }

// shuffle is a deck.shuffled of the hand being audited.
type shuffle struct {
	seq events.Seq
	d   *events.DeckShuffled
}

// auditHand replays one hand through its preset and fills res.
func (a *Auditor) auditHand(p *pending, res *HandResult) {
	res.Events = p.events
	add := func(f finding.Finding) { res.Findings = append(res.Findings, f) }
	for _, f := range p.faults {
		add(f)
	}
	if len(p.events) == 0 {
		return
	}
	// Replay in seq order; a log.sequence fault was already reported for disorder.
	evs := p.events
	if !slices.IsSortedFunc(evs, eventBySeq) {
		evs = slices.Clone(evs)
		slices.SortStableFunc(evs, eventBySeq)
	}
	first := evs[0]
	if first.Type == events.HandStartedType {
		p.first = first // its link in the table's chain, ended or not
	}
	if first.Type != events.HandStartedType && p.lost != 0 && p.lost < first.Seq {
		return // the line that began it could not be read: already a log.schema finding
	}
	if first.Type != events.HandStartedType {
		add(mk(p.hand, p.table, first.Seq, finding.LogSchema, 0, "the hand does not begin with hand.started", events.HandStartedType, first.Type))
		return
	}
	// Seeds revealed anywhere in the hand, checked against their commitments first. A hand has
	// one or two shuffles and as many reveals: they are kept in slices on the stack, looked up
	// by scanning, with a map's answers (the last shuffle of a seq wins).
	seeds := a.seedMap()
	var shufBuf [4]shuffle
	shuffles := shufBuf[:0]
	for _, e := range evs {
		if d, ok := e.Data.(*events.DeckShuffled); ok {
			shuffles = append(shuffles, shuffle{e.Seq, d})
		}
	}
	var revBuf [4]events.Seq
	revealed := revBuf[:0]
	for _, e := range evs {
		d, ok := e.Data.(*events.DeckRevealed)
		if !ok {
			continue
		}
		sh, ok := (*events.DeckShuffled)(nil), false
		for i := len(shuffles) - 1; i >= 0; i-- {
			if shuffles[i].seq == d.Shuffle {
				sh, ok = shuffles[i].d, true
				break
			}
		}
		switch {
		case !ok:
			add(mk(p.hand, p.table, e.Seq, finding.LogSchema, 0, fmt.Sprintf("deck.revealed names seq %d, which is not a deck.shuffled", d.Shuffle), nil, d.Shuffle))
		case sh.Commitment != "" && !d.Seed.Opens(sh.Commitment):
			add(mk(p.hand, p.table, e.Seq, finding.DeckCommitment, 0, fmt.Sprintf("the seed revealed for the shuffle at seq %d does not hash to its commitment", d.Shuffle), sh.Commitment, d.Seed.Commitment()))
		default:
			seeds[d.Shuffle] = d.Seed
		}
		revealed = append(revealed, d.Shuffle)
	}
	ended := evs[len(evs)-1].Type == events.HandEndedType
	for _, sh := range shuffles {
		if sh.d.Method == cards.ShuffleMethod && !slices.Contains(revealed, sh.seq) && ended {
			add(mk(p.hand, p.table, sh.seq, finding.DeckUnrevealed, 0, "the seed of this machine shuffle is never revealed: the deal cannot be verified", "deck.revealed", nil))
		}
	}
	var h *rules.Hand
	var err error
	if a.keeps() {
		h, err = rules.NewHand(first) // the callback may keep it
	} else if h, err = rules.Renew(a.hand, first); h != nil {
		a.hand = h
	}
	if err != nil {
		add(mk(p.hand, p.table, first.Seq, finding.LogSchema, 0, err.Error(), nil, nil))
		return
	}
	h.Seeds = seeds
	res.State = h
	for _, e := range evs[1:] {
		h.Apply(e)
	}
	for _, v := range h.Violations {
		if p.lost != 0 && v.Seq >= p.lost {
			continue // an echo of the event that could not be read (events-v1.md §8)
		}
		f := mk(p.hand, p.table, v.Seq, v.Code, v.Seat, v.Message, v.Expected, v.Actual)
		if v.Severity != "" {
			f.Severity = v.Severity // the preset makes it graver (card.exposed in br-online)
		}
		add(f)
	}
	if !ended {
		last := evs[len(evs)-1]
		add(mk(p.hand, p.table, last.Seq, finding.LogIncomplete, 0, "the hand has no hand.ended: still running, or cut short", nil, nil))
		return
	}
	// Judged against the hand before it once that one has been (finish).
	p.judge = true
}

// ErrFindings is returned by AuditReader when the log holds at least one finding of severity error.
var ErrFindings = errors.New("the log has findings of severity error")

// AuditReader audits every event r yields. Lines that do not decode are part of the log being
// audited: each is a log.schema finding through AddUndecoded (events-v1.md §8), counted in bad.
// When a has no Hand callback that keeps what it is given (HandBorrows), nothing outside the
// Auditor keeps an event, so the events of each audited hand go back to r for the next hands
// (events.Reader.Recycle): a long log then allocates events only for the hands open at once,
// and the collector runs a third as often.
func AuditReader(a *Auditor, r *events.Reader) (bad int, err error) {
	var sum [sha256.Size]byte
	a.chain.ExpectIDs(r.LinesLeft())
	if !a.keeps() {
		a.recycle = r.Recycle
		defer func() { a.recycle = nil }()
	}
	for {
		e, err := r.NextLenient()
		if err == nil {
			// The next line's id is looked up in memory the caches have likely lost; asked
			// for now, it arrives while this event is judged and the next decoded.
			a.chain.Prefetch(r.Ahead(64))
			a.add(e, lineSum(r, &sum))
			continue
		}
		if err == io.EOF {
			return bad, nil
		}
		if !errors.Is(err, events.ErrInvalid) {
			return bad, err
		}
		bad++
		a.AddUndecoded(e, lineSum(r, &sum), err)
	}
}

// lineSum puts the sum of r's last line (events.Reader.LineSum) in buf and returns buf, or nil
// when there is none, as add and AddUndecoded take it.
func lineSum(r *events.Reader, buf *[sha256.Size]byte) *[sha256.Size]byte {
	s, ok := r.LineSum()
	if !ok {
		return nil
	}
	*buf = s
	return buf
}

// Hand audits the events of one hand on its own: every finding but the table.* codes, which need
// the hands before it (HandAfter makes those too). It is deterministic.
func Hand(evs []*events.Event) []finding.Finding {
	out, _ := HandAfter(evs, nil)
	return out
}
