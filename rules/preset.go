package rules

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
)

// Structure is a betting structure.
type Structure string

// The betting structures of presets.md.
const (
	// Spread: bets and raises from min_bet up to max_bet (0 = up to the stack); br-fechado.
	Spread Structure = "spread"
	// NoLimit: bet at least min_bet, raise at least the previous increment, up to the stack.
	NoLimit Structure = "no"
	// PotLimit: as no limit, but a bet or raise at most the pot (online-draw "pot").
	PotLimit Structure = "pot"
	// FixedLimit: every bet and raise is min_bet before the draw and max_bet after it.
	FixedLimit Structure = "fixed"
)

// Openers is the minimum hand to open round first.
type Openers string

// The opening requirements.
const (
	OpenFree        Openers = "free"        // any hand may open
	OpenJacks       Openers = "jacks"       // a pair of jacks or better
	OpenKings       Openers = "kings"       // a pair of kings or better ("per rua")
	OpenProgressive Openers = "progressive" // jacks, then queens, kings, aces, two pair by passed_out
)

// SecondStarter says who speaks first after the draw.
type SecondStarter string

// Who starts round second.
const (
	StartLastRaiser SecondStarter = "last-raiser" // last raiser of round first, else the opener
	StartLeft       SecondStarter = "left"        // first active player left of the dealer
	StartOpener     SecondStarter = "opener"      // the opener; if out, the next player to his left
)

// DrawSource is where replacement cards come from.
type DrawSource string

// The draw procedures of presets.md "cards for the draw".
const (
	// DrawReshuffle: the stub and the folded players' cards are reshuffled before the first
	// replacement; if they run out, the discards so far are reshuffled (br-fechado).
	DrawReshuffle DrawSource = "reshuffle"
	// DrawUnderStub: from the top; each discard goes under the stub (br-online).
	DrawUnderStub DrawSource = "under-stub"
	// DrawTop: from the top; when they run out, the discards and burned cards are reshuffled
	// (tr-kapali).
	DrawTop DrawSource = "top"
	// DrawNeverBottom: from the top but never the bottom card; if short, the discards and the
	// bottom card are reshuffled (std-draw).
	DrawNeverBottom DrawSource = "never-bottom"
	// DrawTopOthers: from the top; if the stub runs out, the discards made so far, except
	// those of the player being served, are shuffled into a new stub for the players still to
	// draw (online-draw, presets.md, 2026-12-05). Burned cards stay out.
	DrawTopOthers DrawSource = "top-others"
)

// Remedy is what the preset requires when a card is exposed.
type Remedy string

// The exposed-card remedies.
const (
	RemedyReshuffle  Remedy = "reshuffle"    // in the cut: reshuffle and cut again
	RemedyError      Remedy = "error"        // a machine table cannot expose a card
	RemedyKeep       Remedy = "keep"         // in the deal: misdeal if 1st/2nd card or a 2nd exposure, else keep
	RemedyBurnNext   Remedy = "burn-next"    // in the draw: burned, the player gets the next card
	RemedyReplaceEnd Remedy = "replace-last" // in the draw: burned, replaced after every other player drew
)

// SplitRule is how a tied pot is divided.
type SplitRule string

// The split rules.
const (
	SplitEqual        SplitRule = "equal"        // equal shares
	SplitProportional SplitRule = "proportional" // in proportion to each winner's total bet (br-online)
)

// OddChip says who gets the chips an equal split leaves over.
type OddChip string

// The odd-chip rules.
const (
	OddLeftOfDealer  OddChip = "left-of-dealer" // one at a time from the first tied winner left of the dealer
	OddLastAggressor OddChip = "last-aggressor" // from the tied winner who last bet or raised, going left (std-draw)
)

// PotRule is how chips are gathered into pots.
type PotRule string

// The pot rules.
const (
	PotsTableStakes PotRule = "table-stakes" // side pots at each all-in level
	PotsSingle      PotRule = "single"       // one pot: the best live hand wins all of it (br-online)
	PotsAntesFirst  PotRule = "antes-first"  // antes and carry are pot 0 for every live player (tr-kapali)
)

// Declared says whether a declared draw count may change.
type Declared string

// The declared-count rules.
const (
	DeclaredFree      Declared = ""            // no declaration rule
	DeclaredRaiseOnly Declared = "raise"       // may be raised, never lowered (tr-kapali)
	DeclaredUntilDeal Declared = "until-dealt" // may change until a card is dealt in answer (std-draw)
)

