package events

import (
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

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

// The catalogue (Types and Fields) is the table of events-v1.md §4: the same types in the same
// order, each with the same data fields in the same order, the same ones optional.
func TestCatalogueMatchesSpec(t *testing.T) {
	rows := tableRows(specSection(t, "events-v1.md", "4. Event types"))
	if len(rows) == 0 {
		t.Fatal("no rows in the table of events-v1.md §4")
	}
	var specTypes []Type
	for _, r := range rows {
		if len(r) < 2 {
			t.Errorf("row %q has no fields cell", r)
			continue
		}
		ty := Type(r[0])
		specTypes = append(specTypes, ty)
		want := topFields(r[1])
		if got, ok := Fields[ty]; !ok {
			t.Errorf("%s: in events-v1.md §4 but not in Fields", ty)
		} else if !slices.Equal(got, want) {
			t.Errorf("%s: Fields %q, events-v1.md §4 %q", ty, got, want)
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
