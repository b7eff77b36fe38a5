-- fechado read models, migration 0008: each finished hand's stored events, byte for byte, so that
-- a hand read by its id (export, replay and audit --hand, the web API) is one lookup in the read
-- models instead of a read of the log's store, whose cost grows with the log once the log no
-- longer fits in memory. The log stays the record: this is a copy of what the projector read from
-- it, trusted only as docs/stream.md §5 says (a hand ended, nothing of it quarantined, read
-- models of the same log).
--
-- Earlier databases hold no copies yet: the projector projects the whole log again, which writes
-- them.
-- The runner empties every read model and the checkpoint (schema.ReprojectMark).
-- fechado:reproject

-- hand_events: one row per hand, written in the transaction of its hand.ended. lines is NULL when
-- the copy is void: the log holds, on the hand's subject, something the projector did not take
-- into the hand (a line quarantined while the hand was open, before its hand.started or after
-- its hand.ended), so the hand is read from the log. A table with rowids: a copy is larger than a
-- page, and SQLite keeps less of a row in its page in a table without rowid, so each copy would
-- write more overflow pages (the projection measured slower); a read is one lookup in the
-- hand_id index, then the row.
CREATE TABLE hand_events (
    hand_id  TEXT PRIMARY KEY,
    table_id TEXT NOT NULL,
    end_seq  INTEGER NOT NULL, -- stream sequence of hand.ended (0 for a void copy)
    events   INTEGER NOT NULL, -- events in lines
    lines    BLOB              -- projector's encoding (handcopy.go), S2-compressed; NULL: void
);

-- source_log: the log the read models were projected from (projector.LogID), one row, written by
-- the first transaction of a projection. A reader trusts hand_events only when it is the log it
-- reads; '' names a source that is not a log (a file), whose copies no log reader trusts.
CREATE TABLE source_log (
    one    INTEGER PRIMARY KEY CHECK (one = 1),
    log_id TEXT NOT NULL
);
