package events_test

import (
	"strings"
	"testing"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/internal/eventfiles"
)

// Sniff reads a bad line's place from its envelope when ParseLenient reads it (events-v1.md §8),
// else from what its bytes still show.
func TestSniff(t *testing.T) {
	good := eventfiles.Vectors(t)[5]
	line := string(good.Raw)
	envelope := events.Place{ID: good.ID, Table: good.Table, Hand: good.Hand, Seq: good.Seq, Type: good.Type, JSON: true}
	const h = "01900000-0000-7000-8000-0000000000aa"
	for _, c := range []struct {
		name, line string
		want       events.Place
	}{
		{"a valid line: its envelope", line, envelope},
		{"a bad field (§8): the envelope ParseLenient reads", strings.Replace(line, `"data":{`, `"data":{"x":1,`, 1), envelope},
		{"a bad table: left out", strings.Replace(line, `"table":"`+good.Table+`"`, `"table":"a b"`, 1),
			events.Place{ID: good.ID, Hand: good.Hand, Seq: good.Seq, Type: good.Type, JSON: true}},
		{"a bad id: the bytes", strings.Replace(line, `"id":"`+good.ID+`"`, `"id":5`, 1),
			events.Place{Table: good.Table, Hand: good.Hand, Seq: good.Seq, Type: good.Type, JSON: true}},
		{"JSON, not an object", `["hand"]`, events.Place{JSON: true}},
		{"cut short: the bytes", line[:strings.Index(line, `,"at"`)],
			events.Place{ID: good.ID, Table: good.Table, Hand: good.Hand, Seq: good.Seq}},
		{"not JSON", "this is not json", events.Place{}},
		{"a value equal to a key's name does not hide the key", `{"x":"hand","hand":"` + h + `","seq":12,"type":"card.dealt"`,
			events.Place{Hand: h, Seq: 12, Type: events.CardDealtType}},
		{"blanks around the colon", "{\"hand\" :\t\"" + h + "\", \"seq\" : 7 ,", events.Place{Hand: h, Seq: 7}},
		{"an escape is no plain string", `{"hand":"a\"b","seq":3`, events.Place{Seq: 3}},
		{"a string over 64 bytes is no id", `{"hand":"` + strings.Repeat("a", 65) + `"`, events.Place{}},
		{"a seq with a leading zero, 10 digits or a letter after it", `{"seq":01,"seq":1234567890,"seq":5x,"seq":6}`, events.Place{Seq: 6}},
		{"an unknown type is left out", `{"type":"bet.made","hand":"` + h + `"`, events.Place{Hand: h}},
	} {
		if got := events.Sniff([]byte(c.line)); got != c.want {
			t.Errorf("%s: Sniff(%.80s) = %+v, want %+v", c.name, c.line, got, c.want)
		}
	}
}
