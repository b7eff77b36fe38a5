package main

import (
	"bytes"
	"encoding/json"
	htmlpkg "html"
	"html/template"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/recorder/checkpoint"
	"github.com/fechado/fechado/recorder/recordertest"
	"github.com/fechado/fechado/report"
)

// tlogKeygen makes a key with keygen and returns its file and the verifier key (the last line).
func tlogKeygen(t *testing.T, args ...string) (file, vkey string) {
	t.Helper()
	file = filepath.Join(t.TempDir(), "key")
	code, out, stderr := recRun(t, nil, append([]string{"keygen", "--out", file}, args...)...)
	if code != 0 {
		t.Fatalf("keygen: exit %d %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	return file, lines[len(lines)-1]
}

func TestKeygenWritesASecretKeyAndPrintsTheVerifierLast(t *testing.T) {
	file, vkey := tlogKeygen(t, "--name", "club.example/log")
	st, err := os.Stat(file)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("key file %v: %v", st, err)
	}
	skey, _ := checkpoint.ReadKeyFile(file)
	if want, _ := checkpoint.VerifierKey(skey); vkey != want || !strings.HasPrefix(vkey, "club.example/log+") {
		t.Fatalf("printed %q, the key's verifier is %q", vkey, want)
	}
	if code, _, _ := recRun(t, nil, "keygen", "--out", file); code != exitUsage {
		t.Fatalf("keygen over an existing key: exit %d, want 2", code)
	}
	if code, _, _ := recRun(t, nil, "keygen", "--out", file+"2", "--name", "two words"); code != exitUsage {
		t.Fatalf("keygen with a name with a space: exit %d, want 2", code)
	}
}

// recordHands records hands (each a slice of events) into the log of data, one after the other
// (one record each: record appends the hands of one input concurrently, interleaved).
func recordHands(t *testing.T, data string, hands ...[]*events.Event) {
	t.Helper()
	for _, h := range hands {
		if code, _, stderr := recRun(t, recordertest.Lines(h), "record", "--data", data, "-"); code != 0 {
			t.Fatalf("record: exit %d %s", code, stderr)
		}
	}
}

// Issue 40: a checkpoint taken, events appended, verify --since passes; the log deleted and
// re-recorded without one hand (or with one byte changed), verify --since fails and names the
// first tree size where they differ.
func TestVerifySinceProvesTheLogExtendsACheckpointAndNamesWhereItDoesNot(t *testing.T) {
	a, b, c, d := recordertest.Hand(t, "T", 1, 3), recordertest.Hand(t, "T", 2, 3), recordertest.Hand(t, "T", 3, 3), recordertest.Hand(t, "T", 4, 3)
	key, vkey := tlogKeygen(t, "--name", "club.example/log")
	_, otherKey := tlogKeygen(t, "--name", "club.example/log")

	cases := []struct {
		name     string
		rerecord func(data string)
		first    string
	}{
		{"one hand left out", func(data string) { recordHands(t, data, a, c, d) }, "first difference: tree size 7:"},
		{"one byte changed", func(data string) {
			b2 := make([]*events.Event, len(b))
			prev := ""
			for i, e := range b {
				x := *e
				if i == len(b)-1 { // the hand's last event, a second later: one digit of its time
					x.At = strings.Replace(x.At, ":05.000Z", ":06.000Z", 1)
				}
				events.Seal(&x, prev)
				prev = events.Hash(x.Raw)
				b2[i] = &x
			}
			recordHands(t, data, a, b2, c, d)
		}, "first difference: tree size 12:"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			data := t.TempDir()
			recordHands(t, data, a, b, c) // 18 events
			code, signed, stderr := recRun(t, nil, "checkpoint", "--sign-key", key, "--data", data)
			if code != 0 || !strings.HasPrefix(signed, "club.example/log\n18\n") {
				t.Fatalf("checkpoint: exit %d %q %s", code, signed, stderr)
			}
			cp := filepath.Join(t.TempDir(), "checkpoint")
			os.WriteFile(cp, []byte(signed), 0o644)
			recordHands(t, data, d)

			code, out, stderr := recRun(t, nil, "verify", "--since", cp, "--key", vkey, "--data", data)
			if code != 0 || !strings.Contains(out, "OK: the log extends the checkpoint") || !strings.Contains(out, "from tree size 18 to 24") {
				t.Fatalf("verify --since on a log that grew: exit %d\n%s%s", code, out, stderr)
			}
			if code, _, _ := recRun(t, nil, "verify", "--since", cp, "--key", otherKey, "--data", data); code != exitFindings {
				t.Fatalf("verify --since with another key: exit %d, want 1", code)
			}

			// The log deleted (its JetStream store: the stream and the stored checkpoints) and
			// re-recorded; the node's tree of the old log stays in DATA/tlog.
			if err := os.RemoveAll(filepath.Join(data, "jetstream")); err != nil {
				t.Fatal(err)
			}
			tc.rerecord(data)
			code, out, _ = recRun(t, nil, "verify", "--since", cp, "--key", vkey, "--data", data)
			if code != exitFindings || !strings.Contains(out, "NOT OK") || !strings.Contains(out, tc.first) {
				t.Fatalf("verify --since on a rewritten log: exit %d\n%s", code, out)
			}
		})
	}
}

