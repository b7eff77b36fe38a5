// Package lang owns the words a person reads: the message catalogue of every language fechado
// speaks (English, Portuguese of Brazil, Turkish, Spanish), the choice of a reader's language
// (--lang, then LC_ALL, LC_MESSAGES or LANG, then English), plural forms, named placeholders,
// and numbers, dates and times written in the reader's locale.
//
// A message is one whole sentence or label with named placeholders ({player}, {amount}), never a
// fragment to be glued to another, so that each language can order its words as it must.
//
// The messages are the translators' files, locales/en.toml, pt-BR.toml, tr.toml and es.toml,
// embedded in the program and read at a language's first use: go-i18n v2's TOML message format,
// which translators' tools read. Each
// message is a table of its id with a description (what it is for: the translator's context), its
// forms by CLDR plural category (other, and one, few, many… where a count {n} changes the words;
// go-i18n's CLDR rules pick the form) and, in a translation, the hash of the English description
// and text it was made from. A test finds a message missing from a translation, one English does
// not have, one whose placeholders differ from English's, a plural form the language does not
// use, and a stale translation: one whose hash is not its English's any more.
//
// To add a message: add its table to locales/en.toml with a description and its text, and its
// translation to each of the other three files (description and text; leave hash out), then run
//
//	go test ./lang -run TestLocales -update
//
// which writes the hash of every translation that has none and puts each file in its canonical
// form (messages sorted by id; the comment at its top is kept). To change an English message:
// change it, and the test lists its translations as stale until each is revised; remove a
// revised translation's hash line and run the same command. A branch that still declares
// messages as Go maps (the form before these files) is converted by lang/internal/fromgo.
package lang

import (
	_ "embed"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/nicksnyder/go-i18n/v2/i18n"
	"github.com/nicksnyder/go-i18n/v2/i18n/template"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/number"
)

// Text is one message: Other is its form for most counts (and its only form when a count does
// not change its words); the others, when set, its forms for the counts the language's CLDR
// plural category of that name covers (chosen by the placeholder {n}): One for "1 card", Many
// for the Portuguese and Spanish "1.000.000 de fichas", Few and Two and Zero for the languages
// that have them.
type Text struct {
	Zero, One, Two, Few, Many string
	Other                     string
}

// forms returns every form of t, Other last.
func (t Text) forms() []string { return []string{t.Zero, t.One, t.Two, t.Few, t.Many, t.Other} }

// plural reports whether t has a form besides Other.
func (t Text) plural() bool { return t.Zero+t.One+t.Two+t.Few+t.Many != "" }

// Lang is one language fechado speaks.
type Lang struct {
	// Code is the language's BCP 47 tag as people type it ("pt-BR").
	Code string
	// Name is the language's own name for itself, for a language switcher.
	Name string
	// Tag is the parsed Code.
	Tag language.Tag
	// DateLayout and TimeLayout are Go time layouts of the locale's date and time of day.
	DateLayout, TimeLayout string
	// Messages are the language's messages by key.
	Messages map[string]Text

	file  string              // the language's translators' file, embedded: Messages once read
	read  sync.Once           // reads file into Messages, at the language's first use
	small [1024]atomic.Uint32 // the categories of counts 0..1023, once named: 1 + index in categories
}

// Args are the values of a message's named placeholders.
type Args map[string]any

var (
	all    []*Lang
	byCode = map[string]*Lang{}
)

// matcher matches a tag to the closest of fechado's languages. It is made on first use (a
// locale that is no language's code, or an Accept-Language header): made by init it cost every
// process about 0.1 ms at start.
var matcher = sync.OnceValue(func() language.Matcher {
	tags := make([]language.Tag, len(all))
	for i, l := range all {
		tags[i] = l.Tag
	}
	return language.NewMatcher(tags)
})

// The translators' files. Each is a string, not an embed.FS file, so that its messages are
// substrings of the program's own read-only data rather than of a copy on the heap.
var (
	//go:embed locales/en.toml
	enFile string
	//go:embed locales/es.toml
	esFile string
	//go:embed locales/pt-BR.toml
	ptBRFile string
	//go:embed locales/tr.toml
	trFile string
)

// languages are the languages fechado speaks, English first, each with its file
// locales/CODE.toml, and what of a locale is not a message: its name and the Go layouts of its
// dates and times.
var languages = []struct{ code, name, date, time, file string }{
	{"en", "English", "2 January 2006", "15:04:05", enFile},
	{"es", "Español", "02/01/2006", "15:04:05", esFile},
	{"pt-BR", "Português (Brasil)", "02/01/2006", "15:04:05", ptBRFile},
	{"tr", "Türkçe", "02.01.2006", "15:04:05", trFile},
}

// categories are CLDR's plural categories, in Text's order.
var categories = [...]string{"zero", "one", "two", "few", "many", "other"}

