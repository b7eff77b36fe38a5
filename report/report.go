// Package report writes the dispute report of one hand: a single printable HTML page, with
// nothing fetched from anywhere (styles inline, the table drawn as inline SVG), that a floor
// manager settles a dispute with. It shows the table at the end of the hand and at each finding,
// the hand event by event in words, the deck checked against its commitment, every finding as a
// sentence with the rule it enforces, and the SHA-256 of the hand's last stored line, so the
// printed report can be checked against the log later.
package report

import (
	"errors"
	"html/template"
	"io"
	"time"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/explain"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/lang"
	"github.com/fechado/fechado/replay"
)

// Options are the report's reader and circumstances.
type Options struct {
	// Lang is the reader's language (English when nil).
	Lang *lang.Lang
	// Now is when the report is prepared (the current time when zero), written in its location.
	Now time.Time
	// Findings are the hand's findings; when nil, the hand is audited on its own (findings of
	// the table's continuity need the hands before it: give them here).
	Findings []finding.Finding
	// Proof, when set, is the hand's proof in the signed log: the page says what it proves and
	// carries it, hidden, for 'fechado verify-report' (proof.go).
	Proof *Proof
}

// ErrNoHand: the events given hold no hand.
var ErrNoHand = errors.New("report: no events of the hand")

// page is what the template shows.
type page struct {
	Lang      string
	CSS       template.CSS
	Title     string
	Intro     string
	Result    []string
	PrintHint string
	Labels    map[string]string
	Final     template.HTML
	Players   []playerRow
	Findings  []findingView
	Timeline  []timelineLine
	Decks     []DeckCheck
	Chain     string
	ChainText string
	Proof     *proofView
}

// timelineLine is a line of the timeline with the findings that arose at its events.
type timelineLine struct {
	explain.Line
	Findings []int
}

type playerRow struct {
	Seat   int
	Name   string
	Start  string
	Final  string
	Cards  string
	Hand   string
	Result string
	Marked bool
}

type findingView struct {
	Index    int
	Severity string
	Class    string
	At       string
	Sentence string
	Citation string
	// Remedy says what the floor does now (explain.Remedy, the words the dispute desk shows).
	Remedy  string
	Where   string
	Who     string
	Cards   string
	Table   template.HTML
	Caption string
}

// DeckCheck is one shuffle of a hand checked against its commitment, in words.
type DeckCheck struct {
	// Method says how and at which event the deck was shuffled; Verdict whether the revealed
	// seed matches the commitment (Good) or why it cannot be checked.
	Method  string `json:"method"`
	Verdict string `json:"verdict,omitempty"`
	Good    bool   `json:"good"`
	// Checked is set when the order is known; Dealt then says whether the cards taken follow it
	// (DealtOK).
	Checked bool   `json:"checked"`
	Dealt   string `json:"dealt,omitempty"`
	DealtOK bool   `json:"dealt_ok"`
	// Order is the order the seed and the cut give, top first; Taken the cards dealt and burned
	// from it, in order, each marked Bad where it differs.
	Order []CardCell `json:"order"`
	Taken []CardCell `json:"taken"`
}

// CardCell is a card of a deck check as its symbol ("8♣").
type CardCell struct {
	Text string `json:"text"`
	Red  bool   `json:"red,omitempty"`
	Bad  bool   `json:"bad,omitempty"`
}

// Write writes the report of the hand whose events (in any order, one hand only) are evs.
func Write(w io.Writer, evs []*events.Event, o Options) error {
	if len(evs) == 0 {
		return ErrNoHand
	}
	l := o.Lang
	if l == nil {
		l = lang.English()
	}
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	final, err := replay.At(evs, 0)
	if err != nil {
		return err
	}
	evs = ordered(evs, final.Last)
	h, err := explain.NewHand(evs)
	if err != nil {
		return err
	}
	if o.Findings == nil {
		o.Findings = audit.Hand(evs)
	}
	p := page{Lang: l.Code, CSS: template.CSS(TableCSS + css), Labels: labels(l)}
	p.Title = l.T("report.title", lang.Args{"table": final.Table, "number": final.Number})
	started := evs[0].At
	if t, err := time.Parse(time.RFC3339Nano, started); err == nil {
		started = l.DateTime(t)
	}
	p.Intro = l.T("report.intro", lang.Args{"preset": explain.PresetName(l, final.Rules), "date": started, "now": l.DateTime(o.Now)})
	p.PrintHint = l.T("report.printed", nil)
	p.Result = h.Result(l, final)

	var concerned []events.Seat
	for i, f := range o.Findings {
		x := h.Explain(l, f)
		concerned = append(concerned, x.Seats...)
		fv := findingView{Index: i + 1, Severity: x.Severity, Class: string(f.Severity),
			At: l.T("report.seq", lang.Args{"seq": int(f.Seq)}), Sentence: x.Sentence, Citation: x.Citation, Remedy: x.Remedy}
		var who []string
		for _, s := range x.Seats {
			who = append(who, h.Name(l, s))
		}
		if len(who) > 0 {
			fv.Who = l.T("report.concerned", lang.Args{"who": explain.List(l, who)})
		}
		if len(x.Cards) > 0 {
			fv.Cards = l.T("report.cards", lang.Args{"cards": explain.Symbols(unique(x.Cards))})
		}
		if st, err := replay.At(evs, f.Seq); err == nil && f.Seq > 0 {
			var acted events.Seat
			for _, e := range evs {
				if e.Seq == f.Seq {
					acted = explain.Actor(e)
				}
			}
			fv.Caption = l.T("report.at", lang.Args{"seq": int(f.Seq), "index": i + 1})
			fv.Table, err = TableSVG(l, st, Marks{Seats: x.Seats, Cards: x.Cards, Acted: acted, Title: fv.Caption,
				Hands: h.ShownHands(l, st)})
			if err != nil {
				return err
			}
		}
		p.Findings = append(p.Findings, fv)
	}
	p.Final, err = TableSVG(l, final, Marks{Seats: concerned, Title: l.T("report.final", nil),
		Hands: h.ShownHands(l, final)})
	if err != nil {
		return err
	}
	marked := map[events.Seat]bool{}
	for _, s := range concerned {
		marked[s] = true
	}
	for _, s := range final.Seats {
		row := playerRow{Seat: int(s.Seat), Name: s.Player, Start: l.Number(int64(s.Start)), Final: l.Number(int64(s.Stack)),
			Cards: explain.Symbols(s.Cards), Hand: h.HandName(l, s.Cards), Marked: marked[s.Seat]}
		switch {
		case s.Won > 0:
			row.Result = l.T("status.won", lang.Args{"amount": s.Won})
		case s.Status != replay.StatusActive:
			row.Result = l.T("status."+s.Status, nil)
		}
		p.Players = append(p.Players, row)
	}
	for _, line := range h.Timeline(l) {
		tl := timelineLine{Line: line}
		for i, f := range o.Findings {
			if f.Seq >= line.Seq && f.Seq <= line.Last {
				tl.Findings = append(tl.Findings, i+1)
			}
		}
		p.Timeline = append(p.Timeline, tl)
	}
	p.Decks = Decks(l, evs, final)
	last := evs[len(evs)-1]
	raw := last.Raw
	if raw == nil {
		raw = events.Encode(last) // built in memory, never stored: the line it would be stored as
	}
	p.Chain = events.Hash(raw)
	p.ChainText = l.T("report.chain.text", lang.Args{"seq": int(last.Seq), "hand": last.Hand})
	if o.Proof != nil {
		if p.Proof, err = newProofView(l, o.Now, o.Proof); err != nil {
			return err
		}
	}
	return tmpl().Execute(w, p)
}

