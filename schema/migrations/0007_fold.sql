-- fechado read models, migration 0007: the lists' filters find a table or a player whatever the
-- case a person types in any language ("JOÃO" finds João, "ISTANBUL" finds İstanbul). SQLite's
-- NOCASE folds only the ASCII letters, so the projector writes each name folded by Unicode's rules
-- (projector's fold: Turkish dotted and dotless i count as one letter) beside the name, and the
-- filters compare the typed text, folded the same way, with it. The columns are NOCASE too so that
-- LIKE (which ignores ASCII case) can use their indexes for a name's prefix.
--
-- The rows of earlier databases have no folded names yet: the projector projects the whole log
-- again, which writes them.
-- The runner empties every read model and the checkpoint (schema.ReprojectMark).
-- fechado:reproject
DROP INDEX hand_players_player_nocase;
DROP INDEX tables_nocase;
ALTER TABLE hand_players ADD COLUMN player_fold TEXT NOT NULL DEFAULT '' COLLATE NOCASE;
ALTER TABLE tables ADD COLUMN table_fold TEXT NOT NULL DEFAULT '' COLLATE NOCASE;
CREATE INDEX hand_players_player_fold ON hand_players (player_fold);
CREATE INDEX tables_table_fold ON tables (table_fold);
