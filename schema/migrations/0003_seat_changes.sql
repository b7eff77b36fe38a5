-- fechado read models, migration 0003: a player's sessions at a table (events-v1.md §7, version
-- 1.1). Each hand.started says what happened at its table since the table's previous hand; the
-- projector keeps it as one row per player and change, written with the hand's first rows.
--
-- The rows of earlier logs were projected without them: the rows are emptied and the checkpoint
-- dropped, so the projector projects the whole log again (every row is a function of the log).

-- The runner empties every read model and the checkpoint (schema.ReprojectMark).
-- fechado:reproject

-- seat_changes: kind is 'joined' (he sat down; amount = his buy-in), 'away' (seated with chips
-- but not dealt in: sitting out, waiting for the big blind; amount = his stack), 'left' (gone
-- since the previous hand; amount = the chips he took; to_table = where a tournament moved him)
-- or 'rebuy' (chips he added; amount = the rebuy).
CREATE TABLE seat_changes (
    hand_id    TEXT NOT NULL,
    player     TEXT NOT NULL,
    kind       TEXT NOT NULL,
    table_id   TEXT NOT NULL,
    stream_seq INTEGER NOT NULL, -- the hand.started's stream message
    started_at TEXT NOT NULL,    -- the hand.started's time
    seat       INTEGER,          -- NULL for 'left'
    amount     INTEGER NOT NULL,
    to_table   TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (hand_id, player, kind)
) WITHOUT ROWID;
CREATE INDEX seat_changes_player ON seat_changes (player, stream_seq);
CREATE INDEX seat_changes_table ON seat_changes (table_id, stream_seq);
