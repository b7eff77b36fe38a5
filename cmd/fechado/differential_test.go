package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/internal/audittest"
	"github.com/fechado/fechado/internal/race"
	"github.com/fechado/fechado/projector"
	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/recorder/recordertest"
	"github.com/fechado/fechado/web"
)

// One verdict (issue 39): the same log gives the same findings, byte for byte as `audit --json`
// writes them, and the same standings, by every path that computes them, whatever order it
// was recorded in. Each log of the set is recorded three ways into a log of its own — in order,
// its second half of hands before its first, and by four recorders at once appending
// overlapping parts into one embedded log — and each stored log is read through every path: the
// audit of the whole log, of each table, of the tournament; serve's projector as its API gives
// the findings of every hand and a tournament's standings; the report's findings of each hand;
// and replay --tournament's standings. Each must equal the audit of the log as a file.
//
// make test runs it without the race detector (the Makefile's RACEFREE): it compares verdicts
// over whole logs, and under the detector it was a quarter of the race pass's CPU. What it runs
// concurrently, four recorders appending into one log at once, TestRecordersAtOnceAuditAsTheFile
// runs under the detector. Under the detector (make test-long) the cash session and the two small
// logs are shorter; the tournament is issue 39's own.
func TestOneVerdictByEveryPath(t *testing.T) {
	dir := t.TempDir()
	hands := func(n int) string {
		if race.Enabled {
			n /= 2
		}
		return fmt.Sprint(n)
	}
	logs := []struct {
		name, tournament string
		args             []string
		bad              bool // lines that are not events: the stored log holds what record keeps
	}{
		{name: "cash", args: []string{"sim", "--cash", "--rules", "online-draw", "--players", "6", "--hands", hands(40), "--seed", "3", "--inject", "table.stack,table.dealer"}},
		{name: "tournament", tournament: "copa-sp", args: []string{"sim", "--tournament", "--rules", "br-fechado", "--entries", "14", "--tables", "2", "--seed", "5", "--id", "copa-sp"}},
		{name: "injected", args: []string{"sim", "--rules", "std-draw", "--players", "5", "--hands", hands(30), "--seed", "8", "--inject", "table.stack,table.dealer,pot.total"}},
		{name: "bad-lines", bad: true, args: []string{"sim", "--rules", "tr-kapali", "--players", "4", "--hands", hands(30), "--seed", "6"}},
	}
	for _, lg := range logs {
		t.Run(lg.name, func(t *testing.T) {
			code, out, errOut := fechado("", lg.args...)
			if code != exitOK {
				t.Fatalf("%v: exit %d: %s", lg.args, code, errOut)
			}
			file := filepath.Join(dir, lg.name+".jsonl")
			log := []byte(out)
			if lg.bad {
				log = withBadLines(t, log)
			}
			if err := os.WriteFile(file, log, 0o644); err != nil {
				t.Fatal(err)
			}
			hands := splitHands(t, log)
			stores := map[string]string{}
			for _, how := range []string{"in order", "out of order", "concurrently"} {
				data := filepath.Join(dir, lg.name, strings.ReplaceAll(how, " ", "-"))
				switch how {
				case "in order":
					recordParts(t, data, log)
				case "out of order":
					half := len(hands) / 2
					recordParts(t, data, slices.Concat(hands[half:]...), slices.Concat(hands[:half]...))
				case "concurrently":
					recordConcurrently(t, data, hands)
				}
				stores[how] = data
			}
			// The reference: the audit of the file; of what the log keeps of it when some of
			// its lines are not events (record refuses them).
			ref := file
			if lg.bad {
				code, out, errOut := fechado("", "export", "--all", "--data", stores["in order"])
				if code != exitOK {
					t.Fatalf("export: exit %d: %s", code, errOut)
				}
				ref = filepath.Join(dir, lg.name+"-kept.jsonl")
				if err := os.WriteFile(ref, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want := auditJSON(t, "audit", "--json", ref)
			if len(want) == 0 {
				t.Fatal("the reference audit finds nothing: the comparison proves little")
			}
			// The projector over the file itself, as a projector meets a log that holds lines
			// the recorder refuses (a file, another writer): the audit of the file, stray
			// lines and all.
			fileWant := want
			if lg.bad {
				fileWant = auditJSON(t, "audit", "--json", file)
				for code, n := range map[string]int{"log.schema": 4, "log.sequence": 4, "log.chain": 1, "log.duplicate-id": 2} {
					if got := strings.Count(strings.Join(fileWant, "\n"), `"code":"`+code+`"`); got < n {
						t.Errorf("the audit of the file finds %d %s, want at least %d: the stray lines prove little", got, code, n)
					}
				}
			}
			same(t, "project FILE", projectFile(t, file), "audit FILE", placeless(fileWant))
			var wantStandings []standing
			var wantState state
			var wantTour []string // the tournament.* findings
			if lg.tournament != "" {
				fileTour := auditJSON(t, "audit", "--json", "--tournament", lg.tournament, file)
				same(t, "audit --tournament FILE", fileTour, "audit FILE", want)
				wantStandings, wantState = fileStandings(t, ref, lg.tournament)
				if !wantState.Finished || wantState.InPlay != 1 || wantState.Chips != 14000 {
					t.Errorf("the audit of the file leaves the tournament %+v, want it over, one player holding the 14,000 chips", wantState)
				}
				for _, l := range want {
					if strings.Contains(l, `"code":"tournament.`) {
						wantTour = append(wantTour, l)
					}
				}
			}
			for how, data := range stores {
				t.Run(strings.ReplaceAll(how, " ", "-"), func(t *testing.T) {
					same(t, "audit --all", auditJSON(t, "audit", "--json", "--all", "--data", data), "audit FILE", want)
					var byTable []string
					for _, table := range tablesOf(want, log) {
						byTable = append(byTable, auditJSON(t, "audit", "--json", "--table", table, "--data", data)...)
					}
					same(t, "audit --table", sorted(byTable), "audit FILE", want)
					if lg.tournament != "" {
						same(t, "audit --tournament", auditJSON(t, "audit", "--json", "--tournament", lg.tournament, "--data", data), "audit FILE", want)
						st, stt := replayStandings(t, data, lg.tournament)
						same(t, "replay --tournament standings", st, "audit FILE standings", wantStandings)
						same(t, "replay --tournament state", []state{stt}, "audit FILE state", []state{wantState})
					}
					got, wantHands := reportFindings(t, data, want)
					same(t, "report", got, "audit FILE", wantHands)
					api, tour := serveAnswers(t, data, lg.tournament)
					same(t, "serve /api/hands", api, "audit FILE", want)
					if lg.tournament != "" {
						same(t, "serve /api/tournaments standings", tour.standings, "audit FILE standings", wantStandings)
						same(t, "serve /api/tournaments state", []state{tour.state}, "audit FILE state", []state{wantState})
						same(t, "serve /api/tournaments findings", tour.findings, "audit FILE", wantTour)
					}
				})
			}
		})
	}
}

// Four recorders appending overlapping parts of a log into one embedded log at once store the
// log the audit of the file judges: the audit of the whole stored log and of each of its tables
// give the file's findings, byte for byte. It is the part of TestOneVerdictByEveryPath that runs
// concurrently, on a log of its set, and runs in make test's race pass (TestOneVerdictByEveryPath
// runs in its race-free pass).
func TestRecordersAtOnceAuditAsTheFile(t *testing.T) {
	dir := t.TempDir()
	args := []string{"sim", "--rules", "std-draw", "--players", "5", "--hands", "15", "--seed", "8", "--inject", "table.stack,table.dealer,pot.total"}
	code, out, errOut := fechado("", args...)
	if code != exitOK {
		t.Fatalf("%v: exit %d: %s", args, code, errOut)
	}
	file := filepath.Join(dir, "injected.jsonl")
	if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	want := auditJSON(t, "audit", "--json", file)
	if len(want) == 0 {
		t.Fatal("the reference audit finds nothing: the comparison proves little")
	}
	data := filepath.Join(dir, "data")
	recordConcurrently(t, data, splitHands(t, []byte(out)))
	same(t, "audit --all", auditJSON(t, "audit", "--json", "--all", "--data", data), "audit FILE", want)
	var byTable []string
	for _, table := range tablesOf(want, []byte(out)) {
		byTable = append(byTable, auditJSON(t, "audit", "--json", "--table", table, "--data", data)...)
	}
	same(t, "audit --table", sorted(byTable), "audit FILE", want)
}

// same fails t unless got, from the path named what, equals want, from the path named ref.
func same[T comparable](t *testing.T, what string, got []T, ref string, want []T) {
	t.Helper()
	if slices.Equal(got, want) {
		return
	}
	t.Errorf("%s gives %d lines, %s %d; they differ:", what, len(got), ref, len(want))
	n := 0
	for _, g := range got {
		if !slices.Contains(want, g) && n < 8 {
			t.Errorf("  only %s: %v", what, g)
			n++
		}
	}
	for _, w := range want {
		if !slices.Contains(got, w) && n < 16 {
			t.Errorf("  only %s: %v", ref, w)
			n++
		}
	}
}

// withBadLines returns log with lines that are not events inside three hands: one that is not
// JSON, one with a card that does not exist, one cut short; and with stray lines, which the
// recorder refuses but a log written by another writer, or a file, may hold (docs/findings.md,
// "One verdict"): a hand's hand.ended again, a line that is not a valid event after a hand's
// hand.ended, a valid event after a hand's hand.ended, an event mid-hand with the id of an earlier
// event of its hand, and an event of a hand never started.
func withBadLines(t *testing.T, log []byte) []byte {
	t.Helper()
	lines := strings.SplitAfter(string(log), "\n")
	evs := make([]*events.Event, len(lines))
	var ends []int // the lines that are hand.ended
	for i, l := range lines {
		if l == "" {
			continue
		}
		e, err := events.Parse([]byte(strings.TrimSuffix(l, "\n")))
		if err != nil {
			t.Fatal(err)
		}
		evs[i] = e
		if e.Type == events.HandEndedType {
			ends = append(ends, i)
		}
	}
	if len(ends) < 8 {
		t.Fatalf("%d hands: too few for the stray lines", len(ends))
	}
	id := func(n int) string { return fmt.Sprintf("01900000-0000-7000-8000-00000000d%03d", n) }
	seal := func(e events.Event, prev string) string {
		events.Seal(&e, prev)
		return string(e.Raw) + "\n"
	}
	// The hand.ended of the hand ending at line end, and the line of the hand before it.
	ofHand := func(end int) (*events.Event, int) {
		e := evs[end]
		i := end - 1
		for evs[i] == nil || evs[i].Hand != e.Hand {
			i--
		}
		return e, i
	}
	after := map[int]string{} // added after line i
	// A hand's hand.ended again, two lines later.
	after[ends[len(ends)/4]+2] += lines[ends[len(ends)/4]]
	// After a hand's hand.ended, its line before it again with the next seq, its prev and a new
	// id, and a field its type does not have: not a valid event.
	end, before := ofHand(ends[len(ends)/3])
	late := *evs[before]
	late.ID, late.Seq = id(1), end.Seq+1
	after[ends[len(ends)/3]] += strings.Replace(seal(late, events.Hash(end.Raw)), `"data":{`, `"data":{"nope":[],`, 1)
	// After another's, the same line, a valid event.
	end, before = ofHand(ends[2*len(ends)/5])
	late = *evs[before]
	late.ID, late.Seq = id(2), end.Seq+1
	after[ends[2*len(ends)/5]+1] += seal(late, events.Hash(end.Raw))
	// Mid-hand, an event with the id of the event two lines before it in its hand: the lines of
	// the hand after it are sealed again, so that its id is all that is wrong.
	end, _ = ofHand(ends[3*len(ends)/5])
	var mine []int
	for i := ends[3*len(ends)/5]; i >= 0 && len(mine) < 12; i-- {
		if evs[i] != nil && evs[i].Hand == end.Hand {
			mine = append(mine, i)
		}
	}
	slices.Reverse(mine) // the last 12 lines of the hand, in order
	prev := evs[mine[0]].Prev
	for k, i := range mine {
		e := *evs[i]
		if k == 4 {
			e.ID = evs[mine[2]].ID
		}
		lines[i] = seal(e, prev)
		prev = events.Hash([]byte(strings.TrimSuffix(lines[i], "\n")))
	}
	// An event of a hand never started, in the middle of another hand.
	orphan := *evs[ends[7*len(ends)/10]-3]
	orphan.ID, orphan.Hand = id(3), "01900000-0000-7000-8000-00000000d0ff"
	after[ends[7*len(ends)/10]-3] += seal(orphan, events.Hash([]byte("a line never written")))
	for i, at := range []int{len(lines) / 5, len(lines) / 2, 4 * len(lines) / 5} {
		switch i {
		case 0:
			lines[at] = "this is not json\n" + lines[at]
		case 1:
			lines[at] = strings.Replace(lines[at], `"seq":`, `"seq":"x",`, 1)
		case 2:
			lines[at] = lines[at][:len(lines[at])/2] + "\n"
		}
	}
	for i, add := range after {
		lines[i] += add
	}
	return []byte(strings.Join(lines, ""))
}

// splitHands returns the lines of log grouped by hand, in the order the hands first appear; a
// line that names no hand stays with the hand before it.
func splitHands(t *testing.T, log []byte) [][]byte {
	t.Helper()
	var order []string
	byHand := map[string][]byte{}
	cur := ""
	for _, l := range bytes.SplitAfter(log, []byte("\n")) {
		if len(l) == 0 {
			continue
		}
		if h := events.Sniff(bytes.TrimSuffix(l, []byte("\n"))).Hand; h != "" {
			cur = h
		}
		if _, ok := byHand[cur]; !ok {
			order = append(order, cur)
		}
		byHand[cur] = append(byHand[cur], l...)
	}
	out := make([][]byte, len(order))
	for i, h := range order {
		out[i] = byHand[h]
	}
	return out
}

// recordParts records each part, one after another, into the log at data with `fechado record`.
func recordParts(t *testing.T, data string, parts ...[]byte) {
	t.Helper()
	for i, p := range parts {
		name := filepath.Join(t.TempDir(), fmt.Sprintf("part-%d.jsonl", i))
		if err := os.WriteFile(name, p, 0o644); err != nil {
			t.Fatal(err)
		}
		if code, _, errOut := fechado("", "record", "--data", data, name); code != exitOK && code != exitUsage {
			t.Fatalf("record part %d: exit %d: %s", i, code, errOut)
		}
	}
}

// recordConcurrently records four overlapping parts of hands at once into one embedded log:
// the first 60%, the last 60%, the middle 60%, and all of it backwards, hand by hand.
func recordConcurrently(t *testing.T, data string, hands [][]byte) {
	t.Helper()
	l, err := recorder.Open(context.Background(), recorder.Options{DataDir: data})
	if err != nil {
		t.Fatal(err)
	}
	n := len(hands)
	back := slices.Clone(hands)
	slices.Reverse(back)
	parts := [][]byte{
		slices.Concat(hands[:n*6/10]...),
		slices.Concat(hands[n*4/10:]...),
		slices.Concat(hands[n*2/10 : n*8/10]...),
		slices.Concat(back...),
	}
	var wg sync.WaitGroup
	errs := make([]error, len(parts))
	for i, p := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := l.NewRecorder(context.Background(), recorder.RecordOptions{OnReject: func(*recorder.HandError) {}})
			if err := r.AddLines(bytes.NewReader(p), fmt.Sprintf("part-%d", i)); err != nil {
				errs[i] = err
			}
			if _, err := r.Close(); err != nil && errs[i] == nil {
				errs[i] = err
			}
		}()
	}
	wg.Wait()
	l.Close()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("recorder %d: %v", i, err)
		}
	}
}

