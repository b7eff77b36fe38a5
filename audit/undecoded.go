package audit

import (
	"crypto/sha256"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
)

// This file is events-v1.md §8, "auditing a line that is not a valid event": such a line is a
// log.schema finding at its seq like any other, its envelope still counts for the sequence and the
// chain, and a field that cannot be read is treated as unknown, so that one bad field is one
// finding and not a cascade.

// Place returns the event that stands for a line that did not decode, given e, what
// events.ParseLenient (or Reader.NextLenient) read of it: e itself when its envelope could be
// read. Else the line is not JSON: when it still shows its hand and seq (cut short, or not
// UTF-8: events.Sniff reads them), an event there, without prev, whose bytes are what the next
// line of the hand must hash; otherwise an event after the previous line (prevHand, prevTable,
// prevSeq), in its hand, with seq + 1 (§8); nil when there is no previous line either.
func Place(e *events.Event, line []byte, prevHand, prevTable string, prevSeq events.Seq) *events.Event {
	if e != nil {
		if e.Table == "" && e.Hand == prevHand {
			e.Table = prevTable // a table it could not read: the hand's
		}
		return e
	}
	if at := events.Sniff(line); at.Hand != "" && at.Seq != 0 {
		table := ""
		if at.Hand == prevHand {
			table = prevTable
		}
		return &events.Event{ID: at.ID, Table: table, Hand: at.Hand, Seq: at.Seq, Raw: line}
	}
	if prevHand == "" {
		return nil
	}
	return &events.Event{Table: prevTable, Hand: prevHand, Seq: prevSeq + 1, Raw: line}
}

// AddUndecoded feeds a line of the log that did not decode, with the error that says why: e is
// what events.Reader.NextLenient (or events.ParseLenient) read of it, nil when the line is not
// JSON; sum is the SHA-256 of the line (Reader.LineSum; nil: computed from e.Raw). It is reported
// as log.schema at its seq; its envelope takes its place in its hand's sequence and chain; when
// the payload could be read with its bad fields left out, the event is replayed so, and otherwise
// the hand's play is not judged from that line on (rules findings there would only echo the
// missing event).
func (a *Auditor) AddUndecoded(e *events.Event, sum *[sha256.Size]byte, err error) {
	a.unsure = a.unsure || a.idsApart // where it goes depends on the line before it (Spread)
	notJSON := e == nil
	e = Place(e, nil, a.prevHand, a.prevTable, a.prevSeq)
	if e == nil {
		a.emit(Unreadable(err, "", "", a.prevSeq+1))
		return
	}
	fault := Unreadable(err, e.Hand, e.Table, e.Seq)
	if e.Data != nil {
		a.add(e, sum)
		if p := a.open[e.Hand]; p != nil {
			p.faults = append(p.faults, fault)
		} else {
			a.emit(fault) // the hand ended with this line: its findings are out already
		}
		return
	}
	a.note(e)
	p := a.open[e.Hand]
	if p == nil && !a.chain.Ended(e.Hand) {
		p = a.openHand(e)
	}
	track := a.chain.TrackIDs
	a.chain.TrackIDs = track && e.ID != ""
	problems := a.checkSum(e, sum)
	a.chain.TrackIDs = track
	if notJSON {
		a.chain.Unread(e.Hand)
	}
	if p == nil {
		a.emit(fault)
		for _, pr := range problems {
			a.emit(finding.Finding{Hand: e.Hand, Table: e.Table, Seq: pr.Seq, Code: finding.Code(pr.Kind),
				Severity: finding.Code(pr.Kind).Severity(), Message: pr.Message})
		}
		return
	}
	if fault.Table == "" {
		fault.Table = p.table
	}
	p.faults = append(p.faults, fault)
	for _, pr := range problems {
		p.faults = append(p.faults, finding.Finding{Hand: e.Hand, Table: p.table, Seq: pr.Seq, Code: finding.Code(pr.Kind),
			Severity: finding.Code(pr.Kind).Severity(), Message: pr.Message})
	}
	if p.lost == 0 || e.Seq < p.lost {
		p.lost = e.Seq
	}
}

// note remembers the envelope of the line just fed, for a next line that is not JSON (§8). It
// keeps the event's own hand and table strings, not copies of them: a Reader's decoder copies
// those once a hand and shares them among the hand's events (events.Parse copies every string),
// so they point into no line, and nothing writes them again when the Reader hands the event
// itself out again (Recycle).
func (a *Auditor) note(e *events.Event) {
	a.prevHand, a.prevTable, a.prevSeq = e.Hand, e.Table, e.Seq
}

// Line is one line of a log as a lenient reader meets it (events.ParseLenient,
// events.Reader.NextLenient): an event, or, Err set, a line that is not a valid event, Event then
// being what could be read of it (nil when nothing: not JSON).
type Line struct {
	Event *events.Event
	Err   error
}

// AddLine feeds the next line of the log: Add for an event, AddUndecoded for a line that is not
// one, as AuditReader feeds a file's lines.
func (a *Auditor) AddLine(l Line) {
	if l.Err != nil {
		a.AddUndecoded(l.Event, nil, l.Err)
		return
	}
	a.Add(l.Event)
}

// Stray returns the findings that the audit of a whole log gives l, a line that no open hand
// takes — one after its hand's hand.ended, or of a hand whose hand.started has not come — given
// prior, the lines of its hand before it in log order, from the hand's first: what an Auditor fed
// prior and then l reports that one fed prior alone does not, both closed at the end. It is how a
// projector, which audits a hand at its hand.ended and then forgets it, gives such a line the
// verdict `fechado audit` gives it (one verdict, issue 39): the same Auditor decides, so that a
// line after hand.ended is log.sequence, with log.chain when its prev is not the hash of the hand's
// last line, log.duplicate-id when it repeats an id of the hand, and log.schema when it is not a
// valid event (events-v1.md §8). Ids of other hands are not in prior: a line repeating one of
// those is not found here (fechado verify checks the ids of the whole log).
func Stray(prior []Line, l Line) []finding.Finding {
	run := func(lines []Line) []finding.Finding {
		var out []finding.Finding
		a := New(func(f finding.Finding) { out = append(out, f) })
		a.Alone = true // the hand's tournament is judged where the hand is
		for _, x := range lines {
			a.AddLine(x)
		}
		a.Close()
		return out
	}
	before := run(prior)
	after := run(append(prior[:len(prior):len(prior)], l))
	seen := make(map[string]int, len(before))
	for _, f := range before {
		seen[string(f.JSON())]++
	}
	var out []finding.Finding
	for _, f := range after {
		if k := string(f.JSON()); seen[k] > 0 {
			seen[k]--
			continue
		}
		out = append(out, f)
	}
	return out
}
