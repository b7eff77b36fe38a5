package web_test

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/sim"
)

// replayAnswer is GET /api/hands/{id}/replay as the hand page reads it.
type replayAnswer struct {
	Steps []struct {
		Seq   int    `json:"seq"`
		Stage string `json:"stage"`
		Line  string `json:"line"`
		Table string `json:"table"`
		Seats []struct {
			Seat   int      `json:"seat"`
			Status string   `json:"status"`
			Cards  []string `json:"cards"`
			In     int      `json:"in"`
		} `json:"seats"`
		Pots []struct {
			Index    int   `json:"index"`
			Eligible []int `json:"eligible"`
		} `json:"pots"`
		Findings []shownFindingJSON `json:"findings"`
	} `json:"steps"`
	Findings []shownFindingJSON `json:"findings"`
	Words    struct {
		Title   string `json:"title"`
		Intro   string `json:"intro"`
		History []struct {
			Seq  int    `json:"seq"`
			Text string `json:"text"`
		} `json:"history"`
		Result []string `json:"result"`
		Decks  []struct {
			Good  bool `json:"good"`
			Order []struct {
				Text string `json:"text"`
			} `json:"order"`
		} `json:"decks"`
	} `json:"words"`
	TableCSS string `json:"table_css"`
}

// The hand page's answer: during the draw every player still in the hand may win the pots
// (presets.md "pots": the best live hand wins), including one waiting for his replacements with
// fewer than five cards; each step tells its event and its findings in the reader's language,
// names the players and cites the rule; the table drawn at a finding marks the seat concerned.
func TestReplayTold(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 0)
	clean := simulated(t, sim.Config{Rules: "br-fechado", Players: 4, Hands: 3, Seed: 21, Table: "t-told", ExposeRate: -1})
	bad := simulated(t, sim.Config{Rules: "std-draw", Players: 3, Hands: 4, Seed: 7, Table: "t-told-bad", ExposeRate: -1,
		Inject: []finding.Code{finding.OpenWithoutOpeners}})
	// A hand still being played, up to the first discard of one card or more.
	live := simulated(t, sim.Config{Rules: "br-fechado", Players: 4, Hands: 1, Seed: 31, Table: "t-told-live", ExposeRate: -1})[0]
	cut := 0
	for i, ev := range live.Events {
		if d, ok := ev.Data.(*events.CardsDiscarded); ok && len(d.Cards) > 0 {
			cut = i + 1
			break
		}
	}
	if cut == 0 {
		t.Fatal("nobody drew in the hand in progress")
	}
	e.post(append(append(handsBody(clean), handsBody(bad)...), jsonl(live.Events[:cut])...), http.StatusOK, nil)
	e.waitProjected()

	t.Run("in progress", func(t *testing.T) {
		var a replayAnswer
		e.get("/api/hands/"+live.Events[0].Hand+"/replay", http.StatusOK, &a)
		for _, st := range a.Steps {
			// Nothing was exposed: no card is drawn face up, and no hand is named.
			if strings.Contains(st.Table, `class="card`) || strings.Contains(st.Table, "handname") {
				t.Fatalf("seq %d of a hand in progress draws a card face up", st.Seq)
			}
		}
		last := a.Steps[len(a.Steps)-1]
		d := live.Events[cut-1].Data.(*events.CardsDiscarded)
		if want := fmt.Sprintf(" draws %d.", len(d.Cards)); !strings.HasSuffix(last.Line, want) {
			t.Errorf("the discard of a hand in progress reads %q, want …%q", last.Line, want)
		}
		if len(a.Words.Result) != 0 || len(a.Words.Decks) != 0 || len(a.Findings) != 0 {
			t.Errorf("a hand in progress tells its result %v, decks %v, findings %v", a.Words.Result, a.Words.Decks, a.Findings)
		}
	})

	t.Run("draw eligibility", func(t *testing.T) {
		short := 0
		for _, h := range clean {
			var a replayAnswer
			e.get("/api/hands/"+h.Events[0].Hand+"/replay", http.StatusOK, &a)
			for _, st := range a.Steps {
				if st.Stage != "draw" || len(st.Pots) == 0 {
					continue
				}
				eligible := map[int]bool{}
				for _, s := range st.Pots[0].Eligible {
					eligible[s] = true
				}
				for _, s := range st.Seats {
					live := s.Status == "active" || s.Status == "all-in"
					if live && len(s.Cards) < 5 {
						short++
					}
					if live != eligible[s.Seat] {
						t.Errorf("hand %s seq %d: seat %d (%s, %d cards) eligible for the main pot: %v, want %v",
							h.Events[0].Hand, st.Seq, s.Seat, s.Status, len(s.Cards), eligible[s.Seat], live)
					}
				}
			}
		}
		if short == 0 {
			t.Fatal("no step of the draw has a player waiting for his replacements: the case is not tested")
		}
	})

	h := injected(t, bad)
	hand, seq := h.Events[0].Hand, int(h.Seq)
	names := map[int]string{}
	for _, s := range h.Events[0].Data.(*events.HandStarted).Seats {
		names[int(s.Seat)] = s.Player
	}
	for _, c := range []struct {
		lang, opens, rule, wins, muck, jacks, remedy string
	}{
		{"en", " opens with ", "The minimum to open", " wins ", "to the muck", "jacks", "dead"},
		{"pt-BR", " abre com ", "O mínimo para abrir", " ganha ", "para o morto", "Valetes", "morta"},
	} {
		t.Run(c.lang, func(t *testing.T) {
			var a replayAnswer
			e.get(fmt.Sprintf("/api/hands/%s/replay?lang=%s&tz=America/Sao_Paulo", hand, c.lang), http.StatusOK, &a)
			if len(a.Steps) != len(h.Events) || a.TableCSS == "" {
				t.Fatalf("%d steps (want %d), table styles %d bytes", len(a.Steps), len(h.Events), len(a.TableCSS))
			}
			st := a.Steps[seq-1]
			if len(st.Findings) != 1 {
				t.Fatalf("seq %d: findings %+v", seq, st.Findings)
			}
			f := st.Findings[0]
			if len(f.Seats) != 1 || f.Players[0] != names[f.Seats[0]] || !strings.Contains(f.Sentence, f.Players[0]) {
				t.Errorf("the sentence %q names %v (seats %v), want the opener", f.Sentence, f.Players, f.Seats)
			}
			if len(f.Cards) != 5 || !strings.Contains(f.Sentence, f.Cards[0]) {
				t.Errorf("the sentence %q shows cards %v: want his five cards as symbols", f.Sentence, f.Cards)
			}
			// The rule is cited by its name and the house rulebook, never by a file; stated in the
			// reader's language; what the floor does now is said (a false opener's hand is dead).
			if !strings.Contains(f.Citation, c.rule) || strings.Contains(f.Citation, ".md") || f.Anchor != "std-draw-opening" ||
				f.RuleTitle != c.rule || !strings.Contains(f.Rule, c.jacks) || !strings.Contains(f.Remedy, c.remedy) {
				t.Errorf("the rule is cited as %q (%q): %q; remedy %q", f.Citation, f.RuleTitle, f.Rule, f.Remedy)
			}
			if !strings.Contains(st.Line, names[f.Seats[0]]+c.opens) {
				t.Errorf("the open reads %q", st.Line)
			}
			// The table marks the opener's seat at the finding, and nobody's the event before.
			if strings.Count(st.Table, " marked") == 0 || !strings.Contains(st.Table, ">"+names[f.Seats[0]]+"<") {
				t.Errorf("the table at seq %d marks nobody", seq)
			}
			if strings.Contains(a.Steps[seq-2].Table, " marked") {
				t.Errorf("the table at seq %d already marks a seat", seq-1)
			}
			if !strings.Contains(a.Steps[len(a.Steps)-1].Table, `class="handname"`) {
				t.Error("the last step's drawing names no hand shown")
			}
			discards := 0
			for _, s := range a.Steps {
				if strings.Contains(s.Table, c.muck) {
					discards++
				}
			}
			if discards == 0 {
				t.Errorf("no step draws discards going %q", c.muck)
			}
			w := a.Words
			if len(w.Result) == 0 || !strings.Contains(w.Result[0], c.wins) {
				t.Errorf("the result reads %q", w.Result)
			}
			if !strings.Contains(w.Intro, "BRT") && !strings.Contains(w.Intro, "-03:00") {
				t.Errorf("the start is not written in the zone asked for: %q", w.Intro)
			}
			if len(w.History) == 0 || len(w.Decks) == 0 || !w.Decks[0].Good || len(w.Decks[0].Order) == 0 {
				t.Errorf("history %d lines, decks %+v", len(w.History), w.Decks)
			}
			if len(a.Findings) != 1 || a.Findings[0].Sentence != f.Sentence {
				t.Errorf("the hand's findings %+v", a.Findings)
			}
		})
	}
	e.get("/api/hands/"+hand+"/replay?tz=Nowhere/Atlantis", http.StatusBadRequest, nil)

	// A drawing at every event: the answer is gzipped for a client that takes it, and not for
	// one that refuses it.
	for enc, want := range map[string]string{"gzip, deflate, br": "gzip", "gzip;q=0, identity": "", "": ""} {
		req, _ := http.NewRequest("GET", e.ts.URL+"/api/hands/"+hand+"/replay", nil)
		req.Header.Set("Accept-Encoding", enc)
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		body := io.Reader(resp.Body)
		if want == "gzip" {
			if body, err = gzip.NewReader(resp.Body); err != nil {
				t.Fatal(err)
			}
		}
		var a replayAnswer
		err = json.NewDecoder(body).Decode(&a)
		resp.Body.Close()
		if got := resp.Header.Get("Content-Encoding"); got != want || err != nil || len(a.Steps) != len(h.Events) {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q (want %q), %d steps, %v", enc, got, want, len(a.Steps), err)
		}
	}
}

