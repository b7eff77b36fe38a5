// Package cards owns the playing cards of fechado: ranks, suits, cards, the canonical order, the
// deck of a hand for a given lowest rank (the stripped decks of closed poker), the
// hmac-sha256-fy-v1 machine shuffle with its commitment, and the cut. It follows section 3 of
// events-v1.md to the letter, so that anyone can re-derive a deck from a revealed seed.
package cards

import (
	"fmt"
	"math/bits"
	"strings"
)

// Rank is a card rank, 2 (Two) to 14 (Ace).
type Rank uint8

// The ranks, lowest first.
const (
	Two   Rank = 2
	Three Rank = 3
	Four  Rank = 4
	Five  Rank = 5
	Six   Rank = 6
	Seven Rank = 7
	Eight Rank = 8
	Nine  Rank = 9
	Ten   Rank = 10
	Jack  Rank = 11
	Queen Rank = 12
	King  Rank = 13
	Ace   Rank = 14
)

const rankChars = "23456789TJQKA"

// ParseRank reads a rank character (2 3 4 5 6 7 8 9 T J Q K A).
func ParseRank(s string) (Rank, error) {
	if len(s) == 1 {
		if i := strings.IndexByte(rankChars, s[0]); i >= 0 {
			return Rank(i + 2), nil
		}
	}
	return 0, fmt.Errorf("bad rank %q: want one of 2 3 4 5 6 7 8 9 T J Q K A", s)
}

// Valid reports whether r is one of the thirteen ranks.
func (r Rank) Valid() bool { return r >= Two && r <= Ace }

// String returns the rank's character.
func (r Rank) String() string {
	if !r.Valid() {
		return fmt.Sprintf("Rank(%d)", uint8(r))
	}
	return rankChars[r-2 : r-1]
}

// Name returns the rank's English name in the plural ("jacks", "sixes").
func (r Rank) Name() string {
	names := [...]string{"twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines",
		"tens", "jacks", "queens", "kings", "aces"}
	if !r.Valid() {
		return r.String()
	}
	return names[r-2]
}

// MarshalText implements encoding.TextMarshaler.
func (r Rank) MarshalText() ([]byte, error) {
	if !r.Valid() {
		return nil, fmt.Errorf("invalid rank %d", uint8(r))
	}
	return []byte(r.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (r *Rank) UnmarshalText(b []byte) error {
	v, err := ParseRank(string(b))
	if err != nil {
		return err
	}
	*r = v
	return nil
}

// Suit is a card suit in canonical order: clubs, diamonds, hearts, spades.
type Suit uint8

// The suits in canonical order.
const (
	Clubs Suit = iota
	Diamonds
	Hearts
	Spades
)

const suitChars = "cdhs"

// ParseSuit reads a suit character (c d h s).
func ParseSuit(s string) (Suit, error) {
	if len(s) == 1 {
		if i := strings.IndexByte(suitChars, s[0]); i >= 0 {
			return Suit(i), nil
		}
	}
	return 0, fmt.Errorf("bad suit %q: want one of c d h s", s)
}

// Valid reports whether s is one of the four suits.
func (s Suit) Valid() bool { return s <= Spades }

// String returns the suit's character.
func (s Suit) String() string {
	if !s.Valid() {
		return fmt.Sprintf("Suit(%d)", uint8(s))
	}
	return suitChars[s : s+1]
}

// Card is one playing card. Its value is its position in the canonical order (2c = 0 … As = 51),
// so comparing two cards compares them canonically.
type Card uint8

// NumCards is the number of cards in a full deck.
const NumCards = 52

// New returns the card of rank r and suit s.
func New(r Rank, s Suit) Card { return Card((uint8(r)-2)*4 + uint8(s)) }

// Parse reads a card written as rank then suit, e.g. "Ah" or "Tc".
func Parse(s string) (Card, error) {
	if len(s) != 2 {
		return 0, fmt.Errorf("bad card %q: want two characters, rank then suit, e.g. \"Ah\"", s)
	}
	r, err := ParseRank(s[:1])
	if err != nil {
		return 0, fmt.Errorf("bad card %q: %v", s, err)
	}
	su, err := ParseSuit(s[1:])
	if err != nil {
		return 0, fmt.Errorf("bad card %q: %v", s, err)
	}
	return New(r, su), nil
}

// MustParse is Parse for literals in tests and tables; it panics on a bad card.
func MustParse(s string) Card {
	c, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return c
}

// ParseList reads cards separated by spaces or commas, e.g. "Ah Kh Qh Jh Th" or "AhKhQhJhTh".
func ParseList(s string) ([]Card, error) {
	s = strings.NewReplacer(",", " ", "\t", " ").Replace(s)
	var out []Card
	for _, f := range strings.Fields(s) {
		if len(f) > 2 && len(f)%2 == 0 {
			for i := 0; i < len(f); i += 2 {
				c, err := Parse(f[i : i+2])
				if err != nil {
					return nil, err
				}
				out = append(out, c)
			}
			continue
		}
		c, err := Parse(f)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// Valid reports whether c is one of the 52 cards.
func (c Card) Valid() bool { return c < NumCards }

// Rank returns the card's rank.
func (c Card) Rank() Rank { return Rank(c/4 + 2) }

// Suit returns the card's suit.
func (c Card) Suit() Suit { return Suit(c % 4) }

// String returns the card as two characters, e.g. "Ah".
func (c Card) String() string {
	if !c.Valid() {
		return fmt.Sprintf("Card(%d)", uint8(c))
	}
	return c.Rank().String() + c.Suit().String()
}

// MarshalText implements encoding.TextMarshaler.
func (c Card) MarshalText() ([]byte, error) {
	if !c.Valid() {
		return nil, fmt.Errorf("invalid card %d", uint8(c))
	}
	return []byte(c.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (c *Card) UnmarshalText(b []byte) error {
	v, err := Parse(string(b))
	if err != nil {
		return err
	}
	*c = v
	return nil
}

// Join writes cards separated by sep, e.g. Join(hand, " ") = "Ah Kh Qh Jh Th".
func Join(cs []Card, sep string) string {
	var b strings.Builder
	for i, c := range cs {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(c.String())
	}
	return b.String()
}

// Set is a set of cards as a bit mask (bit i = card i).
type Set uint64

// SetOf returns the set holding cs.
func SetOf(cs ...Card) Set {
	var s Set
	for _, c := range cs {
		s |= 1 << c
	}
	return s
}

// Has reports whether c is in the set.
func (s Set) Has(c Card) bool { return s&(1<<c) != 0 }

// Add returns the set with c added.
func (s Set) Add(c Card) Set { return s | 1<<c }

// Remove returns the set without c.
func (s Set) Remove(c Card) Set { return s &^ (1 << c) }

// Len returns the number of cards in the set.
func (s Set) Len() int { return bits.OnesCount64(uint64(s)) }

// Cards returns the set's cards in canonical order.
func (s Set) Cards() []Card {
	return s.Append(make([]Card, 0, s.Len()))
}

// Append appends the set's cards to dst in canonical order and returns the extended slice.
func (s Set) Append(dst []Card) []Card {
	for x := uint64(s) & (1<<NumCards - 1); x != 0; x &= x - 1 {
		dst = append(dst, Card(bits.TrailingZeros64(x)))
	}
	return dst
}
