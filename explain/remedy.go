package explain

import (
	"regexp"
	"strings"

	"github.com/fechado/fechado/docs"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/lang"
)

// Remedy says, in l, what the floor does now about a finding of code under preset: what becomes of
// the pot, of the chips a player put in, of the hand. A preset whose rules give another remedy
// has its own message ("remedy.pot.split.br-online"); the others share the code's
// ("remedy.pot.split"). "" for a code with no remedy (a note, not a fault).
func Remedy(l *lang.Lang, code finding.Code, preset string) string {
	for _, key := range []string{"remedy." + string(code) + "." + preset, "remedy." + string(code)} {
		if l.Has(key) {
			return l.T(key, nil)
		}
	}
	return ""
}

// RuleWords states, in l, the rule code enforces under preset: the paragraph of the house
// rulebook (docs/rules.md) under the rule's anchor, told without its sources and reasoning, or
// the rule of the log's contract. The translations are messages "ruletext.<anchor>"; a topic
// whose rule is the same under every preset has one message, "ruletext.<topic>".
func RuleWords(l *lang.Lang, code finding.Code, preset string) string {
	t, ok := rulebook[code]
	if !ok {
		return ""
	}
	keys := []string{"ruletext.contract"}
	if t.anchor != "" {
		keys = []string{"ruletext." + preset + "-" + t.anchor, "ruletext." + t.anchor}
	}
	for _, key := range keys {
		if l.Has(key) {
			return l.T(key, nil)
		}
	}
	return ""
}

// SourceName names in l where the rules of preset come from, the rule texts the seeds are ("the
// Brazilian rules text «Pôquer Fechado»"), or the log's contract for a rule of the log.
func SourceName(l *lang.Lang, code finding.Code, preset string) string {
	if t, ok := rulebook[code]; ok && t.anchor == "" {
		return l.T("source.contract", nil)
	}
	if l.Has("source." + preset) {
		return l.T("source."+preset, nil)
	}
	return preset
}

// quoted is an original quotation in docs/rules.md: the seed's words between straight quotes,
// followed by their English translation in parentheses.
var quoted = regexp.MustCompile(`"([^"]+)" \(`)

// Quotes returns the original words of the seed that the paragraph of docs/rules.md under anchor
// quotes, verbatim and in the seed's language, to be shown beside a translation of the rule; nil
// when the paragraph quotes none (a rule adopted from another source, or of fechado's reading).
func Quotes(anchor string) []string {
	tag := `<a id="` + anchor + `"></a>`
	i := strings.Index(docs.Rules, tag)
	if anchor == "" || i < 0 {
		return nil
	}
	s := docs.Rules[i+len(tag):]
	if j := strings.Index(s, "\n\n"); j >= 0 {
		s = s[:j]
	}
	s = strings.ReplaceAll(s, "\n", " ")
	var out []string
	for _, m := range quoted.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}
