package handhistory_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/handhistory"
	"github.com/fechado/fechado/internal/testfiles"
)

// realFiles returns the real PokerStars files; it fails the test if they are missing.
func realFiles(t testing.TB) []string {
	t.Helper()
	fs := testfiles.Glob(t, "hh/*.txt")
	if len(fs) != 8 {
		t.Fatalf("want the 8 real PokerStars files in testdata/hh, found %d", len(fs))
	}
	return fs
}

func importFile(t testing.TB, f handhistory.Format, path string) *handhistory.Result {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	res, err := handhistory.Import(f, filepath.Base(path), data)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestPokerStarsFiles imports every PokerStars file and checks each hand: the events are valid
// version 1 (strict decoder, chain), and their chips agree with the history's own numbers.
func TestPokerStarsFiles(t *testing.T) {
	want := map[string]struct{ hands, skipped int }{
		"fl-session-bom-crlf.txt":                               {2, 0},
		"pl-hand-header-lf.txt":                                 {2, 0},
		"nl-tournament-antes.txt":                               {1, 0},
		"fl-2009-single-zone-split.txt":                         {1, 0},
		"malformed.txt":                                         {2, 2},
		"dead-button.txt":                                       {1, 0},
		"session-comings-goings.txt":                            {6, 0},
		"unsupported.txt":                                       {1, 1},
		"5-Carddraw-FL-USD-0.10-0.20-201106.sidepot.txt":        {1, 0},
		"5-Carddraw-FL-USD-30-60-201605.check.raise.fix.txt":    {1, 0},
		"5-Carddraw-NL-USD-0.25-0.50.Sample.txt":                {1, 0},
		"5-Carddraw-PL-USD-0.50-1.00.201009.Sample.txt":         {1, 0},
		"5-Carddraw-FL-USD-0.10-0.20-201106.FoldedNodraw.txt":   {1, 0},
		"5-Carddraw-FL-USD-0.10-0.20-201106.Walked.txt":         {1, 0},
		"5-Carddraw-FL-USD-0.25-0.50-201209.fold.to.cb.fix.txt": {1, 0},
		"5-Carddraw-USD-0.10-0.20-200911.txt":                   {30, 0},
	}
	files, _ := filepath.Glob("testdata/pokerstars/*.txt")
	files = append(files, realFiles(t)...)
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			w, ok := want[filepath.Base(path)]
			if !ok {
				t.Fatalf("no expectation for %s", path)
			}
			res := importFile(t, handhistory.PokerStars, path)
			if len(res.Hands) != w.hands || len(res.Skipped) != w.skipped {
				t.Fatalf("imported %d hands and skipped %d (%v); want %d and %d", len(res.Hands), len(res.Skipped), res.Skipped, w.hands, w.skipped)
			}
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			blocks := splitHands(string(raw))
			var prevEnded map[string]events.Chips
			prevTable, prevNumber := "", 0
			for _, h := range res.Hands {
				checkEvents(t, h)
				text, ok := blocks[h.Source]
				if !ok {
					t.Fatalf("hand %s not found in the file", h.Source)
				}
				sum := readSummary(t, text)
				ended := reconcile(t, h, sum)
				number := h.Events[0].Data.(*events.HandStarted).Number
				if h.Table == prevTable && number == prevNumber+1 {
					continuity(t, h, sum, prevEnded)
				}
				prevTable, prevNumber, prevEnded = h.Table, number, ended
			}
		})
	}
}

var (
	tHeader  = regexp.MustCompile(`(?m)^(?:\x{FEFF})?PokerStars (?:Game|Hand) #(\d+):`)
	tAmount  = `\$?[0-9][0-9,]*(?:\.[0-9]+)?`
	tSeat    = regexp.MustCompile(`(?m)^Seat \d+: (.+?) \((` + tAmount + `) in chips`)
	tTotal   = regexp.MustCompile(`(?m)^Total pot (` + tAmount + `)`)
	tRake    = regexp.MustCompile(`\| Rake (` + tAmount + `)`)
	tMain    = regexp.MustCompile(`Main pot (` + tAmount + `)\.`)
	tSide    = regexp.MustCompile(`Side pot(?:-(\d+))? (` + tAmount + `)\.`)
	tCollect = regexp.MustCompile(`(?m)^(.+?) collected (` + tAmount + `) from (pot|main pot|side pot(?:-\d+)?)\s*$`)
)

