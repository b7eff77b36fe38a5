package checkpoint_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/fechado/fechado/recorder/checkpoint"
	"github.com/fechado/fechado/recorder/recordertest"
	"github.com/nats-io/nats.go/jetstream"
)

// OpenStore binds FECHADO_TLOG only when it keeps what StreamConfig gives it: a stream someone
// created before serve with deletes, purges or roll-ups allowed, limits, memory storage or other
// subjects is refused, by writers and readers alike, and the error names the setting.
func TestOpenStoreRefusesATlogStreamThatAllowsDelete(t *testing.T) {
	for _, c := range []struct {
		name, want string
		change     func(*jetstream.StreamConfig)
	}{
		{"deletes allowed", "deny_delete is off", func(c *jetstream.StreamConfig) { c.DenyDelete = false }},
		{"purges allowed", "deny_purge is off", func(c *jetstream.StreamConfig) { c.DenyPurge = false }},
		{"roll-ups allowed", "roll-ups are allowed", func(c *jetstream.StreamConfig) { c.AllowRollup, c.DenyPurge = true, false }},
		{"an age limit", "max_age", func(c *jetstream.StreamConfig) { c.MaxAge = time.Hour }},
		{"a count limit, old ones dropped", "max_msgs", func(c *jetstream.StreamConfig) { c.MaxMsgs = 100; c.Discard = jetstream.DiscardOld }},
		{"one message a subject", "max_msgs_per_subject", func(c *jetstream.StreamConfig) { c.MaxMsgsPerSubject = 1 }},
		{"memory storage", "not file", func(c *jetstream.StreamConfig) { c.Storage = jetstream.MemoryStorage }},
		{"per-message TTLs", "TTL", func(c *jetstream.StreamConfig) { c.AllowMsgTTL = true }},
		{"other subjects", "fechado.tlog.>", func(c *jetstream.StreamConfig) { c.Subjects = []string{"fechado.tlog.checkpoint.*"} }},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := recordertest.Open(t)
			cfg := checkpoint.StreamConfig(1)
			c.change(&cfg)
			sjs, done, err := l.SetupJetStream()
			if err != nil {
				t.Fatal(err)
			}
			_, err = sjs.CreateStream(t.Context(), cfg)
			done()
			if err != nil {
				t.Fatal(err)
			}
			for _, create := range []bool{true, false} {
				st, err := checkpoint.OpenStore(t.Context(), l, create)
				if !errors.Is(err, checkpoint.ErrStreamConfig) || st != nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), checkpoint.StreamName) {
					t.Fatalf("OpenStore (create %v) of a stream with %s: %v", create, c.name, err)
				}
			}
		})
	}
	// The stream as StreamConfig makes it is taken, created or found.
	l := recordertest.Open(t)
	for range 2 {
		if _, err := checkpoint.OpenStore(t.Context(), l, true); err != nil {
			t.Fatal(err)
		}
	}
}
