package projector

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/events/handorder"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/recorder"
)

// The order of a table's hands. A hand is judged against the hand before it in its table's
// chain (package handorder), as `fechado audit` judges it, not against the hand that ended
// before it in the stream: a hand whose hand.ended comes before the hand before it has been
// judged (several writers at once, a leader election, the second half of a file recorded first)
// is stored with the audit status AuditWaiting and no findings, and is judged, its findings
// stored and its status set, as soon as the hand before it is. Settle judges the hands still
// waiting, each table's in its chain's order against the last hand judged there, as the audit of
// the whole log does at its end; `fechado project` settles once it has read the log to its end.

// AuditWaiting is the audit status of a hand that waits for the hand before it at its table.
const AuditWaiting = "waiting"

// waitingHand is an ended hand waiting for the hand before it.
type waitingHand struct {
	h      *hand
	endSeq uint64
	link   handorder.Link
	// j is the hand replayed on its own at its end (audit.Judge, for its rows), judged against
	// the hand before it once that one is; nil for a hand loaded after a restart.
	j *audit.Judgement
	// found is set when findings may have been stored for the hand while it waited (a stray line
	// of it, a tournament.* finding: insertFinding), or it was loaded after a restart: judging
	// reads them back to number its own after them and count them all. A hand that waited
	// without any has none stored (endHand stores a waiting hand with no findings), so judging
	// it reads nothing back.
	found bool
}

// linkOf returns the link of h in its table's chain (its first event is its hand.started).
func linkOf(h *hand) (handorder.Link, bool) {
	if len(h.evs) == 0 {
		return handorder.Link{}, false
	}
	return handorder.LinkOf(h.evs[0])
}

// ready reports whether the hand of l comes next at its table: it opens a chain, or follows
// the hand that left the table's memory.
func (p *Projector) ready(ctx context.Context, l handorder.Link) (bool, error) {
	if handorder.Opens(l) {
		return true, nil
	}
	prev, err := p.memory(ctx, l.Table)
	if err != nil || prev == nil {
		return false, err
	}
	return handorder.Follows(l, prev.Link(l.Table)), nil
}

// wait keeps h, which ended at stream message endSeq, until the hand before it is judged.
func (p *Projector) wait(h *hand, endSeq uint64, l handorder.Link, j *audit.Judgement) *waitingHand {
	if p.waiting == nil {
		p.waiting, p.waitingIDs = map[string][]*waitingHand{}, map[string]*waitingHand{}
	}
	w := &waitingHand{h: h, endSeq: endSeq, link: l, j: j}
	p.waiting[h.table] = append(p.waiting[h.table], w)
	p.waitingIDs[h.id] = w
	return w
}

// nextWaiting returns the index, among the hands waiting at table, of the one that comes next
// in its chain's order after the last hand judged there (handorder.Next).
func (p *Projector) nextWaiting(ctx context.Context, table string) (int, error) {
	ws := p.waiting[table]
	p.links = p.links[:0]
	for _, w := range ws {
		p.links = append(p.links, w.link)
	}
	prev, err := p.memory(ctx, table)
	if err != nil {
		return 0, err
	}
	var last *handorder.Link
	if prev != nil {
		l := prev.Link(table)
		last = &l
	}
	return handorder.Next(p.links, last), nil
}

// releaseWaiting judges the hands waiting at table that now come next, one after another.
func (p *Projector) releaseWaiting(ctx context.Context, table string) error {
	for len(p.waiting[table]) > 0 {
		i, err := p.nextWaiting(ctx, table)
		if err != nil {
			return err
		}
		if ok, err := p.ready(ctx, p.waiting[table][i].link); err != nil || !ok {
			return err
		}
		if err := p.judgeWaiting(ctx, table, i); err != nil {
			return err
		}
	}
	return nil
}

