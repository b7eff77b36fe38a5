package main

import (
	"fmt"

	"github.com/fechado/fechado/cards"
)

func init() {
	register(&command{
		name:    "deck",
		summary: "print the deck order a seed gives (hmac-sha256-fy-v1)",
		usage:   "deck --seed HEX --low RANK [--cut K]",
		help: `Prints the order of the deck that the machine shuffle hmac-sha256-fy-v1 (events-v1.md §3)
gives for a seed: the deck of every card from rank --low to ace in canonical order, shuffled with
the seed, then cut at K (the top K cards go to the bottom). The cards are printed top first (the
first card dealt), space-separated, on one line.

Anyone can re-derive a hand's deck this way once its deck.revealed event gives the seed.

Example: fechado deck --seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f --low 7

Exit status: 0, or 2 for a bad seed, rank or cut.`,
		run: runDeck,
	})
}

func runDeck(m *Main, args []string) error {
	c := commands["deck"]
	fs := m.flags(c)
	seedHex := fs.String("seed", "", "the shuffle's seed: 64 hex digits (32 bytes)")
	lowStr := fs.String("low", "", "the deck's lowest rank: one of 2 3 4 5 6 7 8 9 T J Q K A")
	cut := fs.Int("cut", 0, "cut at K: move the top K cards to the bottom (0 = no cut)")
	operands, err := m.parse(fs, args)
	if err != nil {
		return err
	}
	if len(operands) > 0 {
		return usageErr("unexpected argument %q (see 'fechado deck --help')", operands[0])
	}
	if *seedHex == "" {
		return usageErr("--seed is required: 64 hex digits")
	}
	seed, err := cards.ParseSeed(*seedHex)
	if err != nil {
		return usageErr("--seed: %v", err)
	}
	if *lowStr == "" {
		return usageErr("--low is required: the deck's lowest rank (2 for 52 cards, 7 for 32)")
	}
	low, err := cards.ParseRank(*lowStr)
	if err != nil {
		return usageErr("--low: %v", err)
	}
	deck := cards.Shuffle(seed, cards.Deck(low))
	deck, err = cards.Cut(deck, *cut)
	if err != nil {
		return usageErr("--cut: %v for a deck of %d cards", err, len(cards.Deck(low)))
	}
	_, err = fmt.Fprintln(m.Stdout, cards.Join(deck, " "))
	return err
}
