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
// drops before its first row and builds once at the end (projector, bulk.go). The keys of the
// first two, a hand id and a time, do not grow with the stream (hand ids are UUIDs, and tables
// recorded one after another start over at an earlier time), so each new hand would write a page
// of each at a random place. The others serve only readers, and each costs every hand one write
// or more for a list read in full only at the end: of hands by table, by preset and with
// findings (migration 0012); of the players' rows by player (the rows of every hand, at a
// player's place among all the players); of the actions, draws and awards by hand, which only
// readers in SQL use (docs/sql.md). Built at the end, each is one sort. hands_end stays: the live
// feed asks it after each commit. The projector's own statements never need them (a test reads
// their query plans).
var DeferredIndexes = []string{"hands_hand_id", "hands_started", "hands_table", "hands_preset", "hands_with_findings",
	"hand_players_player", "hand_players_player_fold", "actions_hand", "draws_hand", "awards_hand"}

// DeferredTriggers names the triggers that keep the counts of migrations 0011, 0012 and 0014
// (player_totals, hand_counts, player_slices, player_positions, player_hands) as the projector writes hands
// and hand_players. A projector filling empty read models drops them with DeferredIndexes, and
// when it builds the indexes it counts those tables once from the rows (Recount) and creates
// the triggers again, in one transaction: the counts a trigger per row would have kept, for one
// pass over the rows instead of a statement or three per row written. Meanwhile the readers of
// those counts count from the hands' rows (projector.countsKept).
var DeferredTriggers = []string{"hand_counts_add", "hand_counts_findings", "player_totals_add", "player_slices_add",
	"player_hands_add"}

// Recount empties the tables DeferredTriggers keep and counts them again from hands and
// hand_players, as migrations 0011, 0012 and 0014 first filled them: what the triggers leave after
// every row written, but for rows of a count of zero (a slice whose hands all gained findings),
// which no reader tells from no row (they sum).
var Recount = []string{
	`DELETE FROM player_totals`,
	`INSERT INTO player_totals
SELECT player, MIN(player_fold), COUNT(*), SUM(vpip), SUM(raised_pre), SUM(bets), SUM(raises), SUM(calls),
    SUM(saw_second), SUM(went_to_showdown), SUM(won_at_showdown), SUM(drew), COALESCE(SUM(cards_drawn), 0),
    SUM(stood_pat), SUM(open_chance), SUM(opened), SUM(net)
FROM hand_players GROUP BY player`,
	`DELETE FROM hand_counts`,
	`INSERT INTO hand_counts
SELECT table_id, preset, COALESCE(findings, 0) > 0, COUNT(*) FROM hands GROUP BY 1, 2, 3`,
	`DELETE FROM player_slices`,
	`INSERT INTO player_slices
SELECT hp.player, h.table_id, h.preset, COUNT(*), SUM(hp.vpip), SUM(hp.raised_pre), SUM(hp.bets), SUM(hp.raises),
    SUM(hp.calls), SUM(hp.saw_second), SUM(hp.went_to_showdown), SUM(hp.won_at_showdown), SUM(hp.drew),
    COALESCE(SUM(hp.cards_drawn), 0), SUM(hp.stood_pat), SUM(hp.open_chance), SUM(hp.opened), SUM(hp.net)
FROM hand_players hp JOIN hands h ON h.stream_seq = hp.hand_seq GROUP BY 1, 2, 3`,
	`DELETE FROM player_positions`,
	`INSERT INTO player_positions
SELECT hp.player, h.table_id, h.preset, hp.position, COUNT(*), SUM(hp.open_chance), SUM(hp.opened)
FROM hand_players hp JOIN hands h ON h.stream_seq = hp.hand_seq GROUP BY 1, 2, 3, 4`,
	`DELETE FROM player_hands`,
	`INSERT INTO player_hands
SELECT player_fold, COUNT(DISTINCT hand_seq) FROM hand_players GROUP BY player_fold`,
}

// DeferredTable holds the name and SQL of each index of DeferredIndexes and each trigger of
// DeferredTriggers dropped and not yet created again, so that a projector that stopped before
// the end builds them, and recounts, at its next start. It is not a read model: a re-projection
// leaves it.
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
	// 0012
	"hand_counts", "player_slices", "player_positions",
	// 0013
	"integrity_runs", "integrity_pairs",
	// 0014
	"player_hands",
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
