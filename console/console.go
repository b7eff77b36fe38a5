// Package console owns the table console: the page of `fechado serve` at /console that a dealer's
// tablet or phone uses to record a live hand, and its API. The console logs in as the table's
// device (a table user of the roles auth file; the page once, then by an HttpOnly SameSite=Strict
// session cookie: session.go) and may append to its own table only; every event
// goes through the recorder's validated append (sequence, chain, de-duplication by id), and what
// it offers at each step comes from rules.Advise, so that it never offers an illegal action.
//
// Machine shuffles (hmac-sha256-fy-v1) are made by the console's server: it keeps each seed in
// memory until the hand reveals it, tells the page the commitment before the deal and the card on
// top at each deal, burn and draw, and gives the seed to the page for deck.revealed at the end.
// A device gets seeds only for a hand its own table has started (its hand.started stored), at a
// place still to come, and within bounds (seeds.go): the seeds are kept by table and hand.
//
// With Options.PlayerCards (serve --player-cards) it also serves a player's page of his own cards
// of the hand in progress, on his phone, opened by a link bound to his seat and hand (seat.go).
package console

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/explain"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/internal/webguard"
	"github.com/fechado/fechado/lang"
	"github.com/fechado/fechado/recorder"
	"github.com/fechado/fechado/roles"
	"github.com/fechado/fechado/rules"
)

//go:embed assets
var assets embed.FS

// maxEvent bounds the body of one posted event.
const maxEvent = 64 << 10

// Options configure a console.
type Options struct {
	// Log is the hand log the console appends to.
	Log *recorder.Log
	// Auth names the table devices that may log in (users of role table); nil lets nobody in.
	Auth *roles.Auth
	// SeedFile is where the console keeps the seeds of its machine shuffles until their hand
	// has ended, so that a restart of serve loses no hand's shuffle; "" keeps them in memory.
	SeedFile string
	// Offline is where the offline mode's files are served from (advise.wasm, the rules engine
	// compiled to WebAssembly, and Go's wasm_exec.js): nil serves those go generate put in
	// assets/offline, if any. Without them the console works online only.
	Offline fs.FS
	// Receipts says the log signs checkpoints (serve --sign-key): the console then links each
	// ended hand's receipt (GET /tlog/receipt/{hand}, docs/security.md §8), which the player
	// keeps and checks later.
	Receipts bool
	// PlayerCards lets each player see his own cards of the hand in progress on his own phone
	// (serve --player-cards, seat.go): the console offers a link and QR code for each seat.
	PlayerCards bool
	// SeatKey is the secret the players' links are signed with (LoadSeatKey); nil draws one that
	// lives as long as the console.
	SeatKey []byte
}

// PageCSP is the console page's Content-Security-Policy: webguard's, and WebAssembly compiled
// from the server's own file, for the rules engine the offline mode runs in the browser.
var PageCSP = webguard.WasmCSP

// Console is the table console's HTTP handler, to be mounted at /console/.
type Console struct {
	log      *recorder.Log
	auth     *roles.Authenticator // the table devices of the auth file
	sessions *sessions
	mux      http.Handler

	mu        sync.Mutex
	seeds     map[handKey]*handSeeds // machine shuffles, by table and hand, then the shuffle's seq
	nseeds    int                    // the seeds of c.seeds, all hands together
	maxSeeds  int                    // MaxSeeds (a test lowers it)
	seedFile  string
	seedLines int              // the lines of the seed file (seeds.go)
	now       func() time.Time // the clock SeedLife counts by
	receipts  bool             // Options.Receipts

	playerCards bool   // Options.PlayerCards
	seatKey     []byte // Options.SeatKey: the secret of the players' links (seat.go)

	devMu   sync.Mutex
	devices map[string]*deviceLog // the log as each device, by the device's name
}

// deviceLog is the log opened as one device, with the password it was opened with.
type deviceLog struct {
	password string
	log      *recorder.Log
}

