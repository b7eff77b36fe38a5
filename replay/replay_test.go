package replay

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/internal/eventfiles"
	"github.com/fechado/fechado/internal/testfiles"
)

var update = flag.Bool("update", false, "rewrite the expected states of testdata/*.txt")

// vectors returns the folder of the example logs, testdata/vectors.
func vectors(t testing.TB) string {
	t.Helper()
	return testfiles.File(t, "vectors")
}

func load(t testing.TB, name string) []*events.Event {
	t.Helper()
	return eventfiles.Read(t, filepath.Join(vectors(t), name), 0)
}

var allVectors = []string{"table-br-fechado.jsonl", "table-br-online.jsonl", "table-tr-kapali.jsonl", "table-std-draw.jsonl",
	"hand-split-odd-chip-br-fechado.jsonl", "hand-proportional-split-br-online.jsonl", "hand-suits-break-tie-tr-kapali.jsonl"}

// Replayed to the end, every vector hand leaves the stacks its hand.ended records, and its awards
// are those of the log.
func TestAtEndMatchesHandEnded(t *testing.T) {
	for _, name := range allVectors {
		for _, hand := range Group(load(t, name)) {
			st, err := At(hand, 0)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			end := endOf(hand)
			if !st.Ended || st.Stage != "ended" || end == nil || st.Seq != st.Last {
				t.Fatalf("%s #%d: ended %v stage %s seq %d/%d", name, st.Number, st.Ended, st.Stage, st.Seq, st.Last)
			}
			for _, s := range end.Stacks {
				for _, seat := range st.Seats {
					if seat.Seat == s.Seat && seat.Stack != s.Stack {
						t.Errorf("%s #%d seat %d: stack %d, hand.ended says %d", name, st.Number, s.Seat, seat.Stack, s.Stack)
					}
				}
			}
			if st.EndCarry != end.Carry {
				t.Errorf("%s #%d: end carry %d, want %d", name, st.Number, st.EndCarry, end.Carry)
			}
		}
	}
}

// The deck order re-derived from a revealed seed and the cut is the order the log deals from:
// every card taken off the top before the next shuffle comes in that order.
func TestDeckOrderIsTheDeal(t *testing.T) {
	checked := 0
	for _, name := range allVectors {
		for _, hand := range Group(load(t, name)) {
			st, err := At(hand, 0)
			if err != nil {
				t.Fatal(err)
			}
			for i, sh := range st.Deck.Shuffles {
				if sh.Order == nil {
					continue
				}
				if !sh.Verified {
					t.Errorf("%s #%d: shuffle at %d not verified", name, st.Number, sh.Seq)
				}
				var taken []cards.Card
				under := false // br-online: discards go under the stub, then the count runs on
				for _, e := range hand {
					if under {
						break
					}
					if e.Seq <= sh.Seq || (i+1 < len(st.Deck.Shuffles) && e.Seq >= st.Deck.Shuffles[i+1].Seq) {
						continue
					}
					switch d := e.Data.(type) {
					case *events.CardDealt:
						taken = append(taken, d.Card)
					case *events.CardBurned:
						taken = append(taken, d.Card)
					case *events.CardsDiscarded:
						under = st.Rules == "br-online" && len(d.Cards) > 0
					}
				}
				if taken == nil {
					continue
				}
				if got := cards.Join(sh.Order[:len(taken)], " "); got != cards.Join(taken, " ") {
					t.Errorf("%s #%d shuffle %d: order %s, dealt %s", name, st.Number, sh.Seq, got, cards.Join(taken, " "))
				}
				checked++
			}
		}
	}
	if checked < 10 {
		t.Errorf("only %d shuffles checked", checked)
	}
}

// Replay reveals nothing the log does not hold up to SEQ: before deck.revealed no seed, no order
// and no stub order; after it, both.
func TestAtRevealsNothingEarly(t *testing.T) {
	hand := Group(load(t, "table-br-fechado.jsonl"))[5] // hand 6: shuffles at 2 and 26, seeds at 42, 43
	for seq := events.Seq(1); seq <= 44; seq++ {
		st, err := At(hand, seq)
		if err != nil {
			t.Fatal(err)
		}
		revealed := seq >= 42
		for _, sh := range st.Deck.Shuffles {
			if sh.Seq == 26 {
				revealed = seq >= 43
			}
			if (sh.Seed != "" || sh.Order != nil) != revealed {
				t.Errorf("after seq %d: shuffle %d seed %q order %v", seq, sh.Seq, sh.Seed, sh.Order)
			}
		}
		if len(st.Deck.Stub) > 0 && seq < 43 {
			t.Errorf("after seq %d: stub order %v shown before the seed of the last shuffle", seq, st.Deck.Stub)
		}
		for _, s := range st.Seats {
			if s.Shown && seq < 39 {
				t.Errorf("after seq %d: seat %d shown before the showdown", seq, s.Seat)
			}
		}
	}
}

