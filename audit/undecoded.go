package audit

import (
	"crypto/sha256"
	"fmt"

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
	msg := fmt.Sprintf("this line is not a valid event: %v", err)
	notJSON := e == nil
	e = Place(e, nil, a.prevHand, a.prevTable, a.prevSeq)
	if e == nil {
		a.emit(mk("", "", a.prevSeq+1, finding.LogSchema, 0, msg, nil, nil))
		return
	}
	fault := mk(e.Hand, e.Table, e.Seq, finding.LogSchema, 0, msg, nil, nil)
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
// keeps the event's own strings, which nothing writes again (an event's memory is never reused),
// rather than copies: a long log costs nothing here but keeping one event's line alive.
func (a *Auditor) note(e *events.Event) {
	a.prevHand, a.prevTable, a.prevSeq = e.Hand, e.Table, e.Seq
}
