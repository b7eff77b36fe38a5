package lang

import (
	"bytes"
	"flag"
	"os"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/fechado/fechado/lang/internal/msgfile"
)

var update = flag.Bool("update", false, "TestLocales: write the hash (and English description) of every translation that has none, and every file in canonical form")

// localeFile is one translators' file as the test reads it.
type localeFile struct {
	path   string
	data   []byte
	header string
	msgs   []msgfile.Message
}

func readLocales(t *testing.T) map[string]*localeFile {
	t.Helper()
	entries, err := os.ReadDir("locales")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]*localeFile{}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".toml") {
			continue
		}
		p := path.Join("locales", e.Name())
		data, err := os.ReadFile(p) // the files on disk: -update writes them, the embedded copy is older
		if err != nil {
			t.Fatal(err)
		}
		msgs, err := msgfile.Read(data, p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		files[strings.TrimSuffix(e.Name(), ".toml")] = &localeFile{path: p, data: data, header: msgfile.Header(data), msgs: msgs}
	}
	return files
}

// canonical is a file as msgfile writes it.
func canonical(t *testing.T, f *localeFile) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := msgfile.Write(&b, f.header, f.msgs); err != nil {
		t.Fatalf("%s: %v", f.path, err)
	}
	return b.Bytes()
}

// usedCategories returns the CLDR plural categories the counts of language code fall in (its
// category, through go-i18n's rules): the forms a message of that language may have.
func usedCategories(code string) []string {
	var l *Lang
	for _, x := range All() {
		if x.Code == code {
			l = x
		}
	}
	if l == nil {
		return nil
	}
	seen := map[int]bool{}
	counts := []int64{1_000_000, 2_000_000, 1_000_001, 10_000_000}
	for n := range int64(1100) {
		counts = append(counts, n)
	}
	for _, n := range counts {
		seen[l.category(n)] = true
	}
	var out []string
	for i, c := range categories {
		if seen[i] {
			out = append(out, c)
		}
	}
	return out
}

// forms returns the names of the forms m has.
func forms(m msgfile.Message) []string {
	var out []string
	for i, s := range []string{m.Zero, m.One, m.Two, m.Few, m.Many, m.Other} {
		if s != "" {
			out = append(out, []string{"zero", "one", "two", "few", "many", "other"}[i])
		}
	}
	return out
}