func TestAtErrors(t *testing.T) {
	hands := Group(load(t, "table-br-fechado.jsonl"))
	for _, tc := range []struct {
		evs  []*events.Event
		seq  events.Seq
		want error
	}{
		{nil, 0, ErrNoEvents},
		{hands[0], 99, ErrNoSeq},
		{append(append([]*events.Event{}, hands[0]...), hands[1][0]), 0, ErrMixedHands},
		{hands[0][1:], 0, ErrNotStarted},
	} {
		if _, err := At(tc.evs, tc.seq); !errors.Is(err, tc.want) {
			t.Errorf("At(%d events, %d) = %v, want %v", len(tc.evs), tc.seq, err, tc.want)
		}
	}
}

// A table replayed hand by hand follows its stacks; a starting stack that does not is a break.
func TestTableContinuity(t *testing.T) {
	evs := load(t, "table-br-fechado.jsonl")
	sums := Table(evs)
	if len(sums) != 6 {
		t.Fatalf("%d hands", len(sums))
	}
	for i, s := range sums {
		if len(s.Breaks) > 0 || s.Err != "" || s.Number != i+1 {
			t.Errorf("hand %d: %+v", i+1, s)
		}
		if i > 0 {
			for _, c := range s.Stacks {
				for _, p := range sums[i-1].Stacks {
					if p.Player == c.Player && p.After+c.Rebuy != c.Before {
						t.Errorf("hand %d: %s after %d, before %d", i+1, c.Player, p.After, c.Before)
					}
				}
			}
		}
	}
	// Start hand 2 with ana 5 chips richer.
	hs := *evs[len(Group(evs)[0])].Data.(*events.HandStarted)
	hs.Seats = append([]events.SeatStack(nil), hs.Seats...)
	hs.Seats[0].Stack += 5
	e := *evs[len(Group(evs)[0])]
	e.Data = &hs
	broken := append(append(append([]*events.Event{}, evs[:len(Group(evs)[0])]...), &e), evs[len(Group(evs)[0])+1:]...)
	b := Table(broken)[1].Breaks
	if len(b) != 1 || b[0].Player != "ana" || b[0].Want != 145 || b[0].Got != 150 {
		t.Errorf("breaks %+v", b)
	}
}

