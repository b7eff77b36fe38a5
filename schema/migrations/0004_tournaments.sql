-- fechado read models, migration 0004: tournaments (events-v1.md §7). The projector follows every
-- hand of a tournament through the tournament model (package tournament) at its hand.ended, in
-- the transaction of its other rows, stores the tournament.* findings with the hand's own, and
-- keeps what the model leaves: the tournament, its tables, levels, moves, knock-outs and
-- standings. tournament_hands keeps each hand's hand.started and hand.ended as stored, in the
-- order they ended, so that a restarted projector rebuilds the model from them.
--
-- The findings of earlier logs lacked tournament.*: the rows are emptied and the checkpoint
-- dropped, so the projector projects the whole log again (every row is a function of the log).

-- The runner empties every read model and the checkpoint (schema.ReprojectMark).
-- fechado:reproject

-- tournaments: one row per tournament; ended_at is set once one player holds every chip.
CREATE TABLE tournaments (
    tournament_id TEXT PRIMARY KEY,
    entries       INTEGER NOT NULL, -- 0 until a hand gives them
    stack         INTEGER NOT NULL, -- the starting stack of each entry
    rebuys        INTEGER NOT NULL, -- chips added by rebuys and add-ons
    hands         INTEGER NOT NULL, -- hands ended
    level         INTEGER NOT NULL, -- the highest level dealt
    in_play       INTEGER NOT NULL, -- players still in
    started_at    TEXT NOT NULL,    -- start of its first hand
    last_at       TEXT NOT NULL,    -- end of its last hand
    ended_at      TEXT              -- end of the hand that left one player; NULL while it runs
) WITHOUT ROWID;

-- tournament_hands: the model's input, one row per ended hand of a tournament.
CREATE TABLE tournament_hands (
    hand_id       TEXT PRIMARY KEY,
    tournament_id TEXT NOT NULL,
    table_id      TEXT NOT NULL,
    end_seq       INTEGER NOT NULL, -- the hand.ended's stream message
    level         INTEGER NOT NULL,
    started       BLOB NOT NULL,    -- the hand.started line
    ended         BLOB NOT NULL     -- the hand.ended line
) WITHOUT ROWID;
CREATE INDEX tournament_hands_order ON tournament_hands (tournament_id, end_seq);

-- tournament_tables: the tables of a tournament, with their last hand.
CREATE TABLE tournament_tables (
    tournament_id TEXT NOT NULL,
    table_id      TEXT NOT NULL,
    hands         INTEGER NOT NULL,
    level         INTEGER NOT NULL,
    first_hand    TEXT NOT NULL,
    last_hand     TEXT NOT NULL,
    PRIMARY KEY (tournament_id, table_id)
) WITHOUT ROWID;

-- tournament_levels: the first hand of each level at each table, with its stakes.
CREATE TABLE tournament_levels (
    tournament_id TEXT NOT NULL,
    table_id      TEXT NOT NULL,
    level         INTEGER NOT NULL,
    ante          INTEGER NOT NULL,
    min_bet       INTEGER NOT NULL,
    max_bet       INTEGER NOT NULL,
    first_hand    TEXT NOT NULL,
    started_at    TEXT NOT NULL,
    PRIMARY KEY (tournament_id, table_id, level)
) WITHOUT ROWID;

-- tournament_moves: a player seated at a table coming from another (seats[].from), in the hand
-- he was first dealt in there.
CREATE TABLE tournament_moves (
    hand_id       TEXT NOT NULL,
    player        TEXT NOT NULL,
    tournament_id TEXT NOT NULL,
    from_table    TEXT NOT NULL,
    to_table      TEXT NOT NULL,
    stack         INTEGER NOT NULL,
    end_seq       INTEGER NOT NULL,
    PRIMARY KEY (hand_id, player)
) WITHOUT ROWID;
CREATE INDEX tournament_moves_order ON tournament_moves (tournament_id, end_seq);

-- tournament_knockouts: a player knocked out, in the hand he lost his last chip, with the place
-- it gave him.
CREATE TABLE tournament_knockouts (
    hand_id       TEXT NOT NULL,
    player        TEXT NOT NULL,
    tournament_id TEXT NOT NULL,
    table_id      TEXT NOT NULL,
    place         INTEGER NOT NULL,
    end_seq       INTEGER NOT NULL,
    PRIMARY KEY (hand_id, player)
) WITHOUT ROWID;
CREATE INDEX tournament_knockouts_order ON tournament_knockouts (tournament_id, end_seq);

-- tournament_players: the standings, one row per player as his last hand left him: place 0 while
-- he is in (1 for the winner of a tournament that ended); out_hand is the hand he went out in.
CREATE TABLE tournament_players (
    tournament_id TEXT NOT NULL,
    player        TEXT NOT NULL,
    table_id      TEXT NOT NULL,    -- where he sits, or the table he went out at
    chips         INTEGER NOT NULL,
    place         INTEGER NOT NULL,
    out_hand      TEXT NOT NULL,
    hands         INTEGER NOT NULL,
    rebuys        INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, player)
) WITHOUT ROWID;
CREATE INDEX tournament_players_player ON tournament_players (player);
