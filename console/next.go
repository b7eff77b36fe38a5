package console

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/roles"
	"github.com/fechado/fechado/rules"
)

// nextStart is the hand.started data of the hand after one, as the page fills its form and then
// records it.
type nextStart struct {
	Rules     map[string]string `json:"rules"`
	Number    int               `json:"number"`
	Dealer    events.Seat       `json:"dealer"`
	Seats     []nextSeat        `json:"seats"`
	Stakes    map[string]int64  `json:"stakes"`
	Carry     events.Chips      `json:"carry"`
	PassedOut int               `json:"passed_out"`
	Previous  string            `json:"previous"`
	// Away are the players seated with chips who are not dealt in: in a blind game, those
	// waiting for the big blind.
	Away []nextSeat `json:"away,omitempty"`
	// Left are the players of the previous hand who are gone, with the chips they took.
	Left []nextLeft `json:"left,omitempty"`
	// SmallBlind is the small blind the previous hand posted (blind games), for the page to
	// post again: the stakes hold only the big blind (min_bet).
	SmallBlind events.Chips `json:"small_blind,omitempty"`
	// Tournament is the tournament's part of the next hand (tournamentOf); nil at a cash table.
	Tournament *tournamentNext `json:"tournament,omitempty"`
}

type nextSeat struct {
	Seat   events.Seat  `json:"seat"`
	Player string       `json:"player"`
	Stack  events.Chips `json:"stack"`
	Rebuy  events.Chips `json:"rebuy,omitempty"`
	Joined bool         `json:"joined,omitempty"`
}

type nextLeft struct {
	Player string       `json:"player"`
	Stack  events.Chips `json:"stack"`
}

// nextRequest is the players the page's form lists for the next hand (POST .../next).
type nextRequest struct {
	Seats []nextSeat `json:"seats"`
}

// getNext is GET /console/api/hands/{hand}/next: the next hand's start as presets.md "next hand"
// gives it after hand, for the page's form: the same preset and stakes, the stacks and carry
// hand.ended left, one more passed-out deal after a passed hand, every player still seated with
// chips, and the dealer passed left (the same after a misdeal) or, in a blind game, the button
// the table's rotation puts there.
func (c *Console) getNext(w http.ResponseWriter, r *http.Request, u roles.User) {
	c.answerNext(w, r, u, nil)
}

// postNext is POST /console/api/hands/{hand}/next: the hand.started data of the next hand with the
// players the form lists: who is dealt in, who waits for the big blind (blind games), who sat
// down (joined) or rebought, who left with his chips, and the dealer or button.
func (c *Console) postNext(w http.ResponseWriter, r *http.Request, u roles.User) {
	var req nextRequest
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxEvent)).Decode(&req); err != nil {
		fail(w, http.StatusBadRequest, "err.body", err.Error())
		return
	}
	if req.Seats == nil {
		req.Seats = []nextSeat{}
	}
	c.answerNext(w, r, u, req.Seats)
}