// splitHands returns the text of each hand of a PokerStars file by hand number.
func splitHands(s string) map[string]string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	idx := tHeader.FindAllStringSubmatchIndex(s, -1)
	out := map[string]string{}
	for k, m := range idx {
		end := len(s)
		if k+1 < len(idx) {
			end = idx[k+1][0]
		}
		out[s[m[2]:m[3]]] = s[m[0]:end]
	}
	return out
}

// money reads an amount the way a person would: dollars become cents, chips stay chips.
func money(t testing.TB, s string) int64 {
	t.Helper()
	cash := strings.HasPrefix(s, "$")
	s = strings.ReplaceAll(strings.TrimPrefix(s, "$"), ",", "")
	whole, frac, _ := strings.Cut(s, ".")
	n, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		t.Fatalf("amount %q: %v", s, err)
	}
	if !cash {
		return n
	}
	for len(frac) < 2 {
		frac += "0"
	}
	c, err := strconv.ParseInt(frac, 10, 64)
	if err != nil {
		t.Fatalf("amount %q: %v", s, err)
	}
	return n*100 + c
}

// summary is what a hand's text says about its chips, read independently of the importer.
type summary struct {
	stacks    map[string]int64 // starting stacks by player
	total     int64
	rake      int64
	main      int64 // -1 when not printed
	sides     map[int]int64
	collected map[string]int64            // by player
	byPot     map[string]map[string]int64 // by pot label, by player
}

func readSummary(t testing.TB, text string) summary {
	t.Helper()
	s := summary{stacks: map[string]int64{}, main: -1, sides: map[int]int64{}, collected: map[string]int64{}, byPot: map[string]map[string]int64{}}
	head, tail, _ := strings.Cut(text, "*** SUMMARY ***")
	for _, m := range tSeat.FindAllStringSubmatch(head, -1) {
		s.stacks[m[1]] = money(t, m[2])
	}
	tl := tTotal.FindStringSubmatch(tail)
	rl := tRake.FindStringSubmatch(tail)
	if tl == nil || rl == nil {
		t.Fatalf("no total pot and rake in the summary:\n%s", tail)
	}
	s.total, s.rake = money(t, tl[1]), money(t, rl[1])
	if m := tMain.FindStringSubmatch(tail); m != nil {
		s.main = money(t, m[1])
	}
	for _, m := range tSide.FindAllStringSubmatch(tail, -1) {
		k := 1
		if m[1] != "" {
			k, _ = strconv.Atoi(m[1])
		}
		s.sides[k] = money(t, m[2])
	}
	for _, m := range tCollect.FindAllStringSubmatch(head, -1) {
		a := money(t, m[2])
		s.collected[m[1]] += a
		if s.byPot[m[3]] == nil {
			s.byPot[m[3]] = map[string]int64{}
		}
		s.byPot[m[3]][m[1]] += a
	}
	return s
}

