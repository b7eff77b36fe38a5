package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fechado/fechado/lang"
	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/recorder/checkpoint"
	"github.com/fechado/fechado/recorder/recordertest"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// natsServer starts a JetStream nats-server storing under dir, listening on a random loopback
// port with no users (an external server for --nats); it returns its URL.
func natsServer(t *testing.T, dir string) (*server.Server, string) {
	t.Helper()
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: server.RANDOM_PORT, JetStream: true, StoreDir: dir,
		NoLog: true, NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		t.Fatal("nats-server did not start")
	}
	t.Cleanup(s.Shutdown)
	return s, s.ClientURL()
}

// streamNames lists the streams of the server at url.
func streamNames(t *testing.T, url string) []string {
	t.Helper()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var names []string
	l := js.StreamNames(ctx)
	for n := range l.Name() {
		names = append(names, n)
	}
	if err := l.Err(); err != nil && !errors.Is(err, jetstream.ErrEndOfData) {
		t.Fatal(err)
	}
	return names
}

// TestVerifyMissingStreamCreatesNothing: verify and the other commands that only read the log,
// on a log that was never set up (or was deleted), fail with a message naming the missing stream
// and leave the server without any stream: on an external server (--nats) and embedded, a data
// folder that holds a JetStream store without the stream, or no folder at all (issue 38: verify
// re-created an empty stream and printed OK).
func TestVerifyMissingStreamCreatesNothing(t *testing.T) {
	_, url := natsServer(t, t.TempDir())
	key := filepath.Join(t.TempDir(), "log.key")
	if code, _, stderr := recRun(t, nil, "keygen", "--out", key); code != 0 {
		t.Fatalf("keygen: exit %d %s", code, stderr)
	}
	readers := [][]string{
		{"verify"}, {"audit", "--all"}, {"export", "--all"}, {"replay", "--hand", "01900000-0000-7000-8000-000000000001"},
		{"report", "--hand", "01900000-0000-7000-8000-000000000001"}, {"project", "--db", filepath.Join(t.TempDir(), "p.db")},
		{"prove", "--hand", "01900000-0000-7000-8000-000000000001"},
		// checkpoint signs the log and keeps the signed checkpoints: it creates neither stream
		// for a log that does not exist.
		{"checkpoint", "--sign-key", key},
	}
	for _, args := range readers {
		code, out, stderr := recRun(t, nil, append(args, "--nats", url)...)
		if code == 0 || !strings.Contains(stderr, "FECHADO_HANDS does not exist") || strings.Contains(out, "OK:") {
			t.Errorf("%v --nats on a server without the stream: exit %d\nstdout %s\nstderr %s", args, code, out, stderr)
		}
		if names := streamNames(t, url); len(names) != 0 {
			t.Fatalf("%v --nats created %v", args, names)
		}
	}
	if code, _, _ := recRun(t, nil, "verify", "--nats", url); code != exitFindings {
		t.Errorf("verify on a missing stream: exit %d, want %d", code, exitFindings)
	}

	// Embedded: a folder with a JetStream store but no stream (another server's store), and a
	// folder that does not exist.
	store := t.TempDir()
	s, _ := natsServer(t, store)
	s.Shutdown()
	missing := filepath.Join(t.TempDir(), "never-made")
	empty := t.TempDir() // a folder that holds no log (a mistyped --data): it stays empty
	for _, dir := range []string{store, missing, empty} {
		for _, args := range readers {
			code, _, stderr := recRun(t, nil, append(args, "--data", dir)...)
			if code == 0 || !strings.Contains(stderr, "FECHADO_HANDS does not exist") {
				t.Errorf("%v --data %s: exit %d %s", args, dir, code, stderr)
			}
		}
	}
	if _, err := os.Stat(missing); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the read-only commands made the data folder %s (%v)", missing, err)
	}
	if left, err := os.ReadDir(empty); err != nil || len(left) != 0 {
		t.Errorf("the read-only commands left %v in the empty folder %s (%v)", left, empty, err)
	}
	_, url2 := natsServer(t, store) // the same store, served again: still no stream
	if names := streamNames(t, url2); len(names) != 0 {
		t.Fatalf("the embedded read-only commands created %v", names)
	}
}

