package web

import (
	"encoding/json"
	"html/template"
	"time"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/explain"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/lang"
	"github.com/fechado/fechado/replay"
	"github.com/fechado/fechado/report"
)

// Step is the table after one event of a hand, as the hand replayer shows it: the replay state,
// the number of cards each seat discarded, and (added by the API) the event and the findings
// that show at it.
type Step struct {
	*replay.State
	// Draws maps each seat that has drawn to the number of cards it discarded.
	Draws map[events.Seat]int `json:"draws"`
	// Redacted is set for a hand in progress: the state is that of the hand's public views, and
	// holds only what was seen face up.
	Redacted bool `json:"redacted,omitempty"`
}

// stepper replays one hand's events as shown (handView) step by step. For a hand in progress
// (public set) they are the public views, so that replay.At, through rules.Hand, builds a state
// that never held a face-down card, a discard or a seed.
type stepper struct {
	evs    []*events.Event
	public bool
	// asHappened hides, at each step, the cards nobody had seen yet: a player's cards count as
	// face down until he shows them (or one is exposed), and discards stay face down. The
	// replayer's "as it happened" mode, against "all cards".
	asHappened bool
}

// at returns the step after event seq.
func (r *stepper) at(seq events.Seq) (Step, error) {
	st, err := replay.At(r.evs, seq)
	if err != nil {
		return Step{}, err
	}
	s := Step{State: st, Draws: map[events.Seat]int{}, Redacted: r.public}
	for _, seat := range st.Seats {
		if seat.Drew {
			s.Draws[seat.Seat] = seat.Drawn
		}
	}
	if r.asHappened {
		for i := range st.Seats {
			faceDown(&st.Seats[i])
		}
	}
	if r.public {
		// Who may win a pot depends on cards nobody has seen yet (a false opener's hand is
		// dead): the public views cannot tell, so the replayer does not guess.
		for i := range st.Pots {
			st.Pots[i].Eligible = []events.Seat{}
		}
	}
	return s, nil
}

// faceDown turns a seat's cards not yet seen face down: only the cards he showed, or that were
// exposed, keep their faces; the others, and his discards, are counted, not named.
func faceDown(s *replay.Seat) {
	if s.Shown {
		return
	}
	seen := map[cards.Card]bool{}
	for _, c := range s.Seen {
		seen[c] = true
	}
	var up []cards.Card
	for _, c := range s.Cards {
		if seen[c] {
			up = append(up, c)
		} else {
			s.Hidden++
		}
	}
	s.Cards, s.Discarded = up, nil
}

// shownStep is one step of the replayer as the API answers it: the state, the event as stored
// (or its public view), the event in words, the findings that show at it told in words, and
// the table drawn with the seats and cards those findings concern marked.
type shownStep struct {
	Step
	Event    json.RawMessage `json:"event"`
	Findings []shownFinding  `json:"findings"`
	// Line tells the event in the reader's language (a line of explain's timeline).
	Line string `json:"line"`
	// Table is the table after the event, drawn by tableview (the drawing of the printed report).
	Table template.HTML `json:"table"`
}

// shownFinding is a stored finding with its explanation (package explain) in the reader's
// language.
type shownFinding struct {
	FindingView
	// Sentence names the players and cards and says what the rule requires and what happened.
	Sentence string `json:"sentence"`
	// SeverityText is the severity in words; Citation cites the rule by its name and the house
	// rulebook; Rule states it in the reader's language, Original quotes the seed's own words
	// beside it (Source naming the seed text), and Anchor is its anchor in docs/rules.md.
	// Remedy says what the floor does now.
	SeverityText string   `json:"severity_text"`
	Citation     string   `json:"citation"`
	RuleTitle    string   `json:"rule_title,omitempty"`
	Anchor       string   `json:"anchor,omitempty"`
	Rule         string   `json:"rule,omitempty"`
	Original     []string `json:"original,omitempty"`
	Source       string   `json:"source,omitempty"`
	Remedy       string   `json:"remedy,omitempty"`
	// Seats and Cards are those the finding concerns, marked on the table; Players names the seats.
	Seats   []events.Seat `json:"seats"`
	Players []string      `json:"players"`
	Who     string        `json:"who,omitempty"`
	Cards   []string      `json:"cards"`
	marked  []cards.Card
}

