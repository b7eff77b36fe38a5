package rules_test

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/rules"
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

// A Hand follows one hand's events under its preset: each event it is given moves the state on,
// and each rule an event breaks comes back as a Violation.
func ExampleHand() {
	evs, err := readHand("../testdata/vectors/bad-false-open-std-draw.jsonl")
	if err != nil {
		fmt.Println(err)
		return
	}
	h, err := rules.NewHand(evs[0])
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range evs[1:] {
		for _, v := range h.Apply(e) {
			fmt.Printf("seq %d: %s, seat %d\n", v.Seq, v.Code, v.Seat)
		}
	}
	fmt.Printf("seat %d opened holding openers: %v\n", h.Opener, h.OpenerQualified)
	fmt.Printf("%s, stage %s, pot %d\n", h.Preset.Name, h.Stage, h.Pot())
	for _, a := range h.Awards {
		fmt.Printf("seq %d: pot %d, %d chips to seat %d\n", a.Seq, a.Pot, a.Amount, a.Seat)
	}
	// Output:
	// seq 22: open.without-openers, seat 1
	// seat 1 opened holding openers: false
	// std-draw, stage ended, pot 45
	// seq 34: pot 0, 45 chips to seat 2
}
