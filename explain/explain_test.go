package explain

import (
	"strings"
	"sync"
	"testing"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/lang"
	"github.com/fechado/fechado/roles"
	"github.com/fechado/fechado/rules"
	"github.com/fechado/fechado/sim"
)

// tournamentCodes are the version 1.1 codes of findings-v1.md "Version 1.1".
var tournamentCodes = []finding.Code{"tournament.chips", "tournament.move", "tournament.level", "tournament.place"}

// Every code of findings-v1.md has a sentence (English is checked; lang's test keeps the other
// languages complete) and a rule.
func TestEveryCodeHasASentenceAndARule(t *testing.T) {
	codes := tournamentCodes
	for _, c := range finding.Catalogue {
		codes = append(codes, c.Code)
	}
	for _, c := range codes {
		if _, ok := RuleFor(c, "br-fechado"); !ok {
			t.Errorf("%s: no rule in the rulebook", c)
		}
		has := false
		for key := range lang.English().Messages {
			if key == "f."+string(c) || strings.HasPrefix(key, "f."+string(c)+".") {
				has = true
			}
		}
		if !has {
			t.Errorf("%s: no sentence", c)
		}
	}
	for _, p := range rules.Names() {
		if sources[p] == "" {
			t.Errorf("preset %s has no source", p)
		}
		if r, _ := RuleFor(finding.OpenWithoutOpeners, p); r.Anchor != p+"-opening" {
			t.Errorf("%s: open.without-openers cites #%s", p, r.Anchor)
		}
	}
}

// simulated gives the hands and findings of simulated tables with every injectable irregularity.
func simulated(t *testing.T) (map[string][]*events.Event, []finding.Finding) {
	t.Helper()
	simOnce.Do(func() { simHands, simFound = simulate(t) })
	return simHands, simFound
}

var (
	simOnce  sync.Once
	simHands map[string][]*events.Event
	simFound []finding.Finding
)

func simulate(t *testing.T) (map[string][]*events.Event, []finding.Finding) {
	hands := map[string][]*events.Event{}
	var found []finding.Finding
	for _, p := range rules.Names() {
		players := 4
		s, err := sim.New(sim.Config{Rules: p, Players: players, Hands: 8 * len(sim.InjectableFor(p)), Seed: 7,
			Table: "t-" + p, Inject: sim.InjectableFor(p)})
		if err != nil {
			t.Fatal(err)
		}
		a := audit.New(func(f finding.Finding) { found = append(found, f) })
		for !s.Won() {
			h, err := s.Next()
			if err != nil || h == nil {
				break
			}
			for _, e := range h.Events {
				hands[e.Hand] = append(hands[e.Hand], e)
				a.Add(e)
			}
		}
		a.Close()
	}
	return hands, found
}

func TestSimulatedFindingsInEveryLanguage(t *testing.T) {
	hands, found := simulated(t)
	codes := map[finding.Code]bool{}
	for _, f := range found {
		codes[f.Code] = true
		h, err := NewHand(hands[f.Hand])
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range lang.All() {
			x := h.Explain(l, f)
			s := x.Sentence
			if strings.Contains(s, "{") || strings.HasPrefix(s, "[") || strings.Contains(s, "—") && f.Seat != 0 && !strings.Contains(s, "“") {
				t.Errorf("%s %s at %d: unfilled sentence %q", l.Code, f.Code, f.Seq, s)
			}
			if _, seated := h.names[f.Seat]; seated && !strings.Contains(s, h.Name(l, f.Seat)) && f.Code != finding.LogSchema {
				t.Errorf("%s %s: %q does not name %s", l.Code, f.Code, s, h.Name(l, f.Seat))
			}
			if x.Citation == "" || !strings.Contains(x.Citation, PresetName(l, h.Preset)) {
				t.Errorf("%s %s: citation %q", l.Code, f.Code, x.Citation)
			}
			if strings.Contains(s, "seat ") && l.Code == "en" && f.Code != finding.LogSchema {
				t.Errorf("%s: %q speaks of seats, not players", f.Code, s)
			}
		}
	}
	if len(codes) < 20 {
		t.Errorf("only %d codes came up in the simulated tables: %v", len(codes), codes)
	}
	t.Logf("%d findings of %d codes explained in %d languages", len(found), len(codes), len(lang.All()))
}

