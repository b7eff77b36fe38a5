// Command gen writes, from the catalogue of event types (events/catalogue.txt, whose top says
// its format), the Go types of package events (types_gen.go), their encoder (encode_gen.go),
// their decoder (decode_gen.go: a fast path and a general walk for each payload and nested
// object) and the JSON Schema of an event (schema/events-v1.schema.json), each from the template
// of its name (*.tmpl). package events runs it with go generate; its test fails when a written
// file differs from what it would write now.
package main

import (
	"bytes"
	"embed"
	"encoding/json"
	"flag"
	"fmt"
	"go/format"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/template"
)

//go:embed *.tmpl
var templates embed.FS

// outputs are the files gen writes, relative to package events' folder.
var outputs = []string{"types_gen.go", "encode_gen.go", "decode_gen.go", "../schema/events-v1.schema.json"}

func main() {
	dir := flag.String("dir", ".", "the folder of package events")
	flag.Parse()
	c, err := load(filepath.Join(*dir, "catalogue.txt"))
	if err != nil {
		log.Fatal(err)
	}
	for _, out := range outputs {
		b, err := generate(c, out)
		if err != nil {
			log.Fatalf("%s: %v", out, err)
		}
		if err := os.WriteFile(filepath.Join(*dir, out), b, 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

// catalogue is what catalogue.txt declares.
type catalogue struct {
	Enums          []*Enum
	Types, Objects []*Record
}

// Docs are the comment lines of a declaration, by the word that starts them.
type Docs struct{ Doc, Const, Schema string }

// Enum is an enumeration of strings with Go constants.
type Enum struct {
	Docs
	Go     string
	Values []struct{ Go, Value, Doc string }
}

// Record is an event type (Name is its type) or a struct of a payload's objects (Noun names one).
type Record struct {
	Docs
	Name, Go, Noun string
	Fields         []*Field
}

// Field is a field of a record, as catalogue.txt declares it; Obj is the record Nested names.
type Field struct {
	Docs
	JSON, Go, Kind, Opt, Enum, Nested, Noun, Legacy string
	Values                                          []string
	Obj                                             *Record
	// Overrides are the keys of a rules field whose values the contract fixes (rules.button):
	// each an optional enum field, checked by the decoder and described by the schema.
	Overrides []*Field
}

// load reads the catalogue at path.
func load(path string) (*catalogue, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c := &catalogue{}
	var docs *Docs // where the comment lines go: the last declaration or field
	var rec *Record
	for n, line := range strings.Split(string(text), "\n") {
		word, rest, _ := strings.Cut(line, " ")
		args := strings.Fields(rest)
		switch {
		case line == "" || line[0] == '#':
		case word == "enum":
			c.Enums = append(c.Enums, &Enum{Go: rest})
			docs = &c.Enums[len(c.Enums)-1].Docs
		case word == "value" && len(args) > 1 && len(c.Enums) > 0:
			e := c.Enums[len(c.Enums)-1]
			v := append(strings.SplitN(rest, " ", 3), "") // the comment may be absent
			e.Values = append(e.Values, struct{ Go, Value, Doc string }{v[0], v[1], v[2]})
		case word == "type" || word == "object":
			rec = &Record{Name: rest, Go: camel(rest)}
			if word == "type" {
				c.Types = append(c.Types, rec)
			} else {
				rec.Name, rec.Go, rec.Noun = "", args[0], strings.Join(args[1:], " ")
				c.Objects = append(c.Objects, rec)
			}
			docs = &rec.Docs
		case word == "field" && rec != nil && len(args) >= 2:
			f := &Field{JSON: args[0], Go: camel(args[0]), Kind: args[1]}
			if args = args[2:]; len(args) > 0 && slices.Contains([]string{"ptr", "zero", "unknown"}, args[0]) {
				f.Opt, args = args[0], args[1:]
			}
			if len(args) < map[string]int{"enum": 2, "object": 1, "list": 1}[f.Kind] {
				return nil, fmt.Errorf("%s:%d: %q wants more words", path, n+1, line)
			}
			switch f.Kind {
			case "name":
				f.Noun = strings.Join(args, " ")
			case "enum":
				f.Enum, f.Values = args[0], args[1:]
			case "object", "list":
				f.Nested, f.Legacy = args[0], strings.TrimPrefix(strings.Join(args[1:], " "), "legacy=")
			}
			rec.Fields = append(rec.Fields, f)
			docs = &f.Docs
		case word == "override" && rec != nil && len(rec.Fields) > 0 && len(args) >= 4 && args[1] == "enum":
			// override key enum Type value...: a key of the rules field above with fixed values.
			rf := rec.Fields[len(rec.Fields)-1]
			if rf.Kind != "rules" {
				return nil, fmt.Errorf("%s:%d: an override follows a rules field", path, n+1)
			}
			f := &Field{JSON: args[0], Go: camel(args[0]), Kind: "enum", Opt: "zero", Enum: args[2], Values: args[3:]}
			rf.Overrides = append(rf.Overrides, f)
			docs = &f.Docs
		case docs != nil && (word == "doc" || word == "const" || word == "schema"):
			p := map[string]*string{"doc": &docs.Doc, "const": &docs.Const, "schema": &docs.Schema}[word]
			*p = strings.TrimPrefix(*p+"\n"+rest, "\n")
		default:
			return nil, fmt.Errorf("%s:%d: cannot read %q", path, n+1, line)
		}
	}
	for _, r := range c.Records() {
		for _, f := range r.Fields {
			if i := slices.IndexFunc(c.Objects, func(o *Record) bool { return o.Go == f.Nested }); i >= 0 {
				f.Obj = c.Objects[i]
			} else if f.Nested != "" {
				return nil, fmt.Errorf("%s: %s.%s names no object %s", path, r.Go, f.JSON, f.Nested)
			}
		}
	}
	return c, nil
}

// camel returns the Go name of a JSON name: hand.started HandStarted, min_bet MinBet, id ID.
func camel(s string) string {
	var b strings.Builder
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return r == '.' || r == '_' }) {
		if w == "id" {
			w = "ID" // Go's spelling of the initialism
		}
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	return b.String()
}

// Records lists the event types, then the objects.
func (c *catalogue) Records() []*Record { return slices.Concat(c.Types, c.Objects) }

// Required has the bits of the record's required fields.
func (r *Record) Required() uint32 {
	var m uint32
	for i, f := range r.Fields {
		if f.Opt == "" {
			m |= 1 << i
		}
	}
	return m
}

// Base is the Go type of the field's value (of its pointee when it is a pointer).
func (f *Field) Base() string {
	switch f.Kind {
	case "enum":
		return f.Enum
	case "object":
		return f.Nested
	case "list":
		return "[]" + f.Nested
	case "text", "name", "tableid", "uuid", "hex64":
		return "string"
	}
	return map[string]string{"seat": "Seat", "chips": "Chips", "count": "int", "positive": "int", "seq": "Seq",
		"card": "cards.Card", "cards": "[]cards.Card", "seed": "cards.Seed", "bool": "bool", "rules": "Rules"}[f.Kind]
}

// site is a field of a struct (Owner) as the templates write it: X is its value, addressable,
// and P its address; the value of an optional pointer is its pointee.
type site struct {
	*Field
	Owner, X, P string
}

func place(owner string, f *Field) site {
	s := site{f, owner, "v." + f.Go, "&v." + f.Go}
	if f.Opt == "ptr" {
		s.X, s.P = "*"+s.X, s.X
		if f.Kind == "object" {
			s.X = "(" + s.X + ")"
		}
	}
	return s
}

// literal is a piece of a payload that the fast paths look for, declared once as Name.
type literal struct{ Name, Text string }

// generate executes the template of out on c.
func generate(c *catalogue, out string) ([]byte, error) {
	var lits []literal
	t := template.New("").Funcs(template.FuncMap{
		"place": place,
		"in":    func(s, list string) bool { return slices.Contains(strings.Fields(list), s) },
		"lower": func(s string) string { return strings.ToLower(s[:1]) + s[1:] },
		"json":  func(v any) (string, error) { b, err := json.Marshal(v); return string(b), err },
		"split": strings.Split,
		// lit returns the name of the literal of field json's key: the object's first (i == 0) or
		// a later one.
		"lit": func(i int, json string) string {
			l := literal{"lit" + camel(json), `,"` + json + `":`}
			if i == 0 {
				l = literal{"litOpen" + camel(json), `{"` + json + `":`}
			}
			if !slices.Contains(lits, l) {
				lits = append(lits, l)
			}
			return l.Name
		},
		"lits": func() []literal { return lits },
	})
	t, err := t.ParseFS(templates, "*.tmpl")
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := t.ExecuteTemplate(&b, filepath.Base(out)+".tmpl", c); err != nil {
		return nil, err
	}
	if strings.HasSuffix(out, ".json") {
		var j bytes.Buffer
		err := json.Indent(&j, bytes.TrimSpace(b.Bytes()), "", "  ")
		return append(j.Bytes(), '\n'), err
	}
	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("%v\n%s", err, b.Bytes())
	}
	return src, nil
}