// pluralRules returns, by language code, a localizer of a go-i18n bundle of one message per
// language whose forms are the names of their categories: localizing it for a count names the
// count's category by go-i18n's CLDR rules (which the package keeps to itself otherwise). They
// are newer than golang.org/x/text's: they give Portuguese and Spanish their many. The bundle is
// made at the first count a process names (its CLDR tables of every language cost some 170 KB).
var pluralRules = sync.OnceValue(func() map[string]*i18n.Localizer {
	rules := i18n.NewBundle(language.English)
	out := make(map[string]*i18n.Localizer, len(all))
	for _, l := range all {
		rules.MustAddMessages(l.Tag, &i18n.Message{ID: "category",
			Zero: categories[0], One: categories[1], Two: categories[2], Few: categories[3], Many: categories[4], Other: categories[5]})
		out[l.Code] = i18n.NewLocalizer(rules, l.Code)
	}
	return out
})

// init registers the languages without reading their files: a language's messages are read at
// its first use (loaded), so that a process reads only the files of the languages it speaks, and
// a command that prints nothing to a reader none.
func init() {
	for _, x := range languages {
		l := &Lang{Code: x.code, Name: x.name, Tag: language.MustParse(x.code), DateLayout: x.date, TimeLayout: x.time, file: x.file}
		all = append(all, l)
		byCode[strings.ToLower(l.Code)] = l
	}
}

// loaded returns l with its messages read. Every *Lang the package hands out passes through it
// (All, English, Get and those built on them), so Messages is filled before anyone can read it,
// and sync.Once orders the reading before every use, from any goroutine.
func (l *Lang) loaded() *Lang {
	l.read.Do(func() { l.Messages = readFile(l.Code, l.file) })
	return l
}

// readFile reads the translators' file of language code: with readMessages, or, for a file
// outside the subset it reads, with go-i18n's parser.
func readFile(code, data string) map[string]Text {
	if msgs, ok := readMessages(data); ok {
		return msgs
	}
	path := "locales/" + code + ".toml"
	f, err := i18n.ParseMessageFileBytes([]byte(data), path, map[string]i18n.UnmarshalFunc{"toml": toml.Unmarshal})
	if err != nil {
		panic("lang: " + path + ": " + err.Error())
	}
	msgs := make(map[string]Text, len(f.Messages))
	for _, m := range f.Messages {
		msgs[m.ID] = Text{Zero: m.Zero, One: m.One, Two: m.Two, Few: m.Few, Many: m.Many, Other: m.Other}
	}
	return msgs
}

// All returns every language, English first.
func All() []*Lang {
	for _, l := range all {
		l.loaded()
	}
	return all
}

// English is the language of last resort, and the reference every translation is checked against.
func English() *Lang { return all[0].loaded() }

// Get returns the language best matching a tag or locale name ("pt-BR", "pt_BR.UTF-8", "tr",
// "es-AR"), and false when none is close (English is returned then).
func Get(name string) (*Lang, bool) {
	l, ok := find(name)
	return l.loaded(), ok
}

// find is Get without reading the language's messages.
func find(name string) (*Lang, bool) {
	name = strings.TrimSpace(name)
	if i := strings.IndexAny(name, ".@"); i >= 0 {
		name = name[:i] // a POSIX locale's codeset and modifier
	}
	name = strings.ReplaceAll(name, "_", "-")
	if name == "" || name == "C" || name == "POSIX" {
		return all[0], false
	}
	if l, ok := byCode[strings.ToLower(name)]; ok {
		return l, true
	}
	t, err := language.Parse(name)
	if err != nil {
		return all[0], false
	}
	_, i, conf := matcher().Match(t)
	if conf == language.No {
		return all[0], false
	}
	return all[i], true
}

// Choose picks the reader's language: flag (a --lang value) when set, else the environment as
// POSIX orders it (LC_ALL, then LC_MESSAGES, then LANG), else English. An unknown --lang is an error; an unknown environment is not.
func Choose(flag string, getenv func(string) string) (*Lang, error) {
	if flag != "" {
		if err := CheckFlag(flag); err != nil {
			return nil, err
		}
		l, _ := Get(flag)
		return l, nil
	}
	if getenv != nil {
		for _, v := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
			if s := getenv(v); s != "" {
				l, _ := Get(s)
				return l, nil
			}
		}
	}
	return English(), nil
}

// CheckFlag returns the error Choose returns for a --lang value it refuses, and nil for one it
// accepts, without reading any language's messages: for a command that prints none of them in
// some modes (audit --json) but refuses the same values in all.
func CheckFlag(flag string) error {
	if _, ok := find(flag); flag != "" && !ok {
		return fmt.Errorf("unknown language %q (known: %s)", flag, strings.Join(Codes(), ", "))
	}
	return nil
}

// Codes lists the languages' codes, English first.
func Codes() []string {
	out := make([]string, len(all))
	for i, l := range all {
		out[i] = l.Code
	}
	return out
}

var placeholder = regexp.MustCompile(`\{([a-z_]+)\}`)