func TestProvePrintsAProofThatVerifiesOffline(t *testing.T) {
	data := t.TempDir()
	a, b := recordertest.Hand(t, "T", 1, 3), recordertest.Hand(t, "T", 2, 3)
	recordHands(t, data, a, b)
	key, vkey := tlogKeygen(t)
	if code, _, _ := recRun(t, nil, "prove", "--hand", a[0].Hand, "--data", data); code != exitUsage {
		t.Fatalf("prove without any checkpoint: exit %d, want 2", code)
	}
	if code, _, stderr := recRun(t, nil, "checkpoint", "--sign-key", key, "--data", data); code != 0 {
		t.Fatalf("checkpoint: %s", stderr)
	}
	code, out, stderr := recRun(t, nil, "prove", "--hand", b[0].Hand, "--data", data)
	if code != 0 {
		t.Fatalf("prove: exit %d %s", code, stderr)
	}
	var p checkpoint.HandProof
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatal(err)
	}
	if _, evs, err := p.Verify(vkey); err != nil || len(evs) != 6 || p.Events[0].Leaf != 6 {
		t.Fatalf("the printed proof: %v (%d events, first leaf %d)", err, len(evs), p.Events[0].Leaf)
	}
	// A hand recorded after the latest checkpoint is not covered by it.
	recordHands(t, data, recordertest.Hand(t, "T", 3, 3))
	c := recordertest.Hand(t, "T", 4, 3)
	recordHands(t, data, c)
	if code, _, stderr := recRun(t, nil, "prove", "--hand", c[0].Hand, "--data", data); code != exitUsage || !strings.Contains(stderr, "does not cover") {
		t.Fatalf("prove of a hand after the checkpoint: exit %d %s", code, stderr)
	}
}

