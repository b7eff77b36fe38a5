package projector

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/fechado/fechado/audit/integrity"
)

// The last integrity analysis (schema migration 0013, docs/integrity.md). audit/integrity judges
// the pairs, once, over the whole log; SaveIntegrity stores that judgement as it is, each pair as
// `fechado integrity --json` writes it, and the readers below give it back. The web server reads
// it and never scores a pair itself: one verdict, computed in one place.

// IntegrityRun is the stored analysis' summary: when it was computed, over how many hands (and
// how many with every card known), players and pairs, how many flagged, at which threshold.
type IntegrityRun struct {
	At        time.Time
	Hands     int
	Known     int
	Players   int
	Pairs     int
	Flagged   int
	Threshold float64
	Q         float64
}

// IntegrityPair is a stored pair: its rank (1: the strongest evidence) and the pair as scored.
type IntegrityPair struct {
	Rank int `json:"rank"`
	integrity.Pair
}

// IntegrityWords is what a pair says in a reader's language (integrity.Pair.Words): the words of
// the verdict stored, written by the package that judged it.
type IntegrityWords = integrity.Words

// SaveIntegrity replaces the stored analysis with r, computed at at, in one transaction: a reader
// sees the previous analysis or this one, never a mix.
func SaveIntegrity(ctx context.Context, db *sql.DB, r *integrity.Report, at time.Time) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("projector: integrity: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `DELETE FROM integrity_pairs`); err != nil {
		return fmt.Errorf("projector: integrity: %w", err)
	}
	st, err := tx.PrepareContext(ctx, `INSERT INTO integrity_pairs (rank, a, b, score, flagged, kind, hands, pair) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("projector: integrity: %w", err)
	}
	defer st.Close()
	flagged := 0
	for i, p := range r.Pairs {
		b, err := json.Marshal(p)
		if err != nil {
			return fmt.Errorf("projector: integrity: %w", err)
		}
		if p.Flagged {
			flagged++
		}
		if _, err := st.ExecContext(ctx, i+1, p.A, p.B, p.Score, p.Flagged, p.Kind, p.Hands, string(b)); err != nil {
			return fmt.Errorf("projector: integrity: %w", err)
		}
	}
	_, err = tx.ExecContext(ctx, `INSERT OR REPLACE INTO integrity_runs (id, computed_at, hands, known, players, pairs, flagged, threshold, q)
		VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?)`, at.UTC().Format(time.RFC3339Nano), r.Hands, r.Known, r.Players, len(r.Pairs), flagged, r.Threshold, r.Q)
	if err != nil {
		return fmt.Errorf("projector: integrity: %w", err)
	}
	return tx.Commit()
}

// ReadIntegrityRun returns the stored analysis' summary, or nil when none was stored since the
// read models were last filled.
func ReadIntegrityRun(ctx context.Context, db *sql.DB) (*IntegrityRun, error) {
	var r IntegrityRun
	var at string
	err := db.QueryRowContext(ctx, `SELECT computed_at, hands, known, players, pairs, flagged, threshold, q FROM integrity_runs WHERE id = 1`).
		Scan(&at, &r.Hands, &r.Known, &r.Players, &r.Pairs, &r.Flagged, &r.Threshold, &r.Q)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if r.At, err = time.Parse(time.RFC3339Nano, at); err != nil {
		return nil, fmt.Errorf("projector: integrity run's time %q: %w", at, err)
	}
	return &r, nil
}

// IntegrityGap is a signal the stored analysis could not calibrate (integrity.Gap).
type IntegrityGap = integrity.Gap

// IntegrityGaps returns the signals the stored analysis could not calibrate (integrity.Gaps),
// read from every stored pair's signals alone: a page shows a few pairs, the gaps are the whole
// analysis'.
func IntegrityGaps(ctx context.Context, db Queryer) ([]IntegrityGap, error) {
	rows, err := db.QueryContext(ctx, `SELECT
		json_extract(pair, '$.soft_play.z'), json_extract(pair, '$.soft_play.p'), coalesce(json_extract(pair, '$.soft_play.uncalibrated'), 0),
		json_extract(pair, '$.chip_dump.z'), json_extract(pair, '$.chip_dump.p'), coalesce(json_extract(pair, '$.chip_dump.uncalibrated'), 0),
		json_extract(pair, '$.share_cards.z'), json_extract(pair, '$.share_cards.p'), coalesce(json_extract(pair, '$.share_cards.uncalibrated'), 0)
		FROM integrity_pairs`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var pairs []integrity.Pair
	for rows.Next() {
		var p integrity.Pair
		if err := rows.Scan(&p.Soft.Z, &p.Soft.P, &p.Soft.Uncalibrated, &p.Dumping.Z, &p.Dumping.P, &p.Dumping.Uncalibrated,
			&p.Shared.Z, &p.Shared.P, &p.Shared.Uncalibrated); err != nil {
			return nil, err
		}
		pairs = append(pairs, p)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return integrity.Gaps(pairs), nil
}

// IntegrityPairs returns the stored pairs of ranks offset+1 to offset+limit, strongest first.
func IntegrityPairs(ctx context.Context, db Queryer, limit, offset int) ([]IntegrityPair, error) {
	return integrityPairs(ctx, db, `SELECT rank, pair FROM integrity_pairs WHERE rank > ? ORDER BY rank LIMIT ?`, offset, limit)
}

// IntegrityAmong returns the stored pairs both of whose players are among players, strongest
// first: the edges of the graph of who plays with whom between them.
func IntegrityAmong(ctx context.Context, db Queryer, players []string) ([]IntegrityPair, error) {
	if len(players) == 0 {
		return nil, nil
	}
	in := strings.TrimSuffix(strings.Repeat("?,", len(players)), ",")
	args := make([]any, 0, 2*len(players))
	for range 2 {
		for _, p := range players {
			args = append(args, p)
		}
	}
	return integrityPairs(ctx, db, `SELECT rank, pair FROM integrity_pairs WHERE a IN (`+in+`) AND b IN (`+in+`) ORDER BY rank`, args...)
}

func integrityPairs(ctx context.Context, db Queryer, query string, args ...any) ([]IntegrityPair, error) {
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []IntegrityPair
	for rows.Next() {
		var p IntegrityPair
		var b []byte
		if err := rows.Scan(&p.Rank, &b); err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, &p.Pair); err != nil {
			return nil, fmt.Errorf("projector: integrity pair %d: %w", p.Rank, err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}
