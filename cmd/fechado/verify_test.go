package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/recorder/recordertest"
	"github.com/nats-io/nats.go"
)

// verify exits 0 on a whole log and 1, with a report naming the message, when an event was
// slipped in around the recorder.
func TestVerifyReportsABrokenChain(t *testing.T) {
	data := t.TempDir()
	h := recordertest.Hand(t, "T", 1, 3)
	if code, _, stderr := recRun(t, recordertest.Lines(h), "record", "--data", data, "-"); code != 0 {
		t.Fatalf("record: exit %d %s", code, stderr)
	}
	if code, out, _ := recRun(t, nil, "verify", "--data", data); code != 0 || !strings.Contains(out, "OK:") {
		t.Fatalf("verify: exit %d\n%s", code, out)
	}

	// fechado's user may publish to a hand's subject directly: a forged event that skips the
	// recorder's checks (seq 6 after 6, prev of another event).
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	l, err := recorder.Open(ctx, recorder.Options{DataDir: data})
	if err != nil {
		t.Fatal(err)
	}
	forged := *h[4]
	forged.ID = recordertest.Hand(t, "x", 1, 0)[0].ID
	events.Seal(&forged, h[1].Prev)
	m := &nats.Msg{Subject: recorder.Subject("T", h[0].Hand), Data: forged.Raw, Header: nats.Header{}}
	m.Header.Set("Nats-Msg-Id", forged.ID)
	if _, err := l.JetStream().PublishMsg(ctx, m); err != nil {
		t.Fatal(err)
	}
	l.Close()

	code, out, _ := recRun(t, nil, "verify", "--data", data)
	if code != 1 || !strings.Contains(out, "NOT OK") ||
		!strings.Contains(out, "log.sequence: stream message 7 (fechado.hand.T."+h[0].Hand+")") ||
		!strings.Contains(out, "log.chain: stream message 7") || !strings.Contains(out, "configuration: ok") {
		t.Fatalf("verify: exit %d\n%s", code, out)
	}
}
