-- fechado read models, migration 0012: the lists and statistics the web API serves read as much
-- as they show, whatever the size of the log (issue 43). Measured on a read model of 100,000
-- hands, these read every hand: the total of the hands list (COUNT(*) over an index of every
-- hand), the hands of a preset or with findings (no index: the whole table), the hands of a table
-- newest first (every hand of the table sorted), the players' statistics of a table or a preset
-- (every hand of it summed), and what the live feed asks after each change (the last hand.ended,
-- the hands ended since: no index on end_seq, the whole table).
--
-- Counts are kept like player_totals (0011): triggers add each row as the projector writes it, in
-- its own transaction, so a hand counts exactly once however the projection stops and resumes (a
-- batch's rows and its checkpoint commit together). Hands' rows leave only all together when the
-- read models are emptied for a re-projection (schema.ReadModels), which empties these too: no
-- trigger on delete.

-- Hands newest first, of a table (its hands in stream order: the index's keys end in the rowid,
-- stream_seq), of a preset, with findings (the partial index holds only those), and by the
-- stream sequence of their hand.ended (the live feed). hands_table (table_id, number) served no
-- query by number, and sorted a table's hands for every page.
DROP INDEX hands_table;
CREATE INDEX hands_table ON hands (table_id);
CREATE INDEX hands_preset ON hands (preset);
CREATE INDEX hands_with_findings ON hands (stream_seq) WHERE findings > 0;
CREATE INDEX hands_end ON hands (end_seq);

-- hand_counts: the hands of each table and preset, with findings or without, so that the total
-- of the hands list (filtered by table, preset, findings, or not at all) is a sum over a few rows.
CREATE TABLE hand_counts (
    table_id      TEXT NOT NULL,
    preset        TEXT NOT NULL,
    with_findings INTEGER NOT NULL, -- 1: hands.findings > 0
    hands         INTEGER NOT NULL,
    PRIMARY KEY (table_id, preset, with_findings)
) WITHOUT ROWID;
CREATE INDEX hand_counts_preset ON hand_counts (preset);

INSERT INTO hand_counts
SELECT table_id, preset, COALESCE(findings, 0) > 0, COUNT(*) FROM hands GROUP BY 1, 2, 3;

CREATE TRIGGER hand_counts_add AFTER INSERT ON hands
BEGIN
    INSERT INTO hand_counts VALUES (NEW.table_id, NEW.preset, COALESCE(NEW.findings, 0) > 0, 1)
    ON CONFLICT (table_id, preset, with_findings) DO UPDATE SET hands = hands + 1;
END;

-- A hand's findings are written when it is audited (and again when a stray event or a
-- tournament.* finding adds one): it moves between the counts only when it gains its first.
CREATE TRIGGER hand_counts_findings AFTER UPDATE OF findings ON hands
WHEN (COALESCE(OLD.findings, 0) > 0) != (COALESCE(NEW.findings, 0) > 0)
BEGIN
    UPDATE hand_counts SET hands = hands - 1
    WHERE table_id = OLD.table_id AND preset = OLD.preset AND with_findings = (COALESCE(OLD.findings, 0) > 0);
    INSERT INTO hand_counts VALUES (NEW.table_id, NEW.preset, COALESCE(NEW.findings, 0) > 0, 1)
    ON CONFLICT (table_id, preset, with_findings) DO UPDATE SET hands = hands + 1;
END;

-- player_slices: player_totals' counts by table and preset, so that the statistics of a table's
-- or a preset's hands sum one row per player and table instead of every hand's rows.
CREATE TABLE player_slices (
    player           TEXT NOT NULL,
    table_id         TEXT NOT NULL,
    preset           TEXT NOT NULL,
    hands            INTEGER NOT NULL,
    vpip             INTEGER NOT NULL,
    raised_pre       INTEGER NOT NULL,
    bets             INTEGER NOT NULL,
    raises           INTEGER NOT NULL,
    calls            INTEGER NOT NULL,
    saw_second       INTEGER NOT NULL,
    went_to_showdown INTEGER NOT NULL,
    won_at_showdown  INTEGER NOT NULL,
    drew             INTEGER NOT NULL,
    cards_drawn      INTEGER NOT NULL,
    stood_pat        INTEGER NOT NULL,
    open_chance      INTEGER NOT NULL,
    opened           INTEGER NOT NULL,
    net              INTEGER NOT NULL,
    PRIMARY KEY (player, table_id, preset)
) WITHOUT ROWID;
CREATE INDEX player_slices_table ON player_slices (table_id);
CREATE INDEX player_slices_preset ON player_slices (preset);