// Preset is one ruleset of presets.md as data. A hand's rules object names a preset and may
// override any field by its JSON name.
type Preset struct {
	Name       string `json:"name"`
	MinPlayers int    `json:"min_players"`
	MaxPlayers int    `json:"max_players"`
	// DeckLow gives the lowest rank of the deck by the number of players dealt in (index =
	// players). A zero entry means that count is not allowed.
	DeckLow [11]cards.Rank `json:"-"`
	// DeckLowOverride fixes the deck's lowest rank whatever the player count (rules "deck_low").
	DeckLowOverride cards.Rank `json:"deck_low"`

	FlushBeatsFullHouse bool `json:"flush_beats_full_house"`
	TripsBeatStraight   bool `json:"trips_beat_straight"`
	SuitsBreakTies      bool `json:"suits_break_ties"`

	Ante            bool      `json:"ante"`              // an ante from every player dealt in
	BlindRound      bool      `json:"blind_round"`       // a betting round before the deal (br-online)
	Blinds          bool      `json:"blinds"`            // small and big blinds (online-draw)
	CheckBeforeOpen bool      `json:"check_before_open"` // a player may check before anyone bets
	Openers         Openers   `json:"openers"`
	Structure       Structure `json:"structure"`
	// OpenAtLeastPot: an open of at least the chips in the middle (tr-kapali).
	OpenAtLeastPot bool `json:"open_at_least_pot"`
	// RaiseByMinBet: the smallest full raise is min_bet, not the largest increment so far.
	RaiseByMinBet bool `json:"raise_by_min_bet"`
	// RaiseCap is the most raises after the bet in one round while three or more players are in
	// (0 = no cap).
	RaiseCap int `json:"raise_cap"`
	// HalfBetReopens: in fixed limit an all-in raise of at least half a bet is a full raise.
	HalfBetReopens bool          `json:"half_bet_reopens"`
	SecondStarter  SecondStarter `json:"second_starter"`
	MaxDraw        int           `json:"max_draw"`
	// BurnBeforeFourth: the fourth card of a four-card draw comes after a burned card.
	BurnBeforeFourth bool `json:"burn_before_fourth"`
	// DelayedFifth: a five-card draw gets four cards, then the fifth after everyone else has
	// drawn, after a burn if he is last.
	DelayedFifth bool       `json:"delayed_fifth"`
	DrawSource   DrawSource `json:"draw_source"`
	Declared     Declared   `json:"declared"`
	// MinShuffles is the fewest physical shuffles before the deal (deck.shuffled count).
	MinShuffles  int    `json:"min_shuffles"`
	ExposedCut   Remedy `json:"exposed_cut"`
	ExposedDeal  Remedy `json:"exposed_deal"`
	ExposedDraw  Remedy `json:"exposed_draw"`
	ExposedError bool   `json:"exposed_error"` // card.exposed is an error, not a warning
	// MustShowOpeners: the opener must show openers before he is paid.
	MustShowOpeners bool      `json:"must_show_openers"`
	Split           SplitRule `json:"split"`
	OddChip         OddChip   `json:"odd_chip"`
	Pots            PotRule   `json:"pots"`
	// BrokeCannotOpen: a player who started the hand with no chips may not open (tr-kapali).
	BrokeCannotOpen bool `json:"broke_cannot_open"`
	// BrokeDealtIn: a player with no chips may still be dealt in (tr-kapali).
	BrokeDealtIn bool `json:"broke_dealt_in"`
	Rebuys       bool `json:"rebuys"`
	// Starter: the dealer field names the seat before the round's starter, who passes left each
	// hand even if he folded (br-online); otherwise the deal passes left.
	Starter bool `json:"starter"`
	// PassedOutAllowed: nobody opening passes the deal (false where it cannot happen).
	PassedOutAllowed bool `json:"passed_out_allowed"`
	// Rake: pot.raked allowed (online-draw).
	Rake bool `json:"rake"`
	// Button is how a blind game moves its button when players come and go (events-v1.md §7,
	// 2026-12-05): "" or "dead", the TDA dead button; "moving", the online rooms' moving button.
	// Ante games ignore it: their deal passes to the next seat dealt in anyway.
	Button events.Button `json:"button"`
}

func lowTable(def cards.Rank, by map[int]cards.Rank, min, max int) [11]cards.Rank {
	var t [11]cards.Rank
	for n := min; n <= max; n++ {
		t[n] = def
		if r, ok := by[n]; ok {
			t[n] = r
		}
	}
	return t
}

