package audit

import (
	"bytes"
	"fmt"
	"os"
	"testing"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/internal/testfiles"
)

// tamperBase is an exported log with machine shuffles, cuts and reveals that audits clean.
const tamperBase = "table-br-fechado.jsonl"

// tamperLines returns the lines of tamperBase and their decoded events.
func tamperLines(t *testing.T) ([][]byte, []*events.Event) {
	t.Helper()
	b, err := os.ReadFile(testfiles.Path("vectors", tamperBase))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimRight(b, "\n"), []byte("\n"))
	evs := make([]*events.Event, len(lines))
	for i, l := range lines {
		if evs[i], err = events.Parse(l); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
	}
	return lines, evs
}

// auditLines audits lines as a file and returns the findings as "hand seq code".
func auditLines(t *testing.T, lines [][]byte) []string {
	t.Helper()
	var out []string
	a := New(func(f finding.Finding) { out = append(out, fmt.Sprintf("%s %d %s", f.Hand, f.Seq, f.Code)) })
	if _, err := AuditReader(a, events.NewReader(bytes.NewReader(append(bytes.Join(lines, []byte("\n")), '\n')), tamperBase)); err != nil {
		t.Fatal(err)
	}
	a.Close()
	return out
}

func cloneLines(lines [][]byte) [][]byte {
	out := make([][]byte, len(lines))
	for i, l := range lines {
		out[i] = bytes.Clone(l)
	}
	return out
}

// flipIn flips the lowest bit of the first decimal digit inside the value of "key":"…" in line
// (0↔1, 2↔3, …, 8↔9), so the line stays valid JSON and valid version 1 but is no longer the
// line that was hashed.
func flipIn(t *testing.T, line []byte, key string) {
	t.Helper()
	i := bytes.Index(line, []byte(`"`+key+`":"`))
	if i < 0 {
		t.Fatalf("no %s in %s", key, line)
	}
	for j := i + len(key) + 4; j < len(line) && line[j] != '"'; j++ {
		if line[j] >= '0' && line[j] <= '9' {
			line[j] ^= 1
			return
		}
	}
	t.Fatalf("no digit in the %s of %s", key, line)
}

// One byte flipped in event k of a hand breaks the hash chain at the NEXT event of the hand: the
// flipped line is still valid JSON and a valid event (a digit of its id or of its time changed),
// so nothing about line k itself is wrong; what no longer holds is that event k+1's prev is the
// SHA-256 of line k. The auditor reports exactly one finding, log.chain at seq k+1 of that hand.
//
// When the flipped byte is inside event k's own prev, line k's prev no longer names line k-1
// (log.chain at seq k) and, line k having changed, event k+1's prev no longer names it either
// (log.chain at seq k+1): two findings, the first at k.
//
// A flip in the last event of a hand (its hand.ended) has no next event to break: the chain alone
// cannot see it (docs/security.md: anchor the hash of each hand's last line elsewhere).
func TestTamperFlipOneByte(t *testing.T) {
	lines, evs := tamperLines(t)
	if got := auditLines(t, lines); len(got) != 0 {
		t.Fatalf("the base log has findings: %v", got)
	}
	for _, c := range []struct {
		name  string
		index int    // line of the event flipped (0-based)
		key   string // field whose string value gets the flipped byte
		want  func(e *events.Event) []string
	}{
		{"id of hand.started", 0, "id", func(e *events.Event) []string { return []string{fmt.Sprintf("%s %d log.chain", e.Hand, e.Seq+1)} }},
		{"time of a card.dealt", 10, "at", func(e *events.Event) []string { return []string{fmt.Sprintf("%s %d log.chain", e.Hand, e.Seq+1)} }},
		{"id of a player.acted", firstOf(evs, events.PlayerActedType), "id", func(e *events.Event) []string {
			return []string{fmt.Sprintf("%s %d log.chain", e.Hand, e.Seq+1)}
		}},
		{"id in the last hand", len(evs) - 5, "id", func(e *events.Event) []string { return []string{fmt.Sprintf("%s %d log.chain", e.Hand, e.Seq+1)} }},
		{"own prev of a deck.cut", firstOf(evs, events.DeckCutType), "prev", func(e *events.Event) []string {
			return []string{fmt.Sprintf("%s %d log.chain", e.Hand, e.Seq), fmt.Sprintf("%s %d log.chain", e.Hand, e.Seq+1)}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := evs[c.index]
			if c.index+1 >= len(evs) || evs[c.index+1].Hand != e.Hand {
				t.Fatalf("line %d is the last of its hand", c.index+1)
			}
			tampered := cloneLines(lines)
			flipIn(t, tampered[c.index], c.key)
			if _, err := events.Parse(tampered[c.index]); err != nil {
				t.Fatalf("the flipped line no longer decodes: %v", err)
			}
			got, want := auditLines(t, tampered), c.want(e)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("findings %v, want %v", got, want)
			}
		})
	}
}

