package audit

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/fechado/fechado/events"
)

// TestTournamentCallbackGetsTheHandsOwnEventsWhenALineIsLenient proves that a hand of a
// tournament whose hand.ended line is read leniently (it has a member the contract does not
// have, events-v1.md §8) still reaches the Tournament callback at Close with its own hand.started
// and hand.ended. The Reader takes a hand's events back once the hand is judged and hands them
// out again for later lines, so what the auditor keeps for Close must be copies, even of events
// that events.Parse cannot copy from their line.
func TestTournamentCallbackGetsTheHandsOwnEventsWhenALineIsLenient(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "logs", "tournament-tr-kapali.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimRight(b, "\n"), []byte("\n"))
	// The second hand (cup-t02), whose hand.ended shows a tournament.place finding.
	const ended = 118
	e, err := events.Parse(lines[ended])
	if err != nil || e.Type != events.HandEndedType {
		t.Fatalf("line %d is not a hand.ended: %v", ended+1, err)
	}
	hand := e.Hand
	lines[ended] = append([]byte(`{"extra":1,`), lines[ended][1:]...)
	if _, err := events.Parse(lines[ended]); err == nil {
		t.Fatal("the changed line still parses: it would not be read leniently")
	}
	log := append(bytes.Join(lines, []byte("\n")), '\n')

	a := New(nil)
	got := map[string][][2]string{} // hand → its events' type and hand, as the callback saw them
	a.Tournament = func(h *HandResult) {
		for _, e := range h.Events {
			got[h.Hand] = append(got[h.Hand], [2]string{string(e.Type), e.Hand})
		}
	}
	if _, err := AuditReader(a, events.NewReaderBytes(log, "tournament", nil)); err != nil {
		t.Fatal(err)
	}
	// The callback runs at Close; whatever it holds then must still be the hand's.
	a.Close()
	want := [][2]string{{string(events.HandStartedType), hand}, {string(events.HandEndedType), hand}}
	if !slices.Equal(got[hand], want) {
		t.Fatalf("the Tournament callback got %v for hand %s, want %v", got[hand], hand, want)
	}
}
