-- fechado read models, migration 0005: the tournament model's memory. The projector keeps what
-- each tournament's hands leave (tournament.Memory as JSON), written in the transaction that
-- followed them, and restores the model from it at start instead of following every stored
-- tournament hand again: starting up no longer grows with the tournaments' history.
--
-- The tournaments of earlier databases have no memory yet: the projector projects the whole log
-- again, which writes it.
-- The runner empties every read model and the checkpoint (schema.ReprojectMark).
-- fechado:reproject

-- tournament_memory: one row per tournament, rewritten by each transaction that follows one of
-- its hands.
CREATE TABLE tournament_memory (
    tournament_id TEXT PRIMARY KEY,
    hand_id       TEXT NOT NULL, -- the last hand followed
    memory        TEXT NOT NULL  -- tournament.Memory as JSON
);
