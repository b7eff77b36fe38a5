// Package lang owns the words a person reads: the message catalogue of every language fechado
// speaks (English, Portuguese of Brazil, Turkish, Spanish), the choice of a reader's language
// (--lang, then LC_ALL, LC_MESSAGES or LANG, then English), plural forms, named placeholders,
// and numbers, dates and times written in the reader's locale.
//
// A message is one whole sentence or label with named placeholders ({player}, {amount}), never a
// fragment to be glued to another, so that each language can order its words as it must. Each
// language declares its messages once, in a file of its own; a test keeps every language complete
// and its placeholders the same as English's.
//
// A language's core messages are in its own file (en.go, pt_br.go, tr.go, es.go). A part of the
// product with many words of its own (the web pages, the table console) keeps them in files named
// after the part and the language (web_en.go, web_pt_br.go…), each declaring
//
//	var _ = extend("pt-BR", map[string]Text{"web.menu.tables": {Other: "Mesas"}})
//
// so that parts grow their words without touching one another's files. A key is declared once:
// a key two files declare for the same language stops the program at start.
package lang

import (
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"time"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/number"
)

// Text is one message: Other is its form for most counts; One, when set, its form for a count
// the language calls singular (chosen by the placeholder {n}).
type Text struct {
	One   string
	Other string
}

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
}

// Args are the values of a message's named placeholders.
type Args map[string]any

var (
	all     []*Lang
	byCode  = map[string]*Lang{}
	matcher language.Matcher
)

// extra holds the messages parts declare with extend, by language code, until the language
// registers: package variables are initialised before any init function runs, so every part's
// messages are here when register runs.
var extra = map[string][]map[string]Text{}

// extend adds a part's messages to the language code; it returns nothing of use and exists to
// be called from a package variable's initialiser.
func extend(code string, msgs map[string]Text) struct{} {
	extra[code] = append(extra[code], msgs)
	return struct{}{}
}

// register adds a language with the messages its parts declared; each language's file calls it
// from init.
func register(l *Lang) {
	for _, m := range extra[l.Code] {
		for k, t := range m {
			if _, dup := l.Messages[k]; dup {
				panic("lang: " + l.Code + " declares " + k + " twice")
			}
			l.Messages[k] = t
		}
	}
	delete(extra, l.Code)
	l.Tag = language.MustParse(l.Code)
	all = append(all, l)
	sort.Slice(all, func(i, j int) bool { return all[i].Code == "en" || (all[j].Code != "en" && all[i].Code < all[j].Code) })
	byCode[strings.ToLower(l.Code)] = l
	tags := make([]language.Tag, len(all))
	for i, x := range all {
		tags[i] = x.Tag
	}
	matcher = language.NewMatcher(tags)
}

// All returns every language, English first.
func All() []*Lang { return all }

// English is the language of last resort, and the reference every translation is checked against.
func English() *Lang { return byCode["en"] }

// Get returns the language best matching a tag or locale name ("pt-BR", "pt_BR.UTF-8", "tr",
// "es-AR"), and false when none is close (English is returned then).
func Get(name string) (*Lang, bool) {
	name = strings.TrimSpace(name)
	if i := strings.IndexAny(name, ".@"); i >= 0 {
		name = name[:i] // a POSIX locale's codeset and modifier
	}
	name = strings.ReplaceAll(name, "_", "-")
	if name == "" || name == "C" || name == "POSIX" {
		return English(), false
	}
	if l, ok := byCode[strings.ToLower(name)]; ok {
		return l, true
	}
	t, err := language.Parse(name)
	if err != nil {
		return English(), false
	}
	_, i, conf := matcher.Match(t)
	if conf == language.No {
		return English(), false
	}
	return all[i], true
}

// Choose picks the reader's language: flag (a --lang value) when set, else the environment as
// POSIX orders it (LC_ALL, then LC_MESSAGES, then LANG), else English. An unknown --lang is an error; an unknown environment is not.
func Choose(flag string, getenv func(string) string) (*Lang, error) {
	if flag != "" {
		l, ok := Get(flag)
		if !ok {
			return nil, fmt.Errorf("unknown language %q (known: %s)", flag, strings.Join(Codes(), ", "))
		}
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
	for _, s := range []string{t.One, t.Other} {
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
	if n, ok := args["n"]; ok && t.One != "" {
		if i, ok := asInt(n); ok && l.pluralOne(int(i)) {
			s = t.One
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

// pluralOne reports whether count i takes the language's singular form.
func (l *Lang) pluralOne(i int) bool {
	if i < 0 {
		i = -i
	}
	return plural.Cardinal.MatchPlural(l.Tag, i, 0, 0, 0, 0) == plural.One
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
	_, i, conf := matcher.Match(tags...)
	if conf == language.No {
		return English(), false
	}
	return all[i], true
}