// reconcile sums the chips of the events and compares them with the summary: everything put in,
// less what was returned, is awarded or raked; the total pot, the rake and what each player
// collected agree; the final stacks follow from the events; and where the importer kept
// PokerStars' side pots apart, each pot agrees too. It returns the final stacks by player.
func reconcile(t *testing.T, h handhistory.Hand, s summary) map[string]events.Chips {
	t.Helper()
	started := h.Events[0].Data.(*events.HandStarted)
	name := map[events.Seat]string{}
	stack := map[events.Seat]events.Chips{}
	for _, st := range started.Seats {
		name[st.Seat] = st.Player
		stack[st.Seat] = st.Stack
		if want, ok := s.stacks[st.Player]; !ok || int64(st.Stack) != want {
			t.Errorf("hand %s: %s starts with %d, the file says %d", h.Source, st.Player, st.Stack, want)
		}
	}
	var in, returned, awarded, raked events.Chips
	won := map[string]events.Chips{}
	potAward := map[int]events.Chips{}
	potRake := map[int]events.Chips{}
	var ended *events.HandEnded
	for _, e := range h.Events {
		switch d := e.Data.(type) {
		case *events.AntePosted:
			in += d.Amount
			stack[d.Seat] -= d.Amount
		case *events.BlindPosted:
			in += d.Amount
			stack[d.Seat] -= d.Amount
		case *events.PlayerActed:
			in += d.Amount
			stack[d.Seat] -= d.Amount
		case *events.BetReturned:
			returned += d.Amount
			stack[d.Seat] += d.Amount
		case *events.PotAwarded:
			awarded += d.Amount
			won[name[d.Seat]] += d.Amount
			potAward[d.Pot] += d.Amount
			stack[d.Seat] += d.Amount
		case *events.PotRaked:
			raked += d.Amount
			potRake[d.Pot] += d.Amount
		case *events.HandEnded:
			ended = d
		}
	}
	if in-returned != awarded+raked {
		t.Errorf("hand %s: %d put in less %d returned is not %d awarded plus %d raked", h.Source, in, returned, awarded, raked)
	}
	if int64(in-returned) != s.total {
		t.Errorf("hand %s: the events make a pot of %d, the summary says %d", h.Source, in-returned, s.total)
	}
	if int64(raked) != s.rake {
		t.Errorf("hand %s: %d raked, the summary says %d", h.Source, raked, s.rake)
	}
	for p, c := range s.collected {
		if int64(won[p]) != c {
			t.Errorf("hand %s: %s is awarded %d, the file says %s collected %d", h.Source, p, won[p], p, c)
		}
	}
	for p, c := range won {
		if _, ok := s.collected[p]; !ok {
			t.Errorf("hand %s: %s is awarded %d but collected nothing", h.Source, p, c)
		}
	}
	if s.main >= 0 && s.main+sumInts(s.sides) != s.total-s.rake {
		t.Errorf("hand %s: the summary's main and side pots (%d + %v) are not the total less the rake", h.Source, s.main, s.sides)
	}
	if s.main >= 0 && len(potAward) == 1+len(s.sides) {
		// The pots were kept apart: each must match (the main pot is printed net of rake).
		if int64(potAward[0]) != s.main {
			t.Errorf("hand %s: pot 0 pays %d, the main pot is %d", h.Source, potAward[0], s.main)
		}
		for k, v := range s.sides {
			if int64(potAward[k]+potRake[k]) != v {
				t.Errorf("hand %s: pot %d holds %d, side pot %d is %d", h.Source, k, potAward[k]+potRake[k], k, v)
			}
		}
	}
	if ended == nil {
		t.Fatalf("hand %s has no hand.ended", h.Source)
	}
	out := map[string]events.Chips{}
	for _, st := range ended.Stacks {
		if st.Stack != stack[st.Seat] {
			t.Errorf("hand %s: seat %d ends with %d, the events give %d", h.Source, st.Seat, st.Stack, stack[st.Seat])
		}
		out[name[st.Seat]] = st.Stack
	}
	return out
}

func sumInts(m map[int]int64) int64 {
	var s int64
	for _, v := range m {
		s += v
	}
	return s
}

// continuity compares a hand's starting stacks, as the file prints them, with the previous
// hand's final stacks: equal, or more by the rebuy the importer wrote.
func continuity(t *testing.T, h handhistory.Hand, s summary, prev map[string]events.Chips) {
	t.Helper()
	started := h.Events[0].Data.(*events.HandStarted)
	for _, st := range started.Seats {
		end, ok := prev[st.Player]
		if !ok {
			continue
		}
		var rebuy events.Chips
		if st.Rebuy != nil {
			rebuy = *st.Rebuy
		}
		if int64(end+rebuy) != s.stacks[st.Player] {
			t.Errorf("hand %s: %s ended the previous hand with %d (+%d rebuy), the file starts him with %d",
				h.Source, st.Player, end, rebuy, s.stacks[st.Player])
		}
	}
}