// auditJSON runs an audit with --json and returns its findings, one line each, sorted.
func auditJSON(t *testing.T, args ...string) []string {
	t.Helper()
	code, out, errOut := fechado("", args...)
	if code != exitOK && code != exitFindings {
		t.Fatalf("%v: exit %d: %s", args, code, errOut)
	}
	return sorted(strings.Split(strings.TrimSuffix(out, "\n"), "\n"))
}

func sorted(lines []string) []string {
	lines = slices.DeleteFunc(slices.Clone(lines), func(s string) bool { return s == "" })
	slices.Sort(lines)
	return lines
}

// tablesOf returns the tables of log.
func tablesOf(_ []string, log []byte) []string {
	var ts []string
	for _, l := range bytes.Split(log, []byte("\n")) {
		if t := events.Sniff(l).Table; t != "" && !slices.Contains(ts, t) {
			ts = append(ts, t)
		}
	}
	return ts
}

// standing is what every path must agree on of a player's line in the standings.
type standing struct {
	Player string
	Place  int
	Chips  int64
	Table  string
	Hand   string
}

// state is what every path must agree on of a tournament as a whole.
type state struct {
	Finished bool
	InPlay   int
	Hands    int
	Chips    int64 // the standings' sum
}

func stateOf(finished bool, inPlay, hands int, st []standing) state {
	s := state{Finished: finished, InPlay: inPlay, Hands: hands}
	for _, x := range st {
		s.Chips += x.Chips
	}
	return s
}

