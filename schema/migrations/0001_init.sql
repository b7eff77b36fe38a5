-- fechado read models, migration 0001: the tables the projector derives from the event log.
-- Every row is a function of the log: `fechado project --rebuild` recreates the same rows. No row
-- holds a card nobody saw face up (discards are counts; shown cards come from hand.shown).

-- checkpoint: the stream sequence each projector has reached; written in the same transaction as
-- the rows it covers.
CREATE TABLE checkpoint (
    name       TEXT PRIMARY KEY,
    stream_seq INTEGER NOT NULL
);

-- tables: one row per table id seen in a hand.started.
CREATE TABLE tables (
    table_id        TEXT PRIMARY KEY,
    preset          TEXT NOT NULL,    -- rules of the last hand started
    hands           INTEGER NOT NULL, -- hands started
    hands_ended     INTEGER NOT NULL,
    first_started_at TEXT NOT NULL,
    last_started_at TEXT NOT NULL,
    last_hand_id    TEXT NOT NULL
);

-- hands: one row per hand, inserted at hand.started, completed at hand.ended.
CREATE TABLE hands (
    hand_id      TEXT PRIMARY KEY,
    stream_seq   INTEGER NOT NULL UNIQUE, -- stream sequence of hand.started
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

-- hand_players: one row per player per hand, written at hand.ended. Flags are 0 or 1.
CREATE TABLE hand_players (
    hand_id          TEXT NOT NULL,
    seat             INTEGER NOT NULL,
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
    PRIMARY KEY (hand_id, seat)
) WITHOUT ROWID;
CREATE INDEX hand_players_player ON hand_players (player);

-- actions: one row per player.acted.
CREATE TABLE actions (
    stream_seq INTEGER PRIMARY KEY,
    hand_id    TEXT NOT NULL,
    seq        INTEGER NOT NULL,
    at         TEXT NOT NULL,
    seat       INTEGER NOT NULL,
    player     TEXT NOT NULL,
    round      TEXT NOT NULL,
    action     TEXT NOT NULL,
    amount     INTEGER NOT NULL
);
CREATE INDEX actions_hand ON actions (hand_id);

-- draws: one row per cards.discarded (the number of cards, never the cards).
CREATE TABLE draws (
    stream_seq INTEGER PRIMARY KEY,
    hand_id    TEXT NOT NULL,
    seq        INTEGER NOT NULL,
    seat       INTEGER NOT NULL,
    player     TEXT NOT NULL,
    discarded  INTEGER NOT NULL,
    declared   INTEGER          -- number first announced, when recorded
);
CREATE INDEX draws_hand ON draws (hand_id);

-- awards: one row per pot.awarded.
CREATE TABLE awards (
    stream_seq INTEGER PRIMARY KEY,
    hand_id    TEXT NOT NULL,
    seq        INTEGER NOT NULL,
    pot        INTEGER NOT NULL, -- 0 = main pot
    seat       INTEGER NOT NULL,
    player     TEXT NOT NULL,
    amount     INTEGER NOT NULL
);
CREATE INDEX awards_hand ON awards (hand_id);

-- pots: one row per pot paid or raked in a hand, written at hand.ended.
CREATE TABLE pots (
    hand_id TEXT NOT NULL,
    pot     INTEGER NOT NULL,
    awarded INTEGER NOT NULL,
    raked   INTEGER NOT NULL,
    winners INTEGER NOT NULL, -- seats paid from it
    PRIMARY KEY (hand_id, pot)
) WITHOUT ROWID;

-- findings: the auditor's findings for a hand, written at hand.ended.
CREATE TABLE findings (
    hand_id  TEXT NOT NULL,
    n        INTEGER NOT NULL, -- 1.. in the auditor's order
    seq      INTEGER NOT NULL, -- first event that shows it
    code     TEXT NOT NULL,
    severity TEXT NOT NULL,    -- error, warning, info
    seat     INTEGER,
    message  TEXT NOT NULL,
    PRIMARY KEY (hand_id, n)
) WITHOUT ROWID;
CREATE INDEX findings_code ON findings (code);

-- quarantine: events the projector could not apply, with the reason; projection went on.
CREATE TABLE quarantine (
    stream_seq INTEGER PRIMARY KEY,
    hand_id    TEXT NOT NULL, -- '' when the line did not say
    reason     TEXT NOT NULL,
    raw        BLOB NOT NULL
);

-- player_stats: draw-poker tracker statistics per player over every projected hand. Percentages
-- are NULL where the denominator is zero. projector.PlayerStats computes the same over a filter.
CREATE VIEW player_stats AS
SELECT player,
       COUNT(*)                                                           AS hands,
       ROUND(100.0 * SUM(vpip) / COUNT(*), 1)                             AS vpip_pct,
       ROUND(100.0 * SUM(raised_pre) / COUNT(*), 1)                       AS raise_pre_pct,
       ROUND(1.0 * (SUM(bets) + SUM(raises)) / NULLIF(SUM(calls), 0), 2)  AS aggression,
       ROUND(100.0 * SUM(went_to_showdown) / NULLIF(SUM(saw_second), 0), 1) AS wtsd_pct,
       ROUND(100.0 * SUM(won_at_showdown) / NULLIF(SUM(went_to_showdown), 0), 1) AS wsd_pct,
       ROUND(1.0 * SUM(cards_drawn) / NULLIF(SUM(drew), 0), 2)            AS avg_drawn,
       ROUND(100.0 * SUM(stood_pat) / NULLIF(SUM(drew), 0), 1)            AS stand_pat_pct,
       ROUND(100.0 * SUM(opened) / NULLIF(SUM(open_chance), 0), 1)        AS open_pct,
       SUM(net)                                                           AS net
FROM hand_players
GROUP BY player;

-- open_by_position: how often each player opened when he had the chance, by position.
CREATE VIEW open_by_position AS
SELECT player, position,
       COUNT(*)                                                    AS hands,
       SUM(open_chance)                                            AS chances,
       SUM(opened)                                                 AS opens,
       ROUND(100.0 * SUM(opened) / NULLIF(SUM(open_chance), 0), 1) AS open_pct
FROM hand_players
GROUP BY player, position;
