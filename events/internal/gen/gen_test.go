package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func loadCatalogue(t *testing.T) *catalogue {
	t.Helper()
	c, err := load(filepath.Join("..", "..", "catalogue.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// The generated files are what gen writes now: a change to the catalogue, the generator or its
// templates that was not followed by go generate fails here.
func TestGeneratedFilesAreFresh(t *testing.T) {
	c := loadCatalogue(t)
	for _, out := range outputs {
		want, err := generate(c, out)
		if err != nil {
			t.Fatalf("%s: %v", out, err)
		}
		got, err := os.ReadFile(filepath.Join("..", "..", out))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go generate ./events", out)
		}
		if strings.HasSuffix(out, ".go") && !bytes.HasPrefix(got, []byte("// Code generated ")) {
			t.Errorf("%s does not start with the generated-code line", out)
		}
	}
}

// Every field has a kind the templates know and an opt load knows, every enumeration field's
// values belong to its Go enumeration, and no struct has two fields of one JSON name.
func TestCatalogueIsConsistent(t *testing.T) {
	c := loadCatalogue(t)
	kinds := strings.Fields("seat chips count positive seq card cards text name tableid uuid hex64 seed enum bool object list rules")
	values := map[string][]string{"string": nil}
	for _, e := range c.Enums {
		for _, v := range e.Values {
			values[e.Go] = append(values[e.Go], v.Value)
		}
	}
	for _, r := range c.Records() {
		seen := map[string]bool{}
		for _, f := range r.Fields {
			if seen[f.JSON] {
				t.Errorf("%s: field %s twice", r.Go, f.JSON)
			}
			seen[f.JSON] = true
			if !slices.Contains(kinds, f.Kind) {
				t.Errorf("%s.%s: unknown kind %q", r.Go, f.JSON, f.Kind)
			}
			if f.Kind != "enum" {
				continue
			}
			all, ok := values[f.Enum]
			if !ok || len(f.Values) == 0 {
				t.Errorf("%s.%s: enumeration %s with values %q", r.Go, f.JSON, f.Enum, f.Values)
			}
			for _, v := range f.Values {
				if all != nil && !slices.Contains(all, v) {
					t.Errorf("%s.%s: %q is not a value of %s", r.Go, f.JSON, v, f.Enum)
				}
			}
		}
	}
}

// A line load cannot read, or a field naming no object, is an error that names its line.
func TestLoadRefusesBadLines(t *testing.T) {
	for _, text := range []string{
		"field seat seat\n",                // a field before any type
		"type a.b\nfield seat\n",           // no kind
		"type a.b\nfield e enum Round\n",   // an enumeration without values
		"type a.b\nfield o object\n",       // an object without its struct
		"type a.b\nfield o list Nowhere\n", // a struct that is not declared
		"type a.b\nwhatever\n",             // an unknown word
		"enum E\nvalue OnlyGoName\n",       // a value without its value
	} {
		path := filepath.Join(t.TempDir(), "catalogue.txt")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := load(path); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("load(%q) = %v, want an error naming the file", text, err)
		}
	}
}
