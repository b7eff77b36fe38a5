package sim

import (
	"fmt"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/rules"
)

// The chances, per player and hand, of what happens between the hands of a cash session.
const (
	cashSitOut = 6 // in 100: a player with chips sits out for 1 to 3 hands
	cashLeave  = 3 // in 100: a player leaves with his chips
	cashJoin   = 7 // in 10: a free seat is taken by a newcomer after someone left
)

// comingsAndGoings plays what happens at a cash table between two hands (events-v1.md §7), after
// the rebuys: players back from sitting out, players who sit out, players who leave with their
// chips (a player who lost every chip and does not rebuy leaves with none), newcomers who sit down
// with a buy-in. At least two players with chips stay dealt in.
func (s *Sim) comingsAndGoings() {
	s.left = nil
	for _, p := range s.seats {
		if !p.waitBB {
			p.joined = false
		}
	}
	if s.misdeal && s.preset.Blinds {
		// The misdealt hand plays again with its button and blinds, so with its players.
		return
	}
	for _, p := range s.seats {
		if p.away > 0 {
			p.away--
			p.waitBB = p.away == 0 && s.preset.Blinds
		}
	}
	active := func() int {
		n := 0
		for _, p := range s.seats {
			if !p.gone && p.away == 0 && !p.waitBB && p.stack+p.rebuy > 0 {
				n++
			}
		}
		return n
	}
	for _, p := range s.seats {
		switch {
		case p.gone || p.away > 0 || p.waitBB:
		case p.stack == 0 && p.rebuy == 0 && !(s.preset.BrokeDealtIn && p.broke < 2):
			p.gone = true
			s.left = append(s.left, events.LeftPlayer{Player: p.name})
		case p.rebuy > 0:
		case active() > 2 && s.cashRng.IntN(100) < cashLeave:
			p.gone = true
			s.left = append(s.left, events.LeftPlayer{Player: p.name, Stack: p.stack})
		case active() > 2 && s.cashRng.IntN(100) < cashSitOut:
			p.away = 1 + s.cashRng.IntN(3)
		}
	}
	// The seats of those who left are free; a newcomer may take one.
	kept := s.seats[:0]
	for _, p := range s.seats {
		if !p.gone {
			kept = append(kept, p)
		}
	}
	clear(s.seats[len(kept):])
	s.seats = kept
	if len(s.left) == 0 || len(s.seats) >= s.preset.MaxPlayers || s.cashRng.IntN(10) >= cashJoin {
		return
	}
	taken := map[events.Seat]bool{}
	for _, p := range s.seats {
		taken[p.seat] = true
	}
	at := events.Seat(1)
	for taken[at] {
		at++
	}
	s.newcomers++
	np := &seat{seat: at, name: fmt.Sprintf("guest-%d", s.newcomers), stack: s.cfg.Stack, initial: s.cfg.Stack,
		style: styles[s.newcomers%len(styles)], joined: true, waitBB: s.preset.Blinds}
	i := 0
	for i < len(s.seats) && s.seats[i].seat < at {
		i++
	}
	s.seats = append(s.seats[:i], append([]*seat{np}, s.seats[i:]...)...)
}

// bigBlindReaches deals in again, before a hand of a blind game, the player waiting for the big
// blind (seat.waitBB) whose seat the big blind reaches. It follows the TDA rule on new players
// and the big blind (rules.NextBlinds): a player who sits down, or comes back from sitting out,
// is dealt in when the big blind reaches him or by posting one; the simulator's players always
// wait, so nobody ever sits between the button and the blinds and plays a hand without paying
// them. The big blind moves to the first seat dealt in after the last one's: when that seat is a
// waiting player's, including him makes him the big blind. With fewer than two other players to
// deal in, the game starts again and every waiting player is dealt in.
func (s *Sim) bigBlindReaches() {
	if !s.preset.Blinds || s.misdeal {
		return
	}
	var seats []events.Seat
	waiting := map[events.Seat]*seat{}
	others := 0
	for _, p := range s.seats {
		if p.gone || p.away > 0 || p.stack+p.rebuy == 0 {
			continue
		}
		seats = append(seats, p.seat)
		if p.waitBB {
			waiting[p.seat] = p
		} else {
			others++
		}
	}
	if len(waiting) == 0 {
		return
	}
	if others < 2 || s.bb == 0 {
		for _, p := range waiting {
			p.waitBB = false
		}
		return
	}
	if p := waiting[rules.NextSeat(seats, s.bb)]; p != nil {
		p.waitBB = false
	}
}

// awayList returns the players sitting out the next hand with their chips, or waiting at their
// seat for the big blind (nil when none). A newcomer who waits for the big blind is not listed:
// he sits down (joined) at the hand the big blind reaches his seat.
func (s *Sim) awayList() []events.AwaySeat {
	var out []events.AwaySeat
	for _, p := range s.seats {
		if (p.away > 0 || p.waitBB && !p.joined) && !p.gone && p.stack > 0 {
			out = append(out, events.AwaySeat{Seat: p.seat, Player: p.name, Stack: p.stack})
		}
	}
	return out
}