// Issue 40: a witness co-signs a log that grew and refuses to co-sign the forked log.
func TestWitnessCosignsThroughServeAndRefusesAForkedLog(t *testing.T) {
	data := t.TempDir()
	a, b := recordertest.Hand(t, "T", 1, 3), recordertest.Hand(t, "T", 2, 3)
	recordHands(t, data, a, b)
	key, vkey := tlogKeygen(t, "--name", "club.example/log")
	wkey, wvkey := tlogKeygen(t, "--witness", "--name", "witness.example/w1")
	url, stop, _, stderr := startServer(t, "serve", "--http", "127.0.0.1:0", "--data", data, "--sign-key", key,
		"--witness-key", wvkey, "--checkpoint-interval", "50ms")
	state := filepath.Join(t.TempDir(), "state")
	witness := func(logURL string) (int, string) {
		code, out, errs := recRun(t, nil, "witness", "--log", strings.TrimSuffix(logURL, "/"), "--log-key", vkey, "--key", wkey, "--state", state, "--once")
		return code, out + errs
	}
	waitCheckpoint := func(url string, size string) string {
		deadline := time.Now().Add(20 * time.Second)
		for time.Now().Before(deadline) {
			resp, err := http.Get(url + "checkpoint")
			if err == nil {
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if strings.HasPrefix(string(body), "club.example/log\n"+size+"\n") {
					return string(body)
				}
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatalf("no checkpoint of size %s: %s", size, stderr)
		return ""
	}
	waitCheckpoint(url, "12")
	if code, out := witness(url); code != 0 || !strings.Contains(out, "co-signed tree size 12") {
		t.Fatalf("witness: exit %d %s", code, out)
	}
	// The log publishes the co-signature with its checkpoint; verify --since can require it.
	published := waitCheckpoint(url, "12")
	if !strings.Contains(published, "— witness.example/w1 ") {
		t.Fatalf("GET /checkpoint does not carry the co-signature:\n%s", published)
	}
	resp, err := http.Post(url+"api/events", "application/x-ndjson", strings.NewReader(string(recordertest.Lines(recordertest.Hand(t, "T", 3, 3)))))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	waitCheckpoint(url, "18")
	if code, out := witness(url); code != 0 || !strings.Contains(out, "co-signed tree size 18 (after 12)") {
		t.Fatalf("witness after growth: exit %d %s", code, out)
	}
	cosigned := waitCheckpoint(url, "18")

	// A player's receipt of a hand, from its short link, checks offline and against the log.
	receipt := filepath.Join(t.TempDir(), "receipt.json")
	resp, err = http.Get(url + "tlog/receipt/" + b[0].Hand)
	if err != nil {
		t.Fatal(err)
	}
	rb, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(rb), `"last_event_hash":"`+events.Hash(b[len(b)-1].Raw)+`"`) {
		t.Fatalf("GET /tlog/receipt/%s: %d %s", b[0].Hand, resp.StatusCode, rb)
	}
	os.WriteFile(receipt, rb, 0o644)
	if code, out, stderr := recRun(t, nil, "verify-receipt", receipt, "--key", vkey, "--log", url); code != 0 || !strings.Contains(out, "still holds it") {
		t.Fatalf("verify-receipt: exit %d %s %s", code, out, stderr)
	}
	forgedReceipt := filepath.Join(t.TempDir(), "forged.json")
	os.WriteFile(forgedReceipt, []byte(strings.Replace(string(rb), `"last_event_hash":"`, `"last_event_hash":"0`, 1)[:len(rb)]), 0o644)
	if code, _, _ := recRun(t, nil, "verify-receipt", forgedReceipt, "--key", vkey); code != exitFindings {
		t.Fatalf("verify-receipt of a receipt with another hash: exit %d, want 1", code)
	}
	if code := stop(); code != 0 {
		t.Fatalf("serve: exit %d %s", code, stderr)
	}
	cp := filepath.Join(t.TempDir(), "cp")
	os.WriteFile(cp, []byte(cosigned), 0o644)
	_, otherWitness := tlogKeygen(t, "--witness", "--name", "witness.example/w2")
	if code, out, _ := recRun(t, nil, "verify", "--since", cp, "--key", vkey, "--witness", wvkey, "--data", data); code != 0 || !strings.Contains(out, "witnesses: 1 of 1 co-signed") {
		t.Fatalf("verify --since with the witness: exit %d %s", code, out)
	}
	if code, _, stderr := recRun(t, nil, "verify", "--since", cp, "--key", vkey, "--witness", wvkey, "--witness", otherWitness, "--witnesses-required", "2", "--data", data); code != exitFindings || !strings.Contains(stderr, "not enough witness") {
		t.Fatalf("verify --since requiring 2 of 2 witnesses, 1 signed: exit %d %s", code, stderr)
	}

	// The same log key serves a forked log: the first hands re-recorded with one left out.
	forked := t.TempDir()
	recordHands(t, forked, a, recordertest.Hand(t, "T", 3, 3), recordertest.Hand(t, "T", 4, 3))
	furl, fstop, _, fstderr := startServer(t, "serve", "--http", "127.0.0.1:0", "--data", forked, "--sign-key", key, "--witness-key", wvkey)
	waitCheckpoint(furl, "18")
	code, out := witness(furl)
	if code != exitFindings || !strings.Contains(out, "FORK") || !strings.Contains(out, "evidence written to") {
		t.Fatalf("witness on a forked log: exit %d %s", code, out)
	}
	if strings.Contains(waitCheckpoint(furl, "18"), "— witness.example/w1 ") {
		t.Fatal("the forked log got a co-signature")
	}
	// The player's receipt does not hold against the forked log.
	if code, out, stderr := recRun(t, nil, "verify-receipt", receipt, "--key", vkey, "--log", furl); code != exitFindings {
		t.Fatalf("verify-receipt against the forked log: exit %d %s %s", code, out, stderr)
	}
	if code := fstop(); code != 0 {
		t.Fatalf("serve: %s", fstderr)
	}
}

// Issue 40: a report verifies offline, and the same report with one card changed does not, in
// the page or in the events it carries.
func TestVerifyReportChecksTheHandAgainstTheSignedLog(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	sim := filepath.Join(dir, "hands.jsonl")
	if code, _, stderr := recRun(t, nil, "sim", "--rules", "br-fechado", "--players", "3", "--hands", "2", "--seed", "7", "--out", sim); code != 0 {
		t.Fatalf("sim: %s", stderr)
	}
	if code, _, stderr := recRun(t, nil, "record", "--data", data, sim); code != 0 {
		t.Fatalf("record: %s", stderr)
	}
	var first struct {
		Hand string `json:"hand"`
	}
	json.Unmarshal(bytes.SplitN(recRead(t, sim), []byte("\n"), 2)[0], &first)
	page := filepath.Join(dir, "report.html")
	// Before any checkpoint the report is written without a proof, and says so.
	if code, _, stderr := recRun(t, nil, "report", "--hand", first.Hand, "--data", data, "--out", page); code != 0 || !strings.Contains(stderr, "carries no proof") {
		t.Fatalf("report without a checkpoint: exit %d %s", code, stderr)
	}
	key, vkey := tlogKeygen(t, "--name", "club.example/log")
	if code, _, stderr := recRun(t, nil, "checkpoint", "--sign-key", key, "--data", data); code != 0 {
		t.Fatalf("checkpoint: %s", stderr)
	}
	if code, _, stderr := recRun(t, nil, "report", "--hand", first.Hand, "--data", data, "--lang", "tr", "--out", page); code != 0 {
		t.Fatalf("report: exit %d %s", code, stderr)
	}
	html := string(recRead(t, page))
	fp := strings.SplitN(vkey, "+", 3)
	if !strings.Contains(html, "İmzalı kayıttaki kanıt") || !strings.Contains(html, fp[0]+"&#43;"+fp[1]) {
		t.Fatal("the report does not say, in Turkish, what was proven with which key")
	}
	code, out, stderr := recRun(t, nil, "verify-report", page, "--key", vkey)
	if code != 0 || !strings.HasPrefix(out, "OK: hand "+first.Hand) {
		t.Fatalf("verify-report: exit %d %s %s", code, out, stderr)
	}
	_, otherKey := tlogKeygen(t, "--name", "club.example/log")
	if code, _, _ := recRun(t, nil, "verify-report", page, "--key", otherKey); code != exitFindings {
		t.Fatalf("verify-report with another key: exit %d, want 1", code)
	}

	// One card changed on the page: a player's cards in the table of players.
	cell := regexp.MustCompile(`<td class="cards">(\d+|[AKQJ])`).FindStringSubmatchIndex(html)
	if cell == nil {
		t.Fatal("no cards on the page")
	}
	rank := html[cell[2]:cell[3]]
	other := "K"
	if rank == "K" {
		other = "Q"
	}
	changed := filepath.Join(dir, "changed.html")
	os.WriteFile(changed, []byte(html[:cell[2]]+other+html[cell[3]:]), 0o644)
	if code, _, stderr := recRun(t, nil, "verify-report", changed, "--key", vkey); code != exitFindings || !strings.Contains(stderr, "not the one the signed events give") {
		t.Fatalf("verify-report of a page with a card changed: exit %d %s", code, stderr)
	}

	// One card changed in the events the page carries (and the page written from them).
	sealed, err := report.ReadSealed([]byte(html))
	if err != nil {
		t.Fatal(err)
	}
	var hp checkpoint.HandProof
	json.Unmarshal(sealed.Proof, &hp)
	done := false
	for i, ep := range hp.Events {
		if m := regexp.MustCompile(`"card":"([2-9TJQKA])([cdhs])"`).FindSubmatchIndex(ep.Data); m != nil && !done {
			d := append([]byte(nil), ep.Data...)
			if d[m[2]] == 'A' {
				d[m[2]] = 'K'
			} else {
				d[m[2]] = 'A'
			}
			hp.Events[i].Data, done = d, true
		}
	}
	if !done {
		t.Fatal("no card in the hand's events")
	}
	raw, _ := json.Marshal(hp)
	tag := `<pre id="fechado-proof" hidden>`
	start := strings.Index(html, tag) + len(tag)
	end := start + strings.Index(html[start:], "</pre>")
	var block map[string]json.RawMessage
	if err := json.Unmarshal([]byte(htmlpkg.UnescapeString(html[start:end])), &block); err != nil {
		t.Fatal(err)
	}
	block["proof"] = raw
	forged, _ := json.Marshal(block)
	os.WriteFile(changed, []byte(html[:start]+template.HTMLEscapeString(string(forged))+html[end:]), 0o644)
	if code, _, stderr := recRun(t, nil, "verify-report", changed, "--key", vkey); code != exitFindings || !strings.Contains(stderr, "not in the signed log") {
		t.Fatalf("verify-report of a page whose events carry a changed card: exit %d %s", code, stderr)
	}
}
