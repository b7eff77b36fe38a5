// This file draws a closed-poker table as a floor manager sees it: an oval table with the
// players around it (name, stack, cards as cards), the dealer button, the chips in front of each
// player and in the pot or pots, the player to act and the one who just acted, and the seats and
// cards a finding concerns marked out. It draws a replay.State as inline SVG (no fonts, images or
// scripts from anywhere), so the dispute report and the web replayer can both embed it.

package report

import (
	"html/template"
	"math"
	"strconv"
	"strings"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/explain"
	"github.com/fechado/fechado/lang"
	"github.com/fechado/fechado/replay"
)

// Marks says what to point out on the table.
type Marks struct {
	// Seats and Cards are concerned by a finding: outlined in red.
	Seats []events.Seat
	Cards []cards.Card
	// Acted is the seat that just acted (0: none).
	Acted events.Seat
	// Hands names the hands shown, by seat ("pair of nines"), written by the plates.
	Hands map[events.Seat]string
	// Title labels the drawing for screen readers.
	Title string
}

// The drawing's coordinates: a 1000 × 600 view box, the table's centre in the middle.
const (
	width, height = 1000, 600
	cx, cy        = 500, 300
	seatRX        = 400 // the ellipse the players sit on
	seatRY        = 218
	plateW        = 200
	plateH        = 134
	cardW, cardH  = 34, 48
	cardGap       = 4
)

type cardView struct {
	X, Y      float64
	Rank      string
	Suit      string
	Red       bool
	Down      bool // face down: the card is not known
	Marked    bool
	Dim       bool
	Title     string
	RankX     float64
	RankY     float64
	SuitY     float64
	SuitSize  int
	RankSize  int
	CornerRad int
}

type seatView struct {
	X, Y         float64 // the plate's top left
	CX, CY       float64 // the plate's centre
	Name         string
	Stack        string
	Status       string
	Marked       bool
	Turn         bool
	Acted        bool
	Out          bool // folded or mucked
	Won          bool
	Cards        []cardView
	ChipX, ChipY float64
	Chips        string // chips in front, "" for none
	Dealer       bool
	DX, DY       float64
	DealerLabel  string
	// HandName is his hand as shown, written at HX, HY beside the plate.
	HandName string
	HX, HY   float64
	HAnchor  string
	// Discards are the cards the player just threw, on their way to the muck, with how many.
	Discards     []cardView
	DiscardLabel string
	DLX, DLY     float64
	TossX, TossY float64 // the middle of the muck's pile, where the dashed line ends
}

type potView struct {
	Y    float64
	Text string
}

type view struct {
	W, H   int
	Title  string
	Seats  []seatView
	Pots   []potView
	PotX   float64
	PotY   float64
	HasPot bool
	// Muck is the discards and burned cards, face down under the pot (the x of each card of the
	// pile, MuckY their top); MuckLabel says how many.
	Muck      []float64
	MuckY     float64
	MuckLabel string
	MuckLX    float64
	MuckLY    float64
}

// The muck's pile: small face-down cards under the pot, its label on their right.
const (
	muckX          = 462
	muckW, muckH   = 26, 36
	muckLabelSpace = 8
)

var suitSymbols = [...]string{"♣", "♦", "♥", "♠"}

// TableSVG draws st in l with marks as an inline SVG element.
func TableSVG(l *lang.Lang, st *replay.State, m Marks) (template.HTML, error) {
	v := tableView(l, st, m)
	return template.HTML(appendSVG(make([]byte, 0, 16<<10), &v)), nil
}

