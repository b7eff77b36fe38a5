package main

import (
	"strings"
	"testing"
)

// Bad usage exits 2, an unreachable log 3; each command documents the log flags.
func TestLogCommandsUsage(t *testing.T) {
	// An empty log, set up: export then looks for what it does not hold.
	empty := t.TempDir()
	if code, _, stderr := recRun(t, nil, "init", "--data", empty); code != 0 {
		t.Fatalf("init: %d %s", code, stderr)
	}
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"record"}, 2, "no file to record"},
		{[]string{"record", "--data", t.TempDir(), "/no/such/file.jsonl"}, 2, "no such file"},
		{[]string{"record", "--window", "0", "x"}, 2, "--window"},
		{[]string{"record", "--user", "u", "x"}, 2, "go with --nats"},
		{[]string{"record", "--nats", "nats://127.0.0.1:1", "-"}, 3, "127.0.0.1:1"},
		{[]string{"export", "--data", t.TempDir()}, 2, "give one of"},
		{[]string{"export", "--all", "--hand", "x"}, 2, "give one of"},
		{[]string{"export", "--all", "x"}, 2, "unexpected argument"},
		{[]string{"export", "--data", empty, "--hand", "01a227c1-7c48-7c42-9370-e7acfdf6ed53"}, 2, "hand not found"},
		{[]string{"export", "--data", empty, "--table", "nobody"}, 2, "no hand of table nobody"},
		{[]string{"export", "--data", t.TempDir(), "--table", "nobody"}, 3, "does not exist"}, // never set up: nothing created
		{[]string{"verify", "--nats", "nats://127.0.0.1:1"}, 3, "127.0.0.1:1"},
		{[]string{"verify", "x"}, 2, "unexpected argument"},
	} {
		code, _, stderr := recRun(t, nil, tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.msg) {
			t.Errorf("%v: exit %d %q, want %d and %q", tc.args, code, stderr, tc.code, tc.msg)
		}
	}
	for _, c := range []string{"record", "export", "verify"} {
		if code, out, _ := recRun(t, nil, c, "--help"); code != 0 || !strings.Contains(out, "-data") || !strings.Contains(out, "-nats") {
			t.Errorf("%s --help: exit %d\n%s", c, code, out)
		}
	}
}
