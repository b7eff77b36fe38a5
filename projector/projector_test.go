package projector

import (
	"context"
	"database/sql"
	"encoding/json"
	"math"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/fechado/fechado/events"
)

// The expectations below are computed from the JSON Lines with encoding/json and nothing of the
// projector: a second, plain reading of the definitions in the read-model schema.

type jsonEvent struct {
	Table string          `json:"table"`
	Hand  string          `json:"hand"`
	Seq   int             `json:"seq"`
	At    string          `json:"at"`
	Type  string          `json:"type"`
	Data  json.RawMessage `json:"data"`
}

type jsonData struct {
	Rules struct {
		Name string `json:"name"`
	} `json:"rules"`
	Number int `json:"number"`
	Dealer int `json:"dealer"`
	Seats  []struct {
		Seat   int    `json:"seat"`
		Player string `json:"player"`
		Stack  int64  `json:"stack"`
	} `json:"seats"`
	Stakes struct {
		Ante   int64 `json:"ante"`
		MinBet int64 `json:"min_bet"`
		MaxBet int64 `json:"max_bet"`
	} `json:"stakes"`
	Carry     int64    `json:"carry"`
	PassedOut int      `json:"passed_out"`
	Seat      int      `json:"seat"`
	Amount    int64    `json:"amount"`
	Round     string   `json:"round"`
	Action    string   `json:"action"`
	Cards     []string `json:"cards"`
	Pot       int      `json:"pot"`
	Stacks    []struct {
		Seat  int   `json:"seat"`
		Stack int64 `json:"stack"`
	} `json:"stacks"`
}

type wantPlayer struct {
	Seat, Position                                 int
	Player                                         string
	Start, End, Net, PutIn, Returned, Won          int64
	VPIP, OpenChance, Opened, RaisedPre            bool
	Bets, Raises, Calls, Checks                    int
	Folded, Drew                                   bool
	CardsDrawn                                     int // -1: did not draw
	StoodPat, SawSecond, WTSD, WSD, AggressivePost bool
	Shown                                          string
}

type wantHand struct {
	ID, Table, Preset, StartedAt, EndedAt      string
	Number, Dealer, Players, PassedOut, Events int
	Ante, MinBet, MaxBet, CarryIn              int64
	PotTotal, Awarded, Raked, CarryOut         int64
	Passed, Misdeal, Showdown                  bool
	Winners                                    string
	Players_                                   []wantPlayer
	actions, draws, awards                     int
	pots                                       map[int]int64
}