// tableView lays st out in l with marks: what appendSVG draws.
func tableView(l *lang.Lang, st *replay.State, m Marks) view {
	v := view{W: width, H: height, Title: m.Title, PotX: cx, PotY: cy}
	n := len(st.Seats)
	marked := map[events.Seat]bool{}
	for _, s := range m.Seats {
		marked[s] = true
	}
	markedCard := map[cards.Card]bool{}
	for _, c := range m.Cards {
		markedCard[c] = true
	}
	// Under the last pot's line.
	muckY := tenth(float64(cy) + 16*float64(max(len(st.Pots), 1)-1) + 14)
	for i, s := range st.Seats {
		// Seats go clockwise from the bottom of the drawing, in seat order.
		a := math.Pi/2 + 2*math.Pi*float64(i)/float64(n)
		px, py := tenth(cx+seatRX*math.Cos(a)), tenth(cy+seatRY*math.Sin(a))
		sv := seatView{X: px - plateW/2, Y: py - plateH/2, CX: px, CY: py, Name: s.Player,
			Stack: l.T("stack", lang.Args{"n": s.Stack}), Marked: marked[s.Seat],
			Turn: (st.Turn == s.Seat && st.Turn != 0) || (st.Drawer == s.Seat && st.Drawer != 0 && st.Stage == "draw"), Acted: m.Acted == s.Seat && m.Acted != 0,
			Out: s.Status == replay.StatusFolded || s.Status == replay.StatusMucked, Won: s.Won > 0}
		switch {
		case s.Status == replay.StatusFolded || s.Status == replay.StatusMucked || s.Status == replay.StatusAllIn:
			sv.Status = l.T("status."+s.Status, nil)
		case sv.Turn:
			sv.Status = l.T("status.toact", nil)
		case sv.Acted:
			sv.Status = l.T("status.acted", nil)
		case s.Won > 0:
			sv.Status = l.T("status.won", lang.Args{"amount": s.Won})
		case s.Drew && len(s.Discarded) > 0:
			sv.Status = l.T("status.drew", lang.Args{"n": len(s.Discarded)})
		}
		held := s.Cards
		slots := len(held) + s.Hidden
		x0 := sv.X + (plateW-float64(slots*cardW+(slots-1)*cardGap))/2
		for j := 0; j < slots; j++ {
			cv := cardView{X: x0 + float64(j*(cardW+cardGap)), Y: sv.Y + 76, Dim: sv.Out, CornerRad: 4,
				RankSize: 19, SuitSize: 20}
			cv.RankX, cv.RankY, cv.SuitY = cv.X+cardW/2, cv.Y+20, cv.Y+42
			if j < len(held) {
				c := held[j]
				cv.Rank = rankText(c)
				cv.Suit = suitSymbols[c.Suit()]
				cv.Red = c.Suit() == cards.Hearts || c.Suit() == cards.Diamonds
				cv.Marked = markedCard[c]
				cv.Title = explain.Words(l, c)
			} else {
				cv.Down = true
			}
			sv.Cards = append(sv.Cards, cv)
		}
		// Chips in front of the player, between him and the centre: his bets this round, or
		// once the hand is over what he won.
		chips := s.InFront
		if st.Ended {
			chips = s.Won
		}
		if chips > 0 {
			sv.Chips = l.Number(int64(chips))
		}
		sv.ChipX, sv.ChipY = tenth(cx+0.55*seatRX*math.Cos(a)), tenth(cy+0.50*seatRY*math.Sin(a))
		if name := m.Hands[s.Seat]; name != "" {
			// On the felt's side of the plate: above it for the players at the bottom.
			sv.HandName, sv.HX, sv.HY, sv.HAnchor = name, px, py+plateH/2+20, "middle"
			if math.Sin(a) > 0.3 {
				sv.HY = py - plateH/2 - 10
			}
			// Beside the drawing's edge the name runs from the plate's outer side inwards.
			switch c := math.Cos(a); {
			case c > 0.3:
				sv.HX, sv.HAnchor = px+plateW/2, "end"
			case c < -0.3:
				sv.HX, sv.HAnchor = px-plateW/2, "start"
			}
		}
		if st.Type == events.CardsDiscardedType && sv.Acted && s.Drew {
			discards(l, &sv, s, math.Sin(a) > 0.3, muckY+muckH/2)
		}
		if st.Dealer == s.Seat {
			sv.Dealer = true
			sv.DealerLabel = l.T("dealer", nil)
			// On the plate's outer corner, away from the chips in front of the player.
			sx, sy := 1.0, -1.0
			if math.Cos(a) < -0.3 {
				sx = -1
			}
			if math.Sin(a) > 0.3 {
				sy = 1
			}
			// Kept inside the drawing, whose edge a side plate touches.
			sv.DX, sv.DY = min(max(px+sx*(plateW/2-6), 20), width-20), py+sy*(plateH/2-6)
		}
		v.Seats = append(v.Seats, sv)
	}
	y := float64(cy) - 10*float64(len(st.Pots)-1)
	for _, p := range st.Pots {
		if p.Amount == 0 || st.Ended {
			continue
		}
		t := l.T("pot.main.amt", lang.Args{"amount": p.Amount})
		if p.Index > 0 {
			t = l.T("pot.side.amt", lang.Args{"n": p.Index, "amount": p.Amount})
		}
		v.Pots = append(v.Pots, potView{Y: y, Text: t})
		y += 26
	}
	if len(v.Pots) == 0 && st.Pot > 0 && !st.Ended {
		v.Pots = append(v.Pots, potView{Y: cy, Text: l.T("pot.main.amt", lang.Args{"amount": st.Pot})})
	}
	v.HasPot = len(v.Pots) > 0
	muck := len(st.Deck.Burned)
	for _, s := range st.Seats {
		muck += s.Drawn
	}
	if muck > 0 && !st.Ended {
		for k := 0; k < min(muck, 6); k++ {
			v.Muck = append(v.Muck, float64(muckX+2*k))
		}
		v.MuckY = muckY
		v.MuckLabel = l.T("table.muck", lang.Args{"n": muck})
		v.MuckLX, v.MuckLY = muckX+muckW+10+muckLabelSpace, muckY+muckH/2+5
	}
	return v
}