// The scripts of testdata/states.txt: "state FILE#N SEQ", "----", then the state as text.
// Regenerate with go test ./replay -run TestStates -update.
func TestStates(t *testing.T) {
	path := filepath.Join("testdata", "states.txt")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(b))
	var cmd string
	var want []string
	inWant := false
	flush := func() {
		if cmd == "" {
			return
		}
		got := render(t, cmd)
		if !*update && strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s:\ngot:\n%s\nwant:\n%s", cmd, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		for _, l := range got {
			out.WriteString(l + "\n")
		}
		cmd, want = "", nil
	}
	for sc.Scan() {
		l := sc.Text()
		switch {
		case inWant && l == "":
			flush()
			inWant = false
			out.WriteString("\n")
		case inWant:
			want = append(want, l)
		case strings.HasPrefix(l, "state "):
			cmd = l
			out.WriteString(l + "\n")
		case l == "----":
			inWant = true
			out.WriteString(l + "\n")
		default:
			out.WriteString(l + "\n")
		}
	}
	flush()
	if *update {
		if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// render replays "state FILE#N SEQ" and writes the state compactly.
func render(t *testing.T, cmd string) []string {
	f := strings.Fields(cmd)
	name, n, _ := strings.Cut(f[1], "#")
	k, _ := strconv.Atoi(n)
	seq, _ := strconv.Atoi(f[2])
	st, err := At(Group(load(t, name))[k-1], events.Seq(seq))
	if err != nil {
		return []string{"error: " + err.Error()}
	}
	out := []string{
		fmt.Sprintf("after %d %s: stage %s round %s turn %d drawer %d bet %d opener %d dealer %d", st.Seq, st.Type, st.Stage, st.Round, st.Turn, st.Drawer, st.CurrentBet, st.Opener, st.Dealer),
	}
	for _, s := range st.Seats {
		out = append(out, fmt.Sprintf("seat %d %s stack %d front %d in %d won %d [%s] seen [%s] %s", s.Seat, s.Player, s.Stack, s.InFront, s.In, s.Won,
			cards.Join(s.Cards, " "), cards.Join(s.Seen, " "), s.Status))
	}
	pots := fmt.Sprintf("pot %d:", st.Pot)
	for _, p := range st.Pots {
		pots += fmt.Sprintf(" %d=%d%v", p.Index, p.Amount, p.Eligible)
	}
	out = append(out, pots)
	for _, sh := range st.Deck.Shuffles {
		out = append(out, fmt.Sprintf("shuffle %d %s cut %d order [%s]", sh.Seq, sh.Method, sh.Cut, cards.Join(sh.Order, " ")))
	}
	out = append(out, fmt.Sprintf("stub %d [%s]", st.Deck.StubCount, cards.Join(st.Deck.Stub, " ")))
	return out
}

// events-v1.md §7: who is away and who left are part of a hand's state, and the table follows
// their stacks: an away stack is carried untouched, a cash-out takes the last stack, and a player
// who just sat down (joined) has nothing to follow on from.
func TestAwayAndLeft(t *testing.T) {
	evs := load(t, "table-br-fechado.jsonl")
	hands := Group(evs)
	// Hands 4 and 5: bruno, carla and deniz dealt in; zoe away with 300 in both; in hand 5 a
	// newcomer's stack would be his buy-in.
	with := func(hand []*events.Event, edit func(hs *events.HandStarted)) []*events.Event {
		hs := *hand[0].Data.(*events.HandStarted)
		hs.Seats = append([]events.SeatStack(nil), hs.Seats...)
		edit(&hs)
		e := *hand[0]
		e.Data = &hs
		return append([]*events.Event{&e}, hand[1:]...)
	}
	for _, tc := range []struct {
		rule   string
		h4, h5 func(hs *events.HandStarted)
		breaks []Break
	}{
		{"events-v1.md §7 away: chips stay untouched",
			func(hs *events.HandStarted) { hs.Away = []events.AwaySeat{{Seat: 1, Player: "zoe", Stack: 300}} },
			func(hs *events.HandStarted) { hs.Away = []events.AwaySeat{{Seat: 1, Player: "zoe", Stack: 300}} }, nil},
		{"events-v1.md §7 away: a stack that changed while away breaks continuity",
			func(hs *events.HandStarted) { hs.Away = []events.AwaySeat{{Seat: 1, Player: "zoe", Stack: 300}} },
			func(hs *events.HandStarted) { hs.Away = []events.AwaySeat{{Seat: 1, Player: "zoe", Stack: 250}} },
			[]Break{{Player: "zoe", Want: 300, Got: 250}}},
		{"events-v1.md §7 left: a cash-out of exactly the last stack",
			func(hs *events.HandStarted) { hs.Away = []events.AwaySeat{{Seat: 1, Player: "zoe", Stack: 300}} },
			func(hs *events.HandStarted) { hs.Left = []events.LeftPlayer{{Player: "zoe", Stack: 300}} }, nil},
		{"events-v1.md §7 left and joined: bruno cashes out, zeca sits down with his own buy-in",
			func(*events.HandStarted) {},
			func(hs *events.HandStarted) {
				hs.Left = []events.LeftPlayer{{Player: "bruno", Stack: 870}}
				hs.Seats[0] = events.SeatStack{Seat: 2, Player: "zeca", Stack: 1000, Joined: true}
			}, nil},
	} {
		log := append(with(hands[3], tc.h4), with(hands[4], tc.h5)...)
		sums := Table(log)
		if len(sums) != 2 || fmt.Sprint(sums[1].Breaks) != fmt.Sprint(append([]Break{}, tc.breaks...)) {
			t.Errorf("%s: breaks %+v, want %+v", tc.rule, sums[1].Breaks, tc.breaks)
		}
		st, err := At(with(hands[4], tc.h5), 1)
		if err != nil {
			t.Fatal(err)
		}
		hs := events.HandStarted{Seats: make([]events.SeatStack, 1)}
		tc.h5(&hs)
		if len(st.Away) != len(hs.Away) || len(st.Left) != len(hs.Left) || len(sums[1].Away) != len(hs.Away) {
			t.Errorf("%s: state away %+v left %+v", tc.rule, st.Away, st.Left)
		}
	}
}
