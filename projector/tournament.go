package projector

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/tournament"
)

// The tournaments. The projector's auditor sees one table at a time (audit.HandAfter audits
// each hand alone), so the checks across the tables of a tournament are made on the hands of the
// tournament stored so far: each ended hand of a tournament is kept in tournament_hands (its
// hand.started and hand.ended as stored), and at each commit every tournament the batch touched
// is followed again from those rows by tournament.Follow, the one computation `fechado audit`
// and `replay --tournament` make, in its one order (each table's chain, the tables merged by
// the end of their hands) whatever order the stream holds them in. What it leaves replaces the
// tournament's rows (the tournament, its tables, levels, knock-outs and standings) and its
// tournament.* findings, stored with each hand's own. So the pages and the API show what the
// audit of the same log shows, and a restart has nothing to restore.

// tournamentHand keeps a hand that ended for its tournament, if it belongs to one: its row of
// tournament_hands and its moves. The tournament is followed at the commit (refreshTournaments).
func (p *Projector) tournamentHand(ctx context.Context, endSeq uint64, h *hand) error {
	th, ok := tournament.HandOf([]*events.Event{h.evs[0], h.evs[len(h.evs)-1]})
	if !ok {
		return nil
	}
	id := th.Start.Tournament.ID
	if p.b.tours == nil {
		p.b.tours = map[string]string{}
	}
	p.b.tours[id] = h.id
	hs := th.Start
	exec := func(st stmtID, args ...any) error {
		_, err := p.b.stmt(st).ExecContext(ctx, args...)
		return err
	}
	first, last := h.evs[0], h.evs[len(h.evs)-1]
	if err := exec(stTourHand, h.id, id, h.table, endSeq, hs.Tournament.Level, first.Raw, last.Raw); err != nil {
		return err
	}
	if hands, ok := p.tourHands[id]; ok {
		p.tourHands[id] = append(hands, storedHand{h: th, endSeq: endSeq, startAt: first.At})
	}
	for _, s := range hs.Seats {
		if s.From != "" {
			if err := exec(stTourMove, h.id, s.Player, id, s.From, h.table, int64(s.Stack), endSeq); err != nil {
				return err
			}
		}
	}
	return nil
}

// storedHand is a row of tournament_hands read back.
type storedHand struct {
	h       tournament.Hand
	endSeq  uint64
	startAt string // hand.started's at, as written
}

// storedTournament reads every stored hand of tournament id.
func storedTournament(ctx context.Context, q *sql.Tx, id string) ([]storedHand, error) {
	rows, err := q.QueryContext(ctx, `SELECT end_seq, started, ended FROM tournament_hands WHERE tournament_id = ? ORDER BY end_seq`, id)
	if err != nil {
		return nil, fmt.Errorf("projector: tournament hands of %s: %w", id, err)
	}
	defer rows.Close()
	var out []storedHand
	for rows.Next() {
		var seq uint64
		var started, ended []byte
		if err := rows.Scan(&seq, &started, &ended); err != nil {
			return nil, err
		}
		s, err := events.Parse(started)
		if err != nil {
			return nil, fmt.Errorf("projector: tournament hand at %d: %w", seq, err)
		}
		e, err := events.Parse(ended)
		if err != nil {
			return nil, fmt.Errorf("projector: tournament hand at %d: %w", seq, err)
		}
		th, ok := tournament.HandOf([]*events.Event{s, e})
		if !ok {
			return nil, fmt.Errorf("projector: tournament hand at %d is not a tournament's ended hand", seq)
		}
		out = append(out, storedHand{h: th, endSeq: seq, startAt: s.At})
	}
	return out, rows.Err()
}

// refreshTournaments follows again every tournament the batch touched and rewrites what it
// leaves, in the batch's transaction.
func (p *Projector) refreshTournaments(ctx context.Context) error {
	for id := range p.b.tours {
		if err := p.refreshTournament(ctx, id); err != nil {
			return err
		}
	}
	return nil
}