// discards lays the cards seat s just threw where his chips go (none are in front of anyone
// during the draw), face up when the log shows them (an ended hand), face down when it keeps only
// their number; a dashed line leads to the muck's pile at muck's height. low says the seat is in
// the drawing's lower half, where the label goes above the cards.
func discards(l *lang.Lang, sv *seatView, s replay.Seat, low bool, muck float64) {
	mx, my := sv.ChipX, sv.ChipY
	labelY := my + cardH/2 + 18
	if low {
		labelY = my - cardH/2 - 8
	}
	sv.DLX, sv.DLY, sv.TossX, sv.TossY = mx, labelY, muckX+muckW/2+5, muck
	if s.Drawn == 0 {
		sv.DiscardLabel = l.T("table.pat", nil)
		sv.DLY = my
		return
	}
	w := float64(s.Drawn*(cardW-12) + 12)
	for j := 0; j < s.Drawn; j++ {
		cv := cardView{X: mx - w/2 + float64(j*(cardW-12)), Y: my - cardH/2, CornerRad: 4}
		cv.RankX, cv.RankY, cv.SuitY = cv.X+cardW/2, cv.Y+20, cv.Y+42
		if j < len(s.Discarded) {
			c := s.Discarded[j]
			cv.Rank, cv.Suit = rankText(c), suitSymbols[c.Suit()]
			cv.Red = c.Suit() == cards.Hearts || c.Suit() == cards.Diamonds
			cv.Title = explain.Words(l, c)
		} else {
			cv.Down = true
		}
		sv.Discards = append(sv.Discards, cv)
	}
	sv.DiscardLabel = l.T("table.discards", lang.Args{"n": s.Drawn})
}

// tenth rounds a coordinate to a tenth of a unit of the view box (a thousandth of its width):
// finer than any screen or printer shows, and short to write.
func tenth(f float64) float64 { return math.Round(f*10) / 10 }

func rankText(c cards.Card) string {
	r := c.Rank().String()
	if r == "T" {
		return "10"
	}
	return r
}

// TableCSS styles the drawing; a page that embeds TableSVG includes it once in its style sheet.
const TableCSS = `
svg.table{width:100%;height:auto;display:block;max-width:1000px;margin:0 auto}
svg.table .rail{fill:#6b3f1d;stroke:#3d220e;stroke-width:3}
svg.table .felt{fill:#1f6b3a;stroke:#154d29;stroke-width:3}
svg.table .plate{fill:#fbfaf5;stroke:#8a8a80;stroke-width:2}
svg.table .plate.won{stroke:#1f6b3a;stroke-width:5;fill:#effaf1}
svg.table .plate.turn{stroke:#d4a017;stroke-width:5}
svg.table .plate.acted{stroke:#2364aa;stroke-width:4}
svg.table .plate.marked{stroke:#c0122c;stroke-width:6}
svg.table .plate.out{fill:#e4e2da}
svg.table .name{font:700 21px system-ui,sans-serif;fill:#1b1b1b}
svg.table .stack{font:16px system-ui,sans-serif;fill:#333}
svg.table .status{font:italic 15px system-ui,sans-serif;fill:#5a3b00}
svg.table .card{fill:#fff;stroke:#555;stroke-width:1.2}
svg.table .card.marked{stroke:#c0122c;stroke-width:3.5}
svg.table .back{fill:#2d4f8e;stroke:#1b2f55;stroke-width:1.2}
svg.table .rank{font:700 19px system-ui,sans-serif;text-anchor:middle}
svg.table .suit{font:20px system-ui,sans-serif;text-anchor:middle}
svg.table .red{fill:#c0122c}
svg.table .black{fill:#111}
svg.table .dim{opacity:.45}
svg.table .chip{fill:#e8c547;stroke:#7a5c00;stroke-width:2}
svg.table .chiptext{font:700 17px system-ui,sans-serif;fill:#fff;text-anchor:middle;paint-order:stroke;stroke:#154d29;stroke-width:4px}
svg.table .button{fill:#fff;stroke:#222;stroke-width:2}
svg.table .buttontext{font:700 18px system-ui,sans-serif;text-anchor:middle;fill:#111}
svg.table .handname{font:700 16px system-ui,sans-serif;fill:#111;paint-order:stroke;stroke:#fbfaf5;stroke-width:5px}
svg.table .muck{fill:#2d4f8e;stroke:#e8e4d8;stroke-width:1.5}
svg.table .mucktext{font:15px system-ui,sans-serif;fill:#fff;text-anchor:start}
svg.table .toss{stroke:#fff;stroke-width:2;stroke-dasharray:6 5;opacity:.8}
svg.table .discardtext{font:700 16px system-ui,sans-serif;fill:#fff;text-anchor:middle;paint-order:stroke;stroke:#154d29;stroke-width:4px}
svg.table .potchip{fill:#e8c547;stroke:#7a5c00;stroke-width:2}
svg.table .pot{font:700 22px system-ui,sans-serif;fill:#fff;text-anchor:middle;paint-order:stroke;stroke:#154d29;stroke-width:5px}
`

