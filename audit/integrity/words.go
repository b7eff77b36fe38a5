package integrity

import (
	"fmt"
	"strings"

	"golang.org/x/text/message"

	"github.com/fechado/fechado/lang"
)

// Words is what a scored pair says in a reader's language: the sentence of its verdict (flagged
// and by what, or not), the table overlap's, and one Reason per behaviour signal. The command's
// text report and the dashboard's Integrity page both write these, so a pair reads the same
// wherever it is shown.
type Words struct {
	Verdict string   `json:"verdict"`
	Overlap string   `json:"overlap"`
	Reasons []Reason `json:"reasons"`
}

// Reason is one signal in words, with the hands that show it when the signal says something
// (z ≥ 2): the evidence to open in the replayer.
type Reason struct {
	Signal string   `json:"signal"` // soft-play, chip-dump, share-cards
	Text   string   `json:"text"`
	Hands  []string `json:"hands"`
}

// evidenceZ is the least statistic of a signal whose hands are shown as evidence: below it, the
// hands that "show it best" show nothing much.
const evidenceZ = 2

// Words writes p in l.
func (p *Pair) Words(l *lang.Lang) Words {
	pr := message.NewPrinter(l.Tag)
	num := func(f string, v float64) string { return pr.Sprintf(f, v) }
	w := Words{Reasons: []Reason{}}
	if p.Flagged {
		w.Verdict = l.T("integrity.flagged."+p.Kind, nil)
	} else {
		w.Verdict = l.T("integrity.unflagged", nil)
	}
	w.Overlap = l.T("integrity.overlap", lang.Args{"together": p.Overlap.Together, "slots": p.Overlap.Slots,
		"expected": num("%.1f", p.Overlap.Expected), "p": PValue(l, p.Overlap.P)})
	signal := func(kind, key, name string, s Signal, args lang.Args) {
		r := Reason{Signal: kind, Hands: []string{}}
		switch {
		case s.Uncalibrated:
			r.Text = l.T("integrity.raw", lang.Args{"signal": l.T("integrity.signal."+name, nil), "z": num("%.1f", s.Z),
				"decisions": s.N})
		case s.P >= 1 && s.Z == 0:
			r.Text = l.T("integrity.nodata", lang.Args{"signal": l.T("integrity.signal."+name, nil)})
		default:
			args["z"], args["p"], args["decisions"] = num("%.1f", s.Z), PValue(l, s.P), s.N
			r.Text = l.T(key, args)
			if s.Z >= evidenceZ && len(s.Hands) > 0 {
				r.Hands = s.Hands
			}
		}
		w.Reasons = append(w.Reasons, r)
	}
	signal(SoftPlay, "integrity.soft", "soft", p.Soft, lang.Args{})
	signal(ChipDump, "integrity.dump", "dump", p.Dumping.Signal, lang.Args{"from": p.Dumping.From, "to": p.Dumping.To,
		"chips": int64(p.Dumping.Chips)})
	signal(ShareCards, "integrity.share", "share", p.Shared, lang.Args{})
	return w
}

// SignalName is the name of a signal (SoftPlay, ChipDump, ShareCards) in l.
func SignalName(l *lang.Lang, kind string) string {
	return l.T("integrity.signal."+map[string]string{SoftPlay: "soft", ChipDump: "dump", ShareCards: "share"}[kind], nil)
}

// PValue writes a p-value in l: two decimals down to 0.01, then in scientific notation with the
// language's decimal mark (3,2e-05).
func PValue(l *lang.Lang, p float64) string {
	pr := message.NewPrinter(l.Tag)
	if p >= 0.01 {
		return pr.Sprintf("%.2f", p)
	}
	return strings.Replace(fmt.Sprintf("%.1e", p), ".", pr.Sprintf("%.1f", 0.5)[1:2], 1)
}

// Gap is a signal (SoftPlay, ChipDump, ShareCards) an analysis could not calibrate: fewer than
// MinCalibration pairs carried each of its tests, so it flags no pair (docs/integrity.md, "Too
// few pairs"). It is what a reader of the stored verdict knows of Report.Uncalibrated, whose
// counts of pairs are the analysis' own.
type Gap string

// Gaps returns the signals of pairs, every pair of one analysis, that could not be calibrated:
// some pair carries the signal's raw statistic and none a calibrated one. It gives the signals of
// Report.Uncalibrated, in the same order.
func Gaps(pairs []Pair) []Gap {
	var out []Gap
	for _, kind := range []string{SoftPlay, ChipDump, ShareCards} {
		raw, cal := false, false
		for i := range pairs {
			s := pairs[i].signal(kind)
			switch {
			case s.Uncalibrated:
				raw = true
			case s.P < 1 || s.Z != 0:
				cal = true
			}
		}
		if raw && !cal {
			out = append(out, Gap(kind))
		}
	}
	return out
}

// signal returns p's signal of kind.
func (p *Pair) signal(kind string) Signal {
	switch kind {
	case SoftPlay:
		return p.Soft
	case ChipDump:
		return p.Dumping.Signal
	}
	return p.Shared
}

// Words says in l which signal was not calibrated and why, for the summary of a stored analysis
// (the dashboard's Integrity page): in a floor manager's words, not a statistician's.
func (g Gap) Words(l *lang.Lang) string {
	return l.T("integrity.gap", lang.Args{"signal": SignalName(l, string(g)), "least": MinCalibration})
}
