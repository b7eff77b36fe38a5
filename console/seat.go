package console

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strconv"

	"rsc.io/qr"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/explain"
	"github.com/fechado/fechado/lang"
	"github.com/fechado/fechado/replay"
	"github.com/fechado/fechado/roles"
)

// A player's own cards on his own device (serve --player-cards, docs/security.md §10). With a
// machine shuffle and the cards hidden, the dealer's tablet shows counts, not faces; the console
// then offers, for each seat of the hand in progress, a link (and its QR code) that the player
// opens on his phone: a page that shows that seat's cards of this hand and his draw, and nothing
// of anyone else's, with no login.
//
// The link carries a capability: HMAC-SHA-256, under a secret of the server's (Options.SeatKey),
// of the table, the hand and the seat. It cannot be guessed or made for another seat or hand
// without the secret, it lets its holder read and never write, and it expires with the hand: once
// the hand has ended the seat's page answers 410 (its cards are then the dashboard's, public).
// It travels in the address's fragment, which the browser sends to no server and to no page it
// links to; the page gives it to the API in a header. What the seat's page is answered is
// computed from the seat's view of the hand (seatView): his own events as stored, everyone
// else's as a spectator sees them (events.Public), so a card he may not see is never in it.

// seatTokenHeader carries a seat's capability to GET /console/api/seat.
const seatTokenHeader = "X-Fechado-Seat"

// seatKeyLen is the length of the secret the capabilities are signed with.
const seatKeyLen = 32

// LoadSeatKey returns the secret of the players' links kept in path, creating it (random,
// readable by its owner only) when the file does not exist: the links survive a restart of
// serve. "" returns a new secret that lives as long as the process.
func LoadSeatKey(path string) ([]byte, error) {
	if path != "" {
		b, err := os.ReadFile(path)
		switch {
		case err == nil && len(b) == seatKeyLen:
			return b, nil
		case err == nil:
			return nil, fmt.Errorf("console: %s holds %d bytes, not a %d-byte secret", path, len(b), seatKeyLen)
		case !errors.Is(err, os.ErrNotExist):
			return nil, fmt.Errorf("console: %w", err)
		}
	}
	key := make([]byte, seatKeyLen)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	if path != "" {
		if err := os.WriteFile(path, key, 0o600); err != nil {
			return nil, fmt.Errorf("console: %w", err)
		}
	}
	return key, nil
}