// appendSVG appends the drawing of v to b: what the html/template of the drawing (svgTemplate in
// the tests, which check that the two write the same bytes) wrote, written directly. Executing the
// template, by reflection, for the drawing of each step of a replay was 12% of serve's CPU under
// the whole mix of reads (BENCHMARKS.md, nineteenth session); the texts are escaped as it escaped
// them (esc), the numbers written as it wrote them (num).
func appendSVG(b []byte, v *view) []byte {
	b = append(b, `<svg class="table" viewBox="0 0 `...)
	b = strconv.AppendInt(b, int64(v.W), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(v.H), 10)
	b = append(b, `" role="img">`...)
	if v.Title != "" {
		b = esc(append(b, "<title>"...), v.Title)
		b = append(b, "</title>"...)
	}
	b = append(b, `<ellipse class="rail" cx="500" cy="300" rx="350" ry="190"/>`+
		`<ellipse class="felt" cx="500" cy="300" rx="326" ry="166"/>`...)
	if v.HasPot {
		b = num(append(b, `<circle class="potchip" cx="500" cy="`...), v.Pots[0].Y)
		b = append(b, `" r="13" transform="translate(0 -34)"/>`...)
	}
	for _, p := range v.Pots {
		b = num(append(b, `<text class="pot" x="500" y="`...), p.Y)
		b = esc(append(b, `">`...), p.Text)
		b = append(b, "</text>"...)
	}
	if len(v.Muck) > 0 {
		b = esc(append(b, "<g><title>"...), v.MuckLabel)
		b = append(b, "</title>"...)
		for _, x := range v.Muck {
			b = num(append(b, `<rect class="muck" x="`...), x)
			b = num(append(b, `" y="`...), v.MuckY)
			b = append(b, `" width="26" height="36" rx="3"/>`...)
		}
		b = num(append(b, `<text class="mucktext" x="`...), v.MuckLX)
		b = num(append(b, `" y="`...), v.MuckLY)
		b = esc(append(b, `">`...), v.MuckLabel)
		b = append(b, "</text></g>"...)
	}
	for i := range v.Seats {
		b = appendSeat(b, &v.Seats[i])
	}
	return append(b, "</svg>"...)
}