// checkEvents checks a hand's events as a reader of the log would: every line decodes strictly
// to the same event, seq runs from 1, the chain is unbroken, and the ids are unique.
func checkEvents(t *testing.T, h handhistory.Hand) {
	t.Helper()
	chain := events.NewChain()
	for i, e := range h.Events {
		got, err := events.Parse(e.Raw)
		if err != nil {
			t.Fatalf("hand %s event %d: %v\n%s", h.Source, i+1, err, e.Raw)
		}
		if !bytes.Equal(events.Encode(got), e.Raw) {
			t.Fatalf("hand %s event %d does not re-encode to itself:\n%s\n%s", h.Source, i+1, events.Encode(got), e.Raw)
		}
		if got.Seq != events.Seq(i+1) || got.Hand != h.ID || got.Table != h.Table {
			t.Fatalf("hand %s event %d: seq %d hand %s table %s", h.Source, i+1, got.Seq, got.Hand, got.Table)
		}
		if ps := chain.Check(got); len(ps) > 0 {
			t.Fatalf("hand %s event %d: %v", h.Source, i+1, ps)
		}
	}
	if h.Events[0].Type != events.HandStartedType || h.Events[len(h.Events)-1].Type != events.HandEndedType {
		t.Fatalf("hand %s does not run from hand.started to hand.ended", h.Source)
	}
}

// find returns the hand with the given source, or fails.
func find(t *testing.T, res *handhistory.Result, source string) handhistory.Hand {
	t.Helper()
	for _, h := range res.Hands {
		if h.Source == source {
			return h
		}
	}
	t.Fatalf("hand %s not imported (skipped: %v)", source, res.Skipped)
	return handhistory.Hand{}
}

// datas returns the data of a hand's events of type T, in order.
func datas[T events.Data](h handhistory.Hand) []T {
	var out []T
	for _, e := range h.Events {
		if d, ok := e.Data.(T); ok {
			out = append(out, d)
		}
	}
	return out
}

// dealt lists the cards dealt to seat in phase, "??" for an unknown card.
func dealt(h handhistory.Hand, seat events.Seat, phase events.Phase) string {
	var cs []string
	for _, d := range datas[*events.CardDealt](h) {
		if d.Seat == seat && d.Phase == phase {
			if d.Unknown {
				cs = append(cs, "??")
			} else {
				cs = append(cs, d.Card.String())
			}
		}
	}
	return strings.Join(cs, " ")
}

func discards(h handhistory.Hand) []string {
	var out []string
	for _, d := range datas[*events.CardsDiscarded](h) {
		s := fmt.Sprintf("%d:%v", d.Seat, d.Cards)
		if d.Declared != nil {
			s += fmt.Sprintf("+%d", *d.Declared)
		}
		out = append(out, s)
	}
	return out
}

func awards(h handhistory.Hand) []string {
	var out []string
	for _, d := range datas[*events.PotRaked](h) {
		out = append(out, fmt.Sprintf("rake pot %d: %d", d.Pot, d.Amount))
	}
	for _, d := range datas[*events.PotAwarded](h) {
		out = append(out, fmt.Sprintf("seat %d pot %d: %d", d.Seat, d.Pot, d.Amount))
	}
	return out
}