// Placeholders returns the names of the placeholders of every form of t, sorted, each once.
func (t Text) Placeholders() []string {
	seen := map[string]bool{}
	for _, s := range t.forms() {
		for _, m := range placeholder.FindAllStringSubmatch(s, -1) {
			seen[m[1]] = true
		}
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Has reports whether the language has a message for key.
func (l *Lang) Has(key string) bool { _, ok := l.text(key); return ok }

// Text returns the message for key in l, falling back to English, for a reader that fills the
// placeholders itself (the web pages); the zero Text when no language has the key.
func (l *Lang) Text(key string) Text { t, _ := l.text(key); return t }

// text returns the message for key in l, falling back to English.
func (l *Lang) text(key string) (Text, bool) {
	if t, ok := l.Messages[key]; ok {
		return t, true
	}
	t, ok := English().Messages[key]
	return t, ok
}

// T writes the message key with its placeholders filled: numbers in the locale's digits, times
// as the locale's date and time with their zone, anything else as fmt prints it. A count named n
// picks the plural form. An unknown key gives the key itself in brackets, so a gap shows.
func (l *Lang) T(key string, args Args) string {
	t, ok := l.text(key)
	if !ok {
		return "[" + key + "]"
	}
	s := t.Other
	if n, ok := args["n"]; ok && t.plural() {
		if i, ok := asInt(n); ok {
			s = t.form(l.category(i))
		}
	}
	return placeholder.ReplaceAllStringFunc(s, func(m string) string {
		v, ok := args[m[1:len(m)-1]]
		if !ok {
			return m
		}
		return l.Format(v)
	})
}

// form returns t's form of the CLDR category c, or Other when t has none.
func (t Text) form(c int) string {
	if f := t.forms()[c]; f != "" {
		return f
	}
	return t.Other
}

// category returns the index in categories of the CLDR plural category count i takes in l. The
// categories of small counts, most of those asked, are named once and kept.
func (l *Lang) category(i int64) int {
	if i < 0 {
		i = -i
	}
	if i < int64(len(l.small)) {
		if c := l.small[i].Load(); c != 0 {
			return int(c - 1)
		}
	}
	name, err := pluralRules()[l.Code].Localize(&i18n.LocalizeConfig{MessageID: "category", PluralCount: i, TemplateParser: template.IdentityParser{}})
	c := slices.Index(categories[:], name)
	if err != nil || c < 0 {
		c = len(categories) - 1 // other
	}
	if i < int64(len(l.small)) {
		l.small[i].Store(uint32(c + 1))
	}
	return c
}

// Format writes one placeholder value for the reader.
func (l *Lang) Format(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case time.Time:
		return l.DateTime(x)
	case fmt.Stringer:
		if i, ok := asInt(v); ok {
			return l.Number(i)
		}
		return x.String()
	}
	if i, ok := asInt(v); ok {
		return l.Number(i)
	}
	return fmt.Sprint(v)
}

// Number writes a whole number with the locale's digit grouping ("12,500", "12.500").
func (l *Lang) Number(i int64) string {
	return message.NewPrinter(l.Tag).Sprint(number.Decimal(i))
}

// Percent writes share (0.25 for a quarter) as a whole percentage in the locale's way: "25%",
// "%25" in Turkish, "25 %" in Spanish. A message takes it whole as a placeholder, sign included,
// since where the sign goes is the locale's.
func (l *Lang) Percent(share float64) string {
	return message.NewPrinter(l.Tag).Sprint(number.Percent(share, number.MaxFractionDigits(0)))
}

// Date writes the day of t in the locale's way.
func (l *Lang) Date(t time.Time) string { return t.Format(l.DateLayout) }

// DateTime writes t's date and time of day in the locale's way with its zone, in t's own
// location (the caller picks the reader's zone with t.In).
func (l *Lang) DateTime(t time.Time) string {
	zone, off := t.Zone()
	z := zone
	if zone == "" || zone[0] == '+' || zone[0] == '-' {
		z = "UTC" + t.Format("-07:00")
	} else if off != 0 && len(zone) <= 4 {
		z = zone + " (UTC" + t.Format("-07:00") + ")"
	}
	return l.T("datetime", Args{"date": t.Format(l.DateLayout), "time": t.Format(l.TimeLayout), "zone": z})
}

// asInt reads any integer kind (named ones too, like chips and seats) and whole floats (numbers
// read back from JSON).
func asInt(v any) (int64, bool) {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return rv.Int(), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return int64(rv.Uint()), true
	case reflect.Float64, reflect.Float32:
		f := rv.Float()
		if f == float64(int64(f)) {
			return int64(f), true
		}
	}
	return 0, false
}

// FromAccept returns the language an HTTP Accept-Language header prefers among fechado's, and
// false when it names none of them (English is returned then).
func FromAccept(header string) (*Lang, bool) {
	tags, _, err := language.ParseAcceptLanguage(header)
	if err != nil || len(tags) == 0 {
		return English(), false
	}
	_, i, conf := matcher().Match(tags...)
	if conf == language.No {
		return English(), false
	}
	return all[i].loaded(), true
}
