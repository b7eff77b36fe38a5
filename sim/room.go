package sim

import (
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"time"
)

// RoomConfig says what room to simulate: a pool of players who come and go between many cash
// tables, some of them planted colluders.
type RoomConfig struct {
	Rules   string // preset; DefaultRoomRules when empty
	Players int    // the pool
	Tables  int    // tables running at once
	Hands   int    // hands to play in all
	Seed    uint64
	// Colluders is the number of planted pairs; Collusion the kinds they play, given to the pairs
	// in turn (CollusionKinds; empty = all three).
	Colluders int
	Collusion []string
	// Start is the simulated time of the first session; zero = 2026-11-29T12:00:00Z.
	Start time.Time
}

// Defaults and shape of a room.
const (
	DefaultRoomRules = "std-draw"
	// RoomRound is the time between two rounds of sessions: every table starts a session at the
	// start of a round and ends it (at most 100 hands, under two hours) before the next.
	RoomRound = 3 * time.Hour
	// togetherRate is how often a colluder whose partner is free brings him to his table.
	togetherRate = 0.5
)

// Room plays the room and writes every hand to w as JSON Lines, table after table within each
// round of sessions. It returns the planted pairs. The same configuration gives the same bytes.
//
// Each round, every table seats 3 to 6 players drawn from those of the pool not seated
// elsewhere, for a session of 20 to 100 hands; then the players stand up and the next round
// seats them anew. A player keeps his style from session to session. A colluder drawn for a
// table brings his free partner to it half of the time, as real colluders seek each other out;
// at the table they collude as their kind says (collude.go). Sessions run as separate tables
// (room-T-R: table T, round R) whose machine shuffles reveal their seeds: every card is known.
func Room(cfg RoomConfig, w io.Writer) ([]Pair, error) {
	if cfg.Rules == "" {
		cfg.Rules = DefaultRoomRules
	}
	if cfg.Start.IsZero() {
		cfg.Start = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	}
	if len(cfg.Collusion) == 0 {
		cfg.Collusion = CollusionKinds
	}
	for _, k := range cfg.Collusion {
		if err := validKind(k); err != nil {
			return nil, err
		}
	}
	switch {
	case cfg.Tables < 1 || cfg.Players < 3*cfg.Tables:
		return nil, fmt.Errorf("%w: a room needs at least one table and 3 players a table (%d players, %d tables)", ErrConfig, cfg.Players, cfg.Tables)
	case cfg.Hands < 0:
		return nil, fmt.Errorf("%w: a negative number of hands", ErrConfig)
	case cfg.Colluders < 0 || 2*cfg.Colluders > cfg.Players:
		return nil, fmt.Errorf("%w: %d pairs of colluders among %d players", ErrConfig, cfg.Colluders, cfg.Players)
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x7200))
	width := len(fmt.Sprint(cfg.Players))
	names := make([]string, cfg.Players)
	style := make([]Style, cfg.Players)
	for i := range names {
		names[i] = fmt.Sprintf("p%0*d", width, i+1)
		style[i] = styles[rng.IntN(len(styles))]
	}
	var pairs []Pair
	partner := map[int]int{}
	perm := rng.Perm(cfg.Players)
	for k := 0; k < cfg.Colluders; k++ {
		a, b := perm[2*k], perm[2*k+1]
		partner[a], partner[b] = b, a
		pairs = append(pairs, Pair{A: names[a], B: names[b], Kind: cfg.Collusion[k%len(cfg.Collusion)]})
	}
	col := newCollusion(pairs, cfg.Seed)
	played := 0
	for round := 0; played < cfg.Hands; round++ {
		seated := make([]bool, cfg.Players)
		order := rng.Perm(cfg.Players)
		next := 0
		for t := 0; t < cfg.Tables && played < cfg.Hands; t++ {
			n := 3 + rng.IntN(4)
			var at []int
			for len(at) < n && next < len(order) {
				i := order[next]
				next++
				if seated[i] {
					continue
				}
				seated[i] = true
				at = append(at, i)
				if j, ok := partner[i]; ok && !seated[j] && len(at) < n && rng.Float64() < togetherRate {
					seated[j] = true
					at = append(at, j)
				}
			}
			if len(at) < 2 {
				break
			}
			hands := min(20+rng.IntN(81), cfg.Hands-played)
			var key [8]byte
			binary.LittleEndian.PutUint64(key[:], rng.Uint64())
			s, err := New(Config{Rules: cfg.Rules, Players: len(at), Hands: hands, Seed: binary.LittleEndian.Uint64(key[:]),
				Table: fmt.Sprintf("room-%d-%d", t+1, round+1), Start: cfg.Start.Add(time.Duration(round) * RoomRound),
				ExposeRate: -1})
			if err != nil {
				return nil, err
			}
			for k, p := range s.seats {
				p.name, p.style = names[at[k]], style[at[k]]
			}
			s.collude = col
			n0 := 0
			err = forEach(s.Next, func(h *Hand) error {
				n0++
				return WriteHand(w, h)
			})
			if err != nil {
				return nil, err
			}
			played += max(n0, 1) // a table that could not deal still ends the session
		}
	}
	return pairs, nil
}

// ParseCollusion reads the --collusion flag: kinds separated by commas.
func ParseCollusion(s string) ([]string, error) {
	if s == "" {
		return nil, nil
	}
	var out []string
	for _, k := range strings.Split(s, ",") {
		k = strings.TrimSpace(k)
		if err := validKind(k); err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, nil
}
