package audit_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/sim"
)

// interleave writes the hands of several tables to one log with their lines interleaved: a line
// of each table's current hand in turn, as tables dealing at once append them.
func interleave(tables [][]*sim.Hand) []byte {
	var buf bytes.Buffer
	var open [][]byte
	next := make([]int, len(tables))
	for more := true; more; {
		more = false
		for i := range tables {
			if len(open) <= i {
				open = append(open, nil)
			}
			if len(open[i]) == 0 && next[i] < len(tables[i]) {
				var hb bytes.Buffer
				if err := sim.WriteHand(&hb, tables[i][next[i]]); err != nil {
					panic(err)
				}
				open[i] = hb.Bytes()
				next[i]++
			}
			if len(open[i]) == 0 {
				continue
			}
			more = true
			k := bytes.IndexByte(open[i], '\n') + 1
			buf.Write(open[i][:k])
			open[i] = open[i][k:]
		}
	}
	return buf.Bytes()
}

// A room of tables dealing at once, a tournament across tables, and tables with an irregularity
// in every hand, their lines interleaved and some of them damaged (an unknown type, a line cut
// short, a byte that is not UTF-8, a line that is not JSON, blank lines), and the same events
// again at other tables (every id used twice), are audited on several workers as one Auditor
// audits them.
func TestSpreadTablesAtOnce(t *testing.T) {
	var room bytes.Buffer
	if _, err := sim.Room(sim.RoomConfig{Players: 40, Tables: 6, Hands: 400, Seed: 9, Colluders: 2}, &room); err != nil {
		t.Fatal(err)
	}
	var cup bytes.Buffer
	if err := sim.RunTournament(sim.TournamentConfig{Rules: "std-draw", Entries: 30, Tables: 4, Seed: 4, Inject: sim.TournamentInjectable()}, &cup); err != nil {
		t.Fatal(err)
	}
	var tables [][]*sim.Hand
	for i, preset := range []string{"br-fechado", "online-draw", "tr-kapali", "std-draw"} {
		hs, err := sim.All(sim.Config{Rules: preset, Players: 5, Hands: 40, Seed: uint64(i + 1), Table: "t" + preset, Inject: sim.InjectableFor(preset)})
		if err != nil {
			t.Fatal(err)
		}
		tables = append(tables, hs)
	}
	mixed := interleave(tables)
	lines := bytes.Split(mixed, []byte("\n"))
	for i := 50; i+7 < len(lines); i += 97 {
		switch (i / 97) % 5 {
		case 0:
			lines[i] = bytes.Replace(lines[i], []byte(`"type":"`), []byte(`"type":"x`), 1)
		case 1:
			lines[i] = bytes.TrimRight(lines[i][:len(lines[i])/2], "}")
		case 2:
			lines[i] = bytes.Replace(lines[i], []byte(`"at":"`), []byte("\"at\":\"\xff"), 1)
		case 3:
			lines[i] = []byte("not an event")
		case 4:
			lines[i] = append(lines[i], '\n', ' ')
		}
	}
	damaged := bytes.Join(lines, []byte("\n"))
	// A log without a line whose place depends on other workers' lines is spread to its end.
	for name, log := range map[string][]byte{"room": room.Bytes(), "tournament": cup.Bytes(), "tables": mixed} {
		if audit.SameSpread(t, log) {
			t.Errorf("%s: the spread was given up", name)
		}
	}
	if !audit.SameSpread(t, damaged) {
		t.Error("damaged: the spread went on past lines that are not events")
	}
	audit.SameSpread(t, room.Bytes(), cup.Bytes(), damaged, mixed[:len(mixed)/2])
	if audit.SameSpreadEvents(t, room.Bytes(), cup.Bytes(), damaged) {
		t.Error("decoded events: the spread was given up")
	}
	if !strings.Contains(strings.Join(audit.OneAuditor(t, [][]byte{cup.Bytes()}), "\n"), "tournament.") {
		t.Fatal("the tournament has no tournament.* finding to compare")
	}
	// The same events again at other tables and hands: every id used twice, at tables that
	// different workers audit.
	again := bytes.ReplaceAll(bytes.ReplaceAll(mixed, []byte(`"table":"t`), []byte(`"table":"u`)), []byte(`"hand":"01`), []byte(`"hand":"91`))
	if audit.SameSpread(t, mixed, again) || audit.SameSpreadEvents(t, mixed, again) {
		t.Error("ids used twice: the spread was given up")
	}
	if !strings.Contains(strings.Join(audit.OneAuditor(t, [][]byte{mixed, again}), "\n"), "log.duplicate-id") {
		t.Fatal("no id used twice to compare")
	}
}