// fileStandings returns the standings the audit of the file leaves.
func fileStandings(t *testing.T, file, id string) ([]standing, state) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	a := audit.New(nil)
	if _, err := audit.AuditReader(a, events.NewReader(f, file)); err != nil {
		t.Fatal(err)
	}
	a.Close()
	tr := a.Tournaments().Get(id)
	if tr == nil || !tr.Finished() {
		t.Fatalf("the tournament %s did not finish in the file", id)
	}
	var out []standing
	for _, s := range tr.Standings() {
		out = append(out, standing{s.Player, s.Place, int64(s.Chips), s.Table, s.Hand})
	}
	return out, stateOf(tr.Finished(), tr.InPlay(), tr.Hands, out)
}

// replayStandings returns the standings of replay --tournament --json on the stored log.
func replayStandings(t *testing.T, data, id string) ([]standing, state) {
	t.Helper()
	code, out, errOut := fechado("", "replay", "--tournament", id, "--json", "--data", data)
	if code != exitOK {
		t.Fatalf("replay --tournament: exit %d: %s", code, errOut)
	}
	var r tourReplay
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	var st []standing
	for _, s := range r.Standings {
		st = append(st, standing{s.Player, s.Place, int64(s.Chips), s.Table, s.Hand})
	}
	return st, stateOf(r.Finished, r.InPlay, r.Hands, st)
}