// The presets of presets.md. Each field cites the row it implements.
var presets = map[string]Preset{
	"br-fechado": {
		Name: "br-fechado", MinPlayers: 2, MaxPlayers: 8, // "players dealt in" 2–8
		DeckLow:             lowTable(cards.Seven, map[int]cards.Rank{5: cards.Six, 6: cards.Five, 7: cards.Four, 8: cards.Three}, 2, 8),
		FlushBeatsFullHouse: true, // "hand ranking": flush, full house
		Ante:                true, CheckBeforeOpen: true, Openers: OpenProgressive,
		Structure: Spread, SecondStarter: StartLastRaiser, MaxDraw: 4,
		DrawSource: DrawReshuffle, MinShuffles: 3,
		ExposedCut: RemedyReshuffle, ExposedDeal: RemedyKeep, ExposedDraw: RemedyBurnNext,
		MustShowOpeners: true, Split: SplitEqual, OddChip: OddLeftOfDealer, Pots: PotsTableStakes,
		Rebuys: true, PassedOutAllowed: true,
	},
	"br-online": {
		Name: "br-online", MinPlayers: 2, MaxPlayers: 4,
		DeckLow:    lowTable(cards.Two, nil, 2, 4),
		BlindRound: true, CheckBeforeOpen: false, Openers: OpenFree,
		Structure: NoLimit, SecondStarter: StartLeft, MaxDraw: 5,
		DrawSource: DrawUnderStub,
		ExposedCut: RemedyError, ExposedDeal: RemedyError, ExposedDraw: RemedyError, ExposedError: true,
		Split: SplitProportional, OddChip: OddLeftOfDealer, Pots: PotsSingle,
		Starter: true,
	},
	"tr-kapali": {
		Name: "tr-kapali", MinPlayers: 2, MaxPlayers: 6,
		DeckLow:             lowTable(cards.Seven, map[int]cards.Rank{5: cards.Five, 6: cards.Two}, 2, 6),
		FlushBeatsFullHouse: true, TripsBeatStraight: true, SuitsBreakTies: true,
		Ante: true, CheckBeforeOpen: true, Openers: OpenKings,
		Structure: NoLimit, OpenAtLeastPot: true, RaiseByMinBet: true,
		SecondStarter: StartLeft, MaxDraw: 4, BurnBeforeFourth: true,
		DrawSource: DrawTop, Declared: DeclaredRaiseOnly,
		ExposedCut: RemedyReshuffle, ExposedDeal: RemedyKeep, ExposedDraw: RemedyBurnNext,
		MustShowOpeners: true, Split: SplitEqual, OddChip: OddLeftOfDealer, Pots: PotsAntesFirst,
		BrokeCannotOpen: true, BrokeDealtIn: true, Rebuys: true, PassedOutAllowed: true,
	},
	"std-draw": {
		Name: "std-draw", MinPlayers: 2, MaxPlayers: 8,
		DeckLow: lowTable(cards.Two, nil, 2, 8),
		Ante:    true, CheckBeforeOpen: true, Openers: OpenJacks,
		Structure: FixedLimit, RaiseCap: 4, HalfBetReopens: true,
		SecondStarter: StartOpener, MaxDraw: 5, DelayedFifth: true,
		DrawSource: DrawNeverBottom, Declared: DeclaredUntilDeal,
		ExposedCut: RemedyReshuffle, ExposedDeal: RemedyKeep, ExposedDraw: RemedyReplaceEnd,
		MustShowOpeners: true, Split: SplitEqual, OddChip: OddLastAggressor, Pots: PotsTableStakes,
		Rebuys: true, PassedOutAllowed: true,
	},
	// online-draw: five-card draw as online rooms deal it (presets.md, last section).
	"online-draw": {
		Name: "online-draw", MinPlayers: 2, MaxPlayers: 6,
		DeckLow: lowTable(cards.Two, nil, 2, 6),
		// "antes only if the room used them": stakes.ante 0 asks for none.
		Ante:   true,
		Blinds: true, CheckBeforeOpen: true, Openers: OpenFree,
		Structure: NoLimit, RaiseCap: 3, SecondStarter: StartLeft, MaxDraw: 5,
		DrawSource: DrawTopOthers, // "if the stub runs out during the draw" (2026-12-05)
		ExposedCut: RemedyReshuffle, ExposedDeal: RemedyKeep, ExposedDraw: RemedyBurnNext,
		Split: SplitEqual, OddChip: OddLeftOfDealer, Pots: PotsTableStakes,
		Rebuys: true, Rake: true,
	},
}