// A pot paid to the wrong player says whose hand beat whose, in full names.
func TestPotWinnerSaysWhoseHandBeatWhose(t *testing.T) {
	hands, found := simulated(t)
	n := 0
	for _, f := range found {
		if f.Code != finding.PotWinner {
			continue
		}
		h, _ := NewHand(hands[f.Hand])
		x := h.Explain(lang.English(), f)
		if !strings.Contains(x.Sentence, "'s ") || !strings.Contains(x.Sentence, " beats ") {
			t.Errorf("pot.winner: %q", x.Sentence)
		}
		if len(x.Seats) < 2 || len(x.Cards) != 10 {
			t.Errorf("pot.winner concerns seats %v and cards %v", x.Seats, x.Cards)
		}
		if n == 0 {
			for _, l := range lang.All() {
				t.Logf("%s: %s", l.Code, h.Explain(l, f).Sentence)
			}
		}
		n++
	}
	if n == 0 {
		t.Fatal("no pot.winner in the simulated tables")
	}
}

func TestHandNames(t *testing.T) {
	p, _ := rules.Lookup("std-draw")
	eval := rules.NewEvaluator(p.Ranking(cards.Two))
	get := func(c string) *lang.Lang { l, _ := lang.Get(c); return l }
	cases := []struct{ cards, lang, want string }{
		{"9c 9d 2h 5s Kd", "en", "pair of nines"},
		{"Kc Kd 5h 5s 2d", "en", "two pair, kings and fives"},
		{"3c 3d 3h Ts Td", "en", "full house, threes over tens"},
		{"9c 9d 2h 5s Kd", "pt-BR", "par de noves"},
		{"Jc Jd 2h 5s Kd", "pt-BR", "par de valetes"},
		{"Kc Kd 5h 5s 2d", "pt-BR", "dois pares, reis e cincos"},
		{"9c 9d 2h 5s Kd", "es", "pareja de nueves"},
		{"3c 3d 3h Ts Td", "es", "full de treses y dieces"},
		{"9c 9d 2h 5s Kd", "tr", "dokuzlu per"},
		{"Ac 2d 3h 4s 5d", "en", "straight, ace low"},
		{"Ah Kh Qh Jh Th", "en", "royal flush"},
		{"Ac Kd 9h 4s 5d", "en", "ace high"},
	}
	for _, c := range cases {
		cs, err := cards.ParseList(c.cards)
		if err != nil {
			t.Fatal(err)
		}
		v, err := eval.EvalSlice(cs)
		if err != nil {
			t.Fatal(err)
		}
		if got := ValueName(get(c.lang), v); got != c.want {
			t.Errorf("%s in %s: %q, want %q", c.cards, c.lang, got, c.want)
		}
	}
	if got := SymbolWords(get("pt-BR"), cards.MustParse("8c")); got != "8♣ (oito de paus)" {
		t.Errorf("8c in Portuguese: %q", got)
	}
	if got := Symbol(cards.MustParse("Th")); got != "10♥" {
		t.Errorf("Th: %q", got)
	}
}

