package lang

import (
	"slices"
	"testing"
	"time"
)

func TestChoose(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	cases := []struct {
		flag string
		env  map[string]string
		want string
	}{
		{"", nil, "en"},
		{"pt-BR", map[string]string{"LANG": "tr_TR.UTF-8"}, "pt-BR"},
		{"pt", nil, "pt-BR"},
		{"es-AR", nil, "es"},
		{"", map[string]string{"LANG": "tr_TR.UTF-8"}, "tr"},
		{"", map[string]string{"LANG": "tr_TR.UTF-8", "LC_ALL": "pt_BR.UTF-8"}, "pt-BR"},
		{"", map[string]string{"LANG": "tr_TR.UTF-8", "LC_MESSAGES": "es_ES.UTF-8"}, "es"},
		{"", map[string]string{"LANG": "C.UTF-8"}, "en"},
		{"", map[string]string{"LANG": "de_DE.UTF-8"}, "en"},
	}
	for _, c := range cases {
		l, err := Choose(c.flag, env(c.env))
		if err != nil || l.Code != c.want {
			t.Errorf("Choose(%q, %v) = %v, %v; want %s", c.flag, c.env, l, err, c.want)
		}
	}
	if _, err := Choose("klingon", nil); err == nil {
		t.Error("an unknown --lang is not an error")
	}
}

func TestPluralsNumbersDates(t *testing.T) {
	get := func(c string) *Lang { l, _ := Get(c); return l }
	cases := []struct {
		lang, key string
		args      Args
		want      string
	}{
		{"en", "ev.draw", Args{"player": "Bruno", "n": 3}, "Bruno draws 3."},
		{"pt-BR", "ev.draw", Args{"player": "Bruno", "n": 3}, "Bruno troca 3."},
		{"pt-BR", "ev.receive", Args{"player": "Ana", "n": 1}, "Ana recebe 1 carta."},
		{"pt-BR", "ev.receive", Args{"player": "Ana", "n": 2}, "Ana recebe 2 cartas."},
		{"es", "ev.receive", Args{"player": "Ana", "n": 1}, "Ana recibe 1 carta."},
		{"tr", "ev.receive", Args{"player": "Ana", "n": 1}, "Ana 1 kağıt alır."},
		{"en", "ev.ante", Args{"player": "Ana", "amount": 12500}, "Ana antes 12,500."},
		{"pt-BR", "ev.ante", Args{"player": "Ana", "amount": 12500}, "Ana põe o pingo de 12.500."},
		{"tr", "ev.ante", Args{"player": "Ana", "amount": 12500}, "Ana yere 12.500 koyar."},
		{"es", "ev.ante", Args{"player": "Ana", "amount": int64(12500)}, "Ana pone un ante de 12.500."},
		// The tables' own words (digest.md §3): mesa, pingo, repique; pas, vuruş, yer.
		{"pt-BR", "ev.check", Args{"player": "Ana"}, "Ana pede mesa."},
		{"pt-BR", "ev.raise", Args{"player": "Ana", "amount": 40}, "Ana dá repique, pondo 40."},
		{"pt-BR", "ev.open", Args{"player": "Ana", "amount": 20, "hand": "par de valetes"}, "Ana abre com 20 — par de valetes."},
		{"tr", "ev.check", Args{"player": "Deniz"}, "Deniz: pas."},
		{"tr", "ev.raise", Args{"player": "Deniz", "amount": 40}, "Deniz vuruş yapar, 40 koyar."},
		{"tr", "ev.draw", Args{"player": "Deniz", "n": 3}, "Deniz 3 kağıt değiştirir."},
		{"es", "ev.pat", Args{"player": "Carla"}, "Carla se queda servido."},
		// CLDR's many of Portuguese and Spanish: an exact million takes "de" ("1.000.000 de
		// fichas"), a million and one does not.
		{"pt-BR", "stack", Args{"n": 1_000_000}, "1.000.000 de fichas"},
		{"pt-BR", "stack", Args{"n": 1_000_001}, "1.000.001 fichas"},
		{"pt-BR", "stack", Args{"n": 0}, "0 ficha"},
		{"es", "stack", Args{"n": 3_000_000}, "3.000.000 de fichas"},
		{"es", "stack", Args{"n": 1}, "1 ficha"},
		{"en", "stack", Args{"n": 1_000_000}, "1,000,000 chips"},
		{"tr", "web.player.stillin", Args{"n": 1_000_000}, "1.000.000 fişle hâlâ oyunda."},
	}
	for _, c := range cases {
		if got := get(c.lang).T(c.key, c.args); got != c.want {
			t.Errorf("%s %s: %q, want %q", c.lang, c.key, got, c.want)
		}
	}
	at := time.Date(2026, 3, 7, 21, 5, 9, 0, time.FixedZone("BRT", -3*3600))
	if got, want := get("pt-BR").DateTime(at), "07/03/2026, 21:05:09 BRT (UTC-03:00)"; got != want {
		t.Errorf("pt-BR date %q, want %q", got, want)
	}
	if got, want := get("en").DateTime(at.UTC()), "8 March 2026, 00:05:09 UTC"; got != want {
		t.Errorf("en date %q, want %q", got, want)
	}
	if got, want := get("tr").DateTime(at.In(time.FixedZone("", 3*3600))), "08.03.2026, 03:05:09 UTC+03:00"; got != want {
		t.Errorf("tr date %q, want %q", got, want)
	}
	// Where the percent sign goes is the locale's: Turkish writes it first (CLDR).
	for _, c := range []struct {
		lang string
		want string
	}{{"en", "1%"}, {"pt-BR", "1%"}, {"tr", "%1"}, {"es", "1\u00a0%"}} {
		if got := get(c.lang).Percent(0.01); got != c.want {
			t.Errorf("%s: 1 percent is %q, want %q", c.lang, got, c.want)
		}
	}
	if got := get("en").T("no.such.key", nil); got != "[no.such.key]" {
		t.Errorf("a missing key gives %q", got)
	}
}

func TestFromAccept(t *testing.T) {
	for h, want := range map[string]string{
		"tr-TR,tr;q=0.9,en;q=0.5": "tr", "pt-BR,pt;q=0.9": "pt-BR", "es-MX": "es", "de-DE": "en", "": "en", "pt-PT": "pt-BR",
	} {
		if l, _ := FromAccept(h); l.Code != want {
			t.Errorf("Accept-Language %q: %s, want %s", h, l.Code, want)
		}
	}
}

// All lists English first, then the others by code (the order of the table languages, which
// init keeps): a language switcher shows them so.
func TestEnglishFirstThenByCode(t *testing.T) {
	codes := Codes()
	if len(codes) != 4 || codes[0] != "en" || !slices.IsSorted(codes[1:]) || English() != All()[0] {
		t.Errorf("languages in the order %v", codes)
	}
}
