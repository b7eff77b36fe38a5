-- fechado read models, migration 0011: player_totals, each player's counts over every hand he was
-- dealt in, kept as the hands are projected, so that the players list and the statistics without
-- a filter read one row per player instead of summing all of hand_players (whose size grows with
-- the log: 2 s at 120,000 hands, issue 43). A trigger adds each row of hand_players as it is
-- written, in the projector's own transaction, so a hand counts exactly once: hand_players has one
-- row per player per hand, written once at hand.ended. A re-projection empties both tables.
CREATE TABLE player_totals (
    player           TEXT PRIMARY KEY,
    player_fold      TEXT NOT NULL COLLATE NOCASE, -- as hand_players.player_fold
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
    net              INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX player_totals_fold ON player_totals (player_fold);

INSERT INTO player_totals
SELECT player, MIN(player_fold), COUNT(*), SUM(vpip), SUM(raised_pre), SUM(bets), SUM(raises), SUM(calls),
    SUM(saw_second), SUM(went_to_showdown), SUM(won_at_showdown), SUM(drew), COALESCE(SUM(cards_drawn), 0),
    SUM(stood_pat), SUM(open_chance), SUM(opened), SUM(net)
FROM hand_players GROUP BY player;

CREATE TRIGGER player_totals_add AFTER INSERT ON hand_players
BEGIN
    INSERT OR IGNORE INTO player_totals VALUES (NEW.player, NEW.player_fold, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    UPDATE player_totals SET hands = hands + 1, vpip = vpip + NEW.vpip, raised_pre = raised_pre + NEW.raised_pre,
        bets = bets + NEW.bets, raises = raises + NEW.raises, calls = calls + NEW.calls,
        saw_second = saw_second + NEW.saw_second, went_to_showdown = went_to_showdown + NEW.went_to_showdown,
        won_at_showdown = won_at_showdown + NEW.won_at_showdown, drew = drew + NEW.drew,
        cards_drawn = cards_drawn + COALESCE(NEW.cards_drawn, 0), stood_pat = stood_pat + NEW.stood_pat,
        open_chance = open_chance + NEW.open_chance, opened = opened + NEW.opened, net = net + NEW.net
    WHERE player = NEW.player;
END;

-- A hand's rows leave hand_players only all together, when the read models are emptied for a
-- re-projection, which empties player_totals too (schema.ReadModels): no trigger on delete, which
-- would cost a re-projection a statement per row.