// New returns the console over o.Log. An unreadable o.SeedFile is an error: the seeds of the
// hands in progress would be lost.
func New(o Options) (*Console, error) {
	c := &Console{log: o.Log, sessions: newSessions(), seeds: map[handKey]*handSeeds{}, seedFile: o.SeedFile, receipts: o.Receipts,
		devices: map[string]*deviceLog{}, now: time.Now, maxSeeds: MaxSeeds}
	if o.SeedFile != "" {
		if err := c.loadSeeds(o.Log); err != nil {
			return nil, fmt.Errorf("console: the seeds in %s: %w", o.SeedFile, err)
		}
	}
	c.playerCards, c.seatKey = o.PlayerCards, o.SeatKey
	if c.seatKey == nil {
		k, err := LoadSeatKey("")
		if err != nil {
			return nil, err
		}
		c.seatKey = k
	}
	devs := &roles.Auth{}
	if o.Auth != nil {
		for _, u := range o.Auth.Users {
			if u.Role == roles.Table {
				devs.Users = append(devs.Users, u)
			}
		}
	}
	c.auth = roles.NewAuthenticator(devs)
	m := http.NewServeMux()
	sub, _ := fs.Sub(assets, "assets")
	files := http.StripPrefix("/console/", http.FileServerFS(sub))
	m.HandleFunc("GET /console/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", PageCSP)
		http.ServeFileFS(w, r, sub, "console.html")
	})
	m.Handle("GET /console/assets/", http.StripPrefix("/console/assets/", http.FileServerFS(sub)))
	offline := o.Offline
	if offline == nil {
		offline, _ = fs.Sub(assets, "assets/offline")
	}
	m.Handle("GET /console/offline/", http.StripPrefix("/console/offline/", http.FileServerFS(offline)))
	// The console's words are the catalogue's console.* messages, served as the dashboard's.
	m.HandleFunc("GET /console/api/messages", lang.ServeMessages)
	m.HandleFunc("POST /console/login", c.login)
	m.HandleFunc("POST /console/logout", c.logout)
	m.HandleFunc("GET /console/api/presets", c.device(c.getPresets))
	m.HandleFunc("GET /console/api/device", c.device(c.getDevice))
	m.HandleFunc("GET /console/api/hands/{hand}", c.device(c.getHand))
	m.HandleFunc("GET /console/api/hands/{hand}/next", c.device(c.getNext))
	m.HandleFunc("POST /console/api/hands/{hand}/next", c.device(c.postNext))
	m.HandleFunc("POST /console/api/hands/{hand}/events", c.device(c.postEvent))
	m.HandleFunc("POST /console/api/hands/{hand}/shuffle", c.device(c.postShuffle))
	m.HandleFunc("GET /console/api/hands/{hand}/seats", c.device(c.getSeats))
	if o.PlayerCards {
		// A player's page of his own cards: no login, its capability in the address (seat.go).
		m.HandleFunc("GET /console/seat/{$}", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Cache-Control", "no-store")
			http.ServeFileFS(w, r, sub, "seat.html")
		})
		m.HandleFunc("GET /console/api/seat", c.getSeat)
	}
	m.Handle("/console/", files)
	c.mux = webguard.Secure(m)
	return c, nil
}

// Close closes the connections the console opened as its devices.
func (c *Console) Close() {
	c.devMu.Lock()
	defer c.devMu.Unlock()
	for name, d := range c.devices {
		d.log.Close()
		delete(c.devices, name)
	}
}

// appendAs appends e over the log's server as the device u, logged in with password: the server
// holds the connection to the device's permissions (roles.User.Permissions), so that an event of
// another table is refused by the server itself, whatever the console let through. The
// connection is opened at the device's first event and kept.
func (c *Console) appendAs(ctx context.Context, u roles.User, password string, e *events.Event) (recorder.Ack, error) {
	c.devMu.Lock()
	d := c.devices[u.Name]
	if d == nil || subtle.ConstantTimeCompare([]byte(d.password), []byte(password)) != 1 {
		if d != nil {
			d.log.Close()
			delete(c.devices, u.Name)
		}
		l, err := c.log.As(ctx, u.Name, password)
		if err != nil {
			c.devMu.Unlock()
			return recorder.Ack{}, err
		}
		d = &deviceLog{password: password, log: l}
		c.devices[u.Name] = d
	}
	c.devMu.Unlock()
	return d.log.Append(ctx, e)
}

// ServeHTTP implements http.Handler.
func (c *Console) ServeHTTP(w http.ResponseWriter, r *http.Request) { c.mux.ServeHTTP(w, r) }

