package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/replay"
)

func init() {
	register(&command{
		name:    "replay",
		summary: "show the table as a hand's log leaves it after any event",
		usage:   "replay (FILE | --hand ID) [--at SEQ] [--json]   |   replay --list FILE   |   replay --tournament ID [--at TIME] [--json] [FILE…]",
		help: `Replay rebuilds a hand from its log and shows the table after event SEQ (default: the
last): each seat's player, stack, chips in front of him this round, chips in the hand, cards
held and seen, and status; the pot and side pots; the round, whose turn it is, the opener and
the dealer; the deck: each shuffle with its cut and, once its seed is revealed, the order it
gives, and the stub (its order only when a revealed seed fixes it).

FILE is a JSON Lines log ("-" is standard input). When it holds several hands, --hand ID picks
one; without --hand the last hand of the file is replayed. Without FILE, --hand ID replays the
stored hand. Only events 1..SEQ are used: nothing the log reveals later (a seed, a shown hand)
shows before it.

--list replays every hand of FILE (or of --table ID in the stored log) to its end and lists
them in order: number, dealer, each player's stack before and after, and any break in stack
continuity (a starting stack that is not the previous hand's final stack plus the rebuy).

--json prints one JSON object instead of the text view: the replay.State fields (table, hand,
number, rules, overrides, stakes, seq, type, at, last, stage, round, turn, drawer, current_bet,
opener, dealer, passed_out, passed, misdeal, ended, seats[{seat, player, start, rebuy, stack,
in_front, in, won, cards, hidden, seen, discarded, drew, status, shown, hand}], pot, carry,
pots[{index, amount, eligible}], raked, awards[{seq, seat, amount, pot}], end_carry,
deck{low, size, shuffles[{seq, method, commitment, count, gathered, cut, seed, verified,
order}], stub_count, stub, burned}); with --list, {"hands": [...]} with each hand's table,
hand, number, dealer, stacks[{seat, player, rebuy, before, after}], carry, end_carry, passed,
misdeal, ended, breaks[{player, want, got}].

` + replayTournamentHelp + `

Exit status: 0 success; 2 bad usage, an unreadable file, a line that is not an event, an
unknown hand or a SEQ the hand does not have; 3 the log store could not be reached.`,
		run: runReplay,
	})
}

func runReplay(m *Main, args []string) error {
	fs := m.flags(commands["replay"])
	hand := fs.String("hand", "", "the hand to replay (by id): in FILE, or in the stored log when no FILE is given")
	table := fs.String("table", "", "with --list and no FILE: the stored table to list")
	atf := &atFlag{}
	fs.Var(atf, "at", "show the state after this event `SEQ` (default: the last); with --tournament, at this TIME")
	tour := fs.String("tournament", "", "replay tournament `ID`: every table and the standings (see Tournaments below)")
	asJSON := fs.Bool("json", false, "print one JSON object instead of the text view")
	list := fs.Bool("list", false, "list every hand with its stacks before and after")
	store := addLogFlags(fs)
	store.existing = true // replay reads the log: it never creates it
	files, err := m.parse(fs, args)
	if err != nil {
		return err
	}
	if *tour != "" {
		return replayTournament(m, store, files, *tour, atf.s, *asJSON)
	}
	at, err := atf.seq()
	if err != nil {
		return err
	}
	switch {
	case len(files) > 1:
		return usageErr("one FILE at most (see 'fechado replay --help')")
	case at < 0:
		return usageErr("--at must be a seq, 1 or more")
	case *list && at != 0:
		return usageErr("--at does not go with --list")
	case len(files) == 0 && !*list && *hand == "":
		return usageErr("give a FILE or --hand ID (see 'fechado replay --help')")
	case len(files) == 0 && *list && *table == "":
		return usageErr("--list needs a FILE or --table ID")
	case len(files) > 0 && *table != "":
		return usageErr("--table reads the stored log; it does not go with FILE")
	}
	var evs []*events.Event
	if len(files) == 1 {
		evs, err = readEvents(m, files[0], *hand)
	} else {
		ctx, stop := interruptible()
		err = readStored(ctx, store, *hand, *table, func(e *events.Event) { evs = append(evs, e) })
		stop()
	}
	if err != nil {
		return err
	}
	if len(evs) == 0 {
		if *hand != "" {
			return usageErr("hand %s is not in %s", *hand, files[0])
		}
		return usageErr("no events to replay")
	}
	out := bufio.NewWriter(m.Stdout)
	defer out.Flush()
	if *list {
		hands := replay.Table(evs)
		if *asJSON {
			return writeJSON(out, struct {
				Hands []replay.HandSummary `json:"hands"`
			}{hands})
		}
		writeHandList(out, hands)
		return out.Flush()
	}
	groups := replay.Group(evs)
	st, err := replay.At(groups[len(groups)-1], events.Seq(at))
	if err != nil {
		return usageErr("%v", err)
	}
	if *asJSON {
		return writeJSON(out, st)
	}
	writeState(out, st, len(groups))
	return out.Flush()
}