// seatToken is the capability of seat in hand of table.
func (c *Console) seatToken(table, hand string, seat events.Seat) string {
	m := hmac.New(sha256.New, c.seatKey)
	// Names and hand ids never hold a NUL (roles.ValidName, events' ids), so the fields cannot
	// run into one another.
	fmt.Fprintf(m, "fechado seat v1\x00%s\x00%s\x00%d", table, hand, seat)
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// seatAllowed reports whether tok is the capability of seat in hand of table, in constant time.
func (c *Console) seatAllowed(table, hand string, seat events.Seat, tok string) bool {
	return hmac.Equal([]byte(c.seatToken(table, hand, seat)), []byte(tok))
}

// seatLink is the address of a seat's page, relative to the server: the capability and what it
// is bound to in the fragment.
func (c *Console) seatLink(table, hand string, seat events.Seat) string {
	v := url.Values{"t": {table}, "h": {hand}, "s": {strconv.Itoa(int(seat))}, "k": {c.seatToken(table, hand, seat)}}
	return "/console/seat/#" + v.Encode()
}

// seatView is the hand evs as the player in seat may see it while it is in progress: his own
// cards dealt and thrown as stored, everything else as a spectator sees it (events.Public). No
// event keeps prev, which would let a hidden card of the line before be found by trying the 52.
func seatView(evs []*events.Event, seat events.Seat) []*events.Event {
	out := make([]*events.Event, 0, len(evs))
	for _, e := range evs {
		own := false
		switch d := e.Data.(type) {
		case *events.CardDealt:
			own = d.Seat == seat
		case *events.CardsDiscarded:
			own = d.Seat == seat
		}
		if own {
			out = append(out, events.Unsealed(e, e.Data))
		} else if v, ok := events.Public(e); ok {
			out = append(out, v)
		}
	}
	return out
}

// seatCard is a card of a seat's page, with its name in the reader's language (for a screen
// reader, and for a player who reads "ás de copas" more surely than a small symbol).
type seatCard struct {
	Card cards.Card `json:"card"`
	Name string     `json:"name"`
}

// seatCards is what a player's page shows: his seat in the hand and his own cards.
type seatCards struct {
	Table  string      `json:"table"`
	Number int         `json:"number"`
	Seat   events.Seat `json:"seat"`
	Player string      `json:"player"`
	// Stage is the hand's stage (replay.State's); Folded says he is out of the hand.
	Stage  string `json:"stage"`
	Folded bool   `json:"folded"`
	// Dealt are the cards dealt to him in the deal, in order (since the last misdeal).
	Dealt []seatCard `json:"dealt"`
	// Thrown are the cards he threw, where the dealer recorded their faces; Threw how many he
	// threw; Drew is set once he has drawn; Drawn are the cards he drew.
	Thrown []seatCard `json:"thrown"`
	Threw  int        `json:"threw"`
	Drew   bool       `json:"drew"`
	Drawn  []seatCard `json:"drawn"`
	// Hand is his five cards now, when the log knows all five, and HandName their name.
	Hand     []seatCard `json:"hand"`
	HandName string     `json:"hand_name,omitempty"`
	// Seq is the last event of the hand, so the page sees that something changed.
	Seq events.Seq `json:"seq"`
}

// seatCardsOf computes a seat's page, in l, from the seat's view of the hand (seatView) only.
func seatCardsOf(l *lang.Lang, view []*events.Event, seat events.Seat) (seatCards, bool) {
	st, err := replay.At(view, 0)
	if err != nil {
		return seatCards{}, false
	}
	named := func(cs []cards.Card) []seatCard {
		out := make([]seatCard, 0, len(cs))
		for _, c := range cs {
			out = append(out, seatCard{Card: c, Name: explain.Words(l, c)})
		}
		return out
	}
	out := seatCards{Table: st.Table, Number: st.Number, Seat: seat, Stage: st.Stage, Seq: st.Last}
	var dealt, thrown, drawn, hand []cards.Card
	found := false
	for _, s := range st.Seats {
		if s.Seat != seat {
			continue
		}
		found = true
		out.Player, out.Drew = s.Player, s.Drew
		out.Folded = s.Status == replay.StatusFolded || s.Status == replay.StatusMucked
		if s.Hidden == 0 && len(s.Cards) == 5 {
			hand = s.Cards
		}
	}
	if !found {
		return seatCards{}, false
	}
	for _, e := range view {
		switch d := e.Data.(type) {
		case *events.MisdealDeclared:
			dealt, thrown, drawn, out.Threw = nil, nil, nil, 0
		case *events.CardDealt:
			if d.Seat != seat || d.Unknown {
				continue
			}
			if d.Phase == events.PhaseDraw {
				drawn = append(drawn, d.Card)
			} else {
				dealt = append(dealt, d.Card)
			}
		case *events.CardsDiscarded:
			if d.Seat != seat {
				continue
			}
			thrown = append(thrown, d.Cards...)
			out.Threw += len(d.Cards)
			if len(d.Cards) == 0 && d.Declared != nil {
				out.Threw += *d.Declared
			}
		}
	}
	out.Dealt, out.Thrown, out.Drawn, out.Hand = named(dealt), named(thrown), named(drawn), named(hand)
	if len(hand) == 5 {
		if h, err := explain.NewHand(view); err == nil {
			out.HandName = h.HandName(l, hand)
		}
	}
	return out, true
}

// getSeat is GET /console/api/seat?t=TABLE&h=HAND&s=SEAT with the seat's capability in the
// X-Fechado-Seat header: the seat's cards of the hand in progress. A capability that is not that
// seat's (another seat's, another hand's, made up) is 403 with nothing said of the hand; a hand
// not stored 404; an ended hand 410 err.seat-over.
func (c *Console) getSeat(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	q := r.URL.Query()
	table, hand := q.Get("t"), q.Get("h")
	n, err := strconv.Atoi(q.Get("s"))
	seat := events.Seat(n)
	if err != nil || n < 1 || table == "" || hand == "" || !c.seatAllowed(table, hand, seat, r.Header.Get(seatTokenHeader)) {
		fail(w, http.StatusForbidden, "err.seat-link", "")
		return
	}
	evs, err := c.readHand(r.Context(), table, hand)
	if err != nil {
		fail(w, http.StatusServiceUnavailable, "err.store", "")
		return
	}
	if len(evs) == 0 || evs[0].Table != table {
		fail(w, http.StatusNotFound, "err.seat-link", "")
		return
	}
	if evs[len(evs)-1].Type == events.HandEndedType {
		fail(w, http.StatusGone, "err.seat-over", "")
		return
	}
	out, ok := seatCardsOf(lang.FromRequest(r), seatView(evs, seat), seat)
	if !ok {
		fail(w, http.StatusNotFound, "err.seat-link", "")
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// seatLinkInfo is a seat's link as the console's page shows it to its player.
type seatLinkInfo struct {
	Seat   events.Seat `json:"seat"`
	Player string      `json:"player"`
	// Link is the address of the seat's page; QR its QR code, an SVG image as a data: URL.
	Link string `json:"link"`
	QR   string `json:"qr"`
}

// getSeats is GET /console/api/hands/{hand}/seats?base=ORIGIN, for the table's device: the link
// of each seat of its hand in progress, absolute from base (the page's own origin, as the players'
// phones reach the server), with its QR code. 404 err.seat-off when the room does not give
// players their cards, 410 err.seat-over once the hand has ended.
func (c *Console) getSeats(w http.ResponseWriter, r *http.Request, u roles.User) {
	w.Header().Set("Cache-Control", "no-store")
	if !c.playerCards {
		fail(w, http.StatusNotFound, "err.seat-off", "")
		return
	}
	hand := r.PathValue("hand")
	evs, err := c.readHand(r.Context(), u.Table, hand)
	if err != nil {
		fail(w, http.StatusServiceUnavailable, "err.store", err.Error())
		return
	}
	if len(evs) == 0 {
		fail(w, http.StatusNotFound, "err.hand", "")
		return
	}
	if evs[len(evs)-1].Type == events.HandEndedType {
		fail(w, http.StatusGone, "err.seat-over", "")
		return
	}
	hs, ok := evs[0].Data.(*events.HandStarted)
	if !ok {
		fail(w, http.StatusUnprocessableEntity, "err.hand", "")
		return
	}
	base := originOf(r)
	out := []seatLinkInfo{}
	for _, s := range hs.Seats {
		link := base + c.seatLink(u.Table, hand, s.Seat)
		code, err := qrSVG(link)
		if err != nil {
			fail(w, http.StatusInternalServerError, "err.store", err.Error())
			return
		}
		out = append(out, seatLinkInfo{Seat: s.Seat, Player: s.Player, Link: link, QR: code})
	}
	writeJSON(w, http.StatusOK, map[string]any{"seats": out})
}

// originOf is the origin the players' phones reach the server at: ?base= when it is an http or
// https origin (the console's page gives its own: behind a proxy the server cannot tell), else
// the request's host.
func originOf(r *http.Request) string {
	if b, err := url.Parse(r.URL.Query().Get("base")); err == nil && (b.Scheme == "http" || b.Scheme == "https") &&
		b.Host != "" && (b.Path == "" || b.Path == "/") && b.RawQuery == "" && b.Fragment == "" && b.User == nil {
		return b.Scheme + "://" + b.Host
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// qrSVG draws text as a QR code (error correction M), an SVG image as a data: URL: one path of
// unit squares, four modules of quiet zone around.
func qrSVG(text string) (string, error) {
	code, err := qr.Encode(text, qr.M)
	if err != nil {
		return "", err
	}
	const quiet = 4
	n := code.Size + 2*quiet
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" shape-rendering="crispEdges"><rect width="%d" height="%d" fill="#fff"/><path fill="#000" d="`, n, n, n, n)
	for y := range code.Size {
		for x := range code.Size {
			if code.Black(x, y) {
				fmt.Fprintf(&b, "M%d %dh1v1h-1z", x+quiet, y+quiet)
			}
		}
	}
	b.WriteString(`"/></svg>`)
	return "data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString(b.Bytes()), nil
}