func TestSessionBOMCRLF(t *testing.T) {
	res := importFile(t, handhistory.PokerStars, "testdata/pokerstars/fl-session-bom-crlf.txt")
	h1, h2 := find(t, res, "61000000001"), find(t, res, "61000000002")
	s1 := h1.Events[0].Data.(*events.HandStarted)
	s2 := h2.Events[0].Data.(*events.HandStarted)

	// Two time zones: the ET one, June, so EDT.
	if h1.Events[0].At != "2011-06-04T19:54:24-04:00" {
		t.Errorf("at = %s, want the ET time 2011-06-04T19:54:24-04:00", h1.Events[0].At)
	}
	// Names with spaces; the table's session; hand numbers; the link and the rebuy.
	if s1.Seats[0].Player != "Mister Pink" || s1.Seats[1].Player != "ana maria" {
		t.Errorf("players %+v", s1.Seats)
	}
	if h1.Table != "ps-Alcyone_II-61000000001" || h2.Table != h1.Table || s1.Number != 1 || s2.Number != 2 {
		t.Errorf("tables %s %s, numbers %d %d", h1.Table, h2.Table, s1.Number, s2.Number)
	}
	if s1.Previous != nil || s2.Previous == nil || *s2.Previous != h1.ID {
		t.Errorf("previous %v %v, want none then %s", s1.Previous, s2.Previous, h1.ID)
	}
	for _, st := range s2.Seats {
		switch {
		case st.Player == "Bo":
			if st.Rebuy == nil || *st.Rebuy != 190 {
				t.Errorf("Bo's rebuy %v, want 190 ($3.10 → $5)", st.Rebuy)
			}
		case st.Rebuy != nil:
			t.Errorf("%s has rebuy %d", st.Player, *st.Rebuy)
		}
	}
	if got, _ := s1.Rules.Override("structure"); string(got) != `"fixed"` || s1.Stakes != (events.Stakes{MinBet: 10, MaxBet: 20}) {
		t.Errorf("structure %s stakes %+v", got, s1.Stakes)
	}
	// Hero's cards are known, everyone else's deal is not — except ana maria, who stood pat and
	// showed. The draw has no header: it begins at "discards".
	if got := dealt(h1, 4, events.PhaseDeal); got != "Ah Kc 2c Ad Ks" {
		t.Errorf("Hero dealt %s", got)
	}
	if got := dealt(h1, 4, events.PhaseDraw); got != "7d" {
		t.Errorf("Hero drew %s", got)
	}
	if got := dealt(h1, 2, events.PhaseDeal); got != "8c 9d Th Js Qd" {
		t.Errorf("ana maria (pat, shown) dealt %s", got)
	}
	if got := dealt(h1, 1, events.PhaseDeal); got != "?? ?? ?? ?? ??" {
		t.Errorf("Mister Pink dealt %s", got)
	}
	if got := dealt(h1, 5, events.PhaseDraw); got != "?? ??" {
		t.Errorf("Vatt110 drew %s", got)
	}
	if got, want := discards(h1), []string{"1:[]+3", "2:[]", "4:[2c]", "5:[]+2"}; !slices.Equal(got, want) {
		t.Errorf("discards %v, want %v", got, want)
	}
	// All-in call for less, a main pot and a side pot kept apart (all three showed), rake from
	// the main pot.
	acts := datas[*events.PlayerActed](h1)
	var rounds []string
	for _, a := range acts {
		rounds = append(rounds, fmt.Sprintf("%d %s %s %d", a.Seat, a.Round, a.Action, a.Amount))
	}
	want := []string{"4 first raise 20", "5 first call 20", "6 first fold 0", "1 first call 15", "2 first call 10",
		"1 second check 0", "2 second bet 20", "4 second raise 40", "5 second call 10", "1 second fold 0", "2 second call 20"}
	if !slices.Equal(rounds, want) {
		t.Errorf("actions\n%v\nwant\n%v", rounds, want)
	}
	if got, want := awards(h1), []string{"rake pot 0: 8", "seat 5 pot 0: 102", "seat 2 pot 1: 60"}; !slices.Equal(got, want) {
		t.Errorf("awards %v, want %v", got, want)
	}
	// The uncalled raise comes back before the award.
	if got := datas[*events.BetReturned](h2); len(got) != 1 || got[0].Seat != 5 || got[0].Amount != 10 {
		t.Errorf("returned %+v", got)
	}
}

func TestHandHeaderPotLimit(t *testing.T) {
	res := importFile(t, handhistory.PokerStars, "testdata/pokerstars/pl-hand-header-lf.txt")
	h := find(t, res, "150000000001")
	s := h.Events[0].Data.(*events.HandStarted)
	if h.Events[0].At != "2016-01-12T07:05:00-05:00" {
		t.Errorf("at = %s, want the ET time in winter", h.Events[0].At)
	}
	if got, _ := s.Rules.Override("structure"); string(got) != `"pot"` || s.Stakes != (events.Stakes{MinBet: 50}) {
		t.Errorf("structure %s stakes %+v", got, s.Stakes)
	}
	// "raises $1.25 to $1.75" from the button is 175 chips; the big blind's re-raise to $5.25
	// over his $0.50 blind is 475.
	acts := datas[*events.PlayerActed](h)
	if acts[0].Amount != 175 || acts[2].Amount != 475 || acts[2].Action != events.Raise {
		t.Errorf("actions %+v", acts[:3])
	}
	// He threw five and showed: his replacements are known; the pat hand's deal is known.
	if got := dealt(h, 2, events.PhaseDraw); got != "2d 2s 7c 7h 7s" {
		t.Errorf("Jon Snow drew %s", got)
	}
	if got := dealt(h, 5, events.PhaseDeal); got != "Tc Jc Qc Kc 9c" {
		t.Errorf("xX_draw_Xx dealt %s", got)
	}
}