// answer is the body of an error: a message key (console.<key> in the lang catalogue) and the
// detail (the recorder's reason, in its words).
type answer struct {
	Error  string `json:"error"`
	Detail string `json:"detail,omitempty"`
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

func fail(w http.ResponseWriter, code int, key, detail string) {
	writeJSON(w, code, answer{Error: key, Detail: detail})
}

func (c *Console) getDevice(w http.ResponseWriter, _ *http.Request, u roles.User) {
	writeJSON(w, http.StatusOK, map[string]any{"device": u.Name, "table": u.Table, "player_cards": c.playerCards})
}

// presetInfo is what the page shows of a preset: its limits, its forced bets and its remedies for
// exposed cards.
type presetInfo struct {
	Name       string `json:"name"`
	MinPlayers int    `json:"min_players"`
	MaxPlayers int    `json:"max_players"`
	Ante       bool   `json:"ante"`
	// Blinds: small and big blinds (online-draw); BlindRound: a betting round before the deal
	// (br-online). The page names the stakes after them.
	Blinds       bool           `json:"blinds"`
	BlindRound   bool           `json:"blind_round"`
	Declared     rules.Declared `json:"declared"`
	ExposedError bool           `json:"exposed_error"`
	MaxDraw      int            `json:"max_draw"`
	Structure    string         `json:"structure"`
	ExposedCut   rules.Remedy   `json:"exposed_cut"`
	ExposedDeal  rules.Remedy   `json:"exposed_deal"`
	ExposedDraw  rules.Remedy   `json:"exposed_draw"`
	BrokeDealt   bool           `json:"broke_dealt_in"`
}

func (c *Console) getPresets(w http.ResponseWriter, _ *http.Request, _ roles.User) {
	var out []presetInfo
	for _, n := range rules.Names() { // rules.Advise follows every preset from the shuffle to the end
		p, err := rules.Lookup(n)
		if err != nil {
			continue
		}
		out = append(out, presetInfo{Name: p.Name, MinPlayers: p.MinPlayers, MaxPlayers: p.MaxPlayers, Ante: p.Ante,
			MaxDraw: p.MaxDraw, Structure: string(p.Structure), ExposedCut: p.ExposedCut, ExposedDeal: p.ExposedDeal,
			ExposedDraw: p.ExposedDraw, BrokeDealt: p.BrokeDealtIn, Blinds: p.Blinds, BlindRound: p.BlindRound,
			Declared: p.Declared, ExposedError: p.ExposedError})
	}
	writeJSON(w, http.StatusOK, out)
}

// readHand returns the stored events of a hand of table, nil when none is stored.
func (c *Console) readHand(ctx context.Context, table, hand string) ([]*events.Event, error) {
	var evs []*events.Event
	err := c.log.ReadHand(ctx, table, hand, func(s recorder.Stored) error {
		evs = append(evs, s.Event)
		return nil
	})
	if errors.Is(err, recorder.ErrHandNotFound) {
		return nil, nil
	}
	return evs, err
}

// state is the console's view of a hand: its stored events and the advice for the next one.
type state struct {
	Events []json.RawMessage `json:"events"`
	Advice *advice           `json:"advice,omitempty"`
	// Warnings tell what the engine found so far, each a sentence in the reader's language
	// (package explain, as the desk tells findings); WarningCodes are their finding codes.
	Warning      []string `json:"warnings,omitempty"`
	WarningCodes []string `json:"warning_codes,omitempty"`
	// Head is the SHA-256 of the hand's last stored line: the prev of the next event, which the
	// page chains its events from when it records offline.
	Head string `json:"head,omitempty"`
	// Receipt is the path of an ended hand's receipt, when the log signs checkpoints.
	Receipt string `json:"receipt,omitempty"`
}

// advice is rules.Advice with what the console's machine shuffle adds: the card on top of the
// stub and the seed to reveal.
type advice struct {
	rules.Advice
	// Top is the card the next deal, burn or draw takes, when the console made the shuffle.
	Top *cards.Card `json:"Top,omitempty"`
	// StubLen is the number of cards in the stub (for the cut).
	StubLen int `json:"StubLen"`
	// Seed is the seed to reveal (StepReveal), when the console made the shuffle.
	Seed string `json:"Seed,omitempty"`
	// Commitments are the commitments of the hand's machine shuffles, shown before the deal.
	Commitments []string `json:"Commitments,omitempty"`
}

func (c *Console) stateOf(ctx context.Context, l *lang.Lang, table, hand string, evs []*events.Event) (state, error) {
	st := state{Events: make([]json.RawMessage, 0, len(evs))}
	for _, e := range evs {
		st.Events = append(st.Events, json.RawMessage(e.Raw))
	}
	if len(evs) > 0 {
		last := evs[len(evs)-1]
		st.Head = events.Hash(last.Raw)
		if c.receipts && last.Type == events.HandEndedType {
			st.Receipt = "/tlog/receipt/" + url.PathEscape(hand)
		}
	}
	if len(evs) == 0 {
		return st, nil
	}
	key := handKey{table, hand}
	seeds := c.seedsOf(key)
	blinds, err := c.blindsOf(ctx, table, evs)
	if err != nil {
		return st, err
	}
	a, h, err := rules.AdviseWith(evs, rules.Context{Seeds: seeds, Blinds: blinds})
	if err != nil {
		return st, err
	}
	ad := &advice{Advice: a, StubLen: h.StubSet().Len()}
	if a.MinOpen != "" {
		// What opens the pot, in the reader's words (the engine says it in English).
		ad.MinOpen = explain.MinOpen(l, h.Preset, h.Start.PassedOut)
	}
	if stub := h.Stub(); len(stub) > 0 {
		switch a.Step {
		case rules.StepDeal, rules.StepDraw, rules.StepBurn:
			top := stub[0]
			ad.Top = &top
		}
	}
	if a.Step == rules.StepReveal {
		if s, ok := seeds[a.Shuffle]; ok {
			ad.Seed = s.String()
		}
	}
	for _, e := range evs {
		if d, ok := e.Data.(*events.DeckShuffled); ok && d.Commitment != "" {
			ad.Commitments = append(ad.Commitments, d.Commitment)
		}
	}
	if a.Step == rules.StepDone && seeds != nil {
		// The hand has ended and revealed its seeds: the console forgets them.
		c.mu.Lock()
		err := c.forget(key)
		c.mu.Unlock()
		if err != nil {
			return st, err
		}
	}
	told, _ := explain.NewHand(evs)
	for _, v := range h.Violations {
		sev := v.Severity
		if sev == "" {
			sev = v.Code.Severity()
		}
		f := finding.Finding{Hand: hand, Table: table, Seq: v.Seq, Code: v.Code, Severity: sev, Seat: v.Seat,
			Message: v.Message, Expected: v.Expected, Actual: v.Actual}
		text := v.Message
		if told != nil {
			text = told.Explain(l, f).Sentence
		}
		st.Warning = append(st.Warning, text)
		st.WarningCodes = append(st.WarningCodes, string(v.Code))
	}
	st.Advice = ad
	return st, nil
}

// load reads a hand of table and its state, or answers the error and returns false.
func (c *Console) load(w http.ResponseWriter, r *http.Request, table, hand string) (state, bool) {
	evs, err := c.readHand(r.Context(), table, hand)
	if err != nil {
		fail(w, http.StatusServiceUnavailable, "err.store", err.Error())
		return state{}, false
	}
	st, err := c.stateOf(r.Context(), lang.FromRequest(r), table, hand, evs)
	if err != nil {
		fail(w, http.StatusUnprocessableEntity, "err.hand", err.Error())
		return state{}, false
	}
	return st, true
}

func (c *Console) getHand(w http.ResponseWriter, r *http.Request, u roles.User) {
	if st, ok := c.load(w, r, u.Table, r.PathValue("hand")); ok {
		writeJSON(w, http.StatusOK, st)
	}
}

// postEvent is POST /console/api/hands/{hand}/events: one event, appended as `fechado record`
// appends it, over a connection to the log's server as the device (appendAs). The device may
// append to its own table only (403): the console checks it, and the server refuses it again
// (err.denied) should the console ever let such an event through. An event the recorder refuses
// is answered with its reason (422 invalid, 409 another event holds its place) and nothing is
// written; an event already stored (the page resending after a lost connection) is skipped.
func (c *Console) postEvent(w http.ResponseWriter, r *http.Request, u roles.User) {
	hand := r.PathValue("hand")
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxEvent))
	if err != nil {
		fail(w, http.StatusRequestEntityTooLarge, "err.body", err.Error())
		return
	}
	e, err := events.Parse(body)
	if err != nil {
		fail(w, http.StatusUnprocessableEntity, "err.invalid", err.Error())
		return
	}
	if !mayWrite(w, u, e.Table, e.Hand) {
		return
	}
	if e.Hand != hand {
		fail(w, http.StatusUnprocessableEntity, "err.invalid", "the event names hand "+e.Hand)
		return
	}
	ack, err := c.appendAs(r.Context(), u, passwordOf(r), e)
	var he *recorder.HandError
	switch {
	case errors.Is(err, recorder.ErrPermissionDenied):
		fail(w, http.StatusForbidden, "err.denied", err.Error())
		return
	case errors.As(err, &he) && errors.Is(err, recorder.ErrSequenceConflict):
		fail(w, http.StatusConflict, "err.conflict", he.Err.Error())
		return
	case errors.As(err, &he):
		fail(w, http.StatusUnprocessableEntity, "err.invalid", he.Err.Error())
		return
	case err != nil:
		fail(w, http.StatusServiceUnavailable, "err.store", err.Error())
		return
	}
	st, ok := c.load(w, r, u.Table, hand)
	if !ok {
		return
	}
	writeJSON(w, http.StatusOK, struct {
		Skipped bool `json:"skipped"`
		state
	}{ack.Skipped, st})
}

