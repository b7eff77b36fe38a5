package events

import (
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/fechado/fechado/events/internal/jsonlex"

	"github.com/fechado/fechado/internal/testfiles"
)

// specSection returns the lines of the section of events-v1.md whose heading starts with title,
// up to the next "## " heading.
func specSection(t *testing.T, file, title string) []string {
	t.Helper()
	b, err := os.ReadFile(testfiles.Path("contract", file))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	in := false
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "## ") {
			if in {
				break
			}
			in = strings.HasPrefix(l, "## "+title)
			continue
		}
		if in {
			out = append(out, l)
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s has no section %q", file, title)
	}
	return out
}

// tableRows returns the cells of the rows of the markdown tables in lines whose first cell is a
// `code` span, without the backquotes of the first cell.
func tableRows(lines []string) [][]string {
	var rows [][]string
	for _, l := range lines {
		if !strings.HasPrefix(l, "| `") {
			continue
		}
		cells := strings.Split(strings.Trim(l, "|"), " | ")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		cells[0] = strings.Trim(cells[0], "`")
		rows = append(rows, cells)
	}
	return rows
}

// topFields reads the data fields cell of §4: the `code` spans at the top level (not inside
// {…} or […]), each with a "?" when it is marked optional; "—" is no field.
func topFields(cell string) []string {
	fields := []string{}
	depth := 0
	for i := 0; i < len(cell); i++ {
		switch c := cell[i]; c {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case '`':
			j := strings.IndexByte(cell[i+1:], '`')
			if j < 0 {
				return fields
			}
			name := cell[i+1 : i+1+j]
			i += j + 1
			if depth == 0 {
				if i+1 < len(cell) && cell[i+1] == '?' {
					name += "?"
				}
				fields = append(fields, name)
			}
		}
	}
	return fields
}

// The catalogue (Types and Fields) is the table of events-v1.md §4 with §7's additions to
// hand.started: the same types in the same order, each with the same data fields in the same
// order, the same ones optional.
func TestCatalogueMatchesSpec(t *testing.T) {
	specTypes, spec, _ := specCatalogue(t)
	for _, ty := range specTypes {
		if got, ok := Fields[ty]; !ok {
			t.Errorf("%s: in events-v1.md §4 but not in Fields", ty)
		} else if want := spec[ty]; !slices.Equal(got, want) {
			t.Errorf("%s: Fields %q, events-v1.md %q", ty, got, want)
		}
	}
	if !slices.Equal(Types, specTypes) {
		t.Errorf("Types %v\nevents-v1.md §4 %v", Types, specTypes)
	}
	if len(Fields) != len(Types) {
		t.Errorf("Fields has %d types, Types %d", len(Fields), len(Types))
	}
	for _, ty := range Types {
		if !ty.Known() {
			t.Errorf("%s is in Types but not Known", ty)
		}
	}
}

// nestedFields returns the fields of the object that follows the `name` span in cell (the {…} or
// [{…}] after it), each with a "?" when it is marked optional; nil when name has no object.
func nestedFields(cell, name string) []string {
	i := strings.Index(cell, "`"+name+"`")
	if i < 0 {
		return nil
	}
	rest := cell[i+len(name)+2:]
	open := strings.IndexByte(rest, '{')
	if open < 0 || strings.ContainsAny(strings.TrimLeft(rest[:open], "?[ "), "`,") {
		return nil
	}
	depth := 0
	for j := open; j < len(rest); j++ {
		switch rest[j] {
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				return topFields(rest[open+1 : j])
			}
		}
	}
	return nil
}