// readEvents reads a whole log file (or stdin for "-"), keeping only hand's events when hand is
// set. A line that is not an event exits 2 naming file:line.
func readEvents(m *Main, name, hand string) ([]*events.Event, error) {
	var r io.Reader = m.Stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, usageErr("%v", err)
		}
		defer f.Close()
		r = f
	} else {
		name = "stdin"
	}
	rd := events.NewReader(r, name)
	var evs []*events.Event
	for {
		e, err := rd.Next()
		if err == io.EOF {
			return evs, nil
		}
		if err != nil {
			return nil, usageErr("%v", err)
		}
		if hand == "" || e.Hand == hand {
			evs = append(evs, e)
		}
	}
}

func writeJSON(w *bufio.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	return w.Flush()
}

// writeState prints the text view of a state.
func writeState(w io.Writer, st *replay.State, hands int) {
	fmt.Fprintf(w, "table %s  hand #%d  %s\n", st.Table, st.Number, st.Hand)
	if hands > 1 {
		fmt.Fprintf(w, "(the last of %d hands in the file; pick another with --hand ID)\n", hands)
	}
	rules := st.Rules
	for k, v := range st.Overrides {
		rules += fmt.Sprintf(" %s=%s", k, v)
	}
	limit := "no limit"
	if st.Stakes.MaxBet > 0 {
		limit = fmt.Sprintf("max bet %d", st.Stakes.MaxBet)
	}
	fmt.Fprintf(w, "rules %s  ante %d  min bet %d  %s  passed out %d\n", rules, st.Stakes.Ante, st.Stakes.MinBet, limit, st.PassedOut)
	fmt.Fprintf(w, "after seq %d of %d: %s at %s\n\n", st.Seq, st.Last, st.Type, st.At)

	rows := [][]string{{"seat", "player", "stack", "in front", "in hand", "cards", "status"}}
	for _, s := range st.Seats {
		seat := strconv.Itoa(int(s.Seat))
		if s.Seat == st.Dealer {
			seat += " D"
		}
		if s.Seat == st.Turn || s.Seat == st.Drawer {
			seat = "> " + seat
		}
		held := cardsText(s.Cards, s.Seen)
		if s.Hidden > 0 {
			held = strings.TrimSpace(held + " " + strings.TrimSpace(strings.Repeat("?? ", s.Hidden)))
		}
		status := s.Status
		var notes []string
		if s.Seat == st.Opener {
			notes = append(notes, "opener")
		}
		switch {
		case s.Drew && len(s.Discarded) == 0:
			notes = append(notes, "stood pat")
		case s.Drew:
			notes = append(notes, fmt.Sprintf("drew %d", len(s.Discarded)))
		}
		if s.Shown {
			notes = append(notes, "shown")
		}
		if s.Hand != "" && (s.Shown || st.Ended) {
			notes = append(notes, s.Hand)
		}
		if s.Won > 0 {
			notes = append(notes, fmt.Sprintf("won %d", s.Won))
		}
		if len(notes) > 0 {
			status += " (" + strings.Join(notes, ", ") + ")"
		}
		rows = append(rows, []string{seat, s.Player, s.Stack.String(), s.InFront.String(), s.In.String(), held, status})
	}
	for _, a := range st.Away {
		seat := strconv.Itoa(int(a.Seat))
		if a.Seat == st.Dealer {
			seat += " D" // a dead button: nobody dealt in sits there
		}
		rows = append(rows, []string{seat, a.Player, a.Stack.String(), "", "", "", "away, not dealt in"})
	}
	writeTable(w, rows, map[int]bool{2: true, 3: true, 4: true})
	for _, l := range st.Left {
		switch {
		case l.To != "":
			fmt.Fprintf(w, "%s left for table %s with %d chips\n", l.Player, l.To, l.Stack)
		default:
			fmt.Fprintf(w, "%s left the table with %d chips\n", l.Player, l.Stack)
		}
	}
	fmt.Fprintln(w)

	fmt.Fprintf(w, "pot %d", st.Pot)
	if st.Carry > 0 {
		fmt.Fprintf(w, " (carry %d)", st.Carry)
	}
	if st.Raked > 0 {
		fmt.Fprintf(w, " (raked %d)", st.Raked)
	}
	fmt.Fprintln(w)
	for _, p := range st.Pots {
		name := "main pot"
		if p.Index > 0 {
			name = fmt.Sprintf("side pot %d", p.Index)
		}
		fmt.Fprintf(w, "  %s %d, eligible: %s\n", name, p.Amount, seatList(p.Eligible))
	}
	for _, a := range st.Awards {
		fmt.Fprintf(w, "  seq %d: pot %d paid %d to seat %d\n", a.Seq, a.Pot, a.Amount, a.Seat)
	}
	stage := st.Stage
	if st.Round != "" {
		stage += ", round " + string(st.Round)
	}
	switch {
	case st.Passed:
		stage += ", passed out"
	case st.Misdeal:
		stage += ", misdeal"
	}
	fmt.Fprintf(w, "stage %s  turn %s  current bet %d  opener %s  dealer seat %d\n", stage, seatOrNone(st.Turn), st.CurrentBet, seatOrNone(st.Opener), st.Dealer)
	if st.Drawer != 0 {
		fmt.Fprintf(w, "next to draw: seat %d\n", st.Drawer)
	}
	if st.Ended {
		fmt.Fprintf(w, "ended: carry %d left for the next deal\n", st.EndCarry)
	}
	fmt.Fprintln(w)

	d := st.Deck
	fmt.Fprintf(w, "deck %d cards (%s up)\n", d.Size, d.Low)
	for _, sh := range d.Shuffles {
		fmt.Fprintf(w, "  seq %d %s", sh.Seq, sh.Method)
		if sh.Count != nil {
			fmt.Fprintf(w, " ×%d", *sh.Count)
		}
		if sh.Gathered != nil {
			fmt.Fprintf(w, " of %d gathered cards", len(sh.Gathered))
		}
		fmt.Fprintf(w, ", cut %d", sh.Cut)
		switch {
		case sh.Order != nil:
			check := "seed matches the commitment"
			if !sh.Verified {
				check = "no commitment to check"
			}
			fmt.Fprintf(w, "; seed %s (%s)\n    order: %s\n", sh.Seed, check, cards.Join(sh.Order, " "))
		case sh.Method == cards.ShuffleMethod:
			fmt.Fprintf(w, "; seed not revealed yet: order unknown\n")
		default:
			fmt.Fprintln(w)
		}
	}
	if len(d.Burned) > 0 {
		fmt.Fprintf(w, "  burned: %s\n", cards.Join(d.Burned, " "))
	}
	if len(d.Stub) > 0 {
		fmt.Fprintf(w, "  stub %d cards, top first: %s\n", d.StubCount, cards.Join(d.Stub, " "))
	} else {
		fmt.Fprintf(w, "  stub %d cards, order unknown\n", d.StubCount)
	}
}