// simTables returns the hands of n tables of hands hands each, one of each preset in turn.
func simTables(t testing.TB, n, hands int) [][]*sim.Hand {
	t.Helper()
	presets := []string{"br-fechado", "online-draw", "tr-kapali", "std-draw"}
	var tables [][]*sim.Hand
	for i := range n {
		preset := presets[i%len(presets)]
		hs, err := sim.All(sim.Config{Rules: preset, Players: 5, Hands: hands, Seed: uint64(i + 1), Table: fmt.Sprintf("t%d-%s", i, preset)})
		if err != nil {
			t.Fatal(err)
		}
		tables = append(tables, hs)
	}
	return tables
}

// envelope returns the table and hand that a line of a log names, as fechado writes them ("" when
// it names none).
func envelope(l []byte) (table, hand string) {
	member := func(key string) string {
		i := bytes.Index(l, []byte(`"`+key+`":"`))
		if i < 0 {
			return ""
		}
		v := l[i+len(key)+4:]
		return string(v[:bytes.IndexByte(v, '"')])
	}
	return member("table"), member("hand")
}

// Lines that begin and end as fechado writes an event, and are UTF-8, but are not JSON in between
// (a quote put into their data), each naming another hand and table than the line before it, in
// a log of tables dealing at once, and a later line with the id of the first: one Auditor places
// each after the line before it, in that line's hand (events-v1.md §8), and does not take its id
// for an event's; a spread gives up at the first and audits the log on one Auditor, reporting
// what one reports. They once went to the worker of the hand they name, and the later id was
// taken for one used twice.
func TestSpreadBrokenLineOfAnotherHand(t *testing.T) {
	lines := bytes.Split(interleave(simTables(t, 4, 30)), []byte("\n"))
	var broken []int
	for i := len(lines) / 2; i < len(lines)-200 && len(broken) < 4; i++ {
		prevTable, prevHand := envelope(lines[i-1])
		if table, hand := envelope(lines[i]); table != prevTable && hand != prevHand && bytes.Contains(lines[i], []byte(`"data":{"`)) {
			broken = append(broken, i)
			i += 200
		}
	}
	if len(broken) < 4 {
		t.Fatalf("only %d lines name another table than the line before them", len(broken))
	}
	_, prevHand := envelope(lines[broken[0]-1])
	_, ownHand := envelope(lines[broken[0]])
	id := lines[broken[0]][len(`{"id":"`):][:36]
	for _, i := range broken {
		lines[i] = bytes.Replace(lines[i], []byte(`"data":{"`), []byte(`"data":{""`), 1)
	}
	later := lines[broken[0]+100]
	lines[broken[0]+100] = append(append([]byte(`{"id":"`), id...), later[len(`{"id":"`)+36:]...)
	damaged := bytes.Join(lines, []byte("\n"))
	if !audit.SameSpread(t, damaged) {
		t.Error("the spread went on past a line that is not JSON")
	}
	placed, twice := false, false
	for _, l := range audit.OneAuditor(t, [][]byte{damaged}) {
		if strings.Contains(l, "this line is not a valid event") && !placed {
			placed = strings.Contains(l, `"hand":"`+prevHand+`"`) && !strings.Contains(l, ownHand)
		}
		twice = twice || strings.Contains(l, "log.duplicate-id")
	}
	if !placed || twice {
		t.Fatalf("one Auditor does not place the first broken line in the hand of the line before it (%s), or takes its id (%v)", prevHand, twice)
	}
}