// teller tells the steps of one hand in one language.
type teller struct {
	l        *lang.Lang
	hand     *explain.Hand
	lines    []explain.Line
	findings []FindingView
	shown    []shownFinding
	stepper  stepper
}

// newTeller reads the hand (events as shown) and explains its findings in l.
func newTeller(l *lang.Lang, evs []*events.Event, public, asHappened bool, fs []FindingView) (*teller, error) {
	h, err := explain.NewHand(evs)
	if err != nil {
		return nil, err
	}
	t := &teller{l: l, hand: h, lines: h.Timeline(l), findings: fs, stepper: stepper{evs: evs, public: public, asHappened: asHappened}}
	for _, f := range asFindings(evs[0], fs) {
		t.shown = append(t.shown, t.explain(f))
	}
	return t, nil
}

// explain tells finding f; the stored fields come back from t.findings by position.
func (t *teller) explain(f finding.Finding) shownFinding {
	x := t.hand.Explain(t.l, f)
	out := shownFinding{FindingView: t.findings[len(t.shown)], Sentence: x.Sentence, SeverityText: x.Severity,
		Citation: x.Citation, Seats: x.Seats, Players: []string{}, Cards: []string{}}
	if out.Seats == nil {
		out.Seats = []events.Seat{}
	}
	for _, s := range x.Seats {
		out.Players = append(out.Players, t.hand.Name(t.l, s))
	}
	for _, c := range x.Cards {
		out.Cards = append(out.Cards, explain.Symbol(c))
	}
	out.marked = x.Cards
	if len(out.Players) > 0 {
		out.Who = t.l.T("report.concerned", lang.Args{"who": explain.List(t.l, out.Players)})
	}
	if x.Rule.Title != "" {
		out.RuleTitle = t.l.T(x.Rule.Title, nil)
	}
	out.Anchor, out.Rule, out.Original, out.Source, out.Remedy = x.Rule.Anchor, x.RuleWords, x.Quotes, x.Source, x.Remedy
	return out
}

// step tells the step after event e: the state, its line, its findings and the drawing.
func (t *teller) step(e *events.Event) (shownStep, error) {
	st, err := t.stepper.at(e.Seq)
	if err != nil {
		return shownStep{}, err
	}
	o := shownStep{Step: st, Event: eventJSON(e), Findings: []shownFinding{}}
	if ln, ok := explain.LineAt(t.lines, e.Seq); ok {
		o.Line = ln.Text
	}
	marks := report.Marks{Acted: explain.Actor(e), Title: o.Line, Hands: t.hand.ShownHands(t.l, st.State)}
	for _, f := range t.shown {
		if f.Seq != int(e.Seq) {
			continue
		}
		o.Findings = append(o.Findings, f)
		marks.Seats = append(marks.Seats, f.Seats...)
		marks.Cards = append(marks.Cards, f.marked...)
	}
	o.Table, err = report.TableSVG(t.l, st.State, marks)
	return o, err
}

// handWords is what the hand page says of the whole hand, in the reader's language.
type handWords struct {
	// Title names the table and the hand's number; Intro the preset by name and when the hand
	// began, with its time zone.
	Title string `json:"title"`
	Intro string `json:"intro"`
	// History is the hand event by event in words; Result who won what with which hand (only
	// once the hand has ended).
	History []explain.Line `json:"history"`
	Result  []string       `json:"result"`
	// Decks are the hand's shuffles checked against their commitments: the order the revealed
	// seed gives and the cards taken from it (only once the hand has ended).
	Decks []report.DeckCheck `json:"decks"`
}

// words tells the whole hand; final is the table after its last event.
func (t *teller) words(final *replay.State, ended bool, loc *time.Location) handWords {
	l := t.l
	w := handWords{Title: l.T("web.hand.title", lang.Args{"table": final.Table, "number": final.Number}),
		History: t.lines, Result: []string{}, Decks: []report.DeckCheck{}}
	started := t.hand.Events[0].At
	if at, err := time.Parse(time.RFC3339Nano, started); err == nil {
		started = l.DateTime(at.In(loc))
	}
	w.Intro = l.T("web.hand.intro", lang.Args{"preset": explain.PresetName(l, final.Rules), "date": started})
	if ended {
		w.Result = t.hand.Result(l, final)
		w.Decks = report.Decks(l, t.hand.Events, final)
	}
	return w
}
