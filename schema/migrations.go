package schema

import (
	"embed"
	"strings"
)

// Migrations holds the SQL migrations of the SQLite read models, migrations/NNNN_name.sql. They
// are applied in the order of their numbers, each in its own transaction, and a migration once
// released is never edited in a way that changes what it leaves in a database: a change is a new
// file. The projector package applies them.
//
//go:embed migrations/*.sql
var Migrations embed.FS

// ReprojectMark, on a line of its own in a migration, asks the runner to make the projector
// project the whole log again: after the migration's SQL, in its transaction, the runner empties
// every read model (ReadModels) and the checkpoint. A migration that changes what a row means, or
// adds a read model that earlier hands must fill, carries it instead of listing the tables to
// empty, so that the list lives in one place.
const ReprojectMark = "-- fechado:reproject"

// Checkpoint is the table of the stream sequence each projector has reached; emptying it makes
// the projector start again from the first message.
const Checkpoint = "checkpoint"

// DeferredIndexes names the indexes of the read models that a projector filling empty read models
// drops before its first row and builds once at the end (projector, bulk.go): their keys, a hand
// id and a time, do not grow with the stream (hand ids are UUIDs, and tables recorded one after
// another start over at an earlier time), so each new hand would write a page of each at a random
// place. The projector's own statements never need them (a test reads their query plans).
var DeferredIndexes = []string{"hands_hand_id", "hands_started"}

// DeferredTable holds the name and SQL of each index of DeferredIndexes dropped and not yet built
// again, so that a projector that stopped before the end builds them at its next start. It is
// not a read model: a re-projection leaves it.
const DeferredTable = "deferred_indexes"

// ReadModels names every table the projector derives from the log, in the order the migrations
// create them: a re-projection empties each of them that the database has. Every table but
// Checkpoint and the runner's own schema_migrations is one (a test keeps the list complete).
var ReadModels = []string{
	// 0001
	"tables", "hands", "hand_players", "actions", "draws", "awards", "pots", "findings", "quarantine",
	// 0002
	"table_memory",
	// 0003
	"seat_changes",
	// 0004
	"tournaments", "tournament_hands", "tournament_tables", "tournament_levels", "tournament_moves",
	"tournament_knockouts", "tournament_players",
	// 0005
	"tournament_memory",
	// 0008
	"hand_events", "source_log",
	// 0009
	"void_copies",
	// 0011
	"player_totals",
	// 0013
	"integrity_runs", "integrity_pairs",
}

// Reprojects reports whether the migration text sql carries ReprojectMark on a line of its own.
func Reprojects(sql string) bool {
	for line := range strings.Lines(sql) {
		if strings.TrimSpace(line) == ReprojectMark {
			return true
		}
	}
	return false
}
