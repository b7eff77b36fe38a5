// Package simtest holds what the tests of several packages compute from a simulated log on their
// own, without the packages they test, to compare with what those packages give.
package simtest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
)

// IndependentPlaces computes the finishing places from the JSON Lines alone, as events-v1.md §7
// words it, without the tournament package: hands are taken as they end in the log; a player
// whose stack a hand ends at 0 goes out in the place given by the players still in, unless
// the hand carries chips to the next deal (his last chips may be in it: he is dealt in to it with
// stack 0, events-v1.md §7, 2026-12-05); those going
// out in one hand are ordered by their stacks at its start (more chips, better place), equal
// stacks sharing the place; the last player in is first. The tests of
// the tournament model and of its read models compare their places with these.
func IndependentPlaces(log []byte, entries int) (map[string]int, error) {
	type seat struct {
		Seat   int
		Player string
		Stack  int64
	}
	starts := map[string][]seat{}
	places := map[string]int{}
	players := map[string]bool{}
	in := entries
	sc := bufio.NewScanner(bytes.NewReader(log))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e struct {
			Hand string
			Type string
			Data json.RawMessage
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return nil, err
		}
		switch e.Type {
		case "hand.started":
			var d struct{ Seats []seat }
			if err := json.Unmarshal(e.Data, &d); err != nil {
				return nil, err
			}
			starts[e.Hand] = d.Seats
			for _, s := range d.Seats {
				players[s.Player] = true
			}
		case "hand.ended":
			var d struct {
				Stacks []struct {
					Seat  int
					Stack int64
				}
				Carry int64
			}
			if err := json.Unmarshal(e.Data, &d); err != nil {
				return nil, err
			}
			var out []seat
			for _, s := range starts[e.Hand] {
				if d.Carry > 0 {
					break // nobody goes out of a hand that carries chips to the next deal
				}
				for _, st := range d.Stacks {
					if st.Seat == s.Seat && st.Stack == 0 {
						out = append(out, s)
					}
				}
			}
			delete(starts, e.Hand)
			for _, s := range out {
				better := 0 // players going out here with more chips at the start
				for _, o := range out {
					if o.Stack > s.Stack {
						better++
					}
				}
				places[s.Player] = in - len(out) + 1 + better
			}
			in -= len(out)
		}
	}
	for p := range players {
		if _, ok := places[p]; !ok {
			if in != 1 {
				return nil, fmt.Errorf("%s never went out, but %d players are still in", p, in)
			}
			places[p] = 1
		}
	}
	return places, nil
}