// farHands is how many hands begin between a hand's first line and its line that names another
// table in TestSpreadTableOfAHandFarOn: more than a spread's reader once remembered (65,536).
const farHands = 1<<16 + 1

// A line of a hand that names another table than the hand's first line, farHands hands after the
// hand began (each of them one line of a hand at one other table), in a log of three tables: one
// Auditor takes it into the hand, as a log.schema fault; a spread gives up there and reports what
// one Auditor reports, from lines as from decoded events (a stored log). It once went to the
// worker of the table it names (the third worker), which took it for a hand of its own. -short
// spreads the lines on three workers only, the case that once differed.
func TestSpreadTableOfAHandFarOn(t *testing.T) {
	hs, err := sim.All(sim.Config{Rules: "std-draw", Players: 4, Hands: 2, Seed: 7, Table: "far-a"})
	if err != nil {
		t.Fatal(err)
	}
	other, err := sim.All(sim.Config{Rules: "std-draw", Players: 4, Hands: 1, Seed: 8, Table: "far-b"})
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	h := hs[0].Events
	half := len(h) / 2
	for _, e := range h[:half] {
		log.Write(e.Raw)
		log.WriteByte('\n')
	}
	// The hands between: a short line (a deck.cut) of another hand, again and again, at table
	// far-f.
	cut := h[2]
	if cut.Type != "deck.cut" {
		t.Fatalf("the hand's third event is a %s", cut.Type)
	}
	filler := bytes.Replace(cut.Raw, []byte(`"table":"far-a"`), []byte(`"table":"far-f"`), 1)
	for i := range farHands {
		n := fmt.Sprintf("%012x", i)
		l := bytes.Replace(filler, []byte(cut.ID), []byte(cut.ID[:len(cut.ID)-12]+n), 1)
		log.Write(bytes.Replace(l, []byte(cut.Hand), []byte(cut.Hand[:len(cut.Hand)-12]+n), 1))
		log.WriteByte('\n')
	}
	hand := h[0].Hand
	if err := sim.WriteHand(&log, other[0]); err != nil {
		t.Fatal(err)
	}
	for i, e := range h[half:] {
		l := e.Raw
		if i == 0 {
			l = bytes.Replace(l, []byte(`"table":"far-a"`), []byte(`"table":"far-b"`), 1)
		}
		log.Write(l)
		log.WriteByte('\n')
	}
	workers := []int{2, 3}
	if testing.Short() {
		workers = workers[1:]
	}
	if !audit.SameSpreadOn(t, workers, log.Bytes()) {
		t.Error("the spread went on past a hand's line that names another table")
	}
	if !testing.Short() && !audit.SameSpreadEvents(t, log.Bytes()) {
		t.Error("the spread of decoded events went on past a hand's event that names another table")
	}
	fault := fmt.Sprintf("event of hand %s names table far-b, not far-a", hand)
	if !strings.Contains(strings.Join(audit.OneAuditor(t, [][]byte{log.Bytes()}), "\n"), fault) {
		t.Fatalf("one Auditor does not take the line into its hand: no finding %q", fault)
	}
}