func firstOf(evs []*events.Event, typ events.Type) int {
	for i, e := range evs {
		if e.Type == typ && i > 0 {
			return i
		}
	}
	return -1
}

// reseal rewrites line i to repl and fixes the prev of every later event of its hand so the chain
// holds again: what an attacker with write access to the whole log can do.
func reseal(t *testing.T, lines [][]byte, evs []*events.Event, i int, repl []byte) {
	t.Helper()
	lines[i] = repl
	hand := evs[i].Hand
	prev := events.Hash(repl)
	for j := i + 1; j < len(lines); j++ {
		if evs[j].Hand != hand {
			continue
		}
		old := []byte(`"prev":"` + evs[j].Prev + `"`)
		if !bytes.Contains(lines[j], old) {
			t.Fatalf("line %d has no prev %s", j+1, evs[j].Prev)
		}
		lines[j] = bytes.Replace(lines[j], old, []byte(`"prev":"`+prev+`"`), 1)
		prev = events.Hash(lines[j])
	}
}

// A revealed seed replaced with another valid seed, the chain re-sealed after it: the chain holds,
// but the seed does not hash to the commitment published before the deal, so the auditor
// reports deck.commitment at the deck.revealed event, and nothing else (the deal is then not
// checked against any seed).
func TestTamperReplaceRevealedSeed(t *testing.T) {
	lines, evs := tamperLines(t)
	i := firstOf(evs, events.DeckRevealedType)
	e := evs[i]
	real := e.Data.(*events.DeckRevealed).Seed
	var other cards.Seed
	for k := range other {
		other[k] = byte(k)
	}
	if other == real {
		t.Fatal("the base already reveals the test seed")
	}
	tampered := cloneLines(lines)
	repl := bytes.Replace(tampered[i], []byte(real.String()), []byte(other.String()), 1)
	if _, err := events.Parse(repl); err != nil || bytes.Equal(repl, tampered[i]) {
		t.Fatalf("the seed was not replaced: %v", err)
	}
	reseal(t, tampered, evs, i, repl)
	got := auditLines(t, tampered)
	want := []string{fmt.Sprintf("%s %d deck.commitment", e.Hand, e.Seq)}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("findings %v, want %v", got, want)
	}
}

// A dealt card rewritten and the chain re-sealed: the chain holds, and the commitment is what
// catches it: the card is not the one the revealed seed and the cut put there (deal.mismatch at
// that event).
func TestTamperRewriteDealtCardResealed(t *testing.T) {
	lines, evs := tamperLines(t)
	i := firstOf(evs, events.CardDealtType)
	e := evs[i]
	d := e.Data.(*events.CardDealt)
	other := cards.Card((int(d.Card) + 1) % cards.NumCards)
	tampered := cloneLines(lines)
	repl := bytes.Replace(tampered[i], []byte(`"card":"`+d.Card.String()+`"`), []byte(`"card":"`+other.String()+`"`), 1)
	if _, err := events.Parse(repl); err != nil || bytes.Equal(repl, tampered[i]) {
		t.Fatalf("the card was not replaced: %v", err)
	}
	reseal(t, tampered, evs, i, repl)
	got := auditLines(t, tampered)
	mismatch := fmt.Sprintf("%s %d deal.mismatch", e.Hand, e.Seq)
	found := false
	for _, g := range got {
		if g == mismatch {
			found = true
		}
		if bytes.Contains([]byte(g), []byte("log.chain")) {
			t.Fatalf("re-sealed log reports %s", g)
		}
	}
	if !found {
		t.Fatalf("findings %v, want %s among them", got, mismatch)
	}
}