func (c *Console) answerNext(w http.ResponseWriter, r *http.Request, u roles.User, players []nextSeat) {
	hand := r.PathValue("hand")
	hist, err := c.history(r.Context(), u.Table, hand, 3)
	if err != nil {
		fail(w, http.StatusServiceUnavailable, "err.store", err.Error())
		return
	}
	if len(hist) == 0 {
		fail(w, http.StatusNotFound, "err.no-hand", hand)
		return
	}
	n, code, key, err := nextHand(hist, players)
	if err != nil {
		fail(w, code, key, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, n)
}

var errNotEnded = errors.New("the hand has not ended")

// nextHand works out the hand after the last of hist (a table's hands, oldest first) with the
// players listed (nil: every player still seated with chips).
func nextHand(hist [][]*events.Event, players []nextSeat) (nextStart, int, string, error) {
	evs := hist[len(hist)-1]
	hand := evs[0].Hand
	hs, ok := evs[0].Data.(*events.HandStarted)
	end, ended := evs[len(evs)-1].Data.(*events.HandEnded)
	if !ok || !ended {
		return nextStart{}, http.StatusConflict, "err.not-ended", errNotEnded
	}
	p, err := rules.ForHand(hs.Rules)
	if err != nil {
		return nextStart{}, http.StatusUnprocessableEntity, "err.hand", err
	}
	passed, misdeal := false, false
	var small events.Chips
	for _, e := range evs {
		switch d := e.Data.(type) {
		case *events.HandPassed:
			passed = true
		case *events.MisdealDeclared:
			misdeal = true
		case *events.BlindPosted:
			if d.Blind == events.BlindSmall && small == 0 {
				small = d.Amount
			}
		}
	}
	n := nextStart{Rules: map[string]string{"name": hs.Rules.Name}, Number: hs.Number + 1, Carry: end.Carry, Previous: hand,
		Stakes:     map[string]int64{"ante": int64(hs.Stakes.Ante), "min_bet": int64(hs.Stakes.MinBet), "max_bet": int64(hs.Stakes.MaxBet)},
		SmallBlind: small}
	if hs.Rules.Button() == events.ButtonMoving {
		n.Rules["button"] = string(events.ButtonMoving) // the table keeps its button rule (events-v1.md §7)
	}
	switch {
	case passed:
		n.PassedOut = hs.PassedOut + 1
	case misdeal:
		n.PassedOut = hs.PassedOut
	}
	// The players the last hand leaves: the dealt in with their final stacks, the away as they were.
	type last struct {
		seat    events.Seat
		stack   events.Chips
		dealtIn bool
	}
	was := map[string]last{}
	final := map[events.Seat]events.Chips{}
	for _, s := range end.Stacks {
		final[s.Seat] = s.Stack
	}
	var lastSeats []events.Seat
	for _, s := range hs.Seats {
		was[s.Player] = last{s.Seat, final[s.Seat], true}
		lastSeats = append(lastSeats, s.Seat)
	}
	for _, s := range hs.Away {
		was[s.Player] = last{s.Seat, s.Stack, false}
	}
	if players == nil {
		for _, s := range hs.Seats {
			// A broke player is not dealt in again, but where the preset deals him in, or where
			// his last chips are in the pot the hand carries (events-v1.md §7, 2026-12-05: dealt
			// in with stack 0); in a tournament he is otherwise knocked out (tournamentOf).
			if st := final[s.Seat]; st > 0 || end.Carry > 0 || p.BrokeDealtIn && hs.Tournament == nil {
				players = append(players, nextSeat{Seat: s.Seat, Player: s.Player, Stack: st})
			}
		}
		for _, s := range hs.Away {
			players = append(players, nextSeat{Seat: s.Seat, Player: s.Player, Stack: s.Stack})
		}
		slices.SortFunc(players, func(a, b nextSeat) int { return int(a.Seat) - int(b.Seat) })
	}
	var old, others []events.Seat
	listed := map[string]bool{}
	for i := range players {
		s := &players[i]
		listed[s.Player] = true
		l, known := was[s.Player]
		switch {
		case !known:
			s.Joined = true
		case s.Stack > l.stack:
			s.Rebuy = s.Stack - l.stack
		}
		if known && l.dealtIn {
			old = append(old, s.Seat)
		} else {
			others = append(others, s.Seat)
		}
	}
	tournamentOf(hs, end, &n)
	for _, s := range hs.Seats {
		if !listed[s.Player] && (n.Tournament == nil || final[s.Seat] > 0) { // the knocked out: tournamentOf
			n.Left = append(n.Left, nextLeft{Player: s.Player, Stack: final[s.Seat]})
		}
	}
	for _, s := range hs.Away {
		if !listed[s.Player] {
			n.Left = append(n.Left, nextLeft{Player: s.Player, Stack: s.Stack})
		}
	}
	if !p.Blinds {
		all := append(slices.Clone(old), others...)
		slices.Sort(all)
		n.Dealer = p.NextDealer(all, hs.Dealer, rules.NextSeat(lastSeats, hs.Dealer), misdeal)
		n.Seats = players
		return n, 0, "", nil
	}
	// A blind game: the table's rotation places the button and says who waits for the big blind.
	b, in := rotation(hist).Deal(old, others, rules.NextSeat(old, hs.Dealer))
	n.Dealer = b.Button
	n.Seats = []nextSeat{}
	for _, s := range players {
		if slices.Contains(in, s.Seat) {
			n.Seats = append(n.Seats, s)
		} else {
			n.Away = append(n.Away, nextSeat{Seat: s.Seat, Player: s.Player, Stack: s.Stack})
		}
	}
	return n, 0, "", nil
}

// history reads hand of table and the hands before it (hand.started's previous), up to n in all,
// oldest first; none when hand is not stored.
func (c *Console) history(ctx context.Context, table, hand string, n int) ([][]*events.Event, error) {
	var out [][]*events.Event
	for id := hand; id != "" && len(out) < n; {
		evs, err := c.readHand(ctx, table, id)
		if err != nil {
			return nil, err
		}
		if len(evs) == 0 {
			break
		}
		out = append(out, evs)
		id = ""
		if hs, ok := evs[0].Data.(*events.HandStarted); ok && hs.Previous != nil {
			id = *hs.Previous
		}
	}
	slices.Reverse(out)
	return out, nil
}

// rotation is what a blind game's table remembers after the hands of hist (oldest first).
func rotation(hist [][]*events.Event) rules.Rotation {
	var r rules.Rotation
	for _, evs := range hist {
		h, err := rules.NewHand(evs[0])
		if err != nil {
			continue
		}
		for _, e := range evs[1:] {
			h.Apply(e)
		}
		r = r.After(h)
	}
	return r
}

// blindsOf returns where a blind game's hand posts its blinds, from its table's last hands
// (events-v1.md §9.3): only before its first card, as later events no longer need it.
func (c *Console) blindsOf(ctx context.Context, table string, evs []*events.Event) (rules.Blinds, error) {
	hs, ok := evs[0].Data.(*events.HandStarted)
	if !ok || hs.Previous == nil {
		return rules.Blinds{}, nil
	}
	if p, err := rules.ForHand(hs.Rules); err != nil || !p.Blinds {
		return rules.Blinds{}, nil
	}
	for _, e := range evs {
		if e.Type == events.CardDealtType {
			return rules.Blinds{}, nil
		}
	}
	hist, err := c.history(ctx, table, *hs.Previous, 3)
	if err != nil || len(hist) == 0 {
		return rules.Blinds{}, err
	}
	lastHS, _ := hist[len(hist)-1][0].Data.(*events.HandStarted)
	was := map[string]bool{}
	if lastHS != nil {
		for _, s := range lastHS.Seats {
			was[s.Player] = true
		}
	}
	var old, others []events.Seat
	for _, s := range hs.Seats {
		if was[s.Player] {
			old = append(old, s.Seat)
		} else {
			others = append(others, s.Seat)
		}
	}
	b, _ := rotation(hist).Deal(old, others, hs.Dealer)
	return b, nil
}