// expect walks the stream and computes every hand and player row.
func expect(t *testing.T, lines [][]byte) []*wantHand {
	t.Helper()
	byHand := map[string]*wantHand{}
	var order []*wantHand
	type seatAcc struct {
		p        *wantPlayer
		drawn    int
		mucked   bool
		shown    bool
		anyDrawn bool
	}
	accs := map[string]map[int]*seatAcc{}
	betInOpening := map[string]bool{}
	openingRound := map[string]string{}
	hasBlindPost := map[string]bool{}
	evs := map[string][]jsonEvent{}
	for _, l := range lines {
		var e jsonEvent
		if err := json.Unmarshal(l, &e); err != nil {
			t.Fatal(err)
		}
		evs[e.Hand] = append(evs[e.Hand], e)
	}
	// A first pass over each hand finds the opening round: blind if any action is in round
	// blind (br-online), otherwise first.
	for h, list := range evs {
		openingRound[h] = "first"
		for _, e := range list {
			var d jsonData
			json.Unmarshal(e.Data, &d)
			if e.Type == "player.acted" && d.Round == "blind" {
				openingRound[h] = "blind"
			}
			if e.Type == "blind.posted" {
				hasBlindPost[h] = true
			}
		}
	}
	for _, l := range lines {
		var e jsonEvent
		json.Unmarshal(l, &e)
		var d jsonData
		if err := json.Unmarshal(e.Data, &d); err != nil {
			t.Fatal(err)
		}
		h := byHand[e.Hand]
		if e.Type == "hand.started" {
			h = &wantHand{ID: e.Hand, Table: e.Table, Preset: d.Rules.Name, StartedAt: e.At, Number: d.Number,
				Dealer: d.Dealer, Players: len(d.Seats), PassedOut: d.PassedOut, Ante: d.Stakes.Ante,
				MinBet: d.Stakes.MinBet, MaxBet: d.Stakes.MaxBet, CarryIn: d.Carry, pots: map[int]int64{}}
			byHand[e.Hand] = h
			order = append(order, h)
			accs[e.Hand] = map[int]*seatAcc{}
			// Position: walk the seat numbers clockwise from the dealer.
			pos := 0
			for k := 1; k <= 10; k++ {
				s := (d.Dealer+k-1)%10 + 1
				for _, st := range d.Seats {
					if st.Seat == s {
						pos++
						h.Players_ = append(h.Players_, wantPlayer{Seat: s, Position: pos, Player: st.Player, Start: st.Stack})
					}
				}
			}
			sort.Slice(h.Players_, func(i, j int) bool { return h.Players_[i].Seat < h.Players_[j].Seat })
			for i := range h.Players_ {
				accs[e.Hand][h.Players_[i].Seat] = &seatAcc{p: &h.Players_[i]}
			}
			betInOpening[e.Hand] = hasBlindPost[e.Hand]
		}
		h.Events++
		a := accs[e.Hand][d.Seat]
		switch e.Type {
		case "ante.posted", "blind.posted":
			a.p.PutIn += d.Amount
		case "player.acted":
			h.actions++
			a.p.PutIn += d.Amount
			before := d.Round == "blind" || d.Round == "first"
			switch d.Action {
			case "bet":
				a.p.Bets++
			case "raise":
				a.p.Raises++
			case "call":
				a.p.Calls++
			case "check":
				a.p.Checks++
			case "fold":
				a.p.Folded = true
			}
			if before && d.Action != "check" && d.Action != "fold" {
				a.p.VPIP = true
			}
			if before && d.Action == "raise" {
				a.p.RaisedPre = true
			}
			if d.Round == "second" && (d.Action == "bet" || d.Action == "raise") {
				a.p.AggressivePost = true
			}
			if d.Round == openingRound[e.Hand] && !betInOpening[e.Hand] {
				a.p.OpenChance = true
				if d.Action == "bet" {
					a.p.Opened = true
					betInOpening[e.Hand] = true
				}
			}
		case "cards.discarded":
			h.draws++
			a.anyDrawn = true
			a.drawn += len(d.Cards)
		case "hand.shown":
			a.shown = true
			a.p.Shown = strings.Join(d.Cards, " ")
		case "hand.mucked":
			a.mucked = true
		case "bet.returned":
			a.p.Returned += d.Amount
		case "pot.raked":
			h.Raked += d.Amount
			h.pots[d.Pot] += 0
		case "pot.awarded":
			h.awards++
			a.p.Won += d.Amount
			h.Awarded += d.Amount
			h.pots[d.Pot] += d.Amount
		case "hand.passed":
			h.Passed = true
		case "misdeal.declared":
			h.Misdeal = true
		case "hand.ended":
			h.EndedAt = e.At
			h.CarryOut = d.Carry
			for _, st := range d.Stacks {
				accs[e.Hand][st.Seat].p.End = st.Stack
			}
			notFolded := 0
			for _, p := range h.Players_ {
				if !p.Folded {
					notFolded++
				}
			}
			h.Showdown = notFolded > 1 && !h.Passed && !h.Misdeal
			h.PotTotal = h.CarryIn
			var winners []string
			for i := range h.Players_ {
				p := &h.Players_[i]
				acc := accs[e.Hand][p.Seat]
				p.Net = p.End - p.Start
				h.PotTotal += p.PutIn - p.Returned
				p.Drew = acc.anyDrawn
				p.CardsDrawn = -1
				if acc.anyDrawn {
					p.CardsDrawn = acc.drawn
				}
				p.StoodPat = acc.anyDrawn && acc.drawn == 0
				p.SawSecond = acc.anyDrawn
				p.WTSD = h.Showdown && (!p.Folded || acc.shown || acc.mucked)
				p.WSD = p.WTSD && p.Won > 0
				if p.Won > 0 {
					winners = append(winners, p.Player)
				}
			}
			h.Winners = strings.Join(winners, ",")
		}
	}
	return order
}

