package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fechado/fechado/recorder"
)

// A byte flipped in one stored message of the embedded server's block file (the server stopped,
// as between two commands): export, audit and project stop with exit 3 and an error naming the
// message's stream sequence and its hand, instead of skipping it (and exiting 0) or waiting for
// it; verify says damaged, with the sequence, not deleted.
func TestDamagedStoreStopsTheReaders(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	log := vector(t, "table-br-fechado.jsonl")
	if code, _, errOut := fechado("", "record", "--data", data, log); code != exitOK {
		t.Fatalf("record: exit %d: %s", code, errOut)
	}
	lines, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Split(strings.TrimSuffix(string(lines), "\n"), "\n")
	line := []byte(all[len(all)/2]) // a line in the middle of the log
	blocks, _ := filepath.Glob(filepath.Join(data, "jetstream", "*", "streams", recorder.StreamName, "msgs", "*.blk"))
	flipped := false
	for _, b := range blocks {
		raw, err := os.ReadFile(b)
		if err != nil {
			t.Fatal(err)
		}
		if i := bytes.Index(raw, line); i >= 0 {
			raw[i+len(line)/2] ^= 0x20
			if err := os.WriteFile(b, raw, 0o600); err != nil {
				t.Fatal(err)
			}
			flipped = true
		}
	}
	if !flipped {
		t.Fatal("the line is in no block file")
	}
	hand := string(line[strings.Index(string(line), `"hand":"`)+8:])
	hand = hand[:strings.IndexByte(hand, '"')]
	// Its stream sequence, as verify names it (record pipelines hands: not the line's number).
	code, out, _ := fechado("", "verify", "--data", data)
	i := strings.Index(out, "stream.damaged: stream message ")
	if code != exitFindings || i < 0 || strings.Contains(out, "stream.deleted") {
		t.Fatalf("verify: exit %d:\n%s", code, out)
	}
	seq := strings.Fields(out[i+len("stream.damaged: stream message "):])[0]
	for _, args := range [][]string{
		{"export", "--all"},
		{"export", "--table", "ex-br-fechado"},
		{"audit", "--all", "--json"},
		{"audit", "--all", "--json", "--workers", "2"}, // the spread's reader and workers stop too
		{"audit", "--table", "ex-br-fechado", "--json"},
		{"project"},
	} {
		code, _, errOut := fechado("", append(args, "--data", data)...)
		if code != exitStore || !strings.Contains(errOut, "stream message "+seq+" cannot be read") || !strings.Contains(errOut, hand) {
			t.Errorf("%s: exit %d, stderr %q; want exit %d naming stream message %s and hand %s", strings.Join(args, " "), code, errOut, exitStore, seq, hand)
		}
	}
}
