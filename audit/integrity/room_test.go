package integrity_test

import (
	"io"
	"testing"
	"time"

	"github.com/fechado/fechado/audit/integrity"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/sim"
)

// analyseRoom plays a room and analyses it as it is written, without keeping the log.
func analyseRoom(t testing.TB, cfg sim.RoomConfig) (*integrity.Report, []sim.Pair, time.Duration) {
	t.Helper()
	pr, pw := io.Pipe()
	var pairs []sim.Pair
	errc := make(chan error, 1)
	go func() {
		var err error
		pairs, err = sim.Room(cfg, pw)
		pw.CloseWithError(err)
		errc <- err
	}()
	a := integrity.New(integrity.Options{})
	rd := events.NewReader(pr, "room")
	var busy time.Duration
	for {
		e, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		t0 := time.Now()
		a.Add(e)
		busy += time.Since(t0)
	}
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	r := a.Result()
	busy += time.Since(t0)
	return r, pairs, busy
}

// roomFigures are the recall and false positives of a report against the planted pairs.
type roomFigures struct {
	planted, found      map[string]int // by kind
	kindRight           int
	clean, cleanFlagged int
}

func figures(r *integrity.Report, truth []sim.Pair) roomFigures {
	f := roomFigures{planted: map[string]int{}, found: map[string]int{}}
	kind := map[[2]string]string{}
	for _, p := range truth {
		a, b := p.A, p.B
		if a > b {
			a, b = b, a
		}
		kind[[2]string{a, b}] = p.Kind
		f.planted[p.Kind]++
	}
	for _, p := range r.Pairs {
		k, planted := kind[[2]string{p.A, p.B}]
		switch {
		case planted && p.Flagged:
			f.found[k]++
			if p.Kind == k {
				f.kindRight++
			}
		case !planted:
			f.clean++
			if p.Flagged {
				f.cleanFlagged++
			}
		}
	}
	return f
}

func TestRoomDebug(t *testing.T) {
	r, truth, busy := analyseRoom(t, sim.RoomConfig{Players: 60, Tables: 10, Hands: 20000, Seed: 11, Colluders: 6})
	t.Logf("hands %d known %d pairs %d busy %v", r.Hands, r.Known, len(r.Pairs), busy)
	planted := map[[2]string]string{}
	for _, p := range truth {
		a, b := p.A, p.B
		if a > b {
			a, b = b, a
		}
		planted[[2]string{a, b}] = p.Kind
	}
	for i, p := range r.Pairs {
		if p.Flagged || planted[[2]string{p.A, p.B}] != "" {
			t.Logf("%d %s %s %q flagged=%v score=%.1f p=%.2g hands=%d ov=%+v soft=%.1f/%d dump=%.1f share=%.1f/%d", i, p.A, p.B, planted[[2]string{p.A, p.B}], p.Flagged, p.Score, p.P, p.Hands, p.Overlap, p.Soft.Z, p.Soft.N, p.Dumping.Z, p.Shared.Z, p.Shared.N)
		}
	}
	t.Logf("%+v", figures(r, truth))
}
