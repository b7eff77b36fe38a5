package main

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/internal/testfiles"
)

// fechado runs one command line in-process with stdin and returns its exit code and output.
func fechado(stdin string, args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	m := &Main{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}
	code = m.Run(args)
	return code, out.String(), errb.String()
}

// vectorSeedHex is the seed of the test vectors of events-v1.md §3: the bytes 0x00 … 0x1f.
const vectorSeedHex = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"

// The vectors of events-v1.md §3.
func TestDeckVectors(t *testing.T) {
	for _, tc := range []struct {
		low   string
		n     int
		first string
	}{
		{"2", 52, "8c 9c Qc 8d Jc 7s 2h 3h 5s 5h"},
		{"7", 32, "7c Ks Kc Ts Jd Kd Ad Tc 7h Qc"},
	} {
		code, out, errOut := fechado("", "deck", "--seed", vectorSeedHex, "--low", tc.low)
		if code != exitOK || errOut != "" {
			t.Fatalf("--low %s: exit %d, stderr %q", tc.low, code, errOut)
		}
		if !strings.HasSuffix(out, "\n") || strings.Count(out, "\n") != 1 {
			t.Errorf("--low %s: want one line, got %q", tc.low, out)
		}
		deck, err := cards.ParseList(out)
		if err != nil {
			t.Fatalf("--low %s: output is not cards: %v", tc.low, err)
		}
		if len(deck) != tc.n {
			t.Errorf("--low %s: %d cards, want %d", tc.low, len(deck), tc.n)
		}
		low, _ := cards.ParseRank(tc.low)
		if cards.SetOf(deck...) != cards.DeckSet(low) {
			t.Errorf("--low %s: not the deck from %s to ace: %s", tc.low, tc.low, out)
		}
		if !strings.HasPrefix(out, tc.first+" ") {
			t.Errorf("--low %s: starts %q, want %q", tc.low, out[:min(len(out), len(tc.first))], tc.first)
		}
	}
}

// --cut K moves the top K cards to the bottom; flags may come in any order and either form.
func TestDeckCut(t *testing.T) {
	_, plain, _ := fechado("", "deck", "--seed", vectorSeedHex, "--low", "7")
	deck := strings.Fields(plain)
	for _, k := range []int{0, 1, 5, 31} {
		code, out, errOut := fechado("", "deck", "-cut", strconv.Itoa(k), "--low=7", "--seed", vectorSeedHex)
		if code != exitOK {
			t.Fatalf("--cut %d: exit %d: %s", k, code, errOut)
		}
		want := strings.Join(append(append([]string{}, deck[k:]...), deck[:k]...), " ")
		if got := strings.TrimSuffix(out, "\n"); got != want {
			t.Errorf("--cut %d:\n got %s\nwant %s", k, got, want)
		}
	}
}

// Bad input exits 2 with a message that names the flag.
func TestDeckBadInput(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
		// flagErr marks errors of the flag package, after which main.go prints the help on stdout.
		flagErr bool
	}{
		{name: "no seed", args: []string{"--low", "2"}, want: "--seed"},
		{name: "short seed", args: []string{"--seed", "0011", "--low", "2"}, want: "--seed"},
		{name: "seed not hex", args: []string{"--seed", strings.Repeat("zz", 32), "--low", "2"}, want: "--seed"},
		{name: "no low", args: []string{"--seed", vectorSeedHex}, want: "--low"},
		{name: "bad low", args: []string{"--seed", vectorSeedHex, "--low", "1"}, want: "--low"},
		{name: "low as a word", args: []string{"--seed", vectorSeedHex, "--low", "seven"}, want: "--low"},
		{name: "cut of the whole deck", args: []string{"--seed", vectorSeedHex, "--low", "7", "--cut", "32"}, want: "--cut"},
		{name: "negative cut", args: []string{"--seed", vectorSeedHex, "--low", "7", "--cut", "-1"}, want: "--cut"},
		{name: "cut not a number", args: []string{"--seed", vectorSeedHex, "--low", "7", "--cut", "x"}, want: "cut", flagErr: true},
		{name: "operand", args: []string{"--seed", vectorSeedHex, "--low", "7", "extra"}, want: "extra"},
		{name: "unknown flag", args: []string{"--seed", vectorSeedHex, "--low", "7", "--top"}, want: "top", flagErr: true},
	} {
		code, out, errOut := fechado("", append([]string{"deck"}, tc.args...)...)
		if code != exitUsage {
			t.Errorf("%s: exit %d, want %d", tc.name, code, exitUsage)
		}
		if !tc.flagErr && out != "" {
			t.Errorf("%s: stdout %q, want nothing", tc.name, out)
		}
		if !strings.HasPrefix(errOut, "fechado deck: ") || !strings.Contains(errOut, tc.want) {
			t.Errorf("%s: stderr %q, want a message about %s", tc.name, errOut, tc.want)
		}
	}
}

func TestDeckHelp(t *testing.T) {
	code, out, _ := fechado("", "deck", "--help")
	if code != exitOK || !strings.Contains(out, "Usage: fechado deck --seed HEX --low RANK [--cut K]") ||
		!strings.Contains(out, "-cut") {
		t.Errorf("exit %d, help:\n%s", code, out)
	}
}

// The synopsis is the one of cli-v1.md.
func TestDeckSynopsisIsTheContract(t *testing.T) {
	spec, err := os.ReadFile(testfiles.File(t, "contract", "cli-v1.md"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "`fechado " + commands["deck"].usage + "`"; !bytes.Contains(spec, []byte(want)) {
		t.Errorf("cli-v1.md has no %s", want)
	}
}
