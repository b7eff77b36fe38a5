package projector

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
)

// AuditFunc audits the events of one hand, as they arrived, from hand.started to hand.ended,
// against what the table's previous hand left (nil: none), and returns its findings and what
// this hand leaves. The projector calls it once per hand when hand.ended arrives, inside the
// transaction that stores the hand, so it must be deterministic and must not block.
// audit.HandAfter is the projector's auditor; tests may give another.
type AuditFunc func(hand []*events.Event, prev *audit.TableMemory) ([]finding.Finding, *audit.TableMemory)

// Audit statuses stored in hands.audit_status: AuditOK, or the gravest severity found.
const (
	AuditOK = "ok" // audited, no finding
)

// auditStatus is "ok" without findings, else the worst severity found.
func auditStatus(fs []finding.Finding) string {
	if w := finding.Worst(fs); w != "" {
		return string(w)
	}
	return AuditOK
}

// Audited is what the projector found in one stream message: a hand audited at its hand.ended,
// or the finding of a stray event (Stray) that no hand's audit takes.
type Audited struct {
	Hand, Table string
	Findings    []finding.Finding
	Stray       bool
	Took        time.Duration // the audit's time (0 for a stray)
}

func (p *Projector) auditFunc() AuditFunc {
	if p.Audit != nil {
		return p.Audit
	}
	return audit.HandAfter
}

// memory returns what the last audited hand of table left, from the projector's cache or the
// database (in the batch's transaction); nil when none.
func (p *Projector) memory(ctx context.Context, table string) (*audit.TableMemory, error) {
	if m, ok := p.mem[table]; ok {
		return m, nil
	}
	var b []byte
	err := p.b.stmt(stMemory).QueryRowContext(ctx, table).Scan(&b)
	if errors.Is(err, sql.ErrNoRows) {
		p.mem[table] = nil
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("projector: table memory of %s: %w", table, err)
	}
	m := &audit.TableMemory{}
	if err := json.Unmarshal(b, m); err != nil {
		return nil, fmt.Errorf("projector: table memory of %s: %w", table, err)
	}
	p.mem[table] = m
	return m, nil
}

// auditHand audits a hand that ended (its hand.ended is stream message endSeq), stores what it
// leaves for its table, and returns its findings: those of its stray lines first (h.faults),
// then the auditor's. It is the hand that comes next at its table (order.go); its tournament.*
// findings are stored at the commit (refreshTournaments). j, when not nil, is the hand already
// replayed on its own (audit.Judge, for its rows): the auditor judges it without replaying it
// again, unless an Audit hook replaces the auditor.
func (p *Projector) auditHand(ctx context.Context, endSeq uint64, h *hand, j *audit.Judgement) ([]finding.Finding, error) {
	prev, err := p.memory(ctx, h.table)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	var fs []finding.Finding
	var next *audit.TableMemory
	if j != nil && p.Audit == nil {
		fs, next = j.After(prev)
	} else {
		fs, next = p.auditFunc()(h.all, prev)
	}
	took := time.Since(start)
	if j != nil {
		took += h.judgeTook
	}
	if next != prev && next != nil {
		b, err := json.Marshal(next)
		if err != nil {
			return nil, err
		}
		if _, err := p.b.stmt(stPutMemory).ExecContext(ctx, h.table, next.Hand, b); err != nil {
			return nil, err
		}
		p.mem[h.table] = next
	}
	fs = append(append([]finding.Finding{}, h.faults...), fs...)
	p.b.audited = append(p.b.audited, Audited{Hand: h.id, Table: h.table, Findings: fs, Took: took})
	return fs, nil
}

// insertFinding stores f as finding n of hand, shown by stream message m.
func (p *Projector) insertFinding(ctx context.Context, m Message, hand string, n int, f finding.Finding) error {
	if w := p.waitingIDs[hand]; w != nil {
		w.found = true // judging numbers its own after it (order.go)
	}
	var seat any
	if f.Seat != 0 {
		seat = int(f.Seat)
	}
	_, err := p.b.stmt(stInsertFinding).ExecContext(ctx, hand, n, f.Table, int(f.Seq), m.Seq, string(f.Code),
		string(f.Severity), seat, f.Message, jsonValue(f.Expected), jsonValue(f.Actual))
	return err
}

// jsonValue is v as JSON text, or NULL when v is nil (or cannot be written).
func jsonValue(v any) any {
	if v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return string(b)
}

// stray records the finding of a message no open hand takes. While re-reading open hands after
// a restart it is already stored: nothing is written. A finding of a hand that is open joins the
// hand's own at its hand.ended; any other is stored now, after the findings its hand has, and a
// hand that has ended counts it in hands.findings and hands.audit_status.
func (p *Projector) stray(ctx context.Context, m Message, f finding.Finding) error {
	if h := p.open[f.Hand]; h != nil {
		h.faults = append(h.faults, f)
		return nil
	}
	if p.replaying {
		return nil
	}
	var n int
	var status sql.NullString
	if err := p.b.stmt(stFindingsOf).QueryRowContext(ctx, f.Hand).Scan(&n); err != nil {
		return err
	}
	if err := p.insertFinding(ctx, m, f.Hand, n+1, f); err != nil {
		return err
	}
	seq, ok, err := p.handRow(ctx, f.Hand)
	if err == nil && ok {
		err = p.b.stmt(stAuditStatus).QueryRowContext(ctx, seq).Scan(&status)
	}
	if err != nil {
		return err
	}
	if status.Valid && status.String != AuditWaiting { // a waiting hand counts it when judged (order.go)
		all := []finding.Finding{f}
		if status.String != AuditOK {
			all = append(all, finding.Finding{Severity: finding.Severity(status.String)})
		}
		if _, err := p.b.stmt(stStrayFinding).ExecContext(ctx, auditStatus(all), seq); err != nil {
			return err
		}
	}
	p.b.audited = append(p.b.audited, Audited{Hand: f.Hand, Table: f.Table, Findings: []finding.Finding{f}, Stray: true})
	return nil
}