// TestInitCreatesTheStreamOnce: init creates the stream with the configuration of docs/stream.md
// and --replicas, says so, and a second run changes nothing; verify then passes. On a stream
// configured otherwise (deletes allowed), init and verify both fail naming the setting, and init
// leaves it as it was.
func TestInitCreatesTheStreamOnce(t *testing.T) {
	_, url := natsServer(t, t.TempDir())
	code, out, stderr := recRun(t, nil, "init", "--nats", url)
	if code != 0 || !strings.Contains(out, "created the stream FECHADO_HANDS with 1 replicas") {
		t.Fatalf("init: exit %d\n%s%s", code, out, stderr)
	}
	if code, out, stderr = recRun(t, nil, "init", "--nats", url); code != 0 || !strings.Contains(out, "exists") {
		t.Fatalf("init again: exit %d\n%s%s", code, out, stderr)
	}
	if code, out, _ := recRun(t, nil, "verify", "--nats", url); code != 0 {
		t.Fatalf("verify after init: exit %d\n%s", code, out)
	}
	if code, _, stderr := recRun(t, nil, "init", "--nats", url, "--replicas", "3"); code != exitFindings || !strings.Contains(stderr, "replicas is 1, not 3") {
		t.Errorf("init --replicas 3 on a one-replica stream: exit %d %s", code, stderr)
	}
	if code, _, stderr := recRun(t, nil, "verify", "--nats", url, "--replicas", "3"); code != exitFindings || !strings.Contains(stderr, "replicas is 1, not 3") {
		t.Errorf("verify --replicas 3 of a one-replica stream: exit %d %s", code, stderr)
	}

	// Another server, whose stream someone created allowing deletes.
	_, url2 := natsServer(t, t.TempDir())
	nc, err := nats.Connect(url2)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	cfg := recorder.StreamConfig(1)
	cfg.DenyDelete = false
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := js.CreateStream(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"init", "verify"} {
		code, _, stderr := recRun(t, nil, cmd, "--nats", url2)
		if code != exitFindings || !strings.Contains(stderr, "not configured as docs/stream.md requires") || !strings.Contains(stderr, "deny_delete is off") {
			t.Errorf("%s on a stream that allows deletes: exit %d %s", cmd, code, stderr)
		}
	}
	st, err := js.Stream(ctx, recorder.StreamName)
	if err != nil {
		t.Fatal(err)
	}
	if st.CachedInfo().Config.DenyDelete {
		t.Error("init changed the existing stream")
	}

	// A third server, whose hands' stream is right but whose checkpoints' stream someone
	// created allowing purges: init names it and exits 1, changing nothing.
	_, url3 := natsServer(t, t.TempDir())
	nc3, err := nats.Connect(url3)
	if err != nil {
		t.Fatal(err)
	}
	defer nc3.Close()
	js3, _ := jetstream.New(nc3)
	tcfg := checkpoint.StreamConfig(1)
	tcfg.DenyPurge = false
	if _, err := js3.CreateStream(ctx, tcfg); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := recRun(t, nil, "init", "--nats", url3); code != exitFindings || !strings.Contains(stderr, checkpoint.StreamName) || !strings.Contains(stderr, "deny_purge is off") {
		t.Errorf("init beside a checkpoint stream that allows purges: exit %d %s", code, stderr)
	}

	// Embedded: init then record then verify.
	data := t.TempDir()
	if code, out, stderr := recRun(t, nil, "init", "--data", data); code != 0 || !strings.Contains(out, "created") {
		t.Fatalf("init --data: exit %d %s%s", code, out, stderr)
	}
	if code, _, stderr := recRun(t, recordertest.Lines(recordertest.Hand(t, "T", 1, 3)), "record", "--data", data, "-"); code != 0 {
		t.Fatalf("record: %d %s", code, stderr)
	}
	if code, out, _ := recRun(t, nil, "verify", "--data", data); code != 0 {
		t.Fatalf("verify: %d %s", code, out)
	}
}

// A command's --lang is the language of its errors too, not only of its report: the missing
// stream is said in Portuguese to `audit --lang pt-BR`, whatever the environment says, and in
// the environment's language without --lang.
func TestMissingStreamSaidInTheLanguageOfLang(t *testing.T) {
	pt, _ := lang.Get("pt-BR")
	tr, _ := lang.Get("tr")
	missing := filepath.Join(t.TempDir(), "never-made")
	want := func(l *lang.Lang) string { return l.T("stream.missing", lang.Args{"stream": recorder.StreamName}) }
	m := &Main{Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{},
		Getenv: func(k string) string { return map[string]string{"LANG": "tr_TR.UTF-8"}[k] }}
	if code := m.Run([]string{"audit", "--lang", "pt-BR", "--all", "--data", missing}); code == 0 ||
		!strings.Contains(m.Stderr.(*bytes.Buffer).String(), want(pt)) {
		t.Errorf("audit --lang pt-BR: exit %d, stderr %q, want %q", code, m.Stderr, want(pt))
	}
	m = &Main{Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}, Getenv: m.Getenv}
	if code := m.Run([]string{"audit", "--all", "--data", missing}); code == 0 ||
		!strings.Contains(m.Stderr.(*bytes.Buffer).String(), want(tr)) {
		t.Errorf("audit with LANG=tr_TR.UTF-8: exit %d, stderr %q, want %q", code, m.Stderr, want(tr))
	}
}
