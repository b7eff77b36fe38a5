package rules_test

import (
	"os"
	"slices"
	"testing"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/internal/eventfiles"
	"github.com/fechado/fechado/internal/race"
	"github.com/fechado/fechado/internal/testfiles"
	"github.com/fechado/fechado/rules"
)

// benchHand is one hand of a bench file, decoded once: its events in seq order, the seeds its
// deck.revealed events name by shuffle seq, and the commitments they are checked against.
type benchHand struct {
	evs     []*events.Event
	seeds   map[events.Seq]cards.Seed
	reveals []benchReveal
}

type benchReveal struct {
	seed       cards.Seed
	commitment string
}

// loadHands decodes the files with events.Reader and groups their events by hand, in the order
// each hand first appears.
func loadHands(tb testing.TB, paths ...string) []benchHand {
	tb.Helper()
	var order []string
	by := map[string][]*events.Event{}
	for _, path := range paths {
		for _, e := range eventfiles.Read(tb, path, 0) {
			k := e.Table + "/" + e.Hand
			if _, ok := by[k]; !ok {
				order = append(order, k)
			}
			by[k] = append(by[k], e)
		}
	}
	out := make([]benchHand, 0, len(order))
	for _, k := range order {
		evs := by[k]
		slices.SortStableFunc(evs, func(a, b *events.Event) int { return int(a.Seq) - int(b.Seq) })
		bh := benchHand{evs: evs, seeds: map[events.Seq]cards.Seed{}}
		shuffles := map[events.Seq]*events.DeckShuffled{}
		for _, e := range evs {
			switch d := e.Data.(type) {
			case *events.DeckShuffled:
				shuffles[e.Seq] = d
			case *events.DeckRevealed:
				if sh, ok := shuffles[d.Shuffle]; ok {
					bh.seeds[d.Shuffle] = d.Seed
					bh.reveals = append(bh.reveals, benchReveal{d.Seed, sh.Commitment})
				}
			}
		}
		out = append(out, bh)
	}
	return out
}

// replayHands runs what the auditor asks of rules and cards for each hand (audit.auditHand and
// its continuity check): the commitment of every revealed seed, NewHand, Apply of every event,
// the violations, the expected carry and the hand's end. It returns the number of violations.
func replayHands(tb testing.TB, hands []benchHand) int {
	n := 0
	for i := range hands {
		bh := &hands[i]
		for _, r := range bh.reveals {
			if r.commitment != "" && r.seed.Commitment() != r.commitment {
				n++
			}
		}
		h, err := rules.NewHand(bh.evs[0])
		if err != nil {
			tb.Fatal(err)
		}
		h.Seeds = bh.seeds
		for _, e := range bh.evs[1:] {
			h.Apply(e)
		}
		for _, v := range h.Violations {
			n += len(v.Message) & 1
		}
		n += len(h.Violations)
		if h.Ended() != nil {
			_ = h.ExpectedCarry()
			for _, p := range h.Players {
				_ = p.Stack
			}
		}
	}
	return n
}

func benchReplay(b *testing.B, hands []benchHand) {
	b.ReportAllocs()
	replayHands(b, hands) // warm the evaluators
	for b.Loop() {
		replayHands(b, hands)
	}
	b.ReportMetric(float64(len(hands))*float64(b.N)/b.Elapsed().Seconds(), "hands/s")
	b.ReportMetric(float64(len(hands)), "hands/op")
}

// BenchmarkHandReplay replays hands through the rules as the auditor does (NewHand, Apply of
// every event, the violations, the deck re-derived from revealed seeds) and reports hands/s;
// B/op and allocs/op are for the whole set of hands (divide by hands/op for a hand). The
// "vectors" case runs on the example table vectors; the "file" and "file-cached" cases on the
// hands of FECHADO_BENCH_FILE, all of them or the first 200 (skipped when it is unset).
//
//	FECHADO_BENCH_FILE=table.jsonl GOMAXPROCS=1 go test ./rules -run '^$' -bench HandReplay -benchmem
func BenchmarkHandReplay(b *testing.B) {
	b.Run("vectors", func(b *testing.B) {
		benchReplay(b, loadHands(b, testfiles.Glob(b, "vectors/table-*.jsonl")...))
	})
	var file []benchHand // decoded once for both cases
	fileHands := func(b *testing.B) []benchHand {
		path := os.Getenv("FECHADO_BENCH_FILE")
		if path == "" {
			b.Skip("FECHADO_BENCH_FILE is not set")
		}
		if file == nil {
			file = loadHands(b, path)
		}
		return file
	}
	b.Run("file", func(b *testing.B) { benchReplay(b, fileHands(b)) })
	// The first 200 hands of the file, whose events stay in the CPU caches as the auditor's do
	// (it replays a hand right after decoding it), where "file" replays tens of megabytes of
	// events and waits on memory for much of the time.
	b.Run("file-cached", func(b *testing.B) {
		hands := fileHands(b)
		benchReplay(b, hands[:min(200, len(hands))])
	})
}

// Replaying a hand allocates a handful of objects: the Hand, its players, and at most a few
// more (the expected pots at the first award, a longer list of awards, violations).
func TestHandReplayAllocs(t *testing.T) {
	paths := testfiles.Glob(t, "vectors/table-*.jsonl")
	if race.Enabled {
		t.Skip("the race detector's instrumentation allocates")
	}
	hands := loadHands(t, paths...)
	for i := range hands {
		hands[i].reveals = nil // the auditor's commitment strings are not the rules' allocations
	}
	replayHands(t, hands) // warm the evaluators and the shuffle's pool
	perHand := testing.AllocsPerRun(20, func() { replayHands(t, hands) }) / float64(len(hands))
	t.Logf("%.2f allocations a hand", perHand)
	if perHand > 4 {
		t.Errorf("replaying a hand allocates %.1f objects; want at most 4", perHand)
	}
}
