package projector

// stmtID names a statement the projector prepares in each transaction.
type stmtID int

const (
	stCheckpoint stmtID = iota
	stHandEnded
	stQuarantine
	stInsertHand
	stUpsertTable
	stInsertAction
	stInsertDraw
	stInsertAward
	stEndHand
	stInsertPlayer
	stInsertPot
	stInsertFinding
	stEndTable
	stMemory
	stPutMemory
	stFindingsOf
	stAuditStatus
	stStrayFinding
	stSeatChange
	stTourHand
	stTourUpsert
	stTourTable
	stTourLevel
	stTourMove
	stTourKnockout
	stTourPlayer
	stTourMemory
	stPutCopy
	stVoidCopy
	stSourceLog
	stHandRow
	stHandAt
	stWaitingFindings
	stJudged
	numStmts
)

// statements holds the SQL of each stmtID.
var statements = [numStmts]string{
	// A void copy stays void: a hand whose subject held a stray line before its hand.started is
	// read from the log even once it ends (void_copies is read with the copy).
	stPutCopy:   `INSERT INTO hand_events (hand_seq, hand_id, table_id, end_seq, events, lines) VALUES (?, ?, ?, ?, ?, ?)`,
	stVoidCopy:  `INSERT OR IGNORE INTO void_copies (hand_id) VALUES (?)`,
	stSourceLog: `INSERT OR IGNORE INTO source_log (one, log_id) VALUES (1, ?)`,
	stTourHand: `INSERT INTO tournament_hands (hand_id, tournament_id, table_id, end_seq, level, started, ended)
		VALUES (?, ?, ?, ?, ?, ?, ?)`,
	stTourUpsert: `INSERT INTO tournaments (tournament_id, entries, stack, rebuys, hands, level, in_play, started_at, last_at, ended_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (tournament_id) DO UPDATE SET entries = excluded.entries, stack = excluded.stack,
			rebuys = excluded.rebuys, hands = excluded.hands, level = excluded.level, in_play = excluded.in_play,
			started_at = excluded.started_at, last_at = excluded.last_at, ended_at = excluded.ended_at`,
	stTourTable: `INSERT INTO tournament_tables (tournament_id, table_id, hands, level, first_hand, last_hand)
		VALUES (?1, ?2, ?3, ?4, ?5, ?5)
		ON CONFLICT (tournament_id, table_id) DO UPDATE SET hands = excluded.hands, level = excluded.level,
			last_hand = excluded.last_hand`,
	stTourLevel: `INSERT OR IGNORE INTO tournament_levels (tournament_id, table_id, level, ante, min_bet, max_bet, first_hand, started_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
	stTourMove: `INSERT OR IGNORE INTO tournament_moves (hand_id, player, tournament_id, from_table, to_table, stack, end_seq)
		VALUES (?, ?, ?, ?, ?, ?, ?)`,
	stTourKnockout: `INSERT OR IGNORE INTO tournament_knockouts (hand_id, player, tournament_id, table_id, place, end_seq)
		VALUES (?, ?, ?, ?, ?, ?)`,
	stTourPlayer: `INSERT INTO tournament_players (tournament_id, player, table_id, chips, place, out_hand, hands, rebuys)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (tournament_id, player) DO UPDATE SET table_id = excluded.table_id, chips = excluded.chips,
			place = excluded.place, out_hand = excluded.out_hand, hands = excluded.hands, rebuys = excluded.rebuys`,
	stTourMemory: `INSERT INTO tournament_memory (tournament_id, hand_id, memory) VALUES (?, ?, ?)
		ON CONFLICT (tournament_id) DO UPDATE SET hand_id = excluded.hand_id, memory = excluded.memory`,
	stSeatChange: `INSERT OR IGNORE INTO seat_changes (hand_id, player, kind, table_id, stream_seq, started_at, seat, amount, to_table)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
	stCheckpoint: `INSERT INTO checkpoint (name, stream_seq) VALUES (?, ?)
		ON CONFLICT (name) DO UPDATE SET stream_seq = excluded.stream_seq`,
	// A hand is found by its id once, with handRow (bulk.go); the statements after it take its row.
	stHandRow:    `SELECT stream_seq FROM hands WHERE hand_id = ?`,
	stHandAt:     `SELECT hand_id FROM hands WHERE stream_seq = ?`,
	stHandEnded:  `SELECT end_seq IS NOT NULL FROM hands WHERE stream_seq = ?`,
	stQuarantine: `INSERT INTO quarantine (stream_seq, hand_id, reason, raw) VALUES (?, ?, ?, ?)`,
	stInsertHand: `INSERT OR IGNORE INTO hands (hand_id, stream_seq, table_id, number, preset, dealer, players,
		ante, min_bet, max_bet, carry_in, passed_out, started_at, started_ms)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
	stUpsertTable: `INSERT INTO tables (table_id, preset, hands, hands_ended, first_started_at, last_started_at, last_hand_id, table_fold)
		VALUES (?1, ?2, 1, 0, ?3, ?3, ?4, ?5)
		ON CONFLICT (table_id) DO UPDATE SET preset = excluded.preset, hands = hands + 1,
			last_started_at = excluded.last_started_at, last_hand_id = excluded.last_hand_id`,
	stInsertAction: `INSERT INTO actions (stream_seq, hand_seq, hand_id, seq, at, seat, player, round, action, amount)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
	stInsertDraw: `INSERT INTO draws (stream_seq, hand_seq, hand_id, seq, seat, player, discarded, declared)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
	stInsertAward: `INSERT INTO awards (stream_seq, hand_seq, hand_id, seq, pot, seat, player, amount)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
	stEndHand: `UPDATE hands SET end_seq = ?, ended_at = ?, ended_ms = ?, events = ?, pot_total = ?, awarded = ?,
		raked = ?, carry_out = ?, passed = ?, misdeal = ?, showdown = ?, winners = ?, audit_status = ?,
		findings = ?, quarantined = ? WHERE stream_seq = ?`,
	stInsertPlayer: `INSERT INTO hand_players (hand_seq, hand_id, seat, player, position, start_stack, end_stack, net,
		put_in, returned, won, vpip, open_chance, opened, raised_pre, bets, raises, calls, checks, folded,
		drew, cards_drawn, stood_pat, saw_second, went_to_showdown, won_at_showdown, aggressive_post, shown, player_fold)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
	stInsertPot: `INSERT INTO pots (hand_seq, hand_id, pot, awarded, raked, winners) VALUES (?, ?, ?, ?, ?, ?)`,
	stInsertFinding: `INSERT INTO findings (hand_id, n, table_id, seq, stream_seq, code, severity, seat, message,
		expected, actual) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
	stEndTable: `UPDATE tables SET hands_ended = hands_ended + 1 WHERE table_id = ?`,
	stMemory:   `SELECT memory FROM table_memory WHERE table_id = ?`,
	stPutMemory: `INSERT INTO table_memory (table_id, hand_id, memory) VALUES (?, ?, ?)
		ON CONFLICT (table_id) DO UPDATE SET hand_id = excluded.hand_id, memory = excluded.memory`,
	stFindingsOf:   `SELECT COALESCE(MAX(n), 0) FROM findings WHERE hand_id = ?`,
	stAuditStatus:  `SELECT audit_status FROM hands WHERE stream_seq = ?`,
	stStrayFinding: `UPDATE hands SET findings = findings + 1, audit_status = ? WHERE stream_seq = ?`,
	// A waiting hand's findings stored meanwhile, and its count and status once judged (order.go).
	stWaitingFindings: `SELECT n, severity FROM findings WHERE hand_id = ?`,
	stJudged:          `UPDATE hands SET findings = ?, audit_status = ? WHERE stream_seq = ?`,
}
