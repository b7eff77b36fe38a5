// Package handhistory owns the hand histories other tools read and write: the import of
// five-card draw histories — PokerStars text, PHH (the pokerkit hand-history format), Full Tilt
// text, OnGame text, Boss Media and Merge XML; Detect recognises the room — into version 1 events
// under the online-draw preset, and the export of stored hands to PokerStars text and PHH
// (Export), for the hands those formats can express (a *Refusal names the rule of any other).
//
// Import is all-or-nothing per hand: a hand that cannot be read, or whose chips or cards do not add
// up, is reported as an *Error naming the file and line and left out; the other hands of the file
// are imported. Output is deterministic: the same input gives byte-identical events (ids included),
// so importing a file twice appends nothing the second time.
//
// Every format is read whole, within two limits (limits.go): MaxInput bytes, and MaxDepth levels
// of XML elements or TOML arrays and tables, counted as the file is walked. A file over either is
// refused whole: one *Error wrapping a *LimitError (ErrTooLarge, ErrTooDeep), and no hand.
//
// What the importer cannot know it leaves out rather than invent:
//   - The room's shuffle cannot be re-derived: deck.shuffled has method "physical", deck.cut at 0.
//   - A card the room never showed is a card.dealt without card (events.CardDealt.Unknown). Known
//     are the cards dealt to the player whose history it is ("Dealt to"), and, for a player whose
//     final hand was shown, his deal when he stood pat or his replacements when he drew five.
//   - A discard whose cards were not shown is written as cards.discarded with "cards": [] and
//     "declared": N (N ≥ 1, the number of cards the room says he threw). An empty cards list
//     without declared still means "stands pat"; known discards are listed and carry no declared.
//     The N card.dealt of phase draw that follow it are the replacements. Readers (the auditor,
//     replay) must take a discard with declared > len(cards) as that many unknown cards.
//   - Event times: every event of a hand carries the time the history gives for the hand's start.
//   - A bet returned before the draw (everyone else all-in or folded) is written after the draw:
//     no bet can come between, and readers take bet.returned as the end of the betting.
//   - A dead button (on a seat nobody plays from) is written as the nearest seat dealt in to its
//     right, which has the same players to its left: the blinds and the deal stay where they were.
package handhistory

import (
	"errors"
	"fmt"
	"strings"

	"github.com/fechado/fechado/events"
)

// Format names an input format.
type Format string

// The formats Import reads.
const (
	PokerStars Format = "pokerstars" // PokerStars text hand histories, "5 Card Draw" games
	PHH        Format = "phh"        // PHH (TOML) files, .phh or .phhs
	FullTilt   Format = "fulltilt"   // Full Tilt Poker text (UTF-16LE), "5 Card Draw"
	OnGame     Format = "ongame"     // OnGame network text, FIVE_CARD_DRAW
	Boss       Format = "boss"       // Boss Media (and its Opoker skin) XML, GAME_FCD
	Merge      Format = "merge"      // Merge network XML, 5-Draw
	Auto       Format = "auto"       // recognise the room from the file (Detect)
)

// Formats lists the formats Import reads, Auto last.
var Formats = []Format{PokerStars, PHH, FullTilt, OnGame, Boss, Merge, Auto}

// Preset is the ruleset every imported hand names.
const Preset = "online-draw"

// The errors an *Error wraps; callers tell them apart with errors.Is.
var (
	// ErrMalformed: the text is not a hand history the importer can read (an unknown or
	// truncated line, a missing section, a bad amount or card).
	ErrMalformed = errors.New("malformed hand history")
	// ErrUnsupported: a well-formed hand of a game the online-draw preset cannot express
	// (hold'em, lowball, triple draw, badugi, straddles, …).
	ErrUnsupported = errors.New("game not supported")
	// ErrInconsistent: the hand reads, but its chips or cards do not add up (a pot that does not
	// match the bets, a player betting more than his stack, one card in two hands).
	ErrInconsistent = errors.New("inconsistent hand history")
	// ErrFormat: Import was asked for a format it does not know.
	ErrFormat = errors.New("unknown hand-history format")
)

// Error is a hand (or a stretch of a file) that was not imported.
type Error struct {
	File string // the file name given to Import
	Line int    // 1-based line of the problem; 0 when unknown
	Hand string // the room's hand number (PokerStars) or the hand's index (PHH); "" when unknown
	Err  error  // wraps ErrMalformed, ErrUnsupported or ErrInconsistent
}

// Error returns "file:line: hand N: message".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Hand != "" {
		fmt.Fprintf(&b, "hand %s: ", e.Hand)
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// IsHand reports whether the error is about a hand (one hand was lost), rather than about text
// that is no hand at all (a stray line, a file that is not a hand history, a file that cannot be
// parsed), so that a summary can count hands as hands.
func (e *Error) IsHand() bool { return e.Hand != "" }