// v11Rows reads the table of events-v1.md §7: for each row, the field (a "seats[]." prefix for a
// field of each seat) with its "?", and the fields of its object when it has one.
func v11Rows(t *testing.T) (fields []string, nested map[string][]string) {
	nested = map[string][]string{}
	rows := tableRows(specSection(t, "events-v1.md", "7. Version 1.1"))
	if len(rows) == 0 {
		t.Fatal("no rows in the table of events-v1.md §7")
	}
	for _, r := range rows {
		// tableRows trims the first cell's opening backquote (every §7 cell ends in "?", "]" or
		// "}"); put it back to read the cell as §4's cells.
		cell := "`" + r[0]
		f := topFields(cell)
		if len(f) != 1 {
			t.Fatalf("§7 row %q: %d fields", r[0], len(f))
		}
		fields = append(fields, f[0])
		name := strings.TrimSuffix(f[0], "?")
		if n := nestedFields(cell, name); n != nil {
			nested[name] = n
		}
	}
	return fields, nested
}

// specCatalogue reads the data fields of each type: events-v1.md §4, with the fields that §7
// (version 1.1) adds to hand.started after them; and the fields of each seat of hand.started
// (§4's and §7's seats[] fields) and of §7's objects.
func specCatalogue(t *testing.T) (types []Type, fields map[Type][]string, nested map[string][]string) {
	rows := tableRows(specSection(t, "events-v1.md", "4. Event types"))
	if len(rows) == 0 {
		t.Fatal("no rows in the table of events-v1.md §4")
	}
	fields = map[Type][]string{}
	var seat []string
	for _, r := range rows {
		if len(r) < 2 {
			t.Errorf("row %q has no fields cell", r)
			continue
		}
		ty := Type(r[0])
		types = append(types, ty)
		fields[ty] = topFields(r[1])
		if ty == HandStartedType {
			seat = nestedFields(r[1], "seats")
		}
	}
	v11, nested := v11Rows(t)
	for _, f := range v11 {
		switch {
		case strings.HasPrefix(f, "seats[]."):
			seat = append(seat, strings.TrimPrefix(f, "seats[]."))
		case !slices.Contains(fields[HandStartedType], f):
			fields[HandStartedType] = append(fields[HandStartedType], f)
		}
	}
	nested["seats"] = seat
	return types, fields, nested
}

// The decoder knows the fields of each seat of hand.started and of §7's objects (away, left,
// tournament) in the order of the contract, and calls missing exactly the required ones.
func TestNestedFieldsMatchSpec(t *testing.T) {
	_, _, nested := specCatalogue(t)
	for _, tc := range []struct {
		name string
		got  *jsonlex.FieldNames
	}{
		{"seats", fieldsSeatStack},
		{"away", fieldsAwaySeat},
		{"left", fieldsLeftPlayer},
		{"tournament", fieldsTournament},
	} {
		want := nested[tc.name]
		names := make([]string, len(want))
		for i, f := range want {
			names[i] = strings.TrimSuffix(f, "?")
		}
		if len(want) == 0 || !slices.Equal(tc.got.Names, names) {
			t.Errorf("hand.started %s: the decoder reads %q, events-v1.md %q", tc.name, tc.got.Names, want)
		}
		checkRequired(t, tc.name, want)
	}
}

// checkRequired drops each field of the first object of hand.started's field name (every seat
// field for "seats") from a line that has them all, and checks that the decoder calls it missing
// exactly when fields does not mark it optional.
func checkRequired(t *testing.T, name string, fields []string) {
	t.Helper()
	full := `{"seat":2,"player":"ana","stack":100,"rebuy":0,"joined":true,"from":"t-9"}`
	switch name {
	case "away":
		full = `{"seat":2,"player":"ana","stack":100}`
	case "left":
		full = `{"player":"ana","stack":100,"to":"t-9"}`
	case "tournament":
		full = `{"id":"cup","level":2,"entries":60,"stack":1500}`
	}
	line := func(obj string) []byte {
		data := `"seats":[` + obj + `]`
		if name != "seats" {
			data = `"seats":[{"seat":1,"player":"bo","stack":5}],"` + name + `":` + obj
			if name != "tournament" {
				data = `"seats":[{"seat":1,"player":"bo","stack":5}],"` + name + `":[` + obj + `]`
			}
		}
		return []byte(`{"id":"0190f1f6-8a2b-7c3d-9e4f-a1b2c3d4e5f6","table":"t-1","hand":"0190f1f6-0000-7000-8000-000000000001","seq":1,"at":"2026-11-29T13:05:00Z","type":"hand.started","data":{"rules":{"name":"std-draw"},"number":1,"dealer":1,` + data + `,"stakes":{"ante":1,"min_bet":2,"max_bet":4},"carry":0,"passed_out":0}}`)
	}
	if _, err := Parse(line(full)); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for _, f := range fields {
		key := strings.TrimSuffix(f, "?")
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(full), &m); err != nil {
			t.Fatal(err)
		}
		if _, ok := m[key]; !ok {
			t.Errorf("%s: the test's object has no %s", name, key)
			continue
		}
		delete(m, key)
		obj, _ := json.Marshal(m)
		_, err := Parse(line(string(obj)))
		missing := err != nil && strings.HasSuffix(err.Error(), "."+key+": missing")
		if optional := strings.HasSuffix(f, "?"); optional == missing || (optional && err != nil) {
			t.Errorf("%s without %s (optional %v): %v", name, key, optional, err)
		}
	}
}