// The hand as it happened (?cards=shown): at each step a player's cards are face down, counted
// and not named, until he shows them or one is exposed; with every card (the default answer)
// his five cards are named from the deal on. The last step of a hand that went to a showdown
// names the shown hands either way.
func TestReplayAsItHappened(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 0)
	h := simulated(t, sim.Config{Rules: "br-fechado", Players: 3, Hands: 1, Seed: 5, Table: "t-happened", ExposeRate: -1})[0]
	e.post(handsBody([]*sim.Hand{h}), http.StatusOK, nil)
	e.waitProjected()
	type seat struct {
		Seat   int      `json:"seat"`
		Cards  []string `json:"cards"`
		Hidden int      `json:"hidden"`
		Shown  bool     `json:"shown"`
		Seen   []string `json:"seen"`
	}
	type answer struct {
		Steps []struct {
			Seq   int    `json:"seq"`
			Stage string `json:"stage"`
			Seats []seat `json:"seats"`
		} `json:"steps"`
	}
	var all, happened answer
	id := h.Events[0].Hand
	e.get("/api/hands/"+id+"/replay?lang=en", http.StatusOK, &all)
	e.get("/api/hands/"+id+"/replay?lang=en&cards=shown", http.StatusOK, &happened)
	if len(all.Steps) != len(happened.Steps) || len(all.Steps) == 0 {
		t.Fatalf("%d steps with every card, %d as it happened", len(all.Steps), len(happened.Steps))
	}
	faceDown := 0
	for k, st := range happened.Steps {
		for i, s := range st.Seats {
			full := all.Steps[k].Seats[i]
			switch {
			case s.Shown:
				if len(s.Cards) != len(full.Cards) {
					t.Errorf("seq %d seat %d: shown, yet %d cards named of %d", st.Seq, s.Seat, len(s.Cards), len(full.Cards))
				}
			case len(s.Cards) > len(s.Seen) || len(s.Cards)+s.Hidden != len(full.Cards)+full.Hidden:
				t.Errorf("seq %d seat %d: as it happened names %v (seen %v), %d face down; every card: %v", st.Seq, s.Seat, s.Cards, s.Seen, s.Hidden, full.Cards)
			default:
				faceDown += s.Hidden
			}
		}
	}
	if faceDown == 0 {
		t.Error("no card was ever face down as it happened")
	}
}