// Hand is one imported hand.
type Hand struct {
	File   string // the file it came from
	Line   int    // the line where it starts
	Source string // the room's hand number (PokerStars) or the hand's index in the file (PHH)
	Table  string // the table id of its events
	ID     string // the hand's UUID
	// Events are the hand's events, sealed (Prev and Raw set), seq 1 to the end.
	Events []*events.Event
	// Dropped are actions of the source left out because they did nothing under the rules (a
	// check after the betting round was complete); the importer reports them, it does not copy
	// into the log an action the auditor would refuse for something the source did not do.
	Dropped []Dropped
}

// Dropped is an action of the source the importer left out.
type Dropped struct {
	Line  int          // the line of the source it was read from
	Seat  events.Seat  // who made it
	Round events.Round // the betting round it was recorded in
}

// Result is what Import made of one file.
type Result struct {
	Hands   []Hand   // the imported hands, in file order
	Skipped []*Error // the hands (or stray lines) left out, in file order
}

// Import converts the hand histories in data, read from a file called name, to events.
// It returns an error only for an unknown format; problems in the data are per hand, in
// Result.Skipped. Data over MaxInput bytes, or nested deeper than MaxDepth (XML, PHH), is refused
// whole: Skipped holds one *Error wrapping a *LimitError, and there is no hand.
func Import(f Format, name string, data []byte) (*Result, error) {
	if len(data) > MaxInput {
		return overLimit(name, 0, &LimitError{Kind: ErrTooLarge, Limit: MaxInput}), nil
	}
	if f == Auto {
		f = Detect(data)
		if f == "" {
			return &Result{Skipped: []*Error{{File: name, Line: 1,
				Err: errf(ErrMalformed, "no room recognised: not a hand history of %s", roomList())}}}, nil
		}
	}
	switch f {
	case PokerStars:
		return ImportPokerStars(name, data), nil
	case PHH:
		return ImportPHH(name, data), nil
	case FullTilt:
		return ImportFullTilt(name, data), nil
	case OnGame:
		return ImportOnGame(name, data), nil
	case Boss:
		return ImportBoss(name, data), nil
	case Merge:
		return ImportMerge(name, data), nil
	}
	return nil, fmt.Errorf("%w %q (want %s)", ErrFormat, string(f), roomList())
}

// roomList names the formats Import reads.
func roomList() string {
	var s []string
	for _, f := range Formats {
		if f != Auto && importers[f] {
			s = append(s, string(f))
		}
	}
	return strings.Join(s, ", ")
}

// importers are the formats Import has a reader for.
var importers = map[Format]bool{PokerStars: true, PHH: true, FullTilt: true, OnGame: true, Boss: true, Merge: true}

// Detect recognises the room that wrote data from its first hand's header, or returns "".
func Detect(data []byte) Format {
	lines := textLines(data[:min(len(data), 1<<16)])
	for _, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case t == "":
			continue
		case reHeader().MatchString(t):
			return PokerStars
		case reFTHeader().MatchString(t):
			return FullTilt
		case reOGHeader().MatchString(t):
			return OnGame
		case strings.HasPrefix(t, "<?xml") || strings.HasPrefix(t, "<ROOT"):
			continue // the hands follow
		case strings.HasPrefix(t, "<HISTORY "):
			return Boss
		case strings.HasPrefix(t, "<description ") || strings.HasPrefix(t, "<game "):
			return Merge
		case strings.HasPrefix(t, "variant") || strings.HasPrefix(t, "[") || strings.HasPrefix(t, "#"):
			return PHH
		}
		return ""
	}
	return ""
}

// errf returns an error wrapping kind with a message.
func errf(kind error, format string, a ...any) error {
	return &kindErr{kind: kind, msg: fmt.Sprintf(format, a...)}
}

type kindErr struct {
	kind error
	msg  string
}

func (e *kindErr) Error() string        { return e.msg }
func (e *kindErr) Is(target error) bool { return target == e.kind }

// lineErr is an error that knows the line it is about; the file readers move it into Error.Line.
type lineErr struct {
	line int
	err  error
}

func (e *lineErr) Error() string { return e.err.Error() }
func (e *lineErr) Unwrap() error { return e.err }

func atLine(line int, err error) error {
	if err == nil {
		return nil
	}
	var le *lineErr
	if errors.As(err, &le) {
		return err
	}
	return &lineErr{line: line, err: err}
}

// cause strips the line from an error.
func cause(err error) error {
	var le *lineErr
	if errors.As(err, &le) {
		return le.err
	}
	return err
}

// lineOf returns the line an error is about, or def.
func lineOf(err error, def int) int {
	var le *lineErr
	if errors.As(err, &le) && le.line > 0 {
		return le.line
	}
	return def
}
