package replay_test

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/replay"
)

// readHand reads every event of a JSON Lines file.
func readHand(path string) ([]*events.Event, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := events.NewReader(f, path)
	var evs []*events.Event
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			return evs, nil
		}
		if err != nil {
			return nil, err
		}
		evs = append(evs, e)
	}
}

// At gives the table as it stood after one event of a hand: nothing the log reveals later leaks
// into it.
func ExampleAt() {
	evs, err := readHand("../testdata/vectors/bad-false-open-std-draw.jsonl")
	if err != nil {
		fmt.Println(err)
		return
	}
	st, err := replay.At(evs, 22) // seat 1 opens
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("after seq %d (%s): stage %s, round %s, opener seat %d, pot %d\n",
		st.Seq, st.Type, st.Stage, st.Round, st.Opener, st.Pot)
	for _, s := range st.Seats {
		fmt.Printf("seat %d %s: stack %d, in %d, %d cards\n", s.Seat, s.Player, s.Stack, s.In, len(s.Cards))
	}
	// Output:
	// after seq 22 (player.acted): stage betting, round first, opener seat 1, pot 25
	// seat 1 p1: stack 185, in 15, 5 cards
	// seat 2 p2: stack 195, in 5, 5 cards
	// seat 3 p3: stack 195, in 5, 5 cards
}