// reportFindings returns the findings the report of stored hands gives, as audit --json writes
// them, sorted, with those of want for the same hands: six hands with findings in want, spread
// over the log (each report audits its hand's table or tournament again from the log).
func reportFindings(t *testing.T, data string, want []string) (got, wantHands []string) {
	t.Helper()
	var hands []string
	handOf := map[string]string{}
	for _, l := range want {
		var f finding.Finding
		if err := json.Unmarshal([]byte(l), &f); err != nil {
			t.Fatal(err)
		}
		handOf[l] = f.Hand
		if !slices.Contains(hands, f.Hand) {
			hands = append(hands, f.Hand)
		}
	}
	n := 6
	if race.Enabled {
		n = 3
	}
	if len(hands) > n {
		var pick []string
		for i := range n {
			pick = append(pick, hands[i*len(hands)/n])
		}
		hands = pick
	}
	for _, l := range want {
		if slices.Contains(hands, handOf[l]) {
			wantHands = append(wantHands, l)
		}
	}
	store := &logFlags{data: data, replicas: 1}
	for _, h := range hands {
		var evs []*events.Event
		if err := readStored(context.Background(), store, h, "", func(e *events.Event) { evs = append(evs, e) }); err != nil {
			t.Fatal(err)
		}
		fs, err := storedFindings(store, evs)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range fs {
			got = append(got, string(f.JSON()))
		}
	}
	return sorted(got), wantHands
}

