package events_test

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/fechado/fechado/events"
)

// A Reader decodes a JSON Lines log one event at a time, and hashes the lines for the chain.
func ExampleReader() {
	f, err := os.Open("../testdata/vectors/bad-false-open-std-draw.jsonl")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	r := events.NewReader(f, f.Name())
	byType := map[events.Type]int{}
	var prevSum [32]byte
	chained := true
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil { // an *events.Error names the file, the line and the field
			fmt.Println(err)
			return
		}
		if e.Seq == 1 {
			hs := e.Data.(*events.HandStarted)
			fmt.Printf("hand %d of table %s, %s, %d seats\n", hs.Number, e.Table, hs.Rules.Name, len(hs.Seats))
		} else if !events.IsHashOf(e.Prev, &prevSum) {
			chained = false
		}
		prevSum, _ = r.LineSum()
		byType[e.Type]++
	}
	fmt.Println(r.Line(), "lines;", byType[events.CardDealtType], "cards dealt;", byType[events.PlayerActedType], "actions")
	fmt.Println("each line names the hash of the one before:", chained)
	// Output:
	// hand 1 of table ex-false-open, std-draw, 3 seats
	// 35 lines; 15 cards dealt; 6 actions
	// each line names the hash of the one before: true
}