// Every code, whatever it carries (a seat or none, numbers or nothing), gives a whole sentence in
// every language: no placeholder left, no missing message.
func TestEveryCodeEveryShape(t *testing.T) {
	hands, _ := simulated(t)
	var hand []*events.Event
	for _, h := range hands {
		if _, ok := h[0].Data.(*events.HandStarted); ok {
			hand = h
			break
		}
	}
	h, err := NewHand(hand)
	if err != nil {
		t.Fatal(err)
	}
	shapes := []struct {
		seat     events.Seat
		exp, act any
	}{{1, 10, 12}, {0, 10, 12}, {1, nil, nil}, {0, nil, nil}, {2, "Jc 9d 8h 7s 2c", "Ah"}}
	for _, c := range Codes() {
		for _, sh := range shapes {
			f := finding.Finding{Hand: hand[0].Hand, Seq: 3, Code: c, Severity: c.Severity(), Seat: sh.seat,
				Message: "the auditor's note", Expected: sh.exp, Actual: sh.act}
			for _, l := range lang.All() {
				s := h.Explain(l, f).Sentence
				if strings.ContainsAny(s, "{}") || strings.HasPrefix(s, "[") || s == "" {
					t.Errorf("%s %s %+v: %q", l.Code, c, sh, s)
				}
			}
		}
	}
}

// RuleText quotes the paragraph of docs/rules.md under an anchor the rulebook cites.
func TestRuleText(t *testing.T) {
	r, _ := RuleFor("open.without-openers", "br-fechado")
	text, ok := RuleText(r.Anchor)
	if !ok || !strings.Contains(text, "Seed 000") || strings.Contains(text, "<a id") {
		t.Errorf("the rule under %s reads %q", r.Anchor, text)
	}
	if _, ok := RuleText("no-such-rule"); ok {
		t.Error("an unknown anchor has a text")
	}
	if _, ok := RuleText(""); ok {
		t.Error("a rule of the contract (no anchor) has a text in docs/rules.md")
	}
}

// The timeline of a hand's public views tells a draw by the number declared: the cards thrown
// are not shown while the hand is played.
func TestTimelinePublicDraw(t *testing.T) {
	hs, err := sim.All(sim.Config{Rules: "br-fechado", Players: 4, Hands: 1, Seed: 3, ExposeRate: -1})
	if err != nil {
		t.Fatal(err)
	}
	var public []*events.Event
	drew := 0
	for _, e := range hs[0].Events {
		if d, ok := e.Data.(*events.CardsDiscarded); ok && len(d.Cards) > 0 {
			drew++
		}
		v, ok := roles.PublicView(e)
		if !ok {
			continue
		}
		pe, err := v.Event()
		if err != nil {
			t.Fatal(err)
		}
		public = append(public, pe)
	}
	if drew == 0 {
		t.Fatal("nobody drew: the case is not tested")
	}
	h, err := NewHand(public)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, ln := range h.Timeline(lang.English()) {
		if strings.Contains(ln.Text, " draws ") {
			n++
		}
	}
	if n != drew {
		t.Errorf("the public timeline tells %d draws, want %d", n, drew)
	}
}

// An out-of-turn action after the round was complete has nobody whose turn it took: the sentence
// says the round was over, in every language, and never names "—" as the player to act (issue 45).
func TestOutOfTurnAfterClosedRoundNamesNobody(t *testing.T) {
	hands, _ := simulated(t)
	var hand []*events.Event
	for _, h := range hands {
		if _, ok := h[0].Data.(*events.HandStarted); ok {
			hand = h
			break
		}
	}
	h, err := NewHand(hand)
	if err != nil {
		t.Fatal(err)
	}
	f := finding.Finding{Hand: hand[0].Hand, Seq: 3, Code: finding.BetOutOfTurn, Severity: finding.BetOutOfTurn.Severity(),
		Seat: 1, Message: "the first round was already complete when seat 1 acted", Actual: "check"}
	for _, l := range lang.All() {
		s := h.Explain(l, f).Sentence
		if strings.Contains(s, "—") || s != l.T("f.bet.out-of-turn.closed", lang.Args{"player": h.Name(l, 1)}) {
			t.Errorf("%s: %q", l.Code, s)
		}
	}
	f.Expected = 2
	if s := h.Explain(lang.English(), f).Sentence; !strings.Contains(s, "turn") {
		t.Errorf("with a seat to act: %q", s)
	}
}