func (p *Projector) refreshTournament(ctx context.Context, id string) error {
	tx := p.b.tx
	// The tournament's hands: read from tournament_hands once (at the first commit after a
	// load, when the hand of this batch is in it already), then kept in memory as hands end.
	stored, ok := p.tourHands[id]
	if !ok {
		var err error
		if stored, err = storedTournament(ctx, tx, id); err != nil {
			return err
		}
		if p.tourHands == nil {
			p.tourHands = map[string][]storedHand{}
		}
		p.tourHands[id] = stored
	}
	hs := make([]tournament.Hand, len(stored))
	endSeq := make(map[string]uint64, len(stored))
	startAt := make(map[string]string, len(stored))
	for i, s := range stored {
		hs[i] = s.h
		endSeq[s.h.ID], startAt[s.h.ID] = s.endSeq, s.startAt
	}
	book, fs := tournament.Follow(hs)
	t := book.Get(id)
	if t == nil {
		return nil
	}
	exec := func(q string, args ...any) error {
		_, err := tx.ExecContext(ctx, q, args...)
		if err != nil {
			return fmt.Errorf("projector: tournament %s: %w", id, err)
		}
		return nil
	}
	execSt := func(st stmtID, args ...any) error {
		_, err := p.b.stmt(st).ExecContext(ctx, args...)
		if err != nil {
			return fmt.Errorf("projector: tournament %s: %w", id, err)
		}
		return nil
	}
	var ended any
	if t.Finished() {
		ended = stamp(t.Last)
	}
	if err := execSt(stTourUpsert, t.ID, t.Entries, int64(t.Stack), int64(t.Rebuys), t.Hands, t.Level, t.InPlay(),
		stamp(t.First), stamp(t.Last), ended); err != nil {
		return err
	}
	for _, q := range []string{`DELETE FROM tournament_tables WHERE tournament_id = ?`, `DELETE FROM tournament_levels WHERE tournament_id = ?`,
		`DELETE FROM tournament_knockouts WHERE tournament_id = ?`, `DELETE FROM tournament_players WHERE tournament_id = ?`} {
		if err := exec(q, id); err != nil {
			return err
		}
	}
	// The tables, and the first hand of each level at each table, in the order followed.
	firstHand := map[string]string{}
	for _, h := range tournament.Ordered(hs) {
		if _, ok := firstHand[h.Table]; !ok {
			firstHand[h.Table] = h.ID
		}
		if lv := h.Start.Tournament.Level; lv > 0 {
			st := h.Start.Stakes
			if err := execSt(stTourLevel, id, h.Table, lv, int64(st.Ante), int64(st.MinBet), int64(st.MaxBet),
				h.ID, startAt[h.ID]); err != nil {
				return err
			}
		}
	}
	for _, tb := range t.Tables() {
		if err := exec(`INSERT INTO tournament_tables (tournament_id, table_id, hands, level, first_hand, last_hand) VALUES (?, ?, ?, ?, ?, ?)`,
			id, tb.ID, tb.Hands, tb.Level, firstHand[tb.ID], tb.Hand); err != nil {
			return err
		}
	}
	for _, pl := range t.Players() {
		place, table := pl.Place, pl.Table
		if !pl.Out && t.Finished() {
			place = 1
		}
		if pl.Out {
			table = pl.OutTable
			if err := execSt(stTourKnockout, pl.OutHand, pl.Name, id, pl.OutTable, pl.Place, endSeq[pl.OutHand]); err != nil {
				return err
			}
		}
		if err := execSt(stTourPlayer, id, pl.Name, table, int64(pl.Chips), place, pl.OutHand, pl.Hands, int64(pl.Rebuys)); err != nil {
			return err
		}
	}
	return p.replaceTournamentFindings(ctx, id, stored, fs)
}

