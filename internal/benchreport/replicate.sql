-- replicate.sql: a read model of nine times the hands of a projected one, for timing the web API
-- at a size whose log would take too long to record and project (BENCHMARKS.md, sixteenth
-- session): eight copies of the projector's rows under new hand ids (the first hex digit of the
-- UUID changed: the ids must begin with 0, as those of version 7 do until 2527), new table ids
-- (TABLE-1 … TABLE-8) and stream sequences below the originals' (k × 10,000,000 less), so that
-- the lists give the real hands first. The triggers of migrations 0011 and 0012 keep the counts
-- as the projector's writes would. The copies' events are not in the log: read hands by id among
-- the originals. Usage: cp fechado.db big.db && sqlite3 big.db < replicate.sql
PRAGMA journal_mode=WAL;
PRAGMA synchronous=OFF;
CREATE TEMP TABLE k(k INTEGER);
INSERT INTO k VALUES (1),(2),(3),(4),(5),(6),(7),(8);
BEGIN;
INSERT INTO tables (table_id, preset, hands, hands_ended, first_started_at, last_started_at, last_hand_id, table_fold)
SELECT t.table_id || '-' || k.k, t.preset, t.hands, t.hands_ended, t.first_started_at, t.last_started_at,
  printf('%x', k.k) || substr(t.last_hand_id, 2), t.table_fold || '-' || k.k FROM tables t, k;
INSERT INTO hands SELECT h.stream_seq - k.k * 10000000, printf('%x', k.k) || substr(h.hand_id, 2), h.table_id || '-' || k.k,
  h.number, h.preset, h.dealer, h.players, h.ante, h.min_bet, h.max_bet, h.carry_in, h.passed_out, h.started_at, h.started_ms,
  h.end_seq - k.k * 10000000, h.ended_at, h.ended_ms, h.events, h.pot_total, h.awarded, h.raked, h.carry_out, h.passed, h.misdeal,
  h.showdown, h.winners, h.audit_status, h.findings, h.quarantined
FROM hands h, k WHERE h.stream_seq > 0 ORDER BY k.k, h.stream_seq;
INSERT INTO hand_players (hand_seq, seat, hand_id, player, position, start_stack, end_stack, net, put_in, returned, won, vpip,
  open_chance, opened, raised_pre, bets, raises, calls, checks, folded, drew, cards_drawn, stood_pat, saw_second,
  went_to_showdown, won_at_showdown, aggressive_post, shown, player_fold)
SELECT hp.hand_seq - k.k * 10000000, hp.seat, printf('%x', k.k) || substr(hp.hand_id, 2), hp.player, hp.position, hp.start_stack,
  hp.end_stack, hp.net, hp.put_in, hp.returned, hp.won, hp.vpip, hp.open_chance, hp.opened, hp.raised_pre, hp.bets, hp.raises,
  hp.calls, hp.checks, hp.folded, hp.drew, hp.cards_drawn, hp.stood_pat, hp.saw_second, hp.went_to_showdown, hp.won_at_showdown,
  hp.aggressive_post, hp.shown, hp.player_fold
FROM hand_players hp, k WHERE hp.hand_seq > 0 ORDER BY k.k, hp.hand_seq, hp.seat;
INSERT INTO findings SELECT printf('%x', k.k) || substr(f.hand_id, 2), f.n, f.table_id || '-' || k.k, f.seq,
  f.stream_seq - k.k * 10000000, f.code, f.severity, f.seat, f.message, f.expected, f.actual
FROM findings f, k WHERE f.hand_id <> '' AND f.stream_seq > 0;
INSERT INTO seat_changes SELECT printf('%x', k.k) || substr(s.hand_id, 2), s.player, s.kind, s.table_id || '-' || k.k,
  s.stream_seq - k.k * 10000000, s.started_at, s.seat, s.amount, s.to_table
FROM seat_changes s, k WHERE s.stream_seq > 0;
COMMIT;
SELECT COUNT(*) FROM hands; SELECT SUM(hands) FROM hand_counts; SELECT SUM(hands) FROM player_totals; SELECT COUNT(*) FROM hand_players;
