package web_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/recorder/recordertest"
	"github.com/fechado/fechado/sim"
)

// TestAppendedCountsEveryPath appends hands by three paths — POST /api/events, the log's Append
// (the table console and the demo's simulated tables), and a client of its own publishing
// straight to the hand's subject as another process would — and checks that
// fechado_events_appended_total counts the events of all three, and nothing twice: a repeated
// POST stores nothing new.
func TestAppendedCountsEveryPath(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 0)
	hs := simulated(t, sim.Config{Rules: "br-fechado", Players: 3, Hands: 3, Seed: 61, Table: "t-paths", ExposeRate: -1})
	ctx := context.Background()

	e.post(handsBody(hs[:1]), http.StatusOK, nil)
	posted := float64(len(hs[0].Events))
	if got := e.metric("fechado_events_appended_total"); got != posted {
		t.Fatalf("after a POST of %v events the counter is %v", posted, got)
	}

	for _, ev := range hs[1].Events {
		if _, err := e.log.Append(ctx, ev); err != nil {
			t.Fatal(err)
		}
	}
	// Another NATS client on the same server: this process's own code never sees its appends.
	js := recordertest.JetStream(t, e.log)
	for _, ev := range hs[2].Events {
		if _, err := js.Publish(ctx, recorder.Subject(ev.Table, ev.Hand), ev.Raw, jetstream.WithMsgID(ev.ID)); err != nil {
			t.Fatal(err)
		}
	}
	e.post(handsBody(hs[:1]), http.StatusOK, nil) // already stored: skipped, not appended again
	want := posted + float64(len(hs[1].Events)+len(hs[2].Events))
	if got := e.metric("fechado_events_appended_total"); got != want {
		t.Errorf("fechado_events_appended_total = %v after %v events by three paths", got, want)
	}
	if got := e.metric("fechado_events_skipped_total"); got != posted {
		t.Errorf("fechado_events_skipped_total = %v, want the %v events posted twice", got, posted)
	}
}
