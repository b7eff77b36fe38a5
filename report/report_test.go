package report

import (
	"bytes"
	"flag"
	"html/template"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/explain"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/internal/eventfiles"
	"github.com/fechado/fechado/lang"
	"github.com/fechado/fechado/replay"
	"github.com/fechado/fechado/sim"
)

var update = flag.Bool("update", false, "rewrite testdata/report.golden.html")

// simLog plays a simulated table of the preset with every injectable irregularity and reads the
// JSON Lines it writes back, as `fechado sim` would give them.
func simLog(t *testing.T, preset string, hands int) [][]*events.Event {
	t.Helper()
	var b bytes.Buffer
	if err := sim.Run(sim.Config{Rules: preset, Players: 4, Hands: hands, Seed: 11, Inject: sim.InjectableFor(preset)}, &b); err != nil {
		t.Fatal(err)
	}
	return replay.Group(eventfiles.Parse(t, b.Bytes(), preset))
}

var external = regexp.MustCompile(`(?i)https?://|<script|<link|@import|url\(`)

// A report for every hand of a simulated log, in every language, renders, fetches nothing,
// names the players and carries the hash of the hand's last event. Under -short each hand is
// written in one language, taking the languages in turn, so that every language still writes
// hands of every preset; make test-long writes every hand in every language.
func TestEveryHandEveryLanguage(t *testing.T) {
	now := time.Date(2026, 12, 1, 16, 0, 0, 0, time.UTC)
	langs := lang.All()
	for _, preset := range []string{"br-fechado", "tr-kapali", "std-draw", "br-online"} {
		hands := simLog(t, preset, 12)
		for k, hand := range hands {
			last := hand[len(hand)-1]
			hash := events.Hash(last.Raw)
			hs, ok := hand[0].Data.(*events.HandStarted)
			for i, l := range langs {
				if testing.Short() && i != k%len(langs) {
					continue
				}
				var b bytes.Buffer
				if err := Write(&b, hand, Options{Lang: l, Now: now}); err != nil {
					if !ok {
						continue // an injected hand that does not begin with hand.started
					}
					t.Fatalf("%s %s hand %s: %v", preset, l.Code, hand[0].Hand, err)
				}
				page := b.String()
				if m := external.FindString(page); m != "" {
					t.Errorf("%s %s: the report refers outside itself: %q", preset, l.Code, m)
				}
				if !strings.Contains(page, hash) {
					t.Errorf("%s %s: no hash of the last event", preset, l.Code)
				}
				if !strings.Contains(page, `<html lang="`+l.Code+`">`) {
					t.Errorf("%s %s: the page does not declare its language", preset, l.Code)
				}
				for _, s := range hs.Seats {
					if !strings.Contains(page, ">"+s.Player+"<") {
						t.Errorf("%s %s: %s is not named", preset, l.Code, s.Player)
					}
				}
				if strings.Contains(page, "[f.") || strings.Contains(page, "{player}") {
					t.Errorf("%s %s: a message is missing or unfilled", preset, l.Code)
				}
			}
		}
	}
}

// The findings given are reported with their sentences and rules, the table drawn at each.
func TestFindingsAreTold(t *testing.T) {
	hands := simLog(t, "br-fechado", 40)
	told := 0
	for _, hand := range hands {
		if _, ok := hand[0].Data.(*events.HandStarted); !ok {
			continue
		}
		var b bytes.Buffer
		if err := Write(&b, hand, Options{Lang: lang.English(), Now: time.Unix(0, 0)}); err != nil {
			t.Fatal(err)
		}
		page := b.String()
		n := strings.Count(page, `<article class="finding`)
		if n == 0 {
			if !strings.Contains(page, "The audit found nothing irregular") {
				t.Errorf("hand %s: neither findings nor a clean verdict", hand[0].Hand)
			}
			continue
		}
		told += n
		if strings.Count(page, "Rule “") < n {
			t.Errorf("hand %s: %d findings but fewer rules cited", hand[0].Hand, n)
		}
	}
	if told < 10 {
		t.Errorf("only %d findings told in 40 hands with injected irregularities", told)
	}
}

// One report, in Portuguese, against its golden file (go test ./report -update rewrites it).
func TestGolden(t *testing.T) {
	hands := simLog(t, "br-fechado", 12)
	var hand []*events.Event
	for _, h := range hands {
		if _, ok := h[0].Data.(*events.HandStarted); ok && len(audit.Hand(h)) > 0 && hasShowdown(h) {
			hand = h
			break
		}
	}
	if hand == nil {
		t.Fatal("no hand with a finding and a showdown")
	}
	l, _ := lang.Get("pt-BR")
	var b bytes.Buffer
	if err := Write(&b, hand, Options{Lang: l, Now: time.Date(2026, 12, 1, 16, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "report.golden.html")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(b.Bytes(), want) {
		t.Errorf("the report differs from %s (run with -update after checking the change)", golden)
	}
}

func hasShowdown(hand []*events.Event) bool {
	for _, e := range hand {
		if e.Type == events.HandShownType {
			return true
		}
	}
	return false
}

// An error finding's remedy, what the floor does now, is printed with it in the reader's
// language: the words explain.Remedy gives the dispute desk (issue 41), under the report's
// heading for it, in Portuguese and Turkish, not in English.
func TestRemedyOfAnErrorFinding(t *testing.T) {
	hands := simLog(t, "br-fechado", 12)
	for _, code := range []string{"pt-BR", "tr"} {
		l, _ := lang.Get(code)
		told := 0
		for _, hand := range hands {
			if _, ok := hand[0].Data.(*events.HandStarted); !ok {
				continue
			}
			var b bytes.Buffer
			if err := Write(&b, hand, Options{Lang: l, Now: time.Unix(0, 0)}); err != nil {
				t.Fatal(err)
			}
			page := b.String()
			for _, f := range audit.Hand(hand) {
				if f.Severity != finding.Error {
					continue
				}
				remedy := explain.Remedy(l, f.Code, "br-fechado")
				if remedy == "" || remedy == explain.Remedy(lang.English(), f.Code, "br-fechado") {
					t.Errorf("%s: the error %s has no remedy of its own in %s: %q", hand[0].Hand, f.Code, code, remedy)
					continue
				}
				if !strings.Contains(page, template.HTMLEscapeString(remedy)) {
					t.Errorf("%s report of hand %s: no remedy of its error %s (%q)", code, hand[0].Hand, f.Code, remedy)
				}
				if !strings.Contains(page, "<h3>"+template.HTMLEscapeString(l.T("report.remedy", nil))+"</h3>") {
					t.Errorf("%s report of hand %s: no heading of the remedy", code, hand[0].Hand)
				}
				told++
			}
		}
		if told == 0 {
			t.Errorf("%s: no error finding in 12 hands with injected irregularities", code)
		}
	}
}