// The envelope fields are those of events-v1.md §2, and Encode writes them in that order.
func TestEnvelopeMatchesSpec(t *testing.T) {
	var spec []string
	for _, r := range tableRows(specSection(t, "events-v1.md", "2. Envelope")) {
		spec = append(spec, r[0])
	}
	e, err := Parse([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	d := json.NewDecoder(bytes.NewReader(Encode(e)))
	if tok, err := d.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("Encode does not write an object: %v %v", tok, err)
	}
	var keys []string
	for d.More() {
		tok, err := d.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var v json.RawMessage
		if err := d.Decode(&v); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(keys, spec) {
		t.Errorf("Encode writes %v, events-v1.md §2 lists %v", keys, spec)
	}
}

// The envelope problems of Chain are audit codes of findings-v1.md, all of severity error.
func TestProblemKindsAreFindingCodes(t *testing.T) {
	sev := map[string]string{}
	for _, r := range tableRows(specSection(t, "findings-v1.md", "Log integrity")) {
		if len(r) > 1 {
			sev[r[0]] = r[1]
		}
	}
	for _, k := range []ProblemKind{ProblemSequence, ProblemDuplicateID, ProblemChain} {
		if s, ok := sev[string(k)]; !ok {
			t.Errorf("%s is not a code of findings-v1.md", k)
		} else if s != "error" {
			t.Errorf("%s has severity %s in findings-v1.md, want error", k, s)
		}
	}
}

// The enumerations of §4's notes are the values the decoder accepts.
func TestEnumerationsMatchSpec(t *testing.T) {
	notes := map[Type]string{}
	for _, r := range tableRows(specSection(t, "events-v1.md", "4. Event types")) {
		if len(r) > 2 {
			notes[Type(r[0])] = strings.Join(r[2:], " | ")
		}
	}
	code := regexp.MustCompile("`([a-z]+)`")
	for _, tc := range []struct {
		ty     Type
		prefix string // the note's text before the values
		want   []string
	}{
		{BlindPostedType, "`blind`:", []string{string(BlindSmall), string(BlindBig), string(BlindDead)}},
		{CardExposedType, "`phase`:", []string{string(PhaseCut), string(PhaseDeal), string(PhaseDraw), string(PhaseShowdown)}},
		{PlayerActedType, "`action`:", []string{string(Check), string(Bet), string(Call), string(Raise), string(Fold)}},
	} {
		n := notes[tc.ty]
		i := strings.Index(n, tc.prefix)
		if i < 0 {
			t.Errorf("%s: no %s in the notes of events-v1.md §4", tc.ty, tc.prefix)
			continue
		}
		rest := n[i+len(tc.prefix):]
		if j := strings.IndexAny(rest, ";"); j >= 0 {
			rest = rest[:j]
		}
		var got []string
		for _, m := range code.FindAllStringSubmatch(rest, -1) {
			got = append(got, m[1])
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: events-v1.md lists %q, the package %q", tc.ty, got, tc.want)
		}
	}
}