-- player_positions: each player's hands, chances to open and opens by position, table and
-- preset (the opens by position of a player's page).
CREATE TABLE player_positions (
    player      TEXT NOT NULL,
    table_id    TEXT NOT NULL,
    preset      TEXT NOT NULL,
    position    INTEGER NOT NULL,
    hands       INTEGER NOT NULL,
    open_chance INTEGER NOT NULL,
    opened      INTEGER NOT NULL,
    PRIMARY KEY (player, table_id, preset, position)
) WITHOUT ROWID;

INSERT INTO player_slices
SELECT hp.player, h.table_id, h.preset, COUNT(*), SUM(hp.vpip), SUM(hp.raised_pre), SUM(hp.bets), SUM(hp.raises),
    SUM(hp.calls), SUM(hp.saw_second), SUM(hp.went_to_showdown), SUM(hp.won_at_showdown), SUM(hp.drew),
    COALESCE(SUM(hp.cards_drawn), 0), SUM(hp.stood_pat), SUM(hp.open_chance), SUM(hp.opened), SUM(hp.net)
FROM hand_players hp JOIN hands h ON h.stream_seq = hp.hand_seq GROUP BY 1, 2, 3;

INSERT INTO player_positions
SELECT hp.player, h.table_id, h.preset, hp.position, COUNT(*), SUM(hp.open_chance), SUM(hp.opened)
FROM hand_players hp JOIN hands h ON h.stream_seq = hp.hand_seq GROUP BY 1, 2, 3, 4;

-- The hand's row is written at its hand.started, before its hand_players rows at its hand.ended,
-- in the same or an earlier transaction.
CREATE TRIGGER player_slices_add AFTER INSERT ON hand_players
BEGIN
    INSERT INTO player_slices
    SELECT NEW.player, h.table_id, h.preset, 1, NEW.vpip, NEW.raised_pre, NEW.bets, NEW.raises, NEW.calls,
        NEW.saw_second, NEW.went_to_showdown, NEW.won_at_showdown, NEW.drew, COALESCE(NEW.cards_drawn, 0),
        NEW.stood_pat, NEW.open_chance, NEW.opened, NEW.net
    FROM hands h WHERE h.stream_seq = NEW.hand_seq
    ON CONFLICT (player, table_id, preset) DO UPDATE SET hands = hands + 1, vpip = vpip + excluded.vpip,
        raised_pre = raised_pre + excluded.raised_pre, bets = bets + excluded.bets,
        raises = raises + excluded.raises, calls = calls + excluded.calls,
        saw_second = saw_second + excluded.saw_second, went_to_showdown = went_to_showdown + excluded.went_to_showdown,
        won_at_showdown = won_at_showdown + excluded.won_at_showdown, drew = drew + excluded.drew,
        cards_drawn = cards_drawn + excluded.cards_drawn, stood_pat = stood_pat + excluded.stood_pat,
        open_chance = open_chance + excluded.open_chance, opened = opened + excluded.opened, net = net + excluded.net;
    INSERT INTO player_positions
    SELECT NEW.player, h.table_id, h.preset, NEW.position, 1, NEW.open_chance, NEW.opened
    FROM hands h WHERE h.stream_seq = NEW.hand_seq
    ON CONFLICT (player, table_id, preset, position) DO UPDATE SET hands = hands + 1,
        open_chance = open_chance + excluded.open_chance, opened = opened + excluded.opened;
END;