// replaceTournamentFindings replaces the tournament.* findings of the hands of stored with fs,
// after each hand's own findings, and sets again the count and audit status of each hand whose
// tournament.* findings changed.
func (p *Projector) replaceTournamentFindings(ctx context.Context, id string, stored []storedHand, fs []finding.Finding) error {
	tx := p.b.tx
	byHand := map[string][]finding.Finding{}
	for _, f := range fs {
		byHand[f.Hand] = append(byHand[f.Hand], f)
	}
	// The tournament.* findings stored now, in one read.
	old := map[string][]finding.Finding{}
	rows, err := tx.QueryContext(ctx, `SELECT f.hand_id, f.seq, f.code, COALESCE(f.seat, 0), f.message FROM findings f
		JOIN tournament_hands th ON th.hand_id = f.hand_id
		WHERE th.tournament_id = ? AND f.code LIKE 'tournament.%' ORDER BY f.hand_id, f.n`, id)
	if err != nil {
		return err
	}
	for rows.Next() {
		var hand string
		var seq, seat int
		var f finding.Finding
		if err := rows.Scan(&hand, &seq, &f.Code, &seat, &f.Message); err != nil {
			rows.Close()
			return err
		}
		f.Seq, f.Seat = events.Seq(seq), events.Seat(seat)
		old[hand] = append(old[hand], f)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, s := range stored {
		hand := s.h.ID
		want := byHand[hand]
		if sameFindings(old[hand], want) {
			continue
		}
		// The hand's own findings, after which its tournament.* ones are numbered.
		rows, err := tx.QueryContext(ctx, `SELECT n, code, severity FROM findings WHERE hand_id = ? ORDER BY n`, hand)
		if err != nil {
			return err
		}
		var own []finding.Finding
		maxN := 0
		for rows.Next() {
			var n int
			var f finding.Finding
			if err := rows.Scan(&n, &f.Code, &f.Severity); err != nil {
				rows.Close()
				return err
			}
			if !isTournamentCode(f.Code) {
				own = append(own, f)
				maxN = max(maxN, n)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM findings WHERE hand_id = ? AND code LIKE 'tournament.%'`, hand); err != nil {
			return err
		}
		m := Message{Seq: s.endSeq}
		var added []finding.Finding
		for i, f := range want {
			if err := p.insertFinding(ctx, m, hand, maxN+1+i, f); err != nil {
				return err
			}
			if !slices.ContainsFunc(old[hand], func(o finding.Finding) bool { return sameFindings([]finding.Finding{o}, []finding.Finding{f}) }) {
				added = append(added, f)
			}
		}
		if len(added) > 0 {
			// What the auditor found anew, for OnAudit (the findings' metrics), as a stray
			// line's finding is: the hand itself was counted when it ended.
			p.b.audited = append(p.b.audited, Audited{Hand: hand, Table: s.h.Table, Findings: added, Stray: true})
		}
		seq, ok, err := p.handRow(ctx, hand)
		if err != nil {
			return err
		}
		if ok && p.waitingIDs[hand] == nil { // a waiting hand counts them when judged (order.go)
			all := append(own, want...)
			if _, err := tx.ExecContext(ctx, `UPDATE hands SET findings = ?, audit_status = ? WHERE stream_seq = ?`,
				len(all), auditStatus(all), seq); err != nil {
				return err
			}
		}
	}
	return nil
}

func isTournamentCode(c finding.Code) bool { return len(c) > 11 && c[:11] == "tournament." }

// sameFindings reports whether the stored findings a are those of b (code, seq, seat, message).
func sameFindings(a, b []finding.Finding) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Code != b[i].Code || a[i].Seq != b[i].Seq || a[i].Seat != b[i].Seat || a[i].Message != b[i].Message {
			return false
		}
	}
	return true
}

// stamp writes a time as the events write theirs.
func stamp(at time.Time) string { return at.Format(time.RFC3339Nano) }