// Names lists the preset names in order.
func Names() []string {
	out := make([]string, 0, len(presets))
	for n := range presets {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// ErrUnknownPreset is returned for a rules name that is not a preset.
var ErrUnknownPreset = errors.New("unknown preset")

// Lookup returns the preset of that name.
func Lookup(name string) (Preset, error) {
	p, ok := presets[name]
	if !ok {
		return Preset{}, fmt.Errorf("%w %q (known: %s)", ErrUnknownPreset, name, strings.Join(Names(), ", "))
	}
	return p, nil
}

// ForHand returns the preset a hand.started names, with the hand's overrides applied. Unknown
// override keys and values of the wrong type are errors.
func ForHand(r events.Rules) (Preset, error) {
	p, err := Lookup(r.Name)
	if err != nil {
		return p, err
	}
	if len(r.Overrides) == 0 {
		return p, nil
	}
	known := map[string]bool{}
	for _, f := range jsonNames() {
		known[f] = true
	}
	obj := map[string]json.RawMessage{}
	for _, o := range r.Overrides {
		if !known[o.Key] {
			return p, fmt.Errorf("unknown rules override %q", o.Key)
		}
		obj[o.Key] = o.Value
	}
	b, _ := json.Marshal(obj)
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	q := p
	if err := dec.Decode(&q); err != nil {
		return p, fmt.Errorf("bad rules override: %v", err)
	}
	q.Name = p.Name
	if q.Button != "" && q.Button != events.ButtonDead && q.Button != events.ButtonMoving {
		return p, fmt.Errorf("bad rules override: button %q is neither dead nor moving", q.Button)
	}
	if p.Name == "online-draw" && q.Structure == FixedLimit && q.RaiseCap == 0 {
		q.RaiseCap = 3
	}
	return q, nil
}

func jsonNames() []string {
	return []string{"deck_low", "flush_beats_full_house", "trips_beat_straight", "suits_break_ties", "ante",
		"blind_round", "blinds", "check_before_open", "openers", "structure", "open_at_least_pot",
		"raise_by_min_bet", "raise_cap", "half_bet_reopens", "second_starter", "max_draw",
		"burn_before_fourth", "delayed_fifth", "draw_source", "declared", "min_shuffles", "exposed_cut",
		"exposed_deal", "exposed_draw", "exposed_error", "must_show_openers", "split", "odd_chip", "pots",
		"broke_cannot_open", "broke_dealt_in", "rebuys", "starter", "passed_out_allowed", "rake",
		"min_players", "max_players", "button"}
}

// Low returns the lowest rank of the deck for n players dealt in, and false when the preset does
// not allow n players.
func (p Preset) Low(n int) (cards.Rank, bool) {
	if n < p.MinPlayers || n > p.MaxPlayers || n < 0 || n >= len(p.DeckLow) {
		return 0, false
	}
	if p.DeckLowOverride != 0 {
		return p.DeckLowOverride, true
	}
	r := p.DeckLow[n]
	return r, r != 0
}

// Ranking returns how the preset orders hands in a deck starting at low.
func (p Preset) Ranking(low cards.Rank) Ranking {
	return Ranking{Low: low, FlushBeatsFullHouse: p.FlushBeatsFullHouse, TripsBeatStraight: p.TripsBeatStraight,
		SuitsBreakTies: p.SuitsBreakTies}
}

// MinOpen returns the pair an opener must hold after passed consecutive passed-out deals:
// the rank of the smallest qualifying pair, or 0 for free opening; twoPair is true when only
// two pair or better qualifies (br-fechado after four passed-out deals).
func (p Preset) MinOpen(passed int) (pair cards.Rank, twoPair bool) {
	switch p.Openers {
	case OpenJacks:
		return cards.Jack, false
	case OpenKings:
		return cards.King, false
	case OpenProgressive:
		// presets.md: 0 → jacks, 1 → queens, 2 → kings, 3 → aces, 4+ → two pair.
		switch {
		case passed <= 0:
			return cards.Jack, false
		case passed == 1:
			return cards.Queen, false
		case passed == 2:
			return cards.King, false
		case passed == 3:
			return cards.Ace, false
		default:
			return 0, true
		}
	}
	return 0, false
}

// DescribeMinOpen names the opening requirement for messages.
func (p Preset) DescribeMinOpen(passed int) string {
	pair, two := p.MinOpen(passed)
	switch {
	case two:
		return "two pair or better"
	case pair == 0:
		return "anything"
	default:
		return "a pair of " + pair.Name() + " or better"
	}
}
