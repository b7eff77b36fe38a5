-- fechado read models, migration 0002: the projector is the one auditor. It stores every finding
-- (log.*, the hand's own, and table.* continuity) with its expected and actual values, and keeps
-- what each table's last hand left for the table.* checks of the next one in table_memory, so
-- that both survive a restart and `fechado project --rebuild` recreates the same rows.
--
-- The findings of migration 0001 lacked expected, actual and table.*: the rows are emptied and
-- the checkpoint dropped, so the projector projects the whole log again (every row is a function
-- of the log).

-- The runner empties every read model and the checkpoint (schema.ReprojectMark).
-- fechado:reproject
DROP TABLE findings;

-- findings: every finding of the auditor, written in the transaction of the stream message that
-- showed it: a hand's own and table.* findings at its hand.ended, a stray event's (after its
-- hand.ended, of a hand never started, or a line that does not decode) at that event.
CREATE TABLE findings (
    hand_id    TEXT NOT NULL,    -- '' for a line that names no hand
    n          INTEGER NOT NULL, -- 1.. in the order stored
    table_id   TEXT NOT NULL,    -- '' when the line did not say
    seq        INTEGER NOT NULL, -- first event that shows it (0: unknown)
    stream_seq INTEGER NOT NULL, -- stream message whose transaction stored it
    code       TEXT NOT NULL,
    severity   TEXT NOT NULL,    -- error, warning, info
    seat       INTEGER,
    message    TEXT NOT NULL,
    expected   TEXT,             -- JSON value; NULL when the finding gives none
    actual     TEXT,             -- JSON value; NULL when the finding gives none
    PRIMARY KEY (hand_id, n)
) WITHOUT ROWID;
CREATE INDEX findings_code ON findings (code);
CREATE INDEX findings_table ON findings (table_id);

-- table_memory: what the last audited hand of each table left for the table.* checks of the
-- next (audit.TableMemory as JSON), written with that hand's rows.
CREATE TABLE table_memory (
    table_id TEXT PRIMARY KEY,
    hand_id  TEXT NOT NULL, -- the hand that left it
    memory   TEXT NOT NULL
);
