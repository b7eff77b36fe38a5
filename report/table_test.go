package report

import (
	"bytes"
	"html/template"
	"strings"
	"testing"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/explain"
	"github.com/fechado/fechado/lang"
	"github.com/fechado/fechado/replay"
	"github.com/fechado/fechado/rules"
	"github.com/fechado/fechado/sim"
)

func TestDrawing(t *testing.T) {
	st := &replay.State{Dealer: 2, Turn: 3, Pot: 40, Stage: "betting",
		Pots: []replay.Pot{{Index: 0, Amount: 30}, {Index: 1, Amount: 10}},
		Seats: []replay.Seat{
			{Seat: 1, Player: "Ana", Stack: 1200, InFront: 20, Status: replay.StatusActive, Cards: mustCards("Jc Jd 2h 5s Kd")},
			{Seat: 2, Player: "Bruno", Stack: 80, Status: replay.StatusFolded},
			{Seat: 3, Player: "Çağla", Stack: 0, Status: replay.StatusAllIn, Hidden: 5},
		}}
	l, _ := lang.Get("pt-BR")
	svg, err := TableSVG(l, st, Marks{Seats: []events.Seat{1}, Cards: mustCards("Jc"), Acted: 1, Title: "mesa",
		Hands: map[events.Seat]string{1: "par de valetes"}})
	if err != nil {
		t.Fatal(err)
	}
	s := string(svg)
	for _, want := range []string{">Ana<", ">Bruno<", ">Çağla<", "1.200 fichas", ">correu<", ">all-in<",
		"Pote principal: 30", "Pote lateral 1: 10", ">D<", "valete de paus", "acted marked", "card marked", ">20<", `class="back"`, ">par de valetes<"} {
		if !strings.Contains(s, want) {
			t.Errorf("the drawing lacks %q", want)
		}
	}
	if strings.Contains(s, "http") || strings.Contains(s, "<script") {
		t.Error("the drawing refers outside itself")
	}
}

func mustCards(s string) []cards.Card {
	cs, err := cards.ParseList(s)
	if err != nil {
		panic(err)
	}
	return cs
}

// The player who just discarded has his discards drawn on their way to the muck with their
// number; the muck counts every discard and burned card.
func TestDiscardsToTheMuck(t *testing.T) {
	st := &replay.State{Dealer: 1, Stage: "draw", Type: events.CardsDiscardedType, Drawer: 2, Pot: 30,
		Deck: replay.Deck{Burned: mustCards("2c")},
		Seats: []replay.Seat{
			{Seat: 1, Player: "Ana", Stack: 100, Status: replay.StatusActive, Cards: mustCards("Jc Jd"), Discarded: mustCards("2h 5s Kd"), Drawn: 3, Drew: true},
			{Seat: 2, Player: "Bruno", Stack: 80, Status: replay.StatusActive, Hidden: 5},
		}}
	l, _ := lang.Get("en")
	svg, err := TableSVG(l, st, Marks{Acted: 1})
	if err != nil {
		t.Fatal(err)
	}
	s := string(svg)
	for _, want := range []string{"3 cards to the muck", "Muck: 4 cards", "king of diamonds", `class="toss"`, "turn"} {
		if !strings.Contains(s, want) {
			t.Errorf("the drawing lacks %q", want)
		}
	}
	// Once the next player acts, the discards lie in the muck: no longer drawn on their way.
	svg, _ = TableSVG(l, st, Marks{Acted: 2})
	if strings.Contains(string(svg), "to the muck") || !strings.Contains(string(svg), "Muck: 4 cards") {
		t.Errorf("discards drawn on their way after another player acted")
	}
}