// appendSeat appends the drawing of one seat: its chips, its plate and cards, the name of its
// hand, its discards and the dealer's button.
func appendSeat(b []byte, s *seatView) []byte {
	if s.Chips != "" {
		b = num(append(b, `<g><circle class="chip" cx="`...), s.ChipX)
		b = num(append(b, `" cy="`...), s.ChipY)
		b = num(append(b, `" r="15"/><text class="chiptext" x="`...), s.ChipX)
		b = num(append(b, `" y="`...), s.ChipY)
		b = esc(append(b, `" dy="-20">`...), s.Chips)
		b = append(b, "</text></g>"...)
	}
	b = append(b, `<g><rect class="plate`...)
	for _, c := range []struct {
		on   bool
		name string
	}{{s.Out, " out"}, {s.Won, " won"}, {s.Turn, " turn"}, {s.Acted, " acted"}, {s.Marked, " marked"}} {
		if c.on {
			b = append(b, c.name...)
		}
	}
	b = num(append(b, `" x="`...), s.X)
	b = num(append(b, `" y="`...), s.Y)
	b = append(b, `" width="200" height="134" rx="12"/>`...)
	for _, t := range []struct {
		class, dy, text string
	}{{"name", "24", s.Name}, {"stack", "45", s.Stack}, {"status", "66", s.Status}} {
		if t.class == "status" && t.text == "" {
			continue
		}
		b = num(append(append(append(b, `<text class="`...), t.class...), `" x="`...), s.CX)
		b = num(append(b, `" y="`...), s.Y)
		b = append(append(append(b, `" dy="`...), t.dy...), `" text-anchor="middle">`...)
		b = append(esc(b, t.text), "</text>"...)
	}
	for i := range s.Cards {
		c := &s.Cards[i]
		b = append(b, "<g"...)
		if c.Dim {
			b = append(b, ` class="dim"`...)
		}
		b = appendCard(append(b, '>'), c, c.Marked)
	}
	b = append(b, "</g>"...)
	if s.HandName != "" {
		b = num(append(b, `<text class="handname" x="`...), s.HX)
		b = num(append(b, `" y="`...), s.HY)
		b = esc(append(b, `" text-anchor="`...), s.HAnchor)
		b = esc(append(b, `">`...), s.HandName)
		b = append(b, "</text>"...)
	}
	if s.DiscardLabel != "" {
		b = append(b, "<g>"...)
		if len(s.Discards) > 0 {
			b = num(append(b, `<line class="toss" x1="`...), s.ChipX)
			b = num(append(b, `" y1="`...), s.ChipY)
			b = num(append(b, `" x2="`...), s.TossX)
			b = num(append(b, `" y2="`...), s.TossY)
			b = append(b, `"/>`...)
		}
		for i := range s.Discards {
			b = appendCard(append(b, "<g>"...), &s.Discards[i], false)
		}
		b = num(append(b, `<text class="discardtext" x="`...), s.DLX)
		b = num(append(b, `" y="`...), s.DLY)
		b = esc(append(b, `">`...), s.DiscardLabel)
		b = append(b, "</text></g>"...)
	}
	if s.Dealer {
		b = esc(append(b, "<g><title>"...), s.DealerLabel)
		b = num(append(b, `</title><circle class="button" cx="`...), s.DX)
		b = num(append(b, `" cy="`...), s.DY)
		b = num(append(b, `" r="17"/><text class="buttontext" x="`...), s.DX)
		b = num(append(b, `" y="`...), s.DY)
		b = append(b, `" dy="6">D</text></g>`...)
	}
	return b
}

// appendCard appends a card's title, face (or back) and, face up, its rank and suit, and closes
// the group the caller opened; marked outlines the face (a seat's cards, not discards).
func appendCard(b []byte, c *cardView, marked bool) []byte {
	if c.Title != "" {
		b = esc(append(b, "<title>"...), c.Title)
		b = append(b, "</title>"...)
	}
	if c.Down {
		b = num(append(b, `<rect class="back" x="`...), c.X)
		b = num(append(b, `" y="`...), c.Y)
		return append(b, `" width="34" height="48" rx="4"/></g>`...)
	}
	b = append(b, `<rect class="card`...)
	if marked {
		b = append(b, " marked"...)
	}
	b = num(append(b, `" x="`...), c.X)
	b = num(append(b, `" y="`...), c.Y)
	b = append(b, `" width="34" height="48" rx="4"/>`...)
	color := "black"
	if c.Red {
		color = "red"
	}
	for _, t := range []struct {
		class string
		y     float64
		text  string
	}{{"rank ", c.RankY, c.Rank}, {"suit ", c.SuitY, c.Suit}} {
		b = append(append(append(append(b, `<text class="`...), t.class...), color...), `" x="`...)
		b = num(b, c.RankX)
		b = num(append(b, `" y="`...), t.y)
		b = append(esc(append(b, `">`...), t.text), "</text>"...)
	}
	return append(b, "</g>"...)
}

// num appends f as html/template wrote a float64 (fmt's %v): the shortest decimal that reads
// back as f, which for the drawing's coordinates (tenths, under a million) is never an exponent.
func num(b []byte, f float64) []byte {
	return strconv.AppendFloat(b, f, 'g', -1, 64)
}

// esc appends s escaped as html/template escapes a string in text and in a quoted attribute:
// the five characters of HTML's syntax and + as references, NUL as U+FFFD.
func esc(b []byte, s string) []byte {
	if !strings.ContainsAny(s, "\x00\"&'+<>") {
		return append(b, s...)
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case 0:
			b = append(b, "\uFFFD"...)
		case '"':
			b = append(b, "&#34;"...)
		case '&':
			b = append(b, "&amp;"...)
		case '\'':
			b = append(b, "&#39;"...)
		case '+':
			b = append(b, "&#43;"...)
		case '<':
			b = append(b, "&lt;"...)
		case '>':
			b = append(b, "&gt;"...)
		default:
			b = append(b, c)
		}
	}
	return b
}
