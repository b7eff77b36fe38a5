-- fechado read models, migration 0009: the rows of a hand are stored in the order of the stream,
-- not in the order of hand ids. A hand id is a UUID (events-v1.md §2) and need not grow with time
-- (version 4 ids are random; tables recorded one after another from files, or imported, start
-- over at an earlier time), so a B-tree keyed by it takes each new hand at a random place: once
-- the read models outgrow memory, every row costs a page read and a page written in the WAL,
-- and projecting a hand takes longer the longer the log (measured: docs/stream.md §5). Keyed by
-- the stream sequence of the hand's hand.started (hands.stream_seq, called hand_seq in the tables
-- of its rows), new rows go at the end of each B-tree. hand_id stays in every table for queries;
-- join a hand's rows on hand_seq = hands.stream_seq, which is indexed, rather than on hand_id,
-- which is indexed in hands (and hand_events and findings) only.
--
-- The runner empties every read model and the checkpoint (schema.ReprojectMark).
-- fechado:reproject

DROP TABLE hands;
CREATE TABLE hands (
    stream_seq   INTEGER PRIMARY KEY,     -- stream sequence of hand.started
    hand_id      TEXT NOT NULL UNIQUE,
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
CREATE INDEX hands_table ON hands (table_id, number);
CREATE INDEX hands_started ON hands (started_ms);

DROP TABLE hand_players;
CREATE TABLE hand_players (
    hand_seq         INTEGER NOT NULL, -- hands.stream_seq of the hand
    seat             INTEGER NOT NULL,
    hand_id          TEXT NOT NULL,
    player           TEXT NOT NULL,
    position         INTEGER NOT NULL, -- seats after the dealer: 1 = first to act
    start_stack      INTEGER NOT NULL, -- before any ante, rebuy included
    end_stack        INTEGER NOT NULL,
    net              INTEGER NOT NULL, -- end_stack - start_stack
    put_in           INTEGER NOT NULL, -- antes, blinds, bets, calls and raises
    returned         INTEGER NOT NULL, -- bet.returned
    won              INTEGER NOT NULL, -- pot.awarded
    vpip             INTEGER NOT NULL, -- called, bet or raised in round blind or first
    open_chance      INTEGER NOT NULL, -- acted in the opening round before anybody bet
    opened           INTEGER NOT NULL, -- made the first bet of the opening round
    raised_pre       INTEGER NOT NULL, -- raised in round blind or first
    bets             INTEGER NOT NULL, -- actions, all rounds
    raises           INTEGER NOT NULL,
    calls            INTEGER NOT NULL,
    checks           INTEGER NOT NULL,
    folded           INTEGER NOT NULL,
    drew             INTEGER NOT NULL, -- took part in the draw (cards.discarded)
    cards_drawn      INTEGER,          -- cards discarded; NULL when he did not draw
    stood_pat        INTEGER NOT NULL,
    saw_second       INTEGER NOT NULL, -- still in after the draw
    went_to_showdown INTEGER NOT NULL,
    won_at_showdown  INTEGER NOT NULL,
    aggressive_post  INTEGER NOT NULL, -- bet or raised in round second
    shown            TEXT NOT NULL,    -- cards of hand.shown, space-separated; '' if none
    player_fold      TEXT NOT NULL DEFAULT '' COLLATE NOCASE, -- player, case-folded (0007)
    PRIMARY KEY (hand_seq, seat)
) WITHOUT ROWID;
CREATE INDEX hand_players_player ON hand_players (player);
CREATE INDEX hand_players_player_fold ON hand_players (player_fold);

DROP TABLE actions;
CREATE TABLE actions (
    stream_seq INTEGER PRIMARY KEY,
    hand_seq   INTEGER NOT NULL,
    hand_id    TEXT NOT NULL,
    seq        INTEGER NOT NULL,
    at         TEXT NOT NULL,
    seat       INTEGER NOT NULL,
    player     TEXT NOT NULL,
    round      TEXT NOT NULL,
    action     TEXT NOT NULL,
    amount     INTEGER NOT NULL
);
CREATE INDEX actions_hand ON actions (hand_seq);

DROP TABLE draws;
CREATE TABLE draws (
    stream_seq INTEGER PRIMARY KEY,
    hand_seq   INTEGER NOT NULL,
    hand_id    TEXT NOT NULL,
    seq        INTEGER NOT NULL,
    seat       INTEGER NOT NULL,
    player     TEXT NOT NULL,
    discarded  INTEGER NOT NULL,
    declared   INTEGER          -- number first announced, when recorded
);
CREATE INDEX draws_hand ON draws (hand_seq);

DROP TABLE awards;
CREATE TABLE awards (
    stream_seq INTEGER PRIMARY KEY,
    hand_seq   INTEGER NOT NULL,
    hand_id    TEXT NOT NULL,
    seq        INTEGER NOT NULL,
    pot        INTEGER NOT NULL, -- 0 = main pot
    seat       INTEGER NOT NULL,
    player     TEXT NOT NULL,
    amount     INTEGER NOT NULL
);
CREATE INDEX awards_hand ON awards (hand_seq);

DROP TABLE pots;
CREATE TABLE pots (
    hand_seq INTEGER NOT NULL,
    pot      INTEGER NOT NULL,
    hand_id  TEXT NOT NULL,
    awarded  INTEGER NOT NULL,
    raked    INTEGER NOT NULL,
    winners  INTEGER NOT NULL, -- seats paid from it
    PRIMARY KEY (hand_seq, pot)
) WITHOUT ROWID;

-- hand_events (0008) keyed by hand_seq too; a void copy is a row of void_copies instead of a
-- row with lines NULL (every row now holds a copy), so that a line quarantined before its hand.started can void a hand that
-- has no hand_seq yet. A reader finds the hand by its id in hands (the one index by hand id a
-- hand adds), its copy by hand_seq, and trusts it unless void_copies names the hand.
DROP TABLE hand_events;
CREATE TABLE hand_events (
    hand_seq INTEGER PRIMARY KEY, -- hands.stream_seq of the hand
    hand_id  TEXT NOT NULL,
    table_id TEXT NOT NULL,
    end_seq  INTEGER NOT NULL, -- stream sequence of hand.ended
    events   INTEGER NOT NULL, -- events in lines
    lines    BLOB NOT NULL     -- projector's encoding (handcopy.go), S2-compressed
);

-- void_copies: the hands read from the log whatever hand_events holds, because the log holds, on
-- the hand's subject, a line the projector did not take into the hand (docs/stream.md §5).
CREATE TABLE void_copies (
    hand_id TEXT PRIMARY KEY
);