func TestTournament(t *testing.T) {
	res := importFile(t, handhistory.PokerStars, "testdata/pokerstars/nl-tournament-antes.txt")
	h := find(t, res, "27853373436")
	s := h.Events[0].Data.(*events.HandStarted)
	if s.Tournament == nil || s.Tournament.ID != "476454368" || s.Tournament.Level != 5 {
		t.Errorf("tournament %v", s.Tournament)
	}
	if h.Events[0].At != "2009-11-25T14:12:43-05:00" {
		t.Errorf("at = %s", h.Events[0].At)
	}
	// Chips as they are; the ante from the posts; the sitting-out player posts and folds, so he
	// was dealt in.
	if s.Stakes != (events.Stakes{Ante: 10, MinBet: 100}) || s.Seats[0].Stack != 1500 || len(s.Seats) != 5 {
		t.Errorf("stakes %+v seats %+v", s.Stakes, s.Seats)
	}
	if n := len(datas[*events.AntePosted](h)); n != 5 {
		t.Errorf("%d antes", n)
	}
	if got, want := awards(h), []string{"seat 5 pot 0: 610", "seat 2 pot 1: 750", "seat 3 pot 2: 1000"}; !slices.Equal(got, want) {
		t.Errorf("awards %v, want %v", got, want)
	}
	if got := datas[*events.BetReturned](h); len(got) != 1 || got[0].Amount != 600 {
		t.Errorf("returned %+v", got)
	}
}

func TestSingleZoneDeadBlindSplitPot(t *testing.T) {
	res := importFile(t, handhistory.PokerStars, "testdata/pokerstars/fl-2009-single-zone-split.txt")
	h := find(t, res, "35838989654")
	s := h.Events[0].Data.(*events.HandStarted)
	var seats []events.Seat
	for _, st := range s.Seats {
		seats = append(seats, st.Seat)
	}
	if !slices.Equal(seats, []events.Seat{1, 2, 3, 4, 6}) {
		t.Errorf("dealt in %v: sleepy sat out", seats)
	}
	var blinds []string
	for _, b := range datas[*events.BlindPosted](h) {
		blinds = append(blinds, fmt.Sprintf("%d %s %d", b.Seat, b.Blind, b.Amount))
	}
	if want := []string{"3 small 5", "4 big 10", "6 big 10", "6 dead 5"}; !slices.Equal(blinds, want) {
		t.Errorf("blinds %v, want %v", blinds, want)
	}
	if got, want := awards(h), []string{"rake pot 0: 4", "seat 4 pot 0: 41", "seat 1 pot 0: 40"}; !slices.Equal(got, want) {
		t.Errorf("awards %v, want %v", got, want)
	}
}

// The real side-pot hand: the short all-in player mucks, so he is no longer live and, under the
// pot layers of presets.md, PokerStars' main and side pot are one pot (0); the rake comes from it.
func TestRealSidePot(t *testing.T) {
	res := importFile(t, handhistory.PokerStars, testfiles.File(t, "hh", "5-Carddraw-FL-USD-0.10-0.20-201106.sidepot.txt"))
	h := find(t, res, "64146221551")
	if got, want := awards(h), []string{"rake pot 0: 2", "seat 4 pot 0: 53"}; !slices.Equal(got, want) {
		t.Errorf("awards %v, want %v", got, want)
	}
	if got := dealt(h, 3, events.PhaseDraw); got != "4h Td" {
		t.Errorf("Hero drew %s", got)
	}
	if h.Events[0].At != "2011-07-04T16:56:59-04:00" {
		t.Errorf("at %s", h.Events[0].At)
	}
}

