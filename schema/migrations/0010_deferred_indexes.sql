-- fechado read models, migration 0010: hands' index by hand id is a named index, hands_hand_id,
-- instead of the column's UNIQUE constraint, which SQLite cannot drop. A projector that fills
-- empty read models from a long log drops the indexes of schema.DeferredIndexes (hands_hand_id and
-- hands_started), whose keys do not grow with the stream, and builds them once at the end: kept
-- while the rows go in, each new hand writes a page of each at a random place once they outgrow
-- memory (docs/stream.md §5). deferred_indexes holds what such a projector dropped, so that the
-- indexes come back even if it stops before the end.
--
-- The rows are kept: hands is copied aside, created again without the constraint, and filled
-- back (SQLite cannot drop a constraint; the views that read hands name it, so it keeps its name).
CREATE TABLE hands_0010 AS SELECT * FROM hands;
DROP TABLE hands;
CREATE TABLE hands (
    stream_seq   INTEGER PRIMARY KEY,     -- stream sequence of hand.started
    hand_id      TEXT NOT NULL,           -- unique: index hands_hand_id
    table_id     TEXT NOT NULL,
    number       INTEGER NOT NULL,
    preset       TEXT NOT NULL,
    dealer       INTEGER NOT NULL,
    players      INTEGER NOT NULL,        -- players dealt in
    ante         INTEGER NOT NULL,
    min_bet      INTEGER NOT NULL,
    max_bet      INTEGER NOT NULL,        -- 0 = no limit
    carry_in     INTEGER NOT NULL,        -- chips in the pot from passed-out deals
    passed_out   INTEGER NOT NULL,        -- consecutive passed-out deals before this one
    started_at   TEXT NOT NULL,           -- `at` of hand.started, as written
    started_ms   INTEGER NOT NULL,        -- the same, Unix milliseconds
    -- set at hand.ended (NULL while the hand is in progress):
    end_seq      INTEGER,                 -- stream sequence of hand.ended
    ended_at     TEXT,
    ended_ms     INTEGER,
    events       INTEGER,                 -- events projected for the hand
    pot_total    INTEGER,                 -- carry_in + chips put in - chips returned
    awarded      INTEGER,
    raked        INTEGER,
    carry_out    INTEGER,                 -- chips left for the next deal
    passed       INTEGER,                 -- 1: nobody opened (hand.passed)
    misdeal      INTEGER,                 -- 1: misdeal.declared
    showdown     INTEGER,                 -- 1: two or more players reached the end of the hand
    winners      TEXT,                    -- players paid from a pot, in seat order, comma-separated
    audit_status TEXT,                    -- NULL: not audited; 'ok', 'info', 'warning' or 'error'
    findings     INTEGER,                 -- findings of the auditor (NULL: not audited)
    quarantined  INTEGER NOT NULL DEFAULT 0 -- events of the hand sent to quarantine
);
INSERT INTO hands SELECT * FROM hands_0010;
DROP TABLE hands_0010;
CREATE UNIQUE INDEX hands_hand_id ON hands (hand_id);
CREATE INDEX hands_table ON hands (table_id, number);
CREATE INDEX hands_started ON hands (started_ms);
-- deferred_indexes: the indexes a projector filling empty read models dropped, with the SQL that
-- creates each again (sqlite_master.sql); empty once they are built.
CREATE TABLE deferred_indexes (
    name TEXT PRIMARY KEY,
    sql  TEXT NOT NULL
);