// The translators' files: one for each language fechado speaks; every English message in every
// translation and no other, with English's placeholders and only the plural forms its language
// has; every translation made from today's English (its hash is the English one's, or it is
// stale); each file in the canonical form -update writes.
func TestLocales(t *testing.T) {
	files := readLocales(t)
	var codes []string
	for _, x := range languages {
		codes = append(codes, x.code)
		if files[x.code] == nil {
			t.Errorf("%s: no file locales/%s.toml", x.code, x.code)
		}
	}
	for code := range files {
		if !slices.Contains(codes, code) {
			t.Errorf("locales/%s.toml: not a language of lang.languages", code)
		}
	}
	en := files["en"]
	if en == nil {
		t.Fatal("no English")
	}
	enByID := map[string]msgfile.Message{}
	for _, m := range en.msgs {
		enByID[m.ID] = m
	}
	if *update {
		for code, f := range files {
			if code == "en" {
				continue
			}
			for i, m := range f.msgs {
				if e, ok := enByID[m.ID]; ok && m.Hash == "" {
					f.msgs[i].Hash, f.msgs[i].Description = msgfile.Hash(e.Description, e.Other), e.Description
				}
			}
		}
		for _, f := range files {
			if b := canonical(t, f); !bytes.Equal(b, f.data) {
				if err := os.WriteFile(f.path, b, 0o644); err != nil {
					t.Fatal(err)
				}
				t.Logf("%s written", f.path)
				f.data = b
			}
		}
	}
	for code, f := range files {
		cats := usedCategories(code)
		byID := map[string]msgfile.Message{}
		var stale []string
		for _, m := range f.msgs {
			byID[m.ID] = m
			e, ok := enByID[m.ID]
			if !ok {
				t.Errorf("%s: %q is not an English message (extra)", f.path, m.ID)
				continue
			}
			if m.Other == "" {
				t.Errorf("%s: %q has no other form", f.path, m.ID)
			}
			for _, form := range forms(m) {
				if !slices.Contains(cats, form) {
					t.Errorf("%s: %q has a %s form, which %s does not use (its CLDR categories: %v)", f.path, m.ID, form, code, cats)
				}
			}
			if len(forms(m)) > 1 && !strings.Contains(strings.Join(Text{m.Zero, m.One, m.Two, m.Few, m.Many, m.Other}.forms(), ""), "{n}") {
				t.Errorf("%s: %q has plural forms but no {n} to choose among them", f.path, m.ID)
			}
			if g, w := placeholders(m), placeholders(e); g != w {
				t.Errorf("%s: %q has placeholders {%s}, English {%s}", f.path, m.ID, g, w)
			}
			if code == "en" {
				if m.Description == "" {
					t.Errorf("%s: %q has no description: say what the message is for, for its translators", f.path, m.ID)
				}
				if m.Hash != "" {
					t.Errorf("%s: %q has a hash: English is the source, only a translation records one", f.path, m.ID)
				}
				continue
			}
			switch want := msgfile.Hash(e.Description, e.Other); m.Hash {
			case want:
			case "":
				t.Errorf("%s: %q has no hash: run go test ./lang -run TestLocales -update", f.path, m.ID)
			default:
				stale = append(stale, m.ID)
			}
		}
		if len(stale) > 0 {
			t.Errorf("%s: %d translations are stale (English changed since): %s\nrevise each, remove its hash line and run go test ./lang -run TestLocales -update",
				f.path, len(stale), strings.Join(stale, ", "))
		}
		for _, e := range en.msgs {
			if _, ok := byID[e.ID]; !ok {
				t.Errorf("%s: no translation of %q (missing)", f.path, e.ID)
			}
		}
		if !bytes.Equal(canonical(t, f), f.data) {
			t.Errorf("%s is not in canonical form: run go test ./lang -run TestLocales -update", f.path)
		}
	}
}

func placeholders(m msgfile.Message) string {
	return strings.Join(Text{m.Zero, m.One, m.Two, m.Few, m.Many, m.Other}.Placeholders(), ",")
}

// The plural categories are CLDR's, as go-i18n has them: Portuguese and Spanish have a many
// (an exact million: "1.000.000 de fichas") that golang.org/x/text's older tables lack.
func TestPluralCategoriesAreCLDRs(t *testing.T) {
	for code, want := range map[string]string{"en": "one other", "pt-BR": "one many other", "es": "one many other", "tr": "one other"} {
		if got := strings.Join(usedCategories(code), " "); got != want {
			t.Errorf("%s: categories %q, want %q", code, got, want)
		}
	}
}

// The stale check catches a changed English: a translation made from the old text has the old
// hash.
func TestHashChangesWithTheEnglish(t *testing.T) {
	a, b, c := msgfile.Hash("Pots and seats.", "Pot"), msgfile.Hash("Pots and seats.", "Pot."), msgfile.Hash("Pots.", "Pot")
	if a == b || a == c || !strings.HasPrefix(a, "sha1-") || len(a) != len("sha1-")+40 {
		t.Errorf("hashes %s %s %s", a, b, c)
	}
	// goi18n merge's own hashes (its documentation and its test): the same as msgfile's, so a
	// translator's tool and this test agree on what is stale.
	if got := msgfile.Hash("The number of cats a person has", "{{.Name}} has {{.Count}} cats."); got != "sha1-f937a0e05e19bfe6cd70937c980eaf1f9832f091" {
		t.Errorf("Hash differs from goi18n's: %s", got)
	}
	if got := msgfile.Hash("", "Hello"); got != "sha1-f7ff9e8b7bb2e09b70935a5d785e0cc5d9d0abf0" {
		t.Errorf("Hash differs from goi18n's: %s", got)
	}
}