// ordered returns the hand's events in seq order up to last.
func ordered(evs []*events.Event, last events.Seq) []*events.Event {
	by := map[events.Seq]*events.Event{}
	for _, e := range evs {
		by[e.Seq] = e
	}
	out := make([]*events.Event, 0, len(evs))
	for s := events.Seq(1); s <= last; s++ {
		if e, ok := by[s]; ok {
			out = append(out, e)
		}
	}
	return out
}

func unique(cs []cards.Card) []cards.Card {
	seen := map[cards.Card]bool{}
	var out []cards.Card
	for _, c := range cs {
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out
}

func labels(l *lang.Lang) map[string]string {
	m := map[string]string{}
	for _, k := range []string{"report.players", "report.final", "report.timeline", "report.deck", "report.findings",
		"report.nofindings", "report.remedy", "report.chain", "report.legend", "deck.order", "deck.taken", "pot.label", "col.seat", "col.player", "col.start",
		"col.final", "col.cards", "col.hand", "col.result"} {
		m[k] = l.T(k, nil)
	}
	return m
}

// Decks checks every shuffle of the hand (evs in seq order, st the table after the last of them)
// against its commitment: the seed revealed, the order it gives (after the cut), and the cards
// taken from it in order against that order.
func Decks(l *lang.Lang, evs []*events.Event, st *replay.State) []DeckCheck {
	taken := make([][]cards.Card, len(st.Deck.Shuffles))
	cur := -1
	for _, e := range evs {
		switch d := e.Data.(type) {
		case *events.DeckShuffled:
			cur++
		case *events.CardDealt:
			if cur >= 0 && cur < len(taken) && !d.Unknown {
				taken[cur] = append(taken[cur], d.Card)
			}
		case *events.CardBurned:
			if cur >= 0 && cur < len(taken) {
				taken[cur] = append(taken[cur], d.Card)
			}
		}
	}
	out := []DeckCheck{}
	for i, sh := range st.Deck.Shuffles {
		dv := DeckCheck{}
		switch {
		case sh.Commitment == "":
			dv.Method = l.T("deck.hand", lang.Args{"seq": int(sh.Seq)})
			dv.Good = true
		case sh.Seed == "":
			dv.Method = l.T("deck.machine", lang.Args{"seq": int(sh.Seq)})
			dv.Verdict = l.T("deck.unrevealed", nil)
		case sh.Verified:
			dv.Method = l.T("deck.machine", lang.Args{"seq": int(sh.Seq)})
			dv.Verdict, dv.Good = l.T("deck.verified", nil), true
		default:
			dv.Method = l.T("deck.machine", lang.Args{"seq": int(sh.Seq)})
			dv.Verdict = l.T("deck.broken", nil)
		}
		if len(sh.Order) > 0 {
			dv.Checked = true
			bad := 0
			for j, c := range taken[i] {
				miss := j >= len(sh.Order) || sh.Order[j] != c
				if miss {
					bad++
				}
				dv.Taken = append(dv.Taken, cell(c, miss))
			}
			for _, c := range sh.Order {
				dv.Order = append(dv.Order, cell(c, false))
			}
			if bad == 0 && len(taken[i]) > 0 {
				dv.Dealt, dv.DealtOK = l.T("deck.dealt.ok", lang.Args{"n": len(taken[i])}), true
			} else if bad > 0 {
				dv.Dealt = l.T("deck.dealt.bad", lang.Args{"n": bad})
			}
		}
		out = append(out, dv)
	}
	return out
}

func cell(c cards.Card, bad bool) CardCell {
	return CardCell{Text: explain.Symbol(c), Red: c.Suit() == cards.Hearts || c.Suit() == cards.Diamonds, Bad: bad}
}
