-- fechado read models, migration 0013: the last integrity analysis (audit/integrity,
-- docs/integrity.md), for the dashboard's Integrity page. The analysis scores every pair of players
-- over the whole log at once (its false discovery control ranks each pair against all the others),
-- so it is not folded in hand by hand: `fechado integrity --all --save` (or `fechado serve`
-- every --integrity period) runs it and replaces these rows in one transaction, and the web server
-- only reads them. A re-projection empties them (schema.ReadModels) until the next run: the hands
-- they name are read again.
CREATE TABLE integrity_runs (
    id          INTEGER PRIMARY KEY CHECK (id = 1), -- one analysis: the last
    computed_at TEXT NOT NULL,    -- RFC 3339, UTC
    hands       INTEGER NOT NULL, -- hands read to their end
    known       INTEGER NOT NULL, -- of which with every dealt card known
    players     INTEGER NOT NULL,
    pairs       INTEGER NOT NULL, -- pairs scored (rows of integrity_pairs)
    flagged     INTEGER NOT NULL,
    threshold   REAL NOT NULL,    -- the least score of a flagged pair
    q           REAL NOT NULL     -- the false discovery rate
);

CREATE TABLE integrity_pairs (
    rank    INTEGER PRIMARY KEY, -- 1 = the strongest evidence, as `fechado integrity` ranks them
    a       TEXT NOT NULL,       -- a < b
    b       TEXT NOT NULL,
    score   REAL NOT NULL,
    flagged INTEGER NOT NULL,
    kind    TEXT NOT NULL,       -- '' unless flagged
    hands   INTEGER NOT NULL,    -- dealt in together
    pair    TEXT NOT NULL        -- the pair as `fechado integrity --json` writes it
);
CREATE INDEX integrity_pairs_a ON integrity_pairs (a);
CREATE INDEX integrity_pairs_b ON integrity_pairs (b);
