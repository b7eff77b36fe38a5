package tournament

import (
	"fmt"
	"testing"

	"github.com/fechado/fechado/events"
	"pgregory.net/rapid"
)

// events-v1.md §7 places, as a property: whatever players go out in whatever hands, the places
// rank them as competition ranking does ("1224"): a player's place is one more than the number
// of players who finished above him (a better place, or the winner), equal stacks in one hand
// share a place, and the last player in is first.
func TestPlacesProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(2, 9).Draw(t, "entries")
		stacks := map[string]events.Chips{}
		var in []string
		for i := range n {
			name := fmt.Sprintf("p%d", i)
			in = append(in, name)
			stacks[name] = 100
		}
		b := NewBook()
		total := events.Chips(100 * n)
		for k := 1; len(in) > 1; k++ {
			// Some players lose every chip to the first one, who takes them; the others stand.
			var seats []p
			var busts []string
			for i, name := range in {
				start := stacks[name]
				end := start
				// Everyone left goes out by the 20th hand, so that the tournament ends.
				if i > 0 && (k >= 20 || rapid.Bool().Draw(t, fmt.Sprintf("out%d-%d", k, i))) {
					end = 0
					busts = append(busts, name)
				}
				seats = append(seats, p{seat: events.Seat(i + 1), name: name, stack: start, end: end})
			}
			var won events.Chips
			for _, name := range busts {
				won += stacks[name]
			}
			seats[0].end += won
			for i := range seats {
				stacks[seats[i].name] = seats[i].end
			}
			entries := 0
			if k == 1 {
				entries = n
			}
			h := hand{table: "a", start: 2 * k, end: 2*k + 1, level: 1, entries: entries, seats: seats}
			b.Add(nil, h.build(k))
			var rest []string
			for _, name := range in {
				if stacks[name] > 0 {
					rest = append(rest, name)
				}
			}
			in = rest
		}
		tour := b.Get("cup")
		if held, _ := tour.Chips(); held != total || !tour.Finished() {
			t.Fatalf("held %d of %d, finished %v", held, total, tour.Finished())
		}
		places := map[string]int{}
		for _, s := range tour.Standings() {
			places[s.Player] = s.Place
		}
		for name, pl := range places {
			above := 0
			for other, q := range places {
				if other != name && q < pl {
					above++
				}
			}
			if pl != above+1 || pl < 1 || pl > n {
				t.Fatalf("%s: place %d with %d players above him: %v", name, pl, above, places)
			}
		}
	})
}
