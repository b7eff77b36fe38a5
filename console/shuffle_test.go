package console_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/console"
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

// TestShuffleRefusesAnotherTablesHand: a device gets no seed for a hand that is not stored at its
// own table: another table's hand (404 err.no-hand, as if it did not exist: the device reads its
// own table only) or a hand nobody started (the security review's repro: made-up ids, each of
// which used to add a seed to the file). Nothing is kept; the hand's own device still shuffles it.
func TestShuffleRefusesAnotherTablesHand(t *testing.T) {
	file := filepath.Join(t.TempDir(), "seeds.json")
	e := newEnvSeeds(t, recordertest.OpenAuth(t, devices), file)
	h, first := start("mesa-1")
	var a answer
	if code := e.call("mesa1", "senha1", "POST", "/console/api/hands/"+h.id+"/events", first, &a); code != http.StatusOK {
		t.Fatalf("hand.started: %d %+v", code, a)
	}
	if code, out := e.shuffle("mesa2", "senha2", h.id, 2); code != http.StatusNotFound || out["error"] != "err.no-hand" || out["commitment"] != "" {
		t.Errorf("mesa2 shuffling mesa-1's hand: %d %v, want 404 err.no-hand and no commitment", code, out)
	}
	for i := range 20 {
		if code, out := e.shuffle("mesa2", "senha2", fmt.Sprintf("not-my-table-%d", i), i+2); code != http.StatusNotFound || out["error"] != "err.no-hand" {
			t.Fatalf("a shuffle of a hand nobody started: %d %v, want 404 err.no-hand", code, out)
		}
	}
	// A hand id that cannot be a subject of the table (MayAppend) is refused as the events route refuses it.
	if code, out := e.shuffle("mesa2", "senha2", "a.b", 2); code != http.StatusForbidden || out["error"] != "err.other-table" {
		t.Errorf("a hand id with a dot: %d %v, want 403 err.other-table", code, out)
	}
	if n := fileSize(t, file); n != 0 {
		t.Errorf("after the refused shuffles the seed file holds %d bytes, want none", n)
	}
	code, out := e.shuffle("mesa1", "senha1", h.id, 2)
	if code != http.StatusOK || out["commitment"] == "" {
		t.Fatalf("mesa1 shuffling its own hand: %d %v", code, out)
	}
	if again, out2 := e.shuffle("mesa1", "senha1", h.id, 2); again != http.StatusOK || out2["commitment"] != out["commitment"] {
		t.Errorf("the same shuffle asked again: %d %v, want the same commitment %s", again, out2, out["commitment"])
	}
}

// TestShuffleSeqIsBounded: a shuffle is asked for a place of the hand still to come and within the
// console's limit (console.MaxShuffleSeq): not one already stored (409), not one past the limit
// (400 err.shuffle), not in a hand that has ended (409 err.shuffle).
func TestShuffleSeqIsBounded(t *testing.T) {
	e := newEnv(t)
	h, first := start("mesa-1")
	var a answer
	e.call("mesa1", "senha1", "POST", "/console/api/hands/"+h.id+"/events", first, &a)
	for _, c := range []struct {
		seq  int
		code int
		key  string
	}{
		{0, http.StatusBadRequest, "err.body"},
		{1, http.StatusConflict, "err.conflict"}, // hand.started's place
		{1001, http.StatusBadRequest, "err.shuffle"},
		{1 << 40, http.StatusBadRequest, "err.shuffle"},
	} {
		if code, out := e.shuffle("mesa1", "senha1", h.id, c.seq); code != c.code || out["error"] != c.key {
			t.Errorf("seq %d: %d %v, want %d %s", c.seq, code, out, c.code, c.key)
		}
	}
	if code, out := e.shuffle("mesa1", "senha1", h.id, 1000); code != http.StatusOK {
		t.Errorf("seq 1000, the last the limit allows: %d %v", code, out)
	}
	e.play(h, a) // to hand.ended
	if code, out := e.shuffle("mesa1", "senha1", h.id, int(h.seq)+1); code != http.StatusConflict || out["error"] != "err.shuffle" {
		t.Errorf("a shuffle after hand.ended: %d %v, want 409 err.shuffle", code, out)
	}
}

