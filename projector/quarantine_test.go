package projector

import (
	"bytes"
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/fechado/fechado/events"
)

// Events the projector cannot apply go to quarantine with the reason, and projection goes on:
// the good events give the same statistics as a log without the bad ones.
func TestQuarantineAndGoOn(t *testing.T) {
	ctx := context.Background()
	good := buildCorpus(t, 1)
	parse := func(l []byte) *events.Event {
		e, err := events.Parse(bytes.Clone(l))
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	// The first hand in the stream, its second event, its hand.ended, and a player.acted.
	first := parse(good[0])
	var second, ended, acted []byte
	for _, l := range good {
		e := parse(l)
		if e.Hand != first.Hand {
			continue
		}
		switch {
		case e.Seq == 2:
			second = l
		case e.Type == events.PlayerActedType && acted == nil:
			acted = l
		case e.Type == events.HandEndedType:
			ended = l
		}
	}
	seat9 := parse(acted)
	seat9.Data.(*events.PlayerActed).Seat = 9
	seat9.Seq = 100 // past anything of the hand at that point
	events.Seal(seat9, seat9.Prev)
	stranger := parse(second)
	stranger.Hand = "0190c0de-0000-7000-8000-000000000001"
	events.Seal(stranger, stranger.Prev)
	unknownType := bytes.Replace(second, []byte(`"type":"`), []byte(`"type":"x.`), 1)

	// In stream order.
	type bad struct {
		after  int    // insert after this many good lines
		line   []byte // the bad line
		hand   string // hand_id expected in quarantine
		reason string // part of the reason
	}
	bads := []bad{
		{0, []byte(`this is not json`), "", "undecodable"},
		{1, unknownType, first.Hand, "undecodable"},
		{3, stranger.Raw, stranger.Hand, "hand not started"},
		{8, second, first.Hand, "does not follow"}, // after the original (good[4])
		{40, seat9.Raw, first.Hand, "seat 9 was not dealt in"},
		{len(good), ended, first.Hand, "event after hand.ended"},
		{len(good), good[0], first.Hand, "already projected"},
	}
	var lines [][]byte
	for i := 0; i <= len(good); i++ {
		for _, b := range bads {
			if b.after == i {
				lines = append(lines, b.line)
			}
		}
		if i < len(good) {
			lines = append(lines, good[i])
		}
	}
	db := openDB(t)
	pr := project(t, db, writeLines(t, t.TempDir(), lines), 10)
	if pr.Quarantined != len(bads) || pr.Events != len(lines) || pr.Hands != 24 {
		t.Fatalf("progress %+v, want %d events, %d quarantined, 24 hands", pr, len(lines), len(bads))
	}
	rows, err := db.QueryContext(ctx, `SELECT hand_id, reason, raw FROM quarantine ORDER BY stream_seq`)
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	for rows.Next() {
		var hand, reason string
		var raw []byte
		if err := rows.Scan(&hand, &reason, &raw); err != nil {
			t.Fatal(err)
		}
		if i >= len(bads) {
			t.Fatalf("extra quarantine row %s %s", hand, reason)
		}
		b := bads[i]
		if hand != b.hand || !strings.Contains(reason, b.reason) || !bytes.Equal(raw, b.line) {
			t.Errorf("quarantine row %d: hand %q, reason %q; want hand %q, reason with %q", i, hand, reason, b.hand, b.reason)
		}
		i++
	}
	rows.Close()
	if i != len(bads) {
		t.Fatalf("%d quarantine rows, want %d", i, len(bads))
	}
	// The hand the bad events claimed counts those that came while it was open.
	var q int
	db.QueryRowContext(ctx, `SELECT quarantined FROM hands WHERE hand_id = ?`, first.Hand).Scan(&q)
	if q != 3 {
		t.Errorf("hand %s: %d quarantined, want 3", first.Hand, q)
	}
	clean := openDB(t)
	project(t, clean, writeLines(t, t.TempDir(), good), 0)
	a, _ := PlayerStats(ctx, clean, Filter{})
	b, _ := PlayerStats(ctx, db, Filter{})
	if !reflect.DeepEqual(a, b) || len(a) == 0 {
		t.Errorf("statistics differ with the bad events quarantined:\n%+v\n%+v", a, b)
	}
}
