package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The generated files are what gen writes now: a change to the catalogue or the generator that
// was not followed by go generate fails here.
func TestGeneratedFilesAreFresh(t *testing.T) {
	for _, o := range outputs {
		want, err := o.gen()
		if err != nil {
			t.Fatalf("%s: %v", o.path, err)
		}
		got, err := os.ReadFile(filepath.Join("..", "..", o.path))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go generate ./events", o.path)
		}
		if strings.HasSuffix(o.path, ".go") && !bytes.HasPrefix(got, []byte("// Code generated ")) {
			t.Errorf("%s does not start with the generated-code line", o.path)
		}
	}
}

// Every nested struct a field names is declared, every enumeration field's values belong to its
// Go enumeration, and no struct has two fields of one JSON name.
func TestCatalogueIsConsistent(t *testing.T) {
	values := map[string][]string{"string": nil}
	for _, e := range enums {
		for _, v := range e.values {
			values[e.goName] = append(values[e.goName], v.value)
		}
	}
	check := func(owner string, fields []field) {
		seen := map[string]bool{}
		for _, f := range fields {
			if seen[f.json] {
				t.Errorf("%s: field %s twice", owner, f.json)
			}
			seen[f.json] = true
			switch f.kind {
			case kObject, kList:
				found := false
				for _, n := range nested {
					found = found || n.goName == f.nested
				}
				if !found {
					t.Errorf("%s.%s: no nested struct %s", owner, f.json, f.nested)
				}
			case kEnum:
				all, ok := values[f.enum]
				if !ok || len(f.values) == 0 {
					t.Errorf("%s.%s: enumeration %s with values %q", owner, f.json, f.enum, f.values)
				}
				for _, v := range f.values {
					if all != nil && !strings.Contains(" "+strings.Join(all, " ")+" ", " "+v+" ") {
						t.Errorf("%s.%s: %q is not a value of %s", owner, f.json, v, f.enum)
					}
				}
			}
		}
	}
	for _, ty := range catalogue {
		check(ty.name, ty.fields)
	}
	for _, n := range nested {
		check(n.goName, n.fields)
	}
}