// judgeWaiting judges the hand waiting at index i of table's and stores its findings after any
// stored meanwhile (a stray line of the hand), with its count and status.
func (p *Projector) judgeWaiting(ctx context.Context, table string, i int) error {
	w := p.waiting[table][i]
	p.waiting[table] = slices.Delete(p.waiting[table], i, i+1)
	if len(p.waiting[table]) == 0 {
		delete(p.waiting, table)
	}
	delete(p.waitingIDs, w.h.id)
	fs, err := p.auditHand(ctx, w.endSeq, w.h, w.j)
	if err != nil {
		return err
	}
	var all []finding.Finding
	maxN := 0
	if w.found {
		rows, err := p.b.stmt(stWaitingFindings).QueryContext(ctx, w.h.id)
		if err != nil {
			return err
		}
		for rows.Next() {
			var n int
			var f finding.Finding
			if err := rows.Scan(&n, &f.Severity); err != nil {
				rows.Close()
				return err
			}
			maxN = max(maxN, n)
			all = append(all, f)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
	}
	m := Message{Seq: w.endSeq}
	for j, f := range fs {
		if f.Table == "" {
			f.Table = w.h.table
		}
		if err := p.insertFinding(ctx, m, w.h.id, maxN+1+j, f); err != nil {
			return err
		}
	}
	all = append(all, fs...)
	if _, err := p.b.stmt(stJudged).ExecContext(ctx, len(all), auditStatus(all), w.h.startSeq); err != nil {
		return fmt.Errorf("projector: hand %s: %w", w.h.id, err)
	}
	return nil
}

// Waiting returns how many ended hands wait for the hand before them.
func (p *Projector) Waiting() int {
	n := 0
	for _, ws := range p.waiting {
		n += len(ws)
	}
	return n
}

// Settle judges every hand still waiting for the hand before it, each table's in its chain's
// order (handorder.Next) against the last hand judged there, in one transaction: what the audit
// of the whole log does at its end. A hand before them stored later is judged as usual, but the
// hands settled are not judged again.
func (p *Projector) Settle(ctx context.Context) error {
	if !p.loaded {
		if err := p.load(ctx); err != nil {
			return err
		}
	}
	if len(p.waiting) == 0 {
		return nil
	}
	if err := p.begin(ctx); err != nil {
		return err
	}
	p.b.last = p.checkpoint
	tables := make([]string, 0, len(p.waiting))
	for t := range p.waiting {
		tables = append(tables, t)
	}
	slices.Sort(tables)
	for _, t := range tables {
		for len(p.waiting[t]) > 0 {
			i, err := p.nextWaiting(ctx, t)
			if err != nil {
				p.reset()
				return err
			}
			if err := p.judgeWaiting(ctx, t, i); err != nil {
				p.reset()
				return err
			}
		}
	}
	var pr Progress
	return p.commit(ctx, &pr)
}

// loadWaiting finds again, after a restart, the hands stored as waiting: their events from their
// copy (handcopy.go). A waiting hand without a copy (one of its lines was quarantined) is judged
// at once without the hand before it.
func (p *Projector) loadWaiting(ctx context.Context) error {
	rows, err := p.DB.QueryContext(ctx, `SELECT hand_id, table_id, stream_seq, end_seq FROM hands WHERE audit_status = ?`, AuditWaiting)
	if err != nil {
		return fmt.Errorf("projector: waiting hands: %w", err)
	}
	type row struct {
		id, table  string
		start, end uint64
	}
	var rs []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.id, &r.table, &r.start, &r.end); err != nil {
			rows.Close()
			return err
		}
		rs = append(rs, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, r := range rs {
		// The projector's own copy, whatever the source (HandCopy answers readers of a log).
		var n int
		var z []byte
		err := p.DB.QueryRowContext(ctx, `SELECT events, lines FROM hand_events WHERE hand_seq = ?`, r.start).Scan(&n, &z)
		ok := err == nil
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("projector: waiting hand %s: %w", r.id, err)
		}
		var stored []recorder.Stored
		if ok {
			if stored, err = decodeLines(z, n); err != nil {
				return fmt.Errorf("projector: waiting hand %s: %w", r.id, err)
			}
		}
		h := &hand{id: r.id, table: r.table, startSeq: r.start}
		for _, s := range stored {
			h.evs = append(h.evs, s.Event)
		}
		h.all = h.evs
		l, linked := linkOf(h)
		if !ok || !linked {
			l = handorder.Link{Table: r.table, Hand: r.id}
		}
		p.wait(h, r.end, l, nil).found = true
	}
	return nil
}