// BenchmarkSVG measures drawing one table of five players at the showdown, as the hand page
// does once for every event of a hand.
func BenchmarkTableSVG(b *testing.B) {
	st := &replay.State{Dealer: 2, Turn: 3, Pot: 40, Stage: "showdown", Pots: []replay.Pot{{Index: 0, Amount: 30}, {Index: 1, Amount: 10}}}
	for i, hand := range []string{"Jc Jd 2h 5s Kd", "Ac Ad 2c 5c Kc", "3h 4h 5h 6h 7h", "9s 9d 9h Ts Td", "2s 3s 4d 5d 7c"} {
		st.Seats = append(st.Seats, replay.Seat{Seat: events.Seat(i + 1), Player: "player", Stack: 1200, InFront: 20,
			Status: replay.StatusActive, Cards: mustCards(hand), Shown: true})
	}
	l, _ := lang.Get("pt-BR")
	m := Marks{Seats: []events.Seat{1}, Cards: mustCards("Jc"), Acted: 1, Hands: map[events.Seat]string{1: "par de valetes"}}
	for b.Loop() {
		if _, err := TableSVG(l, st, m); err != nil {
			b.Fatal(err)
		}
	}
}

// The drawing written directly (appendSVG) is, byte for byte, what the html/template it replaced
// (svgTemplate) wrote, escaping included: at every event of simulated hands of each preset,
// in each language, with seats, cards and shown hands marked, and with names, titles and hands'
// names holding the characters HTML escapes.
func TestDrawingWritesWhatTheTemplateWrote(t *testing.T) {
	var hands [][]*events.Event
	for i, preset := range rules.Names() {
		hs, err := sim.All(sim.Config{Rules: preset, Players: 2 + i%5, Hands: 6, Seed: uint64(40 + i), Inject: sim.InjectableFor(preset)[:1]})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hs {
			hands = append(hands, h.Events)
		}
	}
	odd := "<b>Ana & \"Bia\"</b> 'n' +1\x00 Ğü"
	drawn := 0
	for _, code := range lang.Codes() {
		l, _ := lang.Get(code)
		for hi, evs := range hands {
			for _, e := range evs {
				st, err := replay.At(evs, e.Seq)
				if err != nil {
					t.Fatal(err)
				}
				m := Marks{Acted: explain.Actor(e), Title: "step " + string(e.Type)}
				if len(st.Seats) > 0 {
					m.Seats = []events.Seat{st.Seats[0].Seat}
					m.Cards = st.Seats[0].Cards
					m.Hands = map[events.Seat]string{st.Seats[len(st.Seats)-1].Seat: "pair & " + code}
				}
				if hi%3 == 0 && len(st.Seats) > 1 {
					st.Seats[1].Player = odd
					m.Title, m.Hands[st.Seats[0].Seat] = odd, odd
				}
				v := tableView(l, st, m)
				var want bytes.Buffer
				if err := svgTemplate.Execute(&want, v); err != nil {
					t.Fatal(err)
				}
				got, err := TableSVG(l, st, m)
				if err != nil {
					t.Fatal(err)
				}
				if string(got) != want.String() {
					t.Fatalf("%s, hand %d, %s: the drawing differs from the template's:\ngot  %s\nwant %s", code, hi, e.Type, got, want.String())
				}
				drawn++
			}
		}
	}
	if drawn < 1000 {
		t.Fatalf("%d drawings compared: the test proves little", drawn)
	}
}

