package projector

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/tournament"
)

// The tournaments. The projector's auditor sees one table at a time (audit.HandAfter audits
// each hand alone), so the checks across the tables of a tournament are the projector's: every
// ended hand of a tournament goes through one tournament.Book, in stream order, and its
// tournament.* findings are stored with the hand's own. The book is memory; each transaction
// that follows a tournament's hands also writes what they leave (tournament.Memory) to
// tournament_memory, as table_memory is kept for the auditor, so a restart restores each
// tournament as of exactly the hands committed, however many there were.

// loadTournaments restores the book from tournament_memory, the tournaments in the order first
// stored.
func (p *Projector) loadTournaments(ctx context.Context) error {
	p.book = tournament.NewBook()
	rows, err := p.DB.QueryContext(ctx, `SELECT tournament_id, memory FROM tournament_memory ORDER BY rowid`)
	if err != nil {
		return fmt.Errorf("projector: tournament memory: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var b []byte
		if err := rows.Scan(&id, &b); err != nil {
			return err
		}
		var m tournament.Memory
		if err := json.Unmarshal(b, &m); err != nil {
			return fmt.Errorf("projector: tournament memory of %s: %w", id, err)
		}
		if _, err := p.book.Restore(m); err != nil {
			return fmt.Errorf("projector: tournament memory of %s: %w", id, err)
		}
	}
	return rows.Err()
}

// saveTournaments writes the memory of each tournament the batch followed, in its transaction.
func (p *Projector) saveTournaments(ctx context.Context) error {
	for id, hand := range p.b.tours {
		b, err := json.Marshal(p.book.Get(id).Memory())
		if err != nil {
			return err
		}
		if _, err := p.b.stmt(stTourMemory).ExecContext(ctx, id, hand, b); err != nil {
			return fmt.Errorf("projector: tournament memory of %s: %w", id, err)
		}
	}
	return nil
}

// tournamentHand follows a hand that ended through its tournament, if it belongs to one, writes
// what the tournament's rows become, and appends its tournament.* findings to dst.
func (p *Projector) tournamentHand(ctx context.Context, endSeq uint64, h *hand, dst []finding.Finding) ([]finding.Finding, error) {
	th, ok := tournament.HandOf(h.evs)
	if !ok {
		return dst, nil
	}
	dst = p.book.Add(dst, &th)
	t := p.book.Get(th.Start.Tournament.ID)
	if p.b.tours == nil {
		p.b.tours = map[string]string{}
	}
	p.b.tours[t.ID] = h.id
	hs := th.Start
	exec := func(id stmtID, args ...any) error {
		_, err := p.b.stmt(id).ExecContext(ctx, args...)
		return err
	}
	first, last := h.evs[0], h.evs[len(h.evs)-1]
	if err := exec(stTourHand, h.id, t.ID, h.table, endSeq, hs.Tournament.Level, events.Encode(first), events.Encode(last)); err != nil {
		return nil, err
	}
	var ended any
	if t.Finished() {
		ended = stamp(t.Last)
	}
	if err := exec(stTourUpsert, t.ID, t.Entries, int64(t.Stack), int64(t.Rebuys), t.Hands, t.Level, t.InPlay(),
		stamp(t.First), stamp(t.Last), ended); err != nil {
		return nil, err
	}
	tb := findTable(t, h.table)
	if err := exec(stTourTable, t.ID, h.table, tb.Hands, tb.Level, h.id); err != nil {
		return nil, err
	}
	if lv := hs.Tournament.Level; lv > 0 {
		if err := exec(stTourLevel, t.ID, h.table, lv, int64(hs.Stakes.Ante), int64(hs.Stakes.MinBet), int64(hs.Stakes.MaxBet),
			h.id, first.At); err != nil {
			return nil, err
		}
	}
	listed := map[string]bool{}
	for _, s := range hs.Seats {
		listed[s.Player] = true
		if s.From != "" {
			if err := exec(stTourMove, h.id, s.Player, t.ID, s.From, h.table, int64(s.Stack), endSeq); err != nil {
				return nil, err
			}
		}
	}
	for _, a := range hs.Away {
		listed[a.Player] = true
	}
	for _, l := range hs.Left {
		listed[l.Player] = true
	}
	for _, pl := range t.Players() {
		if !listed[pl.Name] {
			continue
		}
		place := pl.Place
		if !pl.Out && t.Finished() {
			place = 1
		}
		if pl.Out && pl.OutHand == h.id {
			if err := exec(stTourKnockout, h.id, pl.Name, t.ID, h.table, pl.Place, endSeq); err != nil {
				return nil, err
			}
		}
		table := pl.Table
		if pl.Out {
			table = pl.OutTable
		}
		if err := exec(stTourPlayer, t.ID, pl.Name, table, int64(pl.Chips), place, pl.OutHand, pl.Hands, int64(pl.Rebuys)); err != nil {
			return nil, err
		}
	}
	return dst, nil
}

// findTable returns the table id of t (the model has just followed a hand there).
func findTable(t *tournament.Tournament, id string) *tournament.Table {
	for _, tb := range t.Tables() {
		if tb.ID == id {
			return tb
		}
	}
	return &tournament.Table{ID: id}
}

// stamp writes a time as the events write theirs.
func stamp(at time.Time) string { return at.Format(time.RFC3339Nano) }
