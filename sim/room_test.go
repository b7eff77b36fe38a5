package sim

import (
	"bytes"
	"errors"
	"testing"

	"github.com/fechado/fechado/events"
)

// playRoom plays a room into memory.
func playRoom(t *testing.T, cfg RoomConfig) ([]byte, []Pair) {
	t.Helper()
	var buf bytes.Buffer
	pairs, err := Room(cfg, &buf)
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), pairs
}

// TestRoomSameSeedSameBytes: a room is deterministic by its seed, like a table.
func TestRoomSameSeedSameBytes(t *testing.T) {
	cfg := RoomConfig{Players: 20, Tables: 4, Hands: 600, Seed: 5, Colluders: 3}
	a, pa := playRoom(t, cfg)
	b, pb := playRoom(t, cfg)
	if !bytes.Equal(a, b) || len(pa) != len(pb) {
		t.Fatal("the same room seed gave different logs")
	}
	cfg.Seed = 6
	if c, _ := playRoom(t, cfg); bytes.Equal(a, c) {
		t.Fatal("seeds 5 and 6 gave the same log")
	}
}

// TestRoomCollusionIsLegal: colluders act legally (the point of the analysis: the auditor finds
// nothing), every hand is a clean hand of the preset, every planted pair is of two players of the
// pool, and players come and go: a player sits at several tables, a table sees several players.
func TestRoomCollusionIsLegal(t *testing.T) {
	log, pairs := playRoom(t, RoomConfig{Players: 24, Tables: 4, Hands: 3000, Seed: 8, Colluders: 6})
	if len(pairs) != 6 {
		t.Fatalf("%d pairs planted, want 6", len(pairs))
	}
	kinds := map[string]int{}
	in := map[string]bool{}
	for _, p := range pairs {
		kinds[p.Kind]++
		if p.A == p.B || in[p.A] || in[p.B] {
			t.Errorf("pair %+v: a player twice", p)
		}
		in[p.A], in[p.B] = true, true
	}
	for _, k := range CollusionKinds {
		if kinds[k] != 2 {
			t.Errorf("%d pairs of %s, want 2 (the kinds in turn)", kinds[k], k)
		}
	}
	fs, a := auditLog(t, log)
	for _, f := range errorsOf(fs) {
		t.Errorf("%s", f.JSON())
	}
	if a.Hands < 3000 {
		t.Errorf("%d hands audited, want at least 3000", a.Hands)
	}
	tables := map[string]map[string]bool{}
	together := map[[2]string]int{}
	rd := events.NewReader(bytes.NewReader(log), "room")
	for {
		e, err := rd.Next()
		if err != nil {
			break
		}
		hs, ok := e.Data.(*events.HandStarted)
		if !ok {
			continue
		}
		for _, s := range hs.Seats {
			if tables[s.Player] == nil {
				tables[s.Player] = map[string]bool{}
			}
			tables[s.Player][e.Table] = true
		}
		for _, p := range pairs {
			var n int
			for _, s := range hs.Seats {
				if s.Player == p.A || s.Player == p.B {
					n++
				}
			}
			if n == 2 {
				together[[2]string{p.A, p.B}]++
			}
		}
	}
	if len(tables) != 24 {
		t.Errorf("%d players played, want the pool of 24", len(tables))
	}
	for pl, ts := range tables {
		if len(ts) < 3 {
			t.Errorf("%s sat at %d tables: players do not move", pl, len(ts))
		}
	}
	for _, p := range pairs {
		if together[[2]string{p.A, p.B}] == 0 {
			t.Errorf("pair %+v never played a hand together", p)
		}
	}
}

func TestRoomRejectsBadConfig(t *testing.T) {
	for _, cfg := range []RoomConfig{
		{Players: 5, Tables: 2, Hands: 10},                // 3 players a table at least
		{Players: 10, Tables: 1, Hands: 10, Colluders: 6}, // 12 colluders among 10
		{Players: 10, Tables: 1, Hands: 10, Colluders: 1, Collusion: []string{"peeking"}},
		{Players: 10, Tables: 0, Hands: 10},
	} {
		if _, err := Room(cfg, &bytes.Buffer{}); !errors.Is(err, ErrConfig) {
			t.Errorf("%+v: %v, want ErrConfig", cfg, err)
		}
	}
}