// svgTemplate is the html/template the drawing was written with before appendSVG: the
// reference TestDrawingWritesWhatTheTemplateWrote holds appendSVG to.
var svgTemplate = template.Must(template.New("table").Parse(`<svg class="table" viewBox="0 0 {{.W}} {{.H}}" role="img">` +
	`{{if .Title}}<title>{{.Title}}</title>{{end}}` +
	`<ellipse class="rail" cx="500" cy="300" rx="350" ry="190"/>` +
	`<ellipse class="felt" cx="500" cy="300" rx="326" ry="166"/>` +
	`{{if .HasPot}}<circle class="potchip" cx="500" cy="{{(index .Pots 0).Y}}" r="13" transform="translate(0 -34)"/>{{end}}` +
	`{{range .Pots}}<text class="pot" x="500" y="{{.Y}}">{{.Text}}</text>{{end}}` +
	`{{if .Muck}}<g><title>{{.MuckLabel}}</title>{{range .Muck}}<rect class="muck" x="{{.}}" y="{{$.MuckY}}" width="26" height="36" rx="3"/>{{end}}<text class="mucktext" x="{{.MuckLX}}" y="{{.MuckLY}}">{{.MuckLabel}}</text></g>{{end}}` +
	`{{range .Seats}}` +
	`{{if .Chips}}<g><circle class="chip" cx="{{.ChipX}}" cy="{{.ChipY}}" r="15"/><text class="chiptext" x="{{.ChipX}}" y="{{.ChipY}}" dy="-20">{{.Chips}}</text></g>{{end}}` +
	`<g><rect class="plate{{if .Out}} out{{end}}{{if .Won}} won{{end}}{{if .Turn}} turn{{end}}{{if .Acted}} acted{{end}}{{if .Marked}} marked{{end}}" x="{{.X}}" y="{{.Y}}" width="200" height="134" rx="12"/>` +
	`<text class="name" x="{{.CX}}" y="{{.Y}}" dy="24" text-anchor="middle">{{.Name}}</text>` +
	`<text class="stack" x="{{.CX}}" y="{{.Y}}" dy="45" text-anchor="middle">{{.Stack}}</text>` +
	`{{if .Status}}<text class="status" x="{{.CX}}" y="{{.Y}}" dy="66" text-anchor="middle">{{.Status}}</text>{{end}}` +
	`{{range .Cards}}<g{{if .Dim}} class="dim"{{end}}>{{if .Title}}<title>{{.Title}}</title>{{end}}` +
	`{{if .Down}}<rect class="back" x="{{.X}}" y="{{.Y}}" width="34" height="48" rx="4"/>` +
	`{{else}}<rect class="card{{if .Marked}} marked{{end}}" x="{{.X}}" y="{{.Y}}" width="34" height="48" rx="4"/>` +
	`<text class="rank {{if .Red}}red{{else}}black{{end}}" x="{{.RankX}}" y="{{.RankY}}">{{.Rank}}</text>` +
	`<text class="suit {{if .Red}}red{{else}}black{{end}}" x="{{.RankX}}" y="{{.SuitY}}">{{.Suit}}</text>{{end}}</g>{{end}}` +
	`</g>` +
	`{{if .HandName}}<text class="handname" x="{{.HX}}" y="{{.HY}}" text-anchor="{{.HAnchor}}">{{.HandName}}</text>{{end}}` +
	`{{if .DiscardLabel}}<g>{{if .Discards}}<line class="toss" x1="{{.ChipX}}" y1="{{.ChipY}}" x2="{{.TossX}}" y2="{{.TossY}}"/>{{end}}{{range .Discards}}<g>{{if .Title}}<title>{{.Title}}</title>{{end}}` +
	`{{if .Down}}<rect class="back" x="{{.X}}" y="{{.Y}}" width="34" height="48" rx="4"/>` +
	`{{else}}<rect class="card" x="{{.X}}" y="{{.Y}}" width="34" height="48" rx="4"/>` +
	`<text class="rank {{if .Red}}red{{else}}black{{end}}" x="{{.RankX}}" y="{{.RankY}}">{{.Rank}}</text>` +
	`<text class="suit {{if .Red}}red{{else}}black{{end}}" x="{{.RankX}}" y="{{.SuitY}}">{{.Suit}}</text>{{end}}</g>{{end}}` +
	`<text class="discardtext" x="{{.DLX}}" y="{{.DLY}}">{{.DiscardLabel}}</text></g>{{end}}` +
	`{{if .Dealer}}<g><title>{{.DealerLabel}}</title><circle class="button" cx="{{.DX}}" cy="{{.DY}}" r="17"/><text class="buttontext" x="{{.DX}}" y="{{.DY}}" dy="6">D</text></g>{{end}}` +
	`{{end}}</svg>`))