// TestShuffleSeedsAreBounded: a table holds at most 32 seeds of hands that have not ended
// (console.MaxTableSeeds): the next is refused with 429 err.seeds and nothing is written, while
// another table still shuffles; a resend of a seed it holds is still answered.
func TestShuffleSeedsAreBounded(t *testing.T) {
	file := filepath.Join(t.TempDir(), "seeds.json")
	e := newEnvSeeds(t, recordertest.OpenAuth(t, devices), file)
	h, first := start("mesa-1")
	var a answer
	e.call("mesa1", "senha1", "POST", "/console/api/hands/"+h.id+"/events", first, &a)
	for seq := 2; seq < 2+32; seq++ {
		if code, out := e.shuffle("mesa1", "senha1", h.id, seq); code != http.StatusOK {
			t.Fatalf("seed %d of 32: %d %v", seq-1, code, out)
		}
	}
	size := fileSize(t, file)
	code, out := e.shuffle("mesa1", "senha1", h.id, 40)
	if code != http.StatusTooManyRequests || out["error"] != "err.seeds" || out["detail"] == "" {
		t.Fatalf("the 33rd seed: %d %v, want 429 err.seeds with the counts", code, out)
	}
	if n := fileSize(t, file); n != size {
		t.Errorf("the refused seed changed the file: %d bytes, was %d", n, size)
	}
	if code, out := e.shuffle("mesa1", "senha1", h.id, 2); code != http.StatusOK {
		t.Errorf("a resend of a seed the table holds: %d %v", code, out)
	}
	h2, first2 := start("mesa-2")
	e.call("mesa2", "senha2", "POST", "/console/api/hands/"+h2.id+"/events", first2, &a)
	if code, out := e.shuffle("mesa2", "senha2", h2.id, 2); code != http.StatusOK {
		t.Errorf("another table's shuffle: %d %v", code, out)
	}
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

// TestShuffleSeedsBoundedInTotal: past the console's bound of seeds in all (console.MaxSeeds,
// lowered here to 3) every table is refused a new seed, 429 err.seeds.
func TestShuffleSeedsBoundedInTotal(t *testing.T) {
	e := newEnv(t)
	console.SetMaxSeeds(e.c.(*console.Console), 3)
	var a answer
	h1, first1 := start("mesa-1")
	e.call("mesa1", "senha1", "POST", "/console/api/hands/"+h1.id+"/events", first1, &a)
	h2, first2 := start("mesa-2")
	e.call("mesa2", "senha2", "POST", "/console/api/hands/"+h2.id+"/events", first2, &a)
	for _, s := range []struct {
		user, pass, hand string
		seq              int
	}{{"mesa1", "senha1", h1.id, 2}, {"mesa1", "senha1", h1.id, 3}, {"mesa2", "senha2", h2.id, 2}} {
		if code, out := e.shuffle(s.user, s.pass, s.hand, s.seq); code != http.StatusOK {
			t.Fatalf("%s seq %d: %d %v", s.user, s.seq, code, out)
		}
	}
	if code, out := e.shuffle("mesa2", "senha2", h2.id, 3); code != http.StatusTooManyRequests || out["error"] != "err.seeds" {
		t.Errorf("the 4th seed of the console: %d %v, want 429 err.seeds", code, out)
	}
}

// TestShuffleSeedsExpire: the seeds of a hand that never ends are dropped console.SeedLife after
// its first shuffle, which frees its table's bound; those of a hand younger are kept.
func TestShuffleSeedsExpire(t *testing.T) {
	file := filepath.Join(t.TempDir(), "seeds.json")
	e := newEnvSeeds(t, recordertest.OpenAuth(t, devices), file)
	now := time.Now() // the console started again below counts by the time of day
	console.SetClock(e.c.(*console.Console), func() time.Time { return now })
	var a answer
	given, first := start("mesa-1") // a hand given up after its shuffles
	e.call("mesa1", "senha1", "POST", "/console/api/hands/"+given.id+"/events", first, &a)
	_, old := e.shuffle("mesa1", "senha1", given.id, 2)
	for seq := 3; seq < 2+console.MaxTableSeeds; seq++ {
		e.shuffle("mesa1", "senha1", given.id, seq)
	}
	if code, out := e.shuffle("mesa1", "senha1", given.id, 2+console.MaxTableSeeds); code != http.StatusTooManyRequests {
		t.Fatalf("the table's bound is not reached: %d %v", code, out)
	}
	now = now.Add(console.SeedLife - time.Minute)
	live, first2 := start("mesa-2") // another table's hand, shuffled later
	e.call("mesa2", "senha2", "POST", "/console/api/hands/"+live.id+"/events", first2, &a)
	_, kept := e.shuffle("mesa2", "senha2", live.id, 2)
	now = now.Add(2 * time.Minute)
	if code, out := e.shuffle("mesa1", "senha1", given.id, 2+console.MaxTableSeeds); code != http.StatusOK {
		t.Fatalf("a shuffle once the given-up hand's seeds are past their life: %d %v", code, out)
	}
	if _, again := e.shuffle("mesa1", "senha1", given.id, 2); again["commitment"] == old["commitment"] {
		t.Errorf("the given-up hand's first seed was kept past its life")
	}
	if _, again := e.shuffle("mesa2", "senha2", live.id, 2); again["commitment"] != kept["commitment"] {
		t.Errorf("the younger hand's seed was dropped: %v, want %v", again, kept)
	}
	// Started again on the file, the console holds what it held: the 2 seeds of mesa-1, 1 of mesa-2.
	newEnvSeeds(t, recordertest.OpenAuth(t, devices), file)
	if b, _ := os.ReadFile(file); bytes.Count(b, []byte("\n")) != 2 || bytes.Count(b, []byte(`"seeds"`)) != 2 {
		t.Errorf("the seed file read again holds\n%s\nwant one line for each of the 2 hands", b)
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