func TestProjectCorpusMatchesIndependentCount(t *testing.T) {
	ctx := context.Background()
	lines := buildCorpus(t, 1)
	path := writeLines(t, t.TempDir(), lines)
	db := openDB(t)
	pr := project(t, db, path, 50)
	want := expect(t, lines)

	if pr.Events != len(lines) || pr.Quarantined != 0 || pr.Hands != len(want) || pr.Checkpoint != uint64(len(lines)) {
		t.Fatalf("progress %+v, want %d events, %d hands, none quarantined", pr, len(lines), len(want))
	}
	if len(want) != 24 {
		t.Fatalf("corpus has %d hands, want 24", len(want))
	}
	// Every hand.
	for _, w := range want {
		var g wantHand
		var passed, misdeal, showdown int
		var startedMs, endedMs int64
		err := db.QueryRowContext(ctx, `SELECT table_id, preset, started_at, ended_at, number, dealer, players,
			passed_out, events, ante, min_bet, max_bet, carry_in, pot_total, awarded, raked, carry_out,
			passed, misdeal, showdown, winners, started_ms, ended_ms FROM hands WHERE hand_id = ?`, w.ID).Scan(
			&g.Table, &g.Preset, &g.StartedAt, &g.EndedAt, &g.Number, &g.Dealer, &g.Players, &g.PassedOut,
			&g.Events, &g.Ante, &g.MinBet, &g.MaxBet, &g.CarryIn, &g.PotTotal, &g.Awarded, &g.Raked,
			&g.CarryOut, &passed, &misdeal, &showdown, &g.Winners, &startedMs, &endedMs)
		if err != nil {
			t.Fatalf("hand %s: %v", w.ID, err)
		}
		g.ID, g.Passed, g.Misdeal, g.Showdown = w.ID, passed == 1, misdeal == 1, showdown == 1
		g.Players_, g.actions, g.draws, g.awards, g.pots = w.Players_, w.actions, w.draws, w.awards, w.pots
		if !reflect.DeepEqual(g, *w) {
			t.Errorf("hand %s (%s #%d):\n got %+v\nwant %+v", w.ID, w.Table, w.Number, g, *w)
		}
		if endedMs <= startedMs {
			t.Errorf("hand %s: ended_ms %d not after started_ms %d", w.ID, endedMs, startedMs)
		}
		// The chips balance, as the auditor's pot.total demands of a correct log.
		if w.PotTotal != w.Awarded+w.Raked+w.CarryOut {
			t.Errorf("hand %s: pot %d != awarded %d + raked %d + carry %d", w.ID, w.PotTotal, w.Awarded, w.Raked, w.CarryOut)
		}
		// Every player of the hand.
		rows, err := db.QueryContext(ctx, `SELECT seat, position, player, start_stack, end_stack, net, put_in,
			returned, won, vpip, open_chance, opened, raised_pre, bets, raises, calls, checks, folded, drew,
			cards_drawn, stood_pat, saw_second, went_to_showdown, won_at_showdown, aggressive_post, shown
			FROM hand_players WHERE hand_id = ? ORDER BY seat`, w.ID)
		if err != nil {
			t.Fatal(err)
		}
		var got []wantPlayer
		for rows.Next() {
			var p wantPlayer
			var f [11]int
			var drawn sql.NullInt64
			if err := rows.Scan(&p.Seat, &p.Position, &p.Player, &p.Start, &p.End, &p.Net, &p.PutIn, &p.Returned,
				&p.Won, &f[0], &f[1], &f[2], &f[3], &p.Bets, &p.Raises, &p.Calls, &p.Checks, &f[4], &f[5],
				&drawn, &f[6], &f[7], &f[8], &f[9], &f[10], &p.Shown); err != nil {
				t.Fatal(err)
			}
			p.VPIP, p.OpenChance, p.Opened, p.RaisedPre = f[0] == 1, f[1] == 1, f[2] == 1, f[3] == 1
			p.Folded, p.Drew, p.StoodPat, p.SawSecond = f[4] == 1, f[5] == 1, f[6] == 1, f[7] == 1
			p.WTSD, p.WSD, p.AggressivePost = f[8] == 1, f[9] == 1, f[10] == 1
			p.CardsDrawn = -1
			if drawn.Valid {
				p.CardsDrawn = int(drawn.Int64)
			}
			got = append(got, p)
		}
		rows.Close()
		if !reflect.DeepEqual(got, w.Players_) {
			for i := range got {
				if i < len(w.Players_) && !reflect.DeepEqual(got[i], w.Players_[i]) {
					t.Errorf("hand %s seat %d:\n got %+v\nwant %+v", w.ID, got[i].Seat, got[i], w.Players_[i])
				}
			}
			if len(got) != len(w.Players_) {
				t.Errorf("hand %s: %d players, want %d", w.ID, len(got), len(w.Players_))
			}
		}
		// Row counts of the single-event tables, and the pots.
		for _, c := range []struct {
			table string
			want  int
		}{{"actions", w.actions}, {"draws", w.draws}, {"awards", w.awards}, {"pots", len(w.pots)}} {
			var n int
			db.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+c.table+" WHERE hand_id = ?", w.ID).Scan(&n)
			if n != c.want {
				t.Errorf("hand %s: %d rows in %s, want %d", w.ID, n, c.table, c.want)
			}
		}
		for pot, amount := range w.pots {
			var got int64
			db.QueryRowContext(ctx, `SELECT awarded FROM pots WHERE hand_id = ? AND pot = ?`, w.ID, pot).Scan(&got)
			if got != amount {
				t.Errorf("hand %s pot %d: awarded %d, want %d", w.ID, pot, got, amount)
			}
		}
	}
	// Tables.
	type tableWant struct{ hands int }
	tables := map[string]*tableWant{}
	for _, w := range want {
		if tables[w.Table] == nil {
			tables[w.Table] = &tableWant{}
		}
		tables[w.Table].hands++
	}
	var nTables int
	db.QueryRowContext(ctx, `SELECT COUNT(*) FROM tables`).Scan(&nTables)
	if nTables != len(tables) {
		t.Errorf("%d tables, want %d", nTables, len(tables))
	}
	for id, tw := range tables {
		var hands, ended int
		db.QueryRowContext(ctx, `SELECT hands, hands_ended FROM tables WHERE table_id = ?`, id).Scan(&hands, &ended)
		if hands != tw.hands || ended != tw.hands {
			t.Errorf("table %s: %d hands, %d ended; want %d", id, hands, ended, tw.hands)
		}
	}
	checkStats(t, db, want)
}

