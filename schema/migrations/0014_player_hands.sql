-- fechado read models, migration 0014: player_hands, the number of hands each folded name was
-- dealt in, kept as the hands are projected, so that the total of the hands list filtered by a
-- player (GET /api/hands?player=) reads one row instead of counting every hand of his in the index
-- of hand_players by player_fold, which grows with the log: 36 ms (212 ms cold) for the 283,155
-- hands of one player at 1,009,491 hands, issue 43. The count is of hands, not of rows: two names
-- that fold alike (Ana, ana) or one player in two seats (table.seating, findings-v1.md §1.1) in
-- one hand count it once, as COUNT(DISTINCT hand_seq) did. Like 0011 and 0012 it is kept by a
-- trigger in the projector's own transaction, dropped and recounted by a projector filling empty
-- read models (schema.DeferredTriggers, schema.Recount), and emptied with the read models by a
-- re-projection: no trigger on delete.
CREATE TABLE player_hands (
    player_fold TEXT PRIMARY KEY COLLATE NOCASE, -- as hand_players.player_fold
    hands       INTEGER NOT NULL
) WITHOUT ROWID;

INSERT INTO player_hands
SELECT player_fold, COUNT(DISTINCT hand_seq) FROM hand_players GROUP BY player_fold;

-- A hand's rows of hand_players are written together at its hand.ended, seat by seat: the row
-- of the first seat of a fold counts the hand; a later row of the same hand and fold finds it
-- (the primary key's hand_seq) and adds nothing.
CREATE TRIGGER player_hands_add AFTER INSERT ON hand_players
WHEN NOT EXISTS (SELECT 1 FROM hand_players o
    WHERE o.hand_seq = NEW.hand_seq AND o.seat <> NEW.seat AND o.player_fold = NEW.player_fold)
BEGIN
    INSERT INTO player_hands VALUES (NEW.player_fold, 1)
    ON CONFLICT (player_fold) DO UPDATE SET hands = hands + 1;
END;
