package main

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fechado/fechado/replay"
)

// The text view shows the seats as a table, the pot, the round, the turn, the opener and the
// deck; a file of several hands replays the last unless --hand picks one.
func TestReplayText(t *testing.T) {
	code, out, errOut := fechado("", "replay", vector(t, "table-br-fechado.jsonl"))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"hand #6", "the last of 6 hands", "| seat | player | stack | in front | in hand | cards", "deniz",
		"pot 55", "opener seat 3", "dealer seat 4", "stub 15 cards, top first: 9h Js 7c", "seed matches the commitment"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	code, out, _ = fechado("", "replay", "--hand", "9085ef83-9ab5-5867-a7bc-face883e39db", "--at", "31", vector(t, "table-br-fechado.jsonl"))
	if code != exitOK || !strings.Contains(out, "hand #2") || !strings.Contains(out, "after seq 31 of 52") ||
		!strings.Contains(out, "turn seat 1") || !strings.Contains(out, "seed not revealed yet") || strings.Contains(out, "order:") {
		t.Errorf("--hand --at 31: exit %d:\n%s", code, out)
	}
}

// --json prints one replay.State object.
func TestReplayJSON(t *testing.T) {
	code, out, errOut := fechado("", "replay", "--json", "--at", "24", vector(t, "hand-split-odd-chip-br-fechado.jsonl"))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var st replay.State
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&st); err != nil {
		t.Fatal(err)
	}
	if dec.More() {
		t.Error("more than one JSON value")
	}
	if st.Seq != 24 || st.Turn != 1 || st.Opener != 3 || st.CurrentBet != 10 || st.Pot != 25 || len(st.Seats) != 3 ||
		st.Seats[2].InFront != 10 || len(st.Seats[0].Cards) != 5 {
		t.Errorf("state %+v", st)
	}
}

// --list follows the table hand by hand.
func TestReplayList(t *testing.T) {
	code, out, _ := fechado("", "replay", "--list", vector(t, "table-br-fechado.jsonl"))
	if code != exitOK || strings.Count(out, "hand #") != 6 || !strings.Contains(out, "ana                 110 ->      0") ||
		!strings.HasSuffix(out, "6 hands\n") || strings.Contains(out, "!") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	code, out, _ = fechado("", "replay", "--list", "--json", vector(t, "table-std-draw.jsonl"))
	var l struct{ Hands []replay.HandSummary }
	if err := json.Unmarshal([]byte(out), &l); code != exitOK || err != nil || len(l.Hands) != 6 {
		t.Errorf("--list --json: exit %d, %v, %d hands", code, err, len(l.Hands))
	}
}

func TestReplayErrors(t *testing.T) {
	for _, args := range [][]string{
		{"replay"},
		{"replay", "--at", "99", vector(t, "hand-split-odd-chip-br-fechado.jsonl")},
		{"replay", "--hand", "nope", vector(t, "hand-split-odd-chip-br-fechado.jsonl")},
		{"replay", "a.jsonl", "b.jsonl"},
		{"replay", "/nonexistent.jsonl"},
		{"replay", "-"},
	} {
		if code, _, errOut := fechado("not json\n", args...); code != exitUsage || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
}

// Through the draw every player still in the hand may win the main pot, the one waiting for his
// replacements too (docs/rules.md "Pots and side pots", pot layers: the live players).
func TestReplayDrawEligible(t *testing.T) {
	const hand = "9085ef83-9ab5-5867-a7bc-face883e39db" // ana draws three at seq 36
	waiting := 0
	for seq := 36; ; seq++ {
		code, out, errOut := fechado("", "replay", "--json", "--hand", hand, "--at", strconv.Itoa(seq), vector(t, "table-br-fechado.jsonl"))
		if code != exitOK {
			t.Fatalf("--at %d: exit %d: %s", seq, code, errOut)
		}
		var st replay.State
		if err := json.Unmarshal([]byte(out), &st); err != nil {
			t.Fatal(err)
		}
		if st.Stage != "draw" {
			break
		}
		if len(st.Pots) == 0 {
			t.Fatalf("seq %d: no pot", seq)
		}
		for _, s := range st.Seats {
			live := s.Status == replay.StatusActive || s.Status == replay.StatusAllIn
			if live && len(s.Cards)+s.Hidden < 5 {
				waiting++
			}
			if live != slices.Contains(st.Pots[0].Eligible, s.Seat) {
				t.Errorf("seq %d: seat %d (%s, %d cards) eligible for the main pot %v, want %v", seq, s.Seat, s.Status, len(s.Cards), st.Pots[0].Eligible, live)
			}
		}
		code, text, _ := fechado("", "replay", "--hand", hand, "--at", strconv.Itoa(seq), vector(t, "table-br-fechado.jsonl"))
		if code != exitOK || !strings.Contains(text, "main pot 60, eligible: seats 1, 3") {
			t.Errorf("--at %d: exit %d:\n%s", seq, code, text)
		}
	}
	if waiting == 0 {
		t.Fatal("no step of the draw has a player waiting for his replacements: the case is not tested")
	}
}
