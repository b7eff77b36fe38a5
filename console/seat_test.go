package console_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/console"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/recorder/recordertest"
	"github.com/fechado/fechado/rules"
	"github.com/google/uuid"
)

// seatLinks asks the console, as mesa1, for the players' links of hand h (base: the page's
// origin), and returns each seat's link by seat.
func (e *env) seatLinks(h *hand, base string) (int, map[events.Seat]*url.URL) {
	e.t.Helper()
	var out struct {
		Seats []struct {
			Seat   events.Seat `json:"seat"`
			Player string      `json:"player"`
			Link   string      `json:"link"`
			QR     string      `json:"qr"`
		} `json:"seats"`
	}
	code := e.call("mesa1", "senha1", "GET", "/console/api/hands/"+h.id+"/seats?base="+url.QueryEscape(base), nil, &out)
	links := map[events.Seat]*url.URL{}
	for _, s := range out.Seats {
		u, err := url.Parse(s.Link)
		if err != nil {
			e.t.Fatal(err)
		}
		if !strings.HasPrefix(s.QR, "data:image/svg+xml;base64,") {
			e.t.Errorf("seat %d's QR code is %.40q, not an SVG image", s.Seat, s.QR)
		}
		links[s.Seat] = u
	}
	return code, links
}

// seatPage asks for a seat's page as the player's phone does, with no login: the fragment of a
// link gives the table, hand, seat and capability (k). It returns the status and the body.
func (e *env) seatPage(frag url.Values) (int, string) {
	e.t.Helper()
	q := url.Values{"t": {frag.Get("t")}, "h": {frag.Get("h")}, "s": {frag.Get("s")}}
	req, err := http.NewRequest("GET", e.ts.URL+"/console/api/seat?"+q.Encode(), nil)
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("X-Fechado-Seat", frag.Get("k"))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

func fragment(t *testing.T, u *url.URL) url.Values {
	t.Helper()
	v, err := url.ParseQuery(u.Fragment)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// cardsIn lists every card a seat's page answer names.
var cardField = regexp.MustCompile(`"card":"([^"]*)"`)

func cardsIn(body string) []string {
	var out []string
	for _, m := range cardField.FindAllStringSubmatch(body, -1) {
		out = append(out, m[1])
	}
	return out
}

// dealtTo returns the cards the stored events dealt to each seat, by phase.
func dealtTo(evs []*events.Event, phase events.Phase) map[events.Seat][]string {
	out := map[events.Seat][]string{}
	for _, ev := range evs {
		if d, ok := ev.Data.(*events.CardDealt); ok && d.Phase == phase && !d.Unknown {
			out[d.Seat] = append(out[d.Seat], d.Card.String())
		}
	}
	return out
}

// TestSeatShowsOwnCardsOnly (serve --player-cards, docs/security.md §10): a std-draw hand that
// seat 2 opens; each seat's link shows that seat's five cards and no other card; a seat's page
// asked with another seat's capability, another hand's, another table's or a made-up one answers
// 403 and names no card; after his draw the player's page shows the cards he threw and drew, and
// his hand now; once the hand has ended every link answers 410.
func TestSeatShowsOwnCardsOnly(t *testing.T) {
	e := newEnvWith(t, console.Options{Log: recordertest.OpenAuth(t, devices), Auth: devices, PlayerCards: true})
	h := &hand{table: "mesa-1", id: uuid.NewString()}
	var a answer
	e.call("mesa1", "senha1", "POST", "/console/api/hands/"+h.id+"/events", h.event(&events.HandStarted{Rules: events.Rules{Name: "std-draw"},
		Number: 1, Dealer: 1, Stakes: events.Stakes{Ante: 1, MinBet: 10, MaxBet: 20},
		Seats: []events.SeatStack{{Seat: 1, Player: "Ana", Stack: 100}, {Seat: 2, Player: "Beto", Stack: 100}, {Seat: 3, Player: "Caio", Stack: 100}}}), &a)
	// Dealt from seat 2 round the table: Beto (seat 2) holds a pair of jacks and opens.
	deal := []string{"Js", "Qs", "As", "Jh", "Qh", "Ah", "2c", "8c", "9c", "3d", "9d", "Td", "4s", "Ts", "5s"}
	draw := []string{"Kc", "Kd"}
	var links map[events.Seat]*url.URL
	var dealt map[events.Seat][]string
	checkedDraw := false
	a = e.playWith(h, a, func(a answer) events.Data {
		ad := a.Advice
		switch ad.Step {
		case rules.StepShuffle:
			n := 3
			return &events.DeckShuffled{Method: cards.PhysicalMethod, Count: &n}
		case rules.StepDeal:
			c := cards.MustParse(deal[0])
			deal = deal[1:]
			return &events.CardDealt{Seat: ad.Seat, Card: c, Phase: events.PhaseDeal}
		case rules.StepDraw:
			c := cards.MustParse(draw[0])
			draw = draw[1:]
			return &events.CardDealt{Seat: ad.Seat, Card: c, Phase: events.PhaseDraw}
		case rules.StepDiscard:
			if ad.Seat == 2 { // his 2♣ 3♦, chosen by their places in his hand on a hidden screen
				return &events.CardsDiscarded{Seat: 2, Cards: []cards.Card{cards.MustParse("2c"), cards.MustParse("3d")}}
			}
		case rules.StepAction:
			if links == nil { // the deal is done: every seat's page
				links, dealt = e.checkSeatsDealt(h, a)
			} else if !checkedDraw && len(dealtTo(a.stored(t), events.PhaseDraw)[2]) == 2 {
				checkedDraw = true
				e.checkSeatDrew(fragment(t, links[2]), dealt[2], []string{"Kc", "Kd"})
			}
		}
		return nil
	})
	if links == nil || !checkedDraw {
		t.Fatalf("the hand ended before the checks (links %v, the draw checked %v)", links != nil, checkedDraw)
	}
	// The hand has ended: the links expire with it.
	for s, u := range links {
		if code, body := e.seatPage(fragment(t, u)); code != http.StatusGone || len(cardsIn(body)) > 0 {
			t.Errorf("seat %d's link after the hand: %d %s, want 410", s, code, body)
		}
	}
	if code, _ := e.seatLinks(h, ""); code != http.StatusGone {
		t.Errorf("the links of an ended hand: %d, want 410", code)
	}
}

// checkSeatsDealt checks every seat's page after the deal of hand h (a the console's answer then)
// and forged capabilities, and returns the links and the cards dealt to each seat.
func (e *env) checkSeatsDealt(h *hand, a answer) (map[events.Seat]*url.URL, map[events.Seat][]string) {
	t := e.t
	t.Helper()
	code, links := e.seatLinks(h, "https://sala.example:8443")
	if code != http.StatusOK || len(links) != 3 {
		t.Fatalf("the seats' links: %d, %d links", code, len(links))
	}
	for s, u := range links {
		if u.Scheme != "https" || u.Host != "sala.example:8443" || u.Path != "/console/seat/" || u.RawQuery != "" {
			t.Errorf("seat %d's link %s: want https://sala.example:8443/console/seat/ with the capability in the fragment only", s, u)
		}
	}
	dealt := dealtTo(a.stored(t), events.PhaseDeal)
	for s := events.Seat(1); s <= 3; s++ {
		code, body := e.seatPage(fragment(t, links[s]))
		var page struct {
			Seat  events.Seat `json:"seat"`
			Dealt []struct {
				Card string `json:"card"`
				Name string `json:"name"`
			} `json:"dealt"`
		}
		if code != http.StatusOK || json.Unmarshal([]byte(body), &page) != nil {
			t.Fatalf("seat %d's page: %d %s", s, code, body)
		}
		var got []string
		for _, c := range page.Dealt {
			got = append(got, c.Card)
			if c.Name == "" {
				t.Errorf("seat %d's card %s has no name", s, c.Card)
			}
		}
		if page.Seat != s || !slices.Equal(got, dealt[s]) || len(got) != 5 {
			t.Errorf("seat %d's page shows seat %d's cards %v, want the five dealt to it %v", s, page.Seat, got, dealt[s])
		}
		for _, c := range cardsIn(body) {
			if !slices.Contains(dealt[s], c) {
				t.Errorf("seat %d's page names %s, a card not his", s, c)
			}
		}
	}
	// Capabilities that are not seat 2's of this hand: nothing.
	own, other := fragment(t, links[2]), fragment(t, links[3])
	forged := []byte(own.Get("k"))
	forged[3] ^= 1
	for name, f := range map[string]url.Values{
		"seat 3's capability for seat 2":       {"t": {"mesa-1"}, "h": {h.id}, "s": {"2"}, "k": {other.Get("k")}},
		"seat 2's capability for seat 3":       {"t": {"mesa-1"}, "h": {h.id}, "s": {"3"}, "k": {own.Get("k")}},
		"seat 2's capability, one bit changed": {"t": {"mesa-1"}, "h": {h.id}, "s": {"2"}, "k": {string(forged)}},
		"seat 2's capability at another table": {"t": {"mesa-2"}, "h": {h.id}, "s": {"2"}, "k": {own.Get("k")}},
		"seat 2's capability for another hand": {"t": {"mesa-1"}, "h": {"00000000-0000-4000-8000-000000000000"}, "s": {"2"}, "k": {own.Get("k")}},
		"no capability":                        {"t": {"mesa-1"}, "h": {h.id}, "s": {"2"}},
		"a made-up capability":                 {"t": {"mesa-1"}, "h": {h.id}, "s": {"2"}, "k": {strings.Repeat("A", 43)}},
	} {
		if code, body := e.seatPage(f); code != http.StatusForbidden || len(cardsIn(body)) > 0 || strings.Contains(body, "Beto") {
			t.Errorf("%s: %d %s, want 403 and nothing of the hand", name, code, body)
		}
	}
	return links, dealt
}

// checkSeatDrew checks a seat's page after his draw: two thrown, the cards drawn, his five
// cards now, and no card but his.
func (e *env) checkSeatDrew(frag url.Values, dealt, drawn []string) {
	t := e.t
	t.Helper()
	code, body := e.seatPage(frag)
	var page struct {
		Threw    int    `json:"threw"`
		Drew     bool   `json:"drew"`
		HandName string `json:"hand_name"`
		Drawn    []struct {
			Card string `json:"card"`
		} `json:"drawn"`
		Hand []struct {
			Card string `json:"card"`
		} `json:"hand"`
	}
	if code != http.StatusOK || json.Unmarshal([]byte(body), &page) != nil {
		t.Fatalf("the page after the draw: %d %s", code, body)
	}
	var got []string
	for _, c := range page.Drawn {
		got = append(got, c.Card)
	}
	if !page.Drew || page.Threw != 2 || !slices.Equal(got, drawn) {
		t.Errorf("after the draw the page shows %d thrown, drew %v %v; want 2 thrown and %v", page.Threw, page.Drew, got, drawn)
	}
	if len(page.Hand) != 5 || page.HandName == "" {
		t.Errorf("after the draw the page shows his hand %v named %q, want his five cards and their name", page.Hand, page.HandName)
	}
	mine := append(append([]string{}, dealt...), drawn...)
	for _, c := range cardsIn(body) {
		if !slices.Contains(mine, c) {
			t.Errorf("after the draw the page names %s, a card not his", c)
		}
	}
}

// TestSeatLinksOffByDefault: without Options.PlayerCards (serve without --player-cards) the
// console gives no link, and the players' pages and their API do not exist.
func TestSeatLinksOffByDefault(t *testing.T) {
	e := newEnv(t)
	h, first := start("mesa-1")
	var a answer
	e.call("mesa1", "senha1", "POST", "/console/api/hands/"+h.id+"/events", first, &a)
	if code, links := e.seatLinks(h, ""); code != http.StatusNotFound || len(links) > 0 {
		t.Errorf("the seats' links with the room's setting off: %d, %d links; want 404", code, len(links))
	}
	for _, p := range []string{"/console/api/seat?t=mesa-1&h=" + h.id + "&s=1", "/console/seat/"} {
		res, err := http.Get(e.ts.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s with the setting off: %d, want 404", p, res.StatusCode)
		}
	}
}

// TestSeatLinkBase: the links are made from the console page's own origin when it is an http or
// https origin, else from the request's host: a base that is a script, a path or has a user is
// not taken.
func TestSeatLinkBase(t *testing.T) {
	e := newEnvWith(t, console.Options{Log: recordertest.OpenAuth(t, devices), Auth: devices, PlayerCards: true})
	h, first := start("mesa-1")
	var a answer
	e.call("mesa1", "senha1", "POST", "/console/api/hands/"+h.id+"/events", first, &a)
	host := strings.TrimPrefix(e.ts.URL, "http://")
	for base, want := range map[string]string{
		"http://10.0.0.5:8080":        "10.0.0.5:8080",
		"javascript:alert(1)":         host,
		"https://evil.example/path":   host,
		"https://user@evil.example":   host,
		"":                            host,
		"https://sala.example/?x=1#y": host,
	} {
		_, links := e.seatLinks(h, base)
		if u := links[1]; u == nil || u.Host != want {
			t.Errorf("base %q: seat 1's link %v, want host %s", base, u, want)
		}
	}
}
