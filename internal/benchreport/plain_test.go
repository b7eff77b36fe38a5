package main

import (
	"bytes"
	"context"
	"os"
	"testing"
	"time"

	"github.com/fechado/fechado/internal/testfiles"
	"github.com/fechado/fechado/recorder"
)

// The de-duplicated baseline sends each event id as Nats-Msg-Id: a file published twice in one
// run is stored once, where the plain baseline, with no header, stores it twice.
func TestPublishPlainDedup(t *testing.T) {
	file := testfiles.File(t, "vectors", "table-std-draw.jsonl")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := uint64(bytes.Count(b, []byte("\n")))
	for _, c := range []struct {
		dedup bool
		want  uint64
	}{{false, 2 * lines}, {true, lines}} {
		dir := t.TempDir()
		if err := publishPlain([]string{dir, file, file}, c.dedup); err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		l, err := recorder.Open(ctx, recorder.Options{DataDir: dir, Timeout: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		got, err := l.LastSeq(ctx)
		l.Close()
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("dedup %v: %d messages stored from twice %d lines, want %d", c.dedup, got, lines, c.want)
		}
	}
}
