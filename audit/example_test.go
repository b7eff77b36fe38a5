package audit_test

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/events"
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

// HandAfter audits one hand on its own (no previous hand known: nil) and returns its findings
// and what the table leaves for its next hand.
func ExampleHandAfter() {
	evs, err := readHand("../testdata/vectors/bad-false-open-std-draw.jsonl")
	if err != nil {
		fmt.Println(err)
		return
	}
	findings, memory := audit.HandAfter(evs, nil)
	for _, f := range findings {
		fmt.Printf("seq %d: %s (%s), seat %d\n", f.Seq, f.Code, f.Severity, f.Seat)
	}
	fmt.Println("the next hand follows hand", memory.Number)
	// Output:
	// seq 22: open.without-openers (error), seat 1
	// the next hand follows hand 1
}
