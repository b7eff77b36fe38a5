package console_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/recorder/recordertest"
	"github.com/fechado/fechado/rules"
)

// shuffle asks the console for a machine shuffle of hand at seq as user; it returns the status
// and the answer (the commitment, or the error's key).
func (e *env) shuffle(user, pass, hand string, seq int) (int, map[string]string) {
	e.t.Helper()
	var out map[string]string
	code := e.call(user, pass, "POST", "/console/api/hands/"+hand+"/shuffle", fmt.Appendf(nil, `{"seq":%d}`, seq), &out)
	return code, out
}

// fileSize is the size of the seed file, 0 when there is none.
func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	info, err := os.Stat(path)
	if os.IsNotExist(err) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return info.Size()
}

// TestSeedsStayWithTheirTable: a hand id is unique at its table only, and a device may start a
// hand of its own table with the id of another table's hand in progress (the ids are public).
// Copying that hand's public commitment and cut must not give it the other table's deck: its
// console shows no card on top, where the seeds kept by hand id alone dealt it mesa-1's cards.
func TestSeedsStayWithTheirTable(t *testing.T) {
	e := newEnv(t)
	h, first := start("mesa-1")
	path := "/console/api/hands/" + h.id
	var a answer
	e.call("mesa1", "senha1", "POST", path+"/events", first, &a)
	_, sh := e.shuffle("mesa1", "senha1", h.id, 2)
	e.call("mesa1", "senha1", "POST", path+"/events", h.event(&events.DeckShuffled{Method: sh["method"], Commitment: sh["commitment"]}), &a)
	e.call("mesa1", "senha1", "POST", path+"/events", h.event(&events.DeckCut{At: 3}), &a)
	for a.Advice.Step == rules.StepAnte {
		e.call("mesa1", "senha1", "POST", path+"/events", h.event(&events.AntePosted{Seat: a.Advice.Seat, Amount: a.Advice.Amount}), &a)
	}
	if a.Advice.Top == nil {
		t.Fatalf("mesa-1's own console shows no top card at %s", a.Advice.Step)
	}
	// mesa-2 starts its own hand under the same id and copies the shuffle and the cut.
	copycat := &hand{table: "mesa-2", id: h.id}
	copied := copycat.event(&events.HandStarted{Rules: events.Rules{Name: "br-fechado"}, Number: 1, Dealer: 1,
		Stakes: events.Stakes{Ante: 1, MinBet: 2, MaxBet: 10},
		Seats:  []events.SeatStack{{Seat: 1, Player: "Ana", Stack: 100}, {Seat: 2, Player: "Beto", Stack: 100}, {Seat: 3, Player: "Caio", Stack: 100}}})
	var b answer
	for _, ev := range [][]byte{copied,
		copycat.event(&events.DeckShuffled{Method: sh["method"], Commitment: sh["commitment"]}),
		copycat.event(&events.DeckCut{At: 3})} {
		if code := e.call("mesa2", "senha2", "POST", path+"/events", ev, &b); code != http.StatusOK {
			t.Fatalf("mesa-2's own hand: %d %s %s", code, b.Error, b.Detail)
		}
	}
	for b.Advice.Step == rules.StepAnte {
		e.call("mesa2", "senha2", "POST", path+"/events", copycat.event(&events.AntePosted{Seat: b.Advice.Seat, Amount: b.Advice.Amount}), &b)
	}
	if b.Advice.Top != nil {
		t.Errorf("mesa-2's hand under mesa-1's hand id is shown mesa-1's top card %v", *b.Advice.Top)
	}
	// Nor does mesa-2's hand end mesa-1's: mesa-1 still deals from its seed.
	var again answer
	e.call("mesa1", "senha1", "GET", path, nil, &again)
	if again.Advice.Top == nil || *again.Advice.Top != *a.Advice.Top {
		t.Errorf("mesa-1's top card is now %v, want %v", again.Advice.Top, *a.Advice.Top)
	}
}

// TestSeedFileGrowsByALine: each new seed adds one line to the seed file, which keeps what it
// held (the file is not written again whole for each seed).
func TestSeedFileGrowsByALine(t *testing.T) {
	file := filepath.Join(t.TempDir(), "seeds.json")
	e := newEnvSeeds(t, recordertest.OpenAuth(t, devices), file)
	var hands []*hand
	for range 3 {
		h, first := start("mesa-1")
		var a answer
		e.call("mesa1", "senha1", "POST", "/console/api/hands/"+h.id+"/events", first, &a)
		hands = append(hands, h)
	}
	var was []byte
	for i, h := range hands {
		if code, out := e.shuffle("mesa1", "senha1", h.id, 2); code != http.StatusOK {
			t.Fatalf("shuffle %d: %d %v", i, code, out)
		}
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(b, was) || bytes.Count(b, []byte("\n")) != i+1 {
			t.Fatalf("after seed %d the file is\n%s\nwant the file before\n%s\nand one line more", i+1, b, was)
		}
		was = b
	}
}

// TestOldSeedFileIsRead: a seed file of the form before the seeds were kept by table (one JSON
// object of hands) is read: a hand the log holds keeps its seed at its table (the console still
// deals its cards), a hand the log does not hold is dropped, and the file is written in lines.
func TestOldSeedFileIsRead(t *testing.T) {
	l := recordertest.OpenAuth(t, devices)
	e := newEnvSeeds(t, l, "")
	h, first := start("mesa-1")
	path := "/console/api/hands/" + h.id
	var a answer
	e.call("mesa1", "senha1", "POST", path+"/events", first, &a)
	var seed cards.Seed
	seed[0] = 7
	e.call("mesa1", "senha1", "POST", path+"/events", h.event(&events.DeckShuffled{Method: cards.ShuffleMethod, Commitment: seed.Commitment()}), &a)
	e.call("mesa1", "senha1", "POST", path+"/events", h.event(&events.DeckCut{At: 3}), &a)
	for a.Advice.Step == rules.StepAnte {
		e.call("mesa1", "senha1", "POST", path+"/events", h.event(&events.AntePosted{Seat: a.Advice.Seat, Amount: a.Advice.Amount}), &a)
	}
	if a.Advice.Top != nil {
		t.Fatalf("a console without the seed shows a top card")
	}
	file := filepath.Join(t.TempDir(), "seeds.json")
	old, _ := json.Marshal(map[string]map[events.Seq]cards.Seed{h.id: {2: seed}, "gone-hand": {2: seed}})
	if err := os.WriteFile(file, old, 0o600); err != nil {
		t.Fatal(err)
	}
	e2 := newEnvSeeds(t, l, file)
	e2.call("mesa1", "senha1", "GET", path, nil, &a)
	if a.Advice.Top == nil {
		t.Errorf("the console started on the old seed file shows no top card")
	}
	b, _ := os.ReadFile(file)
	if bytes.Count(b, []byte("\n")) != 1 || !bytes.Contains(b, []byte(`"table":"mesa-1","hand":"`+h.id+`"`)) {
		t.Errorf("the old seed file is now\n%s\nwant one line, of mesa-1's hand", b)
	}
}