// serveAnswers runs serve's server (web, its projector following the log) on the stored log and
// returns, once every hand is projected, the findings GET /api/hands/{id} gives for each hand,
// as audit --json writes them, and GET /api/tournaments/{id}'s standings, state and
// tournament.* findings (none without id).
func serveAnswers(t *testing.T, data, id string) ([]string, tourAnswer) {
	t.Helper()
	l := recordertest.OpenDir(t, data)
	db, err := projector.Open(context.Background(), filepath.Join(data, "fechado.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	srv, err := web.New(web.Options{Log: l, DB: db})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	ts := httptest.NewServer(srv.Handler())
	defer func() {
		cancel()
		<-done
		ts.Close()
	}()
	get := func(path string, v any) {
		t.Helper()
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %s", path, resp.Status)
		}
		if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
			t.Fatal(err)
		}
	}
	var stored int
	var h struct {
		Hands []projector.HandRow `json:"hands"`
		Total int                 `json:"total"`
	}
	last, err := l.LastSeq(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// Projected to the end, and settled: serve judges what waits for a hand the log does not
	// hold once it has caught up with the log it started on.
	for deadline := time.Now().Add(30 * time.Second); ; {
		var waiting int
		if err := db.QueryRow(`SELECT COALESCE(MAX(stream_seq), 0), (SELECT COUNT(*) FROM hands WHERE audit_status = ?) FROM checkpoint`,
			projector.AuditWaiting).Scan(&stored, &waiting); err != nil {
			t.Fatal(err)
		}
		if uint64(stored) >= last && waiting == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve projected to %d of %d", stored, last)
		}
		time.Sleep(20 * time.Millisecond)
	}
	get("/api/hands?limit=1000", &h)
	if h.Total > len(h.Hands) {
		t.Fatalf("%d hands, more than one page", h.Total)
	}
	var out []string
	for _, row := range h.Hands {
		var hand struct {
			Hand     string            `json:"hand"`
			Table    string            `json:"table"`
			Findings []web.FindingView `json:"findings"`
		}
		get("/api/hands/"+row.Hand, &hand)
		for _, f := range hand.Findings {
			ff := finding.Finding{Hand: hand.Hand, Table: hand.Table, Seq: events.Seq(f.Seq), Code: finding.Code(f.Code),
				Severity: finding.Severity(f.Severity), Seat: events.Seat(f.Seat), Message: f.Message}
			if len(f.Expected) > 0 {
				ff.Expected = f.Expected
			}
			if len(f.Actual) > 0 {
				ff.Actual = f.Actual
			}
			out = append(out, string(ff.JSON()))
		}
	}
	var ta tourAnswer
	if id != "" {
		var v projector.TournamentView
		get("/api/tournaments/"+id, &v)
		for _, s := range v.Standings {
			ta.standings = append(ta.standings, standing{s.Player, s.Place, s.Chips, s.Table, s.Hand})
		}
		ta.state = stateOf(v.EndedAt != "", v.InPlay, v.Hands, ta.standings)
		for _, f := range v.Findings {
			ff := finding.Finding{Hand: f.Hand, Table: f.Table, Seq: events.Seq(f.Seq), Code: finding.Code(f.Code),
				Severity: finding.Severity(f.Severity), Seat: events.Seat(f.Seat), Message: f.Message}
			if len(f.Expected) > 0 {
				ff.Expected = f.Expected
			}
			if len(f.Actual) > 0 {
				ff.Actual = f.Actual
			}
			ta.findings = append(ta.findings, string(ff.JSON()))
		}
		ta.findings = sorted(ta.findings)
	}
	return sorted(out), ta
}

// tourAnswer is what GET /api/tournaments/{id} gives, as the paths compare it.
type tourAnswer struct {
	standings []standing
	state     state
	findings  []string
}

// projectFile projects the file with a projector of its own (projector.FileSource), settles the
// hands waiting for a hand the file does not hold, and returns the findings stored, as audit
// --json writes them, sorted, placeless.
func projectFile(t *testing.T, file string) []string {
	t.Helper()
	ctx := context.Background()
	db, err := projector.Open(ctx, filepath.Join(t.TempDir(), "fechado.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	p := projector.New(db, &projector.FileSource{Path: file})
	if _, err := p.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	if err := p.Settle(ctx); err != nil {
		t.Fatal(err)
	}
	return placeless(audittest.Stored(t, db))
}

// lineAt is where the audit of a file says a line that is not a valid event lies in it (the
// file's name and line number, events.Error): the projector reads a stream, not the file, and
// names no file.
var lineAt = regexp.MustCompile(`(this line is not a valid event: )[^ "]*:[0-9]+: `)

// placeless returns findings as audit --json writes them without lineAt, sorted.
func placeless(fs []string) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = lineAt.ReplaceAllString(f, "$1")
	}
	return sorted(out)
}
