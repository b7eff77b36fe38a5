package main

import (
	"context"
	"database/sql"
	"log/slog"
	"time"

	"github.com/fechado/fechado/audit/integrity"
	"github.com/fechado/fechado/projector"
	"github.com/fechado/fechado/recorder"
)

// analyseStored runs the integrity analysis over the whole stored log l (as 'integrity --all'
// reads it) and returns the report.
func analyseStored(ctx context.Context, l *recorder.Log) (*integrity.Report, error) {
	a := integrity.New(integrity.Options{})
	err := l.ReadHands(ctx, func(st recorder.Stored) error {
		a.Add(st.Event)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return a.Result(), nil
}

// integrityEvery is serve's --integrity: it analyses the stored log at once, then every period,
// and stores each analysis in the read models (projector.SaveIntegrity) for the Integrity page,
// until ctx is done. The analysis reads the whole log each time (its false discovery control
// ranks every pair against all the others): the period bounds what it costs. A failed run is
// logged and the next one tried.
func integrityEvery(ctx context.Context, l *recorder.Log, db *sql.DB, every time.Duration, log *slog.Logger) {
	for {
		start := time.Now()
		r, err := analyseStored(ctx, l)
		if err == nil {
			err = projector.SaveIntegrity(ctx, db, r, time.Now())
		}
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			log.Error("fechado: integrity analysis failed", "error", err)
		default:
			flagged := 0
			for _, p := range r.Pairs {
				if p.Flagged {
					flagged++
				}
			}
			log.Info("fechado: integrity analysis stored", "hands", r.Hands, "pairs", len(r.Pairs), "flagged", flagged,
				"seconds", time.Since(start).Seconds())
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(every):
		}
	}
}
