package main

import (
	"fmt"
	"strings"
	"testing"
)

func TestRank(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		stdin string
		want  string
	}{
		{
			name: `presets.md "hand ranking" br-fechado: flush above full house; A-7-8-9-T the lowest straight`,
			args: []string{"rank", "--rules", "br-fechado", "Ac 7d 8h 9s Tc", "Kc Kd Kh 7s 7c", "Ah Jh 9h 8h 7h", "7c 8d 9h Ts Jc"},
			want: "1\tAh Jh 9h 8h 7h\tflush\n" +
				"2\tKc Kd Kh 7s 7c\tfull house\n" +
				"3\t7c 8d 9h Ts Jc\tstraight\n" +
				"4\tAc 7d 8h 9s Tc\tstraight\n",
		},
		{
			name: `presets.md "hand ranking" std-draw: full house above flush; equal hands share a position (1, 1, 3)`,
			args: []string{"rank", "Ah Jh 9h 7h 5h", "--rules", "std-draw", "AsJs9s7s5s", "2c 2d 2h 3s 3c", "Ac,2d,3h,4s,5c"},
			want: "1\t2c 2d 2h 3s 3c\tfull house\n" +
				"2\tAh Jh 9h 7h 5h\tflush\n" +
				"2\tAs Js 9s 7s 5s\tflush\n" +
				"4\tAc 2d 3h 4s 5c\tstraight\n",
		},
		{
			name: `presets.md "hand ranking" tr-kapali: three of a kind above straight; suits break ties`,
			args: []string{"rank", "--rules=tr-kapali", "As Ac Kc Qc Jc", "Ac Kd Qh Js Tc", "Ah Ad Kc Qc Jc", "7c 7d 7h 8s 9c"},
			want: "1\t7c 7d 7h 8s 9c\tthree of a kind\n" +
				"2\tAc Kd Qh Js Tc\tstraight\n" +
				"3\tAh Ad Kc Qc Jc\tpair\n" +
				"4\tAs Ac Kc Qc Jc\tpair\n",
		},
		{
			name:  "hands from stdin, blank lines skipped, ties keep input order",
			args:  []string{"rank", "--rules", "br-online"},
			stdin: "2c 3d 4h 5s 7c\n\n  Ad Kd 2c 3c 4c  \r\n2d 3c 4h 5s 7d\n\nAhAs2h3h4h\n",
			want: "1\tAh As 2h 3h 4h\tpair\n" +
				"2\tAd Kd 2c 3c 4c\thigh card\n" +
				"3\t2c 3d 4h 5s 7c\thigh card\n" +
				"3\t2d 3c 4h 5s 7d\thigh card\n",
		},
		{
			name: "--low widens the deck: A-2-3-4-5 in 52 cards under br-fechado's ranking",
			args: []string{"rank", "--rules", "br-fechado", "--low", "2", "Ac 2d 3h 4s 5c", "Kc Kd Kh 7s 7c", "Ah Jh 9h 8h 2h"},
			want: "1\tAh Jh 9h 8h 2h\tflush\n" +
				"2\tKc Kd Kh 7s 7c\tfull house\n" +
				"3\tAc 2d 3h 4s 5c\tstraight\n",
		},
		{
			name:  "no hands",
			args:  []string{"rank", "--rules", "online-draw"},
			stdin: "\n\n",
			want:  "",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := fechado(tt.stdin, tt.args...)
			if code != 0 || out != tt.want || errs != "" {
				t.Errorf("fechado %q: exit %d, stderr %q, stdout:\n%s\nwant:\n%s", tt.args, code, errs, out, tt.want)
			}
		})
	}
}