// cardsText joins held cards, marking with * those seen face up.
func cardsText(held, seen []cards.Card) string {
	up := cards.SetOf(seen...)
	parts := make([]string, len(held))
	for i, c := range held {
		parts[i] = c.String()
		if up.Has(c) {
			parts[i] += "*"
		}
	}
	return strings.Join(parts, " ")
}

func seatOrNone(s events.Seat) string {
	if s == 0 {
		return "—"
	}
	return "seat " + s.String()
}

func seatList(ss []events.Seat) string {
	if len(ss) == 0 {
		return "nobody (stays for the next deal)"
	}
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = s.String()
	}
	return "seats " + strings.Join(parts, ", ")
}

// writeTable prints rows as an ASCII table; right says which columns align right.
func writeTable(w io.Writer, rows [][]string, right map[int]bool) {
	width := map[int]int{}
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	sep := "+"
	for i := range rows[0] {
		sep += strings.Repeat("-", width[i]+2) + "+"
	}
	fmt.Fprintln(w, sep)
	for k, r := range rows {
		line := "|"
		for i, c := range r {
			pad := strings.Repeat(" ", width[i]-len([]rune(c)))
			if right[i] && k > 0 {
				line += " " + pad + c + " |"
			} else {
				line += " " + c + pad + " |"
			}
		}
		fmt.Fprintln(w, line)
		if k == 0 {
			fmt.Fprintln(w, sep)
		}
	}
	fmt.Fprintln(w, sep)
}

// writeHandList prints the hand-by-hand list of --list.
func writeHandList(w io.Writer, hands []replay.HandSummary) {
	for _, h := range hands {
		fmt.Fprintf(w, "table %s  hand #%d  %s  dealer seat %d", h.Table, h.Number, h.Hand, h.Dealer)
		switch {
		case h.Err != "":
			fmt.Fprintf(w, "  cannot be replayed: %s", h.Err)
		case h.Passed:
			fmt.Fprintf(w, "  passed out, carry %d", h.EndCarry)
		case h.Misdeal:
			fmt.Fprint(w, "  misdeal")
		case !h.Ended:
			fmt.Fprint(w, "  not ended")
		}
		fmt.Fprintln(w)
		for _, s := range h.Stacks {
			rebuy := ""
			if s.Rebuy != 0 {
				rebuy = fmt.Sprintf(" (rebuy %d)", s.Rebuy)
			}
			fmt.Fprintf(w, "  seat %-2d %-16s %6d -> %6d%s\n", s.Seat, s.Player, s.Before, s.After, rebuy)
		}
		for _, b := range h.Breaks {
			fmt.Fprintf(w, "  ! %s starts with %d; the last hand left him %d (with rebuy)\n", b.Player, b.Got, b.Want)
		}
	}
	fmt.Fprintf(w, "%s\n", plural(len(hands), "hand"))
}