// FuzzSpreadAsOneAuditor changes a log of three tables dealing at once, at random: a few bytes
// (a quote, a brace, a newline, a digit or letter of an id or a table's name, a byte that is not
// UTF-8, ...), or in every other case only digits into digits, which leaves every line JSON (ids,
// hands, tables, seqs, amounts changed); and a line copied further on (an append retried after
// its hand ended). Spread on three workers, in rounds of 4 KB, it is reported as one Auditor
// reports it (`fechado audit --workers 3` as `--workers 1`): every finding, hand and count alike,
// in the same order, whether the spread goes to the end or is given up; so is the log cut into
// one file per table (the spread by whole files, then by tables or alone); so are the events that
// decode, as a stored log gives them (`audit --all`), in rounds of 64 events. go test runs the seeds below; go test -fuzz
// FuzzSpreadAsOneAuditor ./audit looks for more.
func FuzzSpreadAsOneAuditor(f *testing.F) {
	for seed := range uint64(40) {
		f.Add(seed, uint8(seed))
	}
	base := interleave(simTables(f, 3, 8))
	const alphabet = "\"{}[],:\n \\0123456789abcdeft-\xff"
	f.Fuzz(func(t *testing.T, seed uint64, edits uint8) {
		log := bytes.Clone(base)
		r := rand.New(rand.NewPCG(seed, uint64(edits)))
		for range int(edits)%6 + 1 {
			i := r.IntN(len(log))
			switch {
			case edits%2 == 0:
				log[i] = alphabet[r.IntN(len(alphabet))]
			case '0' <= log[i] && log[i] <= '9':
				log[i] = '0' + byte(r.IntN(10))
			}
		}
		if edits%3 == 0 {
			lines := bytes.Split(log, []byte("\n"))
			from := r.IntN(len(lines))
			to := from + r.IntN(len(lines)-from)
			lines = slices.Insert(lines, to, lines[from])
			log = bytes.Join(lines, []byte("\n"))
		}
		audit.SameSpreadOn(t, []int{3}, log)
		audit.SameSpreadEvents(t, log)
		// Cut into one file per table, as a room hands its tables over: spread by whole files.
		audit.SameSpreadOn(t, []int{3}, byTable(log)...)
	})
}

// A spread judges a log on its first worker alone, on the caller's goroutine, as long as every
// table goes to that worker, and starts the others at the first line of a table that goes to
// another (docs/cli.md, "On every core"): a log of one table is judged by one worker from its
// first line to its last, and a log of one table for a while, then three at once, is judged
// alone up to the first line of the second table. Either way, and with a line whose table
// cannot be read (events-v1.md §8) before that line or after it, the spread reports what one
// Auditor reports; the damaged line gives it up.
func TestSpreadJudgesAloneUntilASecondTable(t *testing.T) {
	tables := simTables(t, 3, 12)
	var first bytes.Buffer
	for _, h := range tables[0] {
		if err := sim.WriteHand(&first, h); err != nil {
			t.Fatal(err)
		}
	}
	alone := bytes.Count(first.Bytes(), []byte("\n"))
	room := append(bytes.Clone(first.Bytes()), interleave(tables[1:])...)
	// unreadable names no table at line i of log: the hand's first table, one Auditor says
	// (Place), if it names it at all.
	unreadable := func(log []byte, i int) []byte {
		lines := bytes.Split(bytes.Clone(log), []byte("\n"))
		table, _ := envelope(lines[i])
		lines[i] = bytes.Replace(lines[i], []byte(`"table":"`+table+`"`), []byte(`"table":"not a table!"`), 1)
		return bytes.Join(lines, []byte("\n"))
	}
	for _, c := range []struct {
		name    string
		log     []byte
		gaveUp  bool
		inlined int // events judged alone, of every spread
	}{
		{"one table", first.Bytes(), false, alone},
		{"one table, then three", room, false, alone},
		{"a table unreadable while alone", unreadable(room, alone/2), true, alone / 2},
		{"a table unreadable once spread", unreadable(room, alone+40), true, alone},
	} {
		t.Run(c.name, func(t *testing.T) {
			if gave := audit.SameSpreadOn(t, []int{2, 3}, c.log); gave != c.gaveUp {
				t.Errorf("given up: %v, want %v", gave, c.gaveUp)
			}
			for _, r := range audit.SpreadRuns() {
				if r.Inlined != c.inlined {
					t.Errorf("%d workers: the first judged %d events alone, want %d", r.Workers, r.Inlined, c.inlined)
				}
			}
		})
	}
}