func TestRankBadInput(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		stdin  string
		stderr string // the message must contain this
	}{
		{"four cards", []string{"rank", "--rules", "br-fechado", "Ah Kh Qh Jh Th", "Ah Kh Qh Jh"},
			"", `hand 2 "Ah Kh Qh Jh": invalid hand: 4 cards, want 5`},
		{"a repeated card", []string{"rank", "--rules", "std-draw", "Ah Kh Ah Jh Th"},
			"", `hand 1 "Ah Kh Ah Jh Th": invalid hand: Ah appears twice`},
		{`presets.md "deck_low": a card outside br-fechado's 32-card deck`, []string{"rank", "--rules", "br-fechado", "Ah Kh Qh Jh 6h"},
			"", `hand 1 "Ah Kh Qh Jh 6h": invalid hand: 6h is not in the 32-card deck (7 to A)`},
		{"a card outside the deck of --low", []string{"rank", "--rules", "tr-kapali", "--low", "5", "Ah Kh Qh Jh 4h"},
			"", `invalid hand: 4h is not in the 40-card deck (5 to A)`},
		{"not a card", []string{"rank", "--rules", "std-draw", "Ah Kh Qh Jh 1h"},
			"", `hand 1 "Ah Kh Qh Jh 1h": bad card "1h"`},
		{"an odd token", []string{"rank", "--rules", "std-draw", "AhKhQ Jh Th"},
			"", `hand 1 "AhKhQ Jh Th": bad card "AhKhQ"`},
		{"stdin line number", []string{"rank", "--rules", "tr-kapali"},
			"Ah Kh Qh Jh Th\n\nAh Kh Qh Jh\n", `stdin line 3 "Ah Kh Qh Jh": invalid hand: 4 cards, want 5`},
		{"unknown preset", []string{"rank", "--rules", "texas", "Ah Kh Qh Jh Th"},
			"", `unknown preset "texas"`},
		{"missing --rules", []string{"rank", "Ah Kh Qh Jh Th"},
			"", `--rules is required`},
		{"bad --low", []string{"rank", "--rules", "std-draw", "--low", "1", "Ah Kh Qh Jh Th"},
			"", `--low: bad rank "1"`},
		{"--low too high", []string{"rank", "--rules", "std-draw", "--low", "T", "Ah Kh Qh Jh Th"},
			"", `--low: lowest rank T outside 2 to 9`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := fechado(tt.stdin, tt.args...)
			if code != 2 || out != "" || !strings.Contains(errs, tt.stderr) || !strings.HasPrefix(errs, "fechado rank: ") {
				t.Errorf("fechado %q: exit %d, stdout %q, stderr %q; want exit 2 and a message with %q",
					tt.args, code, out, errs, tt.stderr)
			}
		})
	}
}

func TestRankHelp(t *testing.T) {
	code, out, _ := fechado("", "rank", "--help")
	for _, want := range []string{"Usage: fechado rank --rules NAME [--low RANK] [HAND…]", "competition ranking", "-rules", "-low"} {
		if !strings.Contains(out, want) {
			t.Errorf("--help lacks %q:\n%s", want, out)
		}
	}
	if code != 0 {
		t.Errorf("--help exits %d", code)
	}
}

// Many lines from stdin: every hand of the 32-card deck, worst first, comes out best first.
func TestRankManyLines(t *testing.T) {
	if testing.Short() {
		t.Skip("long input")
	}
	deck := []string{}
	for _, r := range "789TJQKA" {
		for _, s := range "cdhs" {
			deck = append(deck, string(r)+string(s))
		}
	}
	var in strings.Builder
	n := 0
	for a := 0; a < len(deck); a++ {
		for b := a + 1; b < len(deck); b++ {
			for c := b + 1; c < len(deck); c++ {
				for d := c + 1; d < len(deck); d++ {
					for e := d + 1; e < len(deck); e++ {
						fmt.Fprintf(&in, "%s %s %s %s %s\n", deck[a], deck[b], deck[c], deck[d], deck[e])
						n++
					}
				}
			}
		}
	}
	code, out, errs := fechado(in.String(), "rank", "--rules", "tr-kapali")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != n {
		t.Fatalf("%d lines, want %d", len(lines), n)
	}
	// tr-kapali: suits break every tie, so positions run 1..n; the best hand is the royal flush
	// in hearts, the worst 7-8-9-J-Q... high card in clubs and diamonds.
	if want := "1\tTh Jh Qh Kh Ah\tstraight flush"; lines[0] != want {
		t.Errorf("first line %q, want %q", lines[0], want)
	}
	if want := fmt.Sprintf("%d\t", n); !strings.HasPrefix(lines[n-1], want) {
		t.Errorf("last line %q, want position %d", lines[n-1], n)
	}
}
