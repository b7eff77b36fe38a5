package sim

import (
	"fmt"
	"testing"

	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/rules"
)

// injectPresets lists where each code is tried, in order, until a run injects it.
var injectPresets = []struct {
	rules   string
	players int
}{{"br-fechado", 4}, {"std-draw", 5}, {"tr-kapali", 4}, {"online-draw", 4}, {"br-online", 4}, {"br-fechado", 7}, {"tr-kapali", 6}}

func TestInject(t *testing.T) {
	for _, code := range Injectable() {
		t.Run(string(code), func(t *testing.T) {
			injected := 0
			for k, ps := range injectPresets {
				if p, _ := rules.Lookup(ps.rules); !fits(p, DefaultStakes(ps.rules), code) {
					continue
				}
				cfg := Config{Rules: ps.rules, Players: ps.players, Hands: 12, Seed: uint64(k + 11), Inject: []finding.Code{code}}
				if code == finding.PotSplit {
					// Ties are rare: a table where one comes in the second hand.
					cfg = Config{Rules: "br-fechado", Players: 4, Hands: 3, Seed: 49, EvenStacks: true, Inject: []finding.Code{code}}
				}
				hands, fs := auditRun(t, cfg)
				byHand := map[string][]finding.Finding{}
				for _, f := range fs {
					byHand[f.Hand] = append(byHand[f.Hand], f)
				}
				for _, h := range hands {
					id := h.Events[0].Hand
					var errs []string
					hit := false
					for _, f := range byHand[id] {
						if h.Injected != "" && f.Code == h.Injected && f.Seq == h.Seq {
							hit = true
							continue
						}
						if f.Severity == finding.Error {
							errs = append(errs, fmt.Sprintf("%s@%d %s", f.Code, f.Seq, f.Message))
						}
					}
					if h.Injected != "" {
						injected++
						if !hit {
							t.Errorf("%s: hand %s: %s not reported at seq %d; findings %v", ps.rules, id, h.Injected, h.Seq, byHand[id])
						}
					}
					if len(errs) > 0 {
						t.Errorf("%s: hand %s (injected %q): other errors %v", ps.rules, id, h.Injected, errs)
					}
				}
				if injected > 0 {
					t.Logf("%s: %d of %d hands injected", ps.rules, injected, len(hands))
					return
				}
			}
			t.Errorf("%s was never injected", code)
		})
	}
}

// checkInjected audits hands and checks that each injected hand reports its code at its seq and
// no other error, and that the other hands have no error.
func checkInjected(t *testing.T, hands []*Hand, fs []finding.Finding) map[finding.Code]int {
	t.Helper()
	byHand := map[string][]finding.Finding{}
	for _, f := range fs {
		byHand[f.Hand] = append(byHand[f.Hand], f)
	}
	got := map[finding.Code]int{}
	for _, h := range hands {
		id := h.Events[0].Hand
		hit := false
		for _, f := range byHand[id] {
			switch {
			case h.Injected != "" && f.Code == h.Injected && f.Seq == h.Seq:
				hit = true
			case f.Severity == finding.Error:
				t.Errorf("hand %s (injected %q at %d): other error %s", id, h.Injected, h.Seq, f.JSON())
			}
		}
		if h.Injected != "" {
			got[h.Injected]++
			if !hit {
				t.Errorf("hand %s: %s not reported at seq %d: %v", id, h.Injected, h.Seq, byHand[id])
			}
		}
	}
	return got
}

// TestInjectRotation injects every code in rotation at one table of each preset: no injected
// irregularity spills into another hand.
func TestInjectRotation(t *testing.T) {
	for _, ps := range []struct {
		rules   string
		players int
	}{{"br-fechado", 5}, {"br-online", 4}, {"tr-kapali", 5}, {"std-draw", 6}, {"online-draw", 5}} {
		t.Run(ps.rules, func(t *testing.T) {
			hands, fs := auditRun(t, Config{Rules: ps.rules, Players: ps.players, Hands: 80, Seed: 99, Inject: InjectableFor(ps.rules)})
			got := checkInjected(t, hands, fs)
			if len(got) < len(InjectableFor(ps.rules))/2 {
				t.Errorf("only %d codes injected in %d hands: %v", len(got), len(hands), got)
			}
			t.Logf("%d hands, %d codes injected", len(hands), len(got))
		})
	}
}
