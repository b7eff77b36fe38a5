package explain

import (
	"strings"
	"testing"

	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/lang"
	"github.com/fechado/fechado/rules"
)

// errorCodes are the codes a floor must act on: every error of the catalogue (findings-v1.md),
// and card.exposed, an error under br-online.
func errorCodes() []finding.Code {
	codes := []finding.Code{finding.CardExposed}
	for _, c := range finding.Catalogue {
		if c.Severity == finding.Error {
			codes = append(codes, c.Code)
		}
	}
	return codes
}

// Every error code has, under every preset and in every language, its own remedy and the rule it
// enforces in that language's words: the message is the language's own (not English shown in
// its place), and the citation names the rule and the house rulebook, never a file.
func TestEveryErrorHasARemedyAndARuleInEveryLanguage(t *testing.T) {
	en := lang.English()
	n := 0
	for _, code := range errorCodes() {
		for _, preset := range rules.Names() {
			for _, l := range lang.All() {
				remedy, words := Remedy(l, code, preset), RuleWords(l, code, preset)
				if remedy == "" || words == "" {
					t.Errorf("%s %s %s: remedy %q, rule %q", l.Code, code, preset, remedy, words)
					continue
				}
				n++
				if l.Code != en.Code && (remedy == Remedy(en, code, preset) || words == RuleWords(en, code, preset)) {
					t.Errorf("%s %s %s: the remedy or the rule is English's", l.Code, code, preset)
				}
				if !ownMessage(l, "remedy."+string(code)+"."+preset) && !ownMessage(l, "remedy."+string(code)) {
					t.Errorf("%s %s: no remedy of its own in %s", code, preset, l.Code)
				}
				h := &Hand{Preset: preset}
				x := h.Explain(l, finding.Finding{Code: code, Severity: finding.Error})
				for _, s := range []string{x.Citation, x.RuleWords, x.Remedy} {
					if strings.Contains(s, ".md") || strings.Contains(s, "#") || strings.ContainsAny(s, "{}`*") {
						t.Errorf("%s %s %s: a file, an anchor, a placeholder or Markdown shows: %q", l.Code, code, preset, s)
					}
				}
				if x.Remedy != remedy || x.RuleWords != words || x.Source == "" {
					t.Errorf("%s %s %s: Explain gives remedy %q rule %q source %q", l.Code, code, preset, x.Remedy, x.RuleWords, x.Source)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no code checked")
	}
}

func ownMessage(l *lang.Lang, key string) bool { _, ok := l.Messages[key]; return ok }

// A remedy follows the preset where its rules differ: a tied pot is split in equal shares under
// br-fechado (presets.md "ties") but in proportion to the bets under br-online, and under
// tr-kapali suits leave no tie at all.
func TestRemedyFollowsThePreset(t *testing.T) {
	en := lang.English()
	fechado, online, kapali := Remedy(en, finding.PotSplit, "br-fechado"), Remedy(en, finding.PotSplit, "br-online"), Remedy(en, finding.PotSplit, "tr-kapali")
	if !strings.Contains(fechado, "equal shares") || !strings.Contains(online, "proportion") || !strings.Contains(kapali, "suits") {
		t.Errorf("pot.split remedies: br-fechado %q, br-online %q, tr-kapali %q", fechado, online, kapali)
	}
	if r := Remedy(en, finding.OpenWithoutOpeners, "br-fechado"); !strings.Contains(r, "stays in the pot") {
		t.Errorf("a false opener's chips: %q", r)
	}
	if r := Remedy(en, finding.LogIncomplete, "br-fechado"); r != "" {
		t.Errorf("a note (log.incomplete) has a remedy: %q", r)
	}
}

// The original words of a seed quoted beside a translated rule are the seed's own, verbatim:
// Portuguese for br-fechado's opening (seed 000), Turkish for tr-kapali's (seed 003), none for a
// rule no seed states (std-draw's ranking, from Robert's Rules).
func TestQuotesAreTheSeedsOwnWords(t *testing.T) {
	for _, c := range []struct {
		anchor, want string
		n            int
	}{
		{"br-fechado-opening", "A abertura mínima, na primeira distribuição, é um par de Valetes", 2},
		{"tr-kapali-opening", "hiç fişi kalmamış 'tapi' olan oyuncu", 5},
		{"std-draw-ranking", "", 0},
	} {
		q := Quotes(c.anchor)
		if len(q) != c.n || (c.want != "" && !strings.Contains(strings.Join(q, "|"), c.want)) {
			t.Errorf("%s quotes %q, want %d quotations with %q", c.anchor, q, c.n, c.want)
		}
	}
}