// mayWrite reports whether device u may write to hand of table, else answers 403
// err.other-table: the decision the NATS server takes (roles.User.MayAppend), asked by each of the
// console's writes: an event (of the table and hand it names) and a machine shuffle (of the
// device's table and the hand of its path).
func mayWrite(w http.ResponseWriter, u roles.User, table, hand string) bool {
	if !u.MayAppend(table, hand) {
		fail(w, http.StatusForbidden, "err.other-table", "")
		return false
	}
	return true
}

// shuffleRequest asks for a machine shuffle at seq, of the whole deck or of the gathered cards.
type shuffleRequest struct {
	Seq   events.Seq   `json:"seq"`
	Cards []cards.Card `json:"cards"`
}

// postShuffle is POST /console/api/hands/{hand}/shuffle: the console's server draws a seed for
// the shuffle the page is about to record at seq and answers its commitment. Asked again for the
// same seq (a resend), it answers the same commitment.
//
// The device must be one that may write to the hand (mayWrite, as for an event), and the hand
// must be stored at the device's table: the page asks for a shuffle at the shuffle step, which
// the server advises once the hand's hand.started is stored, so a hand the table has not started,
// or another table's, gets 404 err.no-hand and no seed. The seq is a place still to come, from 2
// to MaxShuffleSeq (400 err.shuffle past it; 409 err.conflict for a place stored, err.shuffle
// after hand.ended). A table's hands that have not ended hold at most MaxTableSeeds seeds, and
// the console MaxSeeds in all (429 err.seeds); a hand's seeds are dropped SeedLife after its
// first shuffle (seeds.go).
func (c *Console) postShuffle(w http.ResponseWriter, r *http.Request, u roles.User) {
	hand := r.PathValue("hand")
	var req shuffleRequest
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxEvent)).Decode(&req); err != nil || req.Seq < 1 {
		fail(w, http.StatusBadRequest, "err.body", "")
		return
	}
	if !mayWrite(w, u, u.Table, hand) {
		return
	}
	if req.Seq > MaxShuffleSeq {
		fail(w, http.StatusBadRequest, "err.shuffle", fmt.Sprintf("seq %d is past the console's limit of %d", req.Seq, MaxShuffleSeq))
		return
	}
	evs, err := c.readHand(r.Context(), u.Table, hand)
	if err != nil {
		fail(w, http.StatusServiceUnavailable, "err.store", err.Error())
		return
	}
	if len(evs) == 0 {
		fail(w, http.StatusNotFound, "err.no-hand", "hand "+hand+" is not stored at table "+u.Table)
		return
	}
	key := handKey{u.Table, hand}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.expire(); err != nil {
		fail(w, http.StatusInternalServerError, "err.store", err.Error())
		return
	}
	if h := c.seeds[key]; h != nil {
		if seed, ok := h.seeds[req.Seq]; ok {
			writeJSON(w, http.StatusOK, map[string]string{"method": cards.ShuffleMethod, "commitment": seed.Commitment()})
			return
		}
	}
	switch {
	case evs[len(evs)-1].Type == events.HandEndedType:
		fail(w, http.StatusConflict, "err.shuffle", "the hand has ended")
		return
	case int(req.Seq) <= len(evs):
		fail(w, http.StatusConflict, "err.conflict", fmt.Sprintf("seq %d is stored (%s)", req.Seq, evs[req.Seq-1].Type))
		return
	}
	if n := c.tableSeeds(u.Table); n >= MaxTableSeeds {
		fail(w, http.StatusTooManyRequests, "err.seeds", fmt.Sprintf("table %s: %d of %d", u.Table, n, MaxTableSeeds))
		return
	}
	if c.nseeds >= c.maxSeeds {
		fail(w, http.StatusTooManyRequests, "err.seeds", fmt.Sprintf("the console: %d of %d", c.nseeds, c.maxSeeds))
		return
	}
	var seed cards.Seed
	if _, err := rand.Read(seed[:]); err != nil {
		fail(w, http.StatusInternalServerError, "err.store", err.Error())
		return
	}
	if err := c.addSeed(key, req.Seq, seed); err != nil {
		fail(w, http.StatusInternalServerError, "err.store", err.Error())
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"method": cards.ShuffleMethod, "commitment": seed.Commitment()})
}
