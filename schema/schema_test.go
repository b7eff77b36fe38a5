package schema_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/internal/testfiles"
	"github.com/fechado/fechado/schema"
)

// compile compiles EventsV1 as draft 2020-12; the compiler also checks it against the draft's
// meta-schema. Format assertions stay off: the schema uses patterns, not formats.
func compile(t testing.TB) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema.EventsV1))
	if err != nil {
		t.Fatalf("events-v1.schema.json is not JSON: %v", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource(schema.EventsV1ID, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(schema.EventsV1ID)
	if err != nil {
		t.Fatalf("events-v1.schema.json does not compile: %v", err)
	}
	return sch
}

// bySchema reports whether line is valid under sch, and why not.
func bySchema(sch *jsonschema.Schema, line []byte) (bool, error) {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(line))
	if err != nil {
		return false, err
	}
	if err := sch.Validate(inst); err != nil {
		return false, err
	}
	return true, nil
}

// env builds one event line of type typ with the given data object; edits are applied to the
// envelope text in order (old, new pairs).
func env(typ, data string, edits ...string) string {
	s := `{"id":"0190f1f6-8a2b-7c3d-9e4f-a1b2c3d4e5f6","table":"t-1","hand":"0190f1f6-0000-7000-8000-000000000001",` +
		`"seq":2,"at":"2026-11-29T13:05:00.250Z","type":"` + typ + `","prev":"` + strings.Repeat("ab", 32) +
		`","data":` + data + `}`
	for i := 0; i+1 < len(edits); i += 2 {
		if !strings.Contains(s, edits[i]) {
			panic("sample edit " + edits[i] + " does not apply")
		}
		s = strings.Replace(s, edits[i], edits[i+1], 1)
	}
	return s
}

const started = `{"rules":{"name":"br-fechado"},"number":1,"dealer":3,"seats":[{"seat":1,"player":"ana","stack":150},{"seat":3,"player":"carla","stack":800}],"stakes":{"ante":5,"min_bet":10,"max_bet":100},"carry":0,"passed_out":0}`

func startedWith(old, new string) string { return strings.Replace(started, old, new, 1) }

type sample struct {
	name  string
	line  string
	valid bool
}

// samples are events that events.Parse and the schema must judge alike.
var samples = []sample{
	// One valid event of each type.
	{"hand.started", env("hand.started", started), true},
	{"deck.shuffled machine", env("deck.shuffled", `{"method":"hmac-sha256-fy-v1","commitment":"`+strings.Repeat("0f", 32)+`"}`), true},
	{"deck.cut", env("deck.cut", `{"at":24,"by":2}`), true},
	{"ante.posted", env("ante.posted", `{"seat":1,"amount":5}`), true},
	{"blind.posted", env("blind.posted", `{"seat":2,"amount":10,"blind":"big"}`), true},
	{"card.dealt", env("card.dealt", `{"seat":1,"card":"Ah","phase":"deal"}`), true},
	{"card.burned", env("card.burned", `{"card":"2c"}`), true},
	{"card.exposed", env("card.exposed", `{"card":"Td","phase":"cut"}`), true},
	{"misdeal.declared", env("misdeal.declared", `{"reason":"two cards exposed in the deal"}`), true},
	{"player.acted", env("player.acted", `{"seat":4,"round":"first","action":"raise","amount":40}`), true},
	{"cards.discarded", env("cards.discarded", `{"seat":4,"cards":["2c","7d"],"declared":2}`), true},
	{"openers.shown", env("openers.shown", `{"seat":4,"cards":["Jc","Jd"]}`), true},
	{"hand.shown", env("hand.shown", `{"seat":4,"cards":["Jc","Jd","Js","9h","9s"]}`), true},
	{"hand.mucked", env("hand.mucked", `{"seat":10}`), true},
	{"bet.returned", env("bet.returned", `{"seat":1,"amount":30}`), true},
	{"pot.raked", env("pot.raked", `{"pot":0,"amount":3}`), true},
	{"pot.awarded", env("pot.awarded", `{"seat":1,"amount":45,"pot":1}`), true},
	{"hand.passed", env("hand.passed", `{}`), true},
	{"deck.revealed", env("deck.revealed", `{"shuffle":2,"seed":"`+strings.Repeat("1f", 32)+`"}`), true},
	{"hand.ended", env("hand.ended", `{"stacks":[{"seat":1,"stack":0},{"seat":3,"stack":950}],"carry":0}`), true},

	// Valid variants: optional fields, envelope forms.
	{"hand.started with every optional field", env("hand.started", strings.Replace(
		startedWith(`"stack":150}`, `"stack":150,"rebuy":50}`),
		`"passed_out":0}`, `"passed_out":2,"tournament":"","previous":"0190F1F6-8A2B-7C3D-9E4F-A1B2C3D4E5F6"}`, 1)), true},
	{"hand.started with every v1.1 field (events-v1.md §7)", env("hand.started", strings.Replace(
		startedWith(`"stack":150}`, `"stack":150,"joined":true},{"seat":2,"player":"bia","stack":300,"joined":false,"from":"final_T-2"}`),
		`"passed_out":0}`, `"passed_out":0,"tournament":{"id":"cup-7","level":3,"entries":60,"stack":1500},`+
			`"away":[{"seat":5,"player":"dora","stack":420}],"left":[{"player":"eva","stack":0},{"player":"fia","stack":310,"to":"t-3"}]}`, 1)), true},
	{"v1.1 tournament without entries and stack", env("hand.started", startedWith(`"passed_out":0`, `"passed_out":0,"tournament":{"id":"cup","level":1}`)), true},
	{"v1 bare tournament id", env("hand.started", startedWith(`"passed_out":0`, `"passed_out":0,"tournament":"cup-7"`)), true},
	{"empty away and left", env("hand.started", startedWith(`"passed_out":0`, `"passed_out":0,"away":[],"left":[]`)), true},
	{"left with zero chips", env("hand.started", startedWith(`"passed_out":0`, `"passed_out":0,"left":[{"player":"eva","stack":0}]`)), true},
	{"rules overrides of any JSON type", env("hand.started", startedWith(`"name":"br-fechado"}`,
		`"name":"br-fechado","deck_low":"7","open":{"min":[1,2.5e3,null,true]},"rebuy":false}`)), true},
	{"reshuffle with every field", env("deck.shuffled", `{"method":"physical","count":3,"by":2,"cards":[]}`), true},
	{"card.dealt unseen", env("card.dealt", `{"seat":1,"phase":"draw"}`), true},
	{"card.exposed every field", env("card.exposed", `{"card":"As","phase":"showdown","seat":2,"cause":"player"}`), true},
	{"stands pat", env("cards.discarded", `{"seat":4,"cards":[]}`), true},
	{"empty reason", env("misdeal.declared", `{"reason":""}`), true},
	{"prev absent", env("hand.passed", `{}`, `"prev":"`+strings.Repeat("ab", 32)+`",`, ``), true},
	{"prev empty", env("hand.passed", `{}`, strings.Repeat("ab", 32), ``), true},
	{"upper-case uuid", env("hand.passed", `{}`, `0190f1f6-8a2b-7c3d-9e4f-a1b2c3d4e5f6`, `0190F1F6-8A2B-7C3D-9E4F-A1B2C3D4E5F6`), true},
	{"mixed-case uuid", env("hand.passed", `{}`, `0190f1f6-0000`, `0190F1f6-0000`), true},
	{"time with offset, no fraction", env("hand.passed", `{}`, `13:05:00.250Z`, `13:05:00-03:00`), true},
	{"time with leap second and long fraction", env("hand.passed", `{}`, `13:05:00.250Z`, `23:59:60.123456789+05:30`), true},
	{"table of 64", env("hand.passed", `{}`, `"t-1"`, `"`+strings.Repeat("A_z-9", 12)+`abcd"`), true},
	{"largest seq", env("hand.passed", `{}`, `"seq":2`, `"seq":9223372036854775807`), true},
	{"escapes in strings", env("misdeal.declared", `{"reason":"dealer said \"oops\" \u00e9\n\/"}`), true},
	{"escaped table id", env("hand.passed", `{}`, `"t-1"`, `"t\u002d1"`), true},
	{"whitespace between tokens", env("ante.posted", "{ \"seat\" : 1 ,\t\"amount\" : 5 }", `{"id"`, ` { "id"`), true},
	{"minus zero is zero chips", env("ante.posted", `{"seat":1,"amount":-0}`), true},
	{"fields in any order", env("pot.awarded", `{"pot":0,"seat":1,"amount":45}`), true},

	// Not an event at all.
	{"array", `[1,2]`, false},
	{"null", `null`, false},
	{"truncated", env("ante.posted", `{"seat":1,"amount":5}`)[:120], false},
	{"text after the object", env("hand.passed", `{}`) + ` x`, false},
	{"two objects", env("hand.passed", `{}`) + env("hand.passed", `{}`), false},

	// Envelope faults.
	{"unknown type", env("ante.paid", `{"seat":1,"amount":5}`), false},
	{"unknown envelope field", env("hand.passed", `{}`, `"seq":2`, `"seq":2,"x":1`), false},
	{"missing id", env("hand.passed", `{}`, `"id":"0190f1f6-8a2b-7c3d-9e4f-a1b2c3d4e5f6",`, ``), false},
	{"missing type", env("hand.passed", `{}`, `"type":"hand.passed",`, ``), false},
	{"missing data", env("hand.passed", `{}`, `,"data":{}`, ``), false},
	{"data not an object", env("hand.passed", `[]`), false},
	{"data null", env("hand.passed", `null`), false},
	{"uuid too short", env("hand.passed", `{}`, `e5f6"`, `e5f"`), false},
	{"uuid in braces", env("hand.passed", `{}`, `"0190f1f6-8a2b-7c3d-9e4f-a1b2c3d4e5f6"`, `"{0190f1f6-8a2b-7c3d-9e4f-a1b2c3d4e5f6}"`), false},
	{"uuid not hex", env("hand.passed", `{}`, `0190f1f6-0000`, `0190g1f6-0000`), false},
	{"table of 65", env("hand.passed", `{}`, `"t-1"`, `"`+strings.Repeat("a", 65)+`"`), false},
	{"table with a space", env("hand.passed", `{}`, `"t-1"`, `"t 1"`), false},
	{"empty table", env("hand.passed", `{}`, `"t-1"`, `""`), false},
	{"table id of non-ASCII letters", env("hand.passed", `{}`, `"t-1"`, `"mesa-ç"`), false},
	{"seq zero", env("hand.passed", `{}`, `"seq":2`, `"seq":0`), false},
	{"seq negative", env("hand.passed", `{}`, `"seq":2`, `"seq":-1`), false},
	{"seq as a string", env("hand.passed", `{}`, `"seq":2`, `"seq":"2"`), false},
	{"seq with a fraction", env("hand.passed", `{}`, `"seq":2`, `"seq":2.5`), false},
	{"seq past int64", env("hand.passed", `{}`, `"seq":2`, `"seq":9223372036854775808`), false},
	{"time without offset", env("hand.passed", `{}`, `.250Z`, `.250`), false},
	{"time with lower-case t", env("hand.passed", `{}`, `29T13`, `29t13`), false},
	{"time with lower-case z", env("hand.passed", `{}`, `.250Z`, `.250z`), false},
	{"time with a space", env("hand.passed", `{}`, `29T13`, `29 13`), false},
	{"month 13", env("hand.passed", `{}`, `2026-11-29`, `2026-13-29`), false},
	{"day 32", env("hand.passed", `{}`, `2026-11-29`, `2026-11-32`), false},
	{"hour 24", env("hand.passed", `{}`, `T13:05`, `T24:05`), false},
	{"second 61", env("hand.passed", `{}`, `:05:00.250`, `:05:61.250`), false},
	{"empty fraction", env("hand.passed", `{}`, `:00.250Z`, `:00.Z`), false},
	{"offset hour 24", env("hand.passed", `{}`, `.250Z`, `.250+24:00`), false},
	{"offset without colon", env("hand.passed", `{}`, `.250Z`, `.250+0300`), false},
	{"date only", env("hand.passed", `{}`, `2026-11-29T13:05:00.250Z`, `2026-11-29`), false},
	{"prev upper-case", env("hand.passed", `{}`, `"prev":"ab`, `"prev":"AB`), false},
	{"prev of 63", env("hand.passed", `{}`, `"prev":"ab`, `"prev":"b`), false},
	{"prev null", env("hand.passed", `{}`, `"prev":"`+strings.Repeat("ab", 32)+`"`, `"prev":null`), false},

	// Data faults.
	{"unknown data field", env("ante.posted", `{"seat":1,"amount":5,"tip":1}`), false},
	{"missing data field", env("ante.posted", `{"seat":1}`), false},
	{"seat 0", env("ante.posted", `{"seat":0,"amount":5}`), false},
	{"seat 11", env("hand.mucked", `{"seat":11}`), false},
	{"seat as a boolean", env("hand.mucked", `{"seat":true}`), false},
	{"negative chips", env("bet.returned", `{"seat":1,"amount":-5}`), false},
	{"chips past int64", env("bet.returned", `{"seat":1,"amount":18446744073709551616}`), false},
	{"card 10h", env("card.burned", `{"card":"10h"}`), false},
	{"card lower-case rank", env("card.burned", `{"card":"ah"}`), false},
	{"card upper-case suit", env("card.burned", `{"card":"AH"}`), false},
	{"card rank 1", env("card.burned", `{"card":"1c"}`), false},
	{"bad card in a list", env("hand.shown", `{"seat":1,"cards":["Ah","Kx"]}`), false},
	{"cards as a string", env("openers.shown", `{"seat":1,"cards":"Jc Jd"}`), false},
	{"blind ante", env("blind.posted", `{"seat":2,"amount":10,"blind":"ante"}`), false},
	{"card dealt in the cut", env("card.dealt", `{"seat":1,"card":"Ah","phase":"cut"}`), false},
	{"card exposed when burned", env("card.exposed", `{"card":"Ah","phase":"burn"}`), false},
	{"cause house", env("card.exposed", `{"card":"Ah","phase":"deal","cause":"house"}`), false},
	{"round third", env("player.acted", `{"seat":4,"round":"third","action":"bet","amount":40}`), false},
	{"action all-in", env("player.acted", `{"seat":4,"round":"first","action":"allin","amount":40}`), false},
	{"method riffle", env("deck.shuffled", `{"method":"riffle"}`), false},
	{"commitment upper-case", env("deck.shuffled", `{"method":"hmac-sha256-fy-v1","commitment":"`+strings.Repeat("0F", 32)+`"}`), false},
	{"negative cut", env("deck.cut", `{"at":-1}`), false},
	{"negative declared", env("cards.discarded", `{"seat":4,"cards":[],"declared":-1}`), false},
	{"hand.passed with a field", env("hand.passed", `{"why":"nobody opened"}`), false},
	{"seed of 62", env("deck.revealed", `{"shuffle":2,"seed":"`+strings.Repeat("1f", 31)+`"}`), false},
	{"seed upper-case", env("deck.revealed", `{"shuffle":2,"seed":"`+strings.Repeat("1F", 32)+`"}`), false},
	{"shuffle 0", env("deck.revealed", `{"shuffle":0,"seed":"`+strings.Repeat("1f", 32)+`"}`), false},
	{"stack missing", env("hand.ended", `{"stacks":[{"seat":1}],"carry":0}`), false},
	{"stack with a field too many", env("hand.ended", `{"stacks":[{"seat":1,"stack":5,"player":"ana"}],"carry":0}`), false},
	{"hand.ended without carry", env("hand.ended", `{"stacks":[]}`), false},
	{"hand.started without passed_out", env("hand.started", startedWith(`,"passed_out":0`, ``)), false},
	{"rules without name", env("hand.started", startedWith(`"name":"br-fechado"`, `"preset":"br-fechado"`)), false},
	{"rules with an empty name", env("hand.started", startedWith(`"name":"br-fechado"`, `"name":""`)), false},
	{"rules not an object", env("hand.started", startedWith(`{"name":"br-fechado"}`, `"br-fechado"`)), false},
	{"seat with an unknown field", env("hand.started", startedWith(`"stack":150}`, `"stack":150,"chair":1}`)), false},
	{"seat with an empty player", env("hand.started", startedWith(`"player":"ana"`, `"player":""`)), false},
	{"seat without stack", env("hand.started", startedWith(`,"stack":150`, ``)), false},
	{"stakes without max_bet", env("hand.started", startedWith(`,"max_bet":100`, ``)), false},
	{"stakes with a field too many", env("hand.started", startedWith(`"max_bet":100`, `"max_bet":100,"rake":1`)), false},
	{"hand number 0", env("hand.started", startedWith(`"number":1`, `"number":0`)), false},
	{"dealer 11", env("hand.started", startedWith(`"dealer":3`, `"dealer":11`)), false},
	{"previous not a UUID", env("hand.started", startedWith(`"passed_out":0`, `"passed_out":0,"previous":"h1"`)), false},
	{"tournament neither a string nor an object", env("hand.started", startedWith(`"passed_out":0`, `"passed_out":0,"tournament":7`)), false},
	{"joined not a boolean", env("hand.started", startedWith(`"stack":150}`, `"stack":150,"joined":1}`)), false},
	{"joined null", env("hand.started", startedWith(`"stack":150}`, `"stack":150,"joined":null}`)), false},
	{"from not a table id", env("hand.started", startedWith(`"stack":150}`, `"stack":150,"from":"table 2"}`)), false},
	{"from empty", env("hand.started", startedWith(`"stack":150}`, `"stack":150,"from":""}`)), false},
	{"tournament object without level", env("hand.started", startedWith(`"passed_out":0`, `"passed_out":0,"tournament":{"id":"cup"}`)), false},
	{"tournament object without id", env("hand.started", startedWith(`"passed_out":0`, `"passed_out":0,"tournament":{"level":2}`)), false},
	{"tournament object with an empty id", env("hand.started", startedWith(`"passed_out":0`, `"passed_out":0,"tournament":{"id":"","level":2}`)), false},
	{"tournament level 0", env("hand.started", startedWith(`"passed_out":0`, `"passed_out":0,"tournament":{"id":"cup","level":0}`)), false},
	{"tournament entries 0", env("hand.started", startedWith(`"passed_out":0`, `"passed_out":0,"tournament":{"id":"cup","level":1,"entries":0}`)), false},
	{"tournament negative stack", env("hand.started", startedWith(`"passed_out":0`, `"passed_out":0,"tournament":{"id":"cup","level":1,"stack":-1}`)), false},
	{"tournament with an unknown field", env("hand.started", startedWith(`"passed_out":0`, `"passed_out":0,"tournament":{"id":"cup","level":1,"buyin":10}`)), false},
	{"tournament an array", env("hand.started", startedWith(`"passed_out":0`, `"passed_out":0,"tournament":["cup"]`)), false},
	{"away not a list", env("hand.started", startedWith(`"passed_out":0`, `"passed_out":0,"away":{"seat":5,"player":"dora","stack":1}`)), false},
	{"away without stack", env("hand.started", startedWith(`"passed_out":0`, `"passed_out":0,"away":[{"seat":5,"player":"dora"}]`)), false},
	{"away seat 11", env("hand.started", startedWith(`"passed_out":0`, `"passed_out":0,"away":[{"seat":11,"player":"dora","stack":1}]`)), false},
	{"away with an empty player", env("hand.started", startedWith(`"passed_out":0`, `"passed_out":0,"away":[{"seat":5,"player":"","stack":1}]`)), false},
	{"away with an unknown field", env("hand.started", startedWith(`"passed_out":0`, `"passed_out":0,"away":[{"seat":5,"player":"dora","stack":1,"why":"x"}]`)), false},
	{"left without stack", env("hand.started", startedWith(`"passed_out":0`, `"passed_out":0,"left":[{"player":"eva"}]`)), false},
	{"left with a seat", env("hand.started", startedWith(`"passed_out":0`, `"passed_out":0,"left":[{"player":"eva","stack":0,"seat":2}]`)), false},
	{"left to no table id", env("hand.started", startedWith(`"passed_out":0`, `"passed_out":0,"left":[{"player":"eva","stack":10,"to":"t/3"}]`)), false},
	{"left with negative chips", env("hand.started", startedWith(`"passed_out":0`, `"passed_out":0,"left":[{"player":"eva","stack":-10}]`)), false},
	{"override value not JSON", env("hand.started", startedWith(`"name":"br-fechado"`, `"name":"br-fechado","x":tru`)), false},
}

// Every sample is judged alike by events.Parse and the schema, and as the table says.
func TestSchemaAgreesWithDecoder(t *testing.T) {
	sch := compile(t)
	if len(samples) < 40 {
		t.Fatalf("only %d samples", len(samples))
	}
	seen := map[string]bool{}
	for _, s := range samples {
		if seen[s.name] {
			t.Errorf("sample name %q used twice", s.name)
		}
		seen[s.name] = true
		_, perr := events.Parse([]byte(s.line))
		sok, serr := bySchema(sch, []byte(s.line))
		if pok := perr == nil; pok != s.valid || sok != s.valid {
			t.Errorf("%s: want valid=%v; events.Parse: %v; schema: %v\n  %s", s.name, s.valid, orOK(perr), orOK(serr), s.line)
		}
	}
}

func orOK(err error) string {
	if err == nil {
		return "valid"
	}
	return strings.ReplaceAll(err.Error(), "\n", " ")
}

// gaps are the inputs events.Parse refuses that JSON Schema cannot tell apart from valid ones:
// the schema's description lists them. If the schema library starts to refuse one, the
// description is out of date.
var gaps = []sample{
	{"integer with a fraction part of zero", env("ante.posted", `{"seat":1,"amount":5.0}`), false},
	{"integer with an exponent", env("ante.posted", `{"seat":1,"amount":5e1}`), false},
	{"repeated key", env("ante.posted", `{"seat":1,"seat":2,"amount":5}`), false},
	{"invalid UTF-8 in a string", env("misdeal.declared", "{\"reason\":\"\xff\"}"), false},
}

func TestSchemaDocumentedGaps(t *testing.T) {
	sch := compile(t)
	for _, s := range gaps {
		if _, err := events.Parse([]byte(s.line)); err == nil {
			t.Errorf("%s: events.Parse accepts it", s.name)
		}
		if ok, err := bySchema(sch, []byte(s.line)); !ok {
			t.Errorf("%s: the schema now refuses it (%v): drop it from the schema's list of gaps", s.name, err)
		}
	}
	if !bytes.Contains(schema.EventsV1, []byte("Known gaps")) {
		t.Error("the schema's description no longer lists its known gaps")
	}
}

// vectorLines returns every line of the example vectors, named file:line.
func vectorLines(t *testing.T) (names []string, lines [][]byte) {
	t.Helper()
	for _, f := range testfiles.Glob(t, "vectors/*.jsonl") {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 1<<20)
		for n := 1; sc.Scan(); n++ {
			if len(bytes.TrimSpace(sc.Bytes())) == 0 {
				continue
			}
			names = append(names, filepath.Base(f)+":"+itoa(n))
			lines = append(lines, bytes.Clone(sc.Bytes()))
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
		fh.Close()
	}
	return names, lines
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// Every line of the example vectors is valid under the schema.
func TestVectorsValidate(t *testing.T) {
	sch := compile(t)
	names, lines := vectorLines(t)
	for i, l := range lines {
		if ok, err := bySchema(sch, l); !ok {
			t.Errorf("%s: %v", names[i], err)
		}
	}
}

// Mutations of one vector event of each type — each data field dropped, given a wrong type or
// an out-of-range value, an unknown field added — are judged alike by both.
func TestSchemaAgreesOnMutations(t *testing.T) {
	sch := compile(t)
	names, lines := vectorLines(t)
	done := map[string]bool{}
	checked := 0
	for i, l := range lines {
		var ev map[string]any
		d := json.NewDecoder(bytes.NewReader(l))
		d.UseNumber()
		if err := d.Decode(&ev); err != nil {
			t.Fatalf("%s: %v", names[i], err)
		}
		typ, _ := ev["type"].(string)
		if done[typ] {
			continue
		}
		done[typ] = true
		data, _ := ev["data"].(map[string]any)
		var mutants []map[string]any
		mutate := func(f func(d map[string]any)) {
			m := clone(ev)
			f(m["data"].(map[string]any))
			mutants = append(mutants, m)
		}
		mutate(func(d map[string]any) { d["unknown"] = 1 })
		for k, v := range data {
			mutate(func(d map[string]any) { delete(d, k) })
			mutate(func(d map[string]any) { d[k] = nil })
			switch v.(type) {
			case json.Number:
				for _, n := range []string{"-1", "0", "1", "10", "11", "1.5"} {
					mutate(func(d map[string]any) { d[k] = json.Number(n) })
				}
				mutate(func(d map[string]any) { d[k] = "1" })
			case string:
				for _, s := range []string{"", "x", "Ah", "deal", "10h"} {
					mutate(func(d map[string]any) { d[k] = s })
				}
				mutate(func(d map[string]any) { d[k] = json.Number("1") })
			case []any:
				mutate(func(d map[string]any) { d[k] = []any{} })
				mutate(func(d map[string]any) { d[k] = []any{"Zz"} })
				mutate(func(d map[string]any) { d[k] = map[string]any{} })
			case map[string]any:
				mutate(func(d map[string]any) { d[k] = map[string]any{} })
				mutate(func(d map[string]any) { d[k] = []any{} })
			}
		}
		for _, m := range mutants {
			line, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			_, perr := events.Parse(line)
			sok, serr := bySchema(sch, line)
			checked++
			if (perr == nil) != sok {
				t.Errorf("%s mutated: events.Parse: %v; schema: %v\n  %s", names[i], orOK(perr), orOK(serr), line)
			}
		}
	}
	if len(done) < 15 {
		t.Errorf("the vectors hold only %d event types", len(done))
	}
	t.Logf("%d mutants of %d event types", checked, len(done))
}

func clone(m map[string]any) map[string]any {
	b, _ := json.Marshal(m)
	var out map[string]any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	_ = d.Decode(&out)
	return out
}

// The schema's catalogue is events.Types and events.Fields: the type enumeration, and for each
// type its data properties and which of them are required.
func TestSchemaCatalogue(t *testing.T) {
	var doc struct {
		Properties struct {
			Type struct {
				Enum []string `json:"enum"`
			} `json:"type"`
		} `json:"properties"`
		AllOf []json.RawMessage `json:"allOf"`
		Defs  map[string]struct {
			Properties map[string]json.RawMessage `json:"properties"`
			Required   []string                   `json:"required"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(schema.EventsV1, &doc); err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, ty := range events.Types {
		types = append(types, string(ty))
	}
	if !slices.Equal(doc.Properties.Type.Enum, types) {
		t.Errorf("type enum %v, want events.Types %v", doc.Properties.Type.Enum, types)
	}
	if len(doc.AllOf) != len(types) {
		t.Errorf("%d if/then branches for %d types", len(doc.AllOf), len(types))
	}
	for _, ty := range events.Types {
		def, ok := doc.Defs[string(ty)]
		if !ok {
			t.Errorf("no $defs entry for %s", ty)
			continue
		}
		var props, req []string
		for _, f := range events.Fields[ty] {
			name, opt := strings.CutSuffix(f, "?")
			props = append(props, name)
			if !opt {
				req = append(req, name)
			}
		}
		got := make([]string, 0, len(def.Properties))
		for k := range def.Properties {
			got = append(got, k)
		}
		slices.Sort(got)
		slices.Sort(props)
		if !slices.Equal(got, props) {
			t.Errorf("%s: schema properties %v, events.Fields %v", ty, got, props)
		}
		if !slices.Equal(def.Required, req) {
			t.Errorf("%s: schema requires %v, events.Fields %v", ty, def.Required, req)
		}
		if !bytes.Contains(doc.AllOf[slices.Index(types, string(ty))], []byte(`"#/$defs/`+string(ty)+`"`)) {
			t.Errorf("%s: its if/then branch is not in catalogue order or does not use $defs/%s", ty, ty)
		}
	}
}