func TestMalformed(t *testing.T) {
	res := importFile(t, handhistory.PokerStars, "testdata/pokerstars/malformed.txt")
	var got []string
	for _, e := range res.Skipped {
		if !errors.Is(e, handhistory.ErrMalformed) {
			t.Errorf("%v does not wrap ErrMalformed", e)
		}
		got = append(got, fmt.Sprintf("%s:%d %s", e.File, e.Line, e.Hand))
	}
	if want := []string{"malformed.txt:32 62000000002", "malformed.txt:56 62000000003"}; !slices.Equal(got, want) {
		t.Errorf("skipped %v, want %v", got, want)
	}
	find(t, res, "62000000001")
	h := find(t, res, "62000000004")
	// The skipped hands keep their places in the table's numbering.
	if n := h.Events[0].Data.(*events.HandStarted).Number; n != 4 {
		t.Errorf("number %d, want 4", n)
	}
	if !strings.Contains(res.Skipped[0].Error(), `malformed.txt:32: hand 62000000002: unknown action "dances on the table"`) {
		t.Errorf("message %q", res.Skipped[0])
	}
}

func TestUnsupportedAndStray(t *testing.T) {
	res := importFile(t, handhistory.PokerStars, "testdata/pokerstars/unsupported.txt")
	if len(res.Skipped) != 1 || !errors.Is(res.Skipped[0], handhistory.ErrUnsupported) || res.Skipped[0].Line != 1 {
		t.Fatalf("skipped %v", res.Skipped)
	}
	res = handhistory.ImportPokerStars("x.txt", []byte("hello\n\n"))
	if len(res.Hands) != 0 || len(res.Skipped) != 1 || res.Skipped[0].Line != 1 || !errors.Is(res.Skipped[0], handhistory.ErrMalformed) {
		t.Fatalf("a file that is no hand history: %v", res.Skipped)
	}
	if _, err := handhistory.Import("ohh", "x", nil); !errors.Is(err, handhistory.ErrFormat) {
		t.Fatalf("unknown format: %v", err)
	}
}

// Importing twice gives the same bytes; a PokerStars hand keeps its ids under another file name.
func TestDeterministic(t *testing.T) {
	data, err := os.ReadFile("testdata/pokerstars/fl-session-bom-crlf.txt")
	if err != nil {
		t.Fatal(err)
	}
	a := handhistory.ImportPokerStars("a.txt", data)
	b := handhistory.ImportPokerStars("b/c.txt", slices.Clone(data))
	if len(a.Hands) != len(b.Hands) {
		t.Fatal("different hands")
	}
	for i := range a.Hands {
		for j := range a.Hands[i].Events {
			if !bytes.Equal(a.Hands[i].Events[j].Raw, b.Hands[i].Events[j].Raw) {
				t.Fatalf("hand %d event %d differs:\n%s\n%s", i, j, a.Hands[i].Events[j].Raw, b.Hands[i].Events[j].Raw)
			}
		}
	}
	// LF instead of CRLF and no byte-order mark: the same events.
	lf := bytes.ReplaceAll(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), []byte("\r\n"), []byte("\n"))
	c := handhistory.ImportPokerStars("a.txt", lf)
	for i := range a.Hands {
		for j := range a.Hands[i].Events {
			if !bytes.Equal(a.Hands[i].Events[j].Raw, c.Hands[i].Events[j].Raw) {
				t.Fatalf("LF: hand %d event %d differs", i, j)
			}
		}
	}
}

// A dead button (on a seat nobody plays from) stays where PokerStars put it: events-v1.md §7,
// "dealer then names the seat that holds the button even when no one there is dealt in"; the
// blinds and the deal start at its left.
func TestDeadButton(t *testing.T) {
	res := importFile(t, handhistory.PokerStars, "testdata/pokerstars/dead-button.txt")
	h := find(t, res, "150000000010")
	if s := h.Events[0].Data.(*events.HandStarted); s.Dealer != 4 {
		t.Errorf("dealer %d, want 4 (the button is on empty seat 4)", s.Dealer)
	}
	var order []events.Seat
	for _, d := range datas[*events.CardDealt](h)[:4] {
		order = append(order, d.Seat)
	}
	if !slices.Equal(order, []events.Seat{5, 1, 2, 3}) {
		t.Errorf("deal order %v", order)
	}
	if h.Events[0].At != "2016-03-01T15:00:00-05:00" {
		t.Errorf("at %s", h.Events[0].At)
	}
}
