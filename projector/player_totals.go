package projector

import "strings"

// player_totals (schema migration 0011) holds each player's counts over every hand he was dealt
// in: a trigger adds each row of hand_players as the projector writes it, in the same
// transaction, so the statistics over the whole log, and the players whose name starts with a
// prefix, are read from one row per player instead of every hand's rows.

// totalsColumns are statsQuery's columns, from player_totals.
const totalsColumns = `SELECT player, hands, vpip, raised_pre, bets, raises, calls, saw_second, went_to_showdown,
	won_at_showdown, drew, cards_drawn, stood_pat, open_chance, opened, net FROM player_totals`

// overAll reports whether f selects every hand (of the players it names, if any): its statistics
// are then player_totals' rows.
func (f Filter) overAll() bool {
	return len(f.Tables) == 0 && len(f.Presets) == 0 && len(f.Hands) == 0 && f.From.IsZero() && f.To.IsZero()
}

// totalsQuery returns the query of the totals of players (every player when there is none),
// ordered by player, and its arguments.
func totalsQuery(players []string) (string, []any) {
	if len(players) == 0 {
		return totalsColumns + " ORDER BY player", nil
	}
	args := make([]any, len(players))
	for i, p := range players {
		args[i] = p
	}
	return totalsColumns + " WHERE player IN (" + strings.TrimSuffix(strings.Repeat("?,", len(players)), ",") + ") ORDER BY player", args
}