// checkStats compares PlayerStats, OpenByPosition and the views with sums over the expected rows.
func checkStats(t *testing.T, db *sql.DB, want []*wantHand) {
	t.Helper()
	ctx := context.Background()
	exp := map[string]*Stats{}
	type pk struct {
		player string
		pos    int
	}
	expPos := map[pk]*PositionStats{}
	for _, h := range want {
		for _, p := range h.Players_ {
			s := exp[p.Player]
			if s == nil {
				s = &Stats{Player: p.Player}
				exp[p.Player] = s
			}
			s.Hands++
			s.VPIPHands += b2i(p.VPIP)
			s.RaisedPreHands += b2i(p.RaisedPre)
			s.Bets += p.Bets
			s.Raises += p.Raises
			s.Calls += p.Calls
			s.SawSecond += b2i(p.SawSecond)
			s.WentToShowdown += b2i(p.WTSD)
			s.WonAtShowdown += b2i(p.WSD)
			if p.CardsDrawn >= 0 {
				s.Draws++
				s.CardsDrawn += p.CardsDrawn
			}
			s.StoodPat += b2i(p.StoodPat)
			s.OpenChances += b2i(p.OpenChance)
			s.Opens += b2i(p.Opened)
			s.Net += events.Chips(p.Net)
			ps := expPos[pk{p.Player, p.Position}]
			if ps == nil {
				ps = &PositionStats{Player: p.Player, Position: p.Position}
				expPos[pk{p.Player, p.Position}] = ps
			}
			ps.Hands++
			ps.Chances += b2i(p.OpenChance)
			ps.Opens += b2i(p.Opened)
		}
	}
	got, err := PlayerStats(ctx, db, Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(exp) {
		t.Fatalf("%d players, want %d", len(got), len(exp))
	}
	var sumNet int64
	for _, g := range got {
		if !reflect.DeepEqual(g, *exp[g.Player]) {
			t.Errorf("stats of %s:\n got %+v\nwant %+v", g.Player, g, *exp[g.Player])
		}
		sumNet += int64(g.Net)
		// The view computes the same percentages.
		var vpip, raise, wtsd, wsd, pat, open, agg, avg sql.NullFloat64
		var hands int
		var net int64
		if err := db.QueryRowContext(ctx, `SELECT hands, vpip_pct, raise_pre_pct, aggression, wtsd_pct, wsd_pct,
			avg_drawn, stand_pat_pct, open_pct, net FROM player_stats WHERE player = ?`, g.Player).Scan(
			&hands, &vpip, &raise, &agg, &wtsd, &wsd, &avg, &pat, &open, &net); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name string
			view sql.NullFloat64
			fn   func() (float64, bool)
			prec float64
		}{
			{"vpip", vpip, g.VPIP, 0.1}, {"raise", raise, g.RaisePreDraw, 0.1}, {"aggression", agg, g.Aggression, 0.01},
			{"wtsd", wtsd, g.WentToShowdownPct, 0.1}, {"wsd", wsd, g.WonAtShowdownPct, 0.1},
			{"avg drawn", avg, g.AvgDrawn, 0.01}, {"stand pat", pat, g.StandPat, 0.1}, {"open", open, g.OpenPct, 0.1},
		} {
			v, ok := c.fn()
			if ok != c.view.Valid || ok && math.Abs(v-c.view.Float64) > c.prec/2+1e-9 {
				t.Errorf("%s %s: Go %v (%v), view %v", g.Player, c.name, v, ok, c.view)
			}
		}
		if hands != g.Hands || net != int64(g.Net) {
			t.Errorf("%s: view says %d hands, net %d", g.Player, hands, net)
		}
	}
	// Chips are neither created nor lost at the table except through carries and rake.
	var carry, rake, carriedIn int64
	for _, h := range want {
		carry += h.CarryOut
		rake += h.Raked
		carriedIn += h.CarryIn
	}
	if sumNet != carriedIn-carry-rake {
		t.Errorf("players' net %d, want carried in %d - carried out %d - rake %d", sumNet, carriedIn, carry, rake)
	}
	pos, err := OpenByPosition(ctx, db, Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(pos) != len(expPos) {
		t.Errorf("%d player-positions, want %d", len(pos), len(expPos))
	}
	for _, g := range pos {
		if w := expPos[pk{g.Player, g.Position}]; w == nil || *w != g {
			t.Errorf("open by position %+v, want %+v", g, w)
		}
	}

	// A filter: one preset, one player.
	var wantHands int
	for _, h := range want {
		if h.Preset == "br-online" {
			for _, p := range h.Players_ {
				if p.Player == "ana" {
					wantHands++
				}
			}
		}
	}
	got, err = PlayerStats(ctx, db, Filter{Players: []string{"ana"}, Presets: []string{"br-online"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Hands != wantHands || wantHands == 0 {
		t.Errorf("filtered stats %+v, want ana with %d hands", got, wantHands)
	}
}

func TestBatchSizesGiveTheSameRows(t *testing.T) {
	lines := buildCorpus(t, 1)
	path := writeLines(t, t.TempDir(), lines)
	var first string
	for _, n := range []int{1, 7, 100000} {
		db := openDB(t)
		project(t, db, path, n)
		d := dump(t, db)
		if first == "" {
			first = d
			continue
		}
		if d != first {
			t.Fatalf("batch size %d: rows differ from batch size 1: %s", n, firstDiff(first, d))
		}
	}
}

func TestCatchUpTwiceProjectsNothingTwice(t *testing.T) {
	lines := buildCorpus(t, 1)
	path := writeLines(t, t.TempDir(), lines)
	db := openDB(t)
	project(t, db, path, 100)
	before := dump(t, db)
	p := New(db, &FileSource{Path: path})
	pr, err := p.CatchUp(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if pr.Events != 0 || pr.Checkpoint != uint64(len(lines)) {
		t.Fatalf("second catch-up: %+v", pr)
	}
	if after := dump(t, db); after != before {
		t.Fatal(firstDiff(before, after))
	}
}
