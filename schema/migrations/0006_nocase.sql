-- fechado read models, migration 0006: the lists' filters find a table or a player whatever the
-- case a person types ("Ana", "ana"): indexes in SQLite's NOCASE order serve `= ? COLLATE NOCASE`
-- and a name's prefix with LIKE.
CREATE INDEX hand_players_player_nocase ON hand_players (player COLLATE NOCASE);
CREATE INDEX tables_nocase ON tables (table_id COLLATE NOCASE);
