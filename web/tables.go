package web

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/projector"
	"github.com/fechado/fechado/replay"
)

// TableView is a table's public live state in the API.
type TableView struct {
	Table      string      `json:"table"`
	Hand       string      `json:"hand"`
	Number     int         `json:"number"`
	Preset     string      `json:"preset"`
	Dealer     events.Seat `json:"dealer"`
	Stage      string      `json:"stage"`
	Round      string      `json:"round"`
	ToAct      events.Seat `json:"to_act"`
	Pot        int64       `json:"pot"`
	Carry      int64       `json:"carry"`
	Commitment string      `json:"commitment,omitempty"`
	Seq        int         `json:"seq"`
	At         string      `json:"at"`
	Seats      []SeatView  `json:"seats"`
	// Away lists the players seated with chips who are not dealt in (events-v1.md §7).
	Away []replay.Away `json:"away"`
	// Live is false for a table known from the read models only (no hand seen since start).
	Live bool `json:"live"`
	// Hands and HandsEnded count the table's hands in the read models.
	Hands      int `json:"hands"`
	HandsEnded int `json:"hands_ended"`
}

// SeatView is a seat of TableView: public information only.
type SeatView struct {
	Seat    events.Seat `json:"seat"`
	Player  string      `json:"player"`
	Stack   int64       `json:"stack"`
	InFront int64       `json:"in_front"`
	InPot   int64       `json:"in_pot"`
	Cards   int         `json:"cards"`
	Folded  bool        `json:"folded"`
	AllIn   bool        `json:"all_in"`
	Drawn   int         `json:"drawn"`
	Exposed []string    `json:"exposed"`
	Openers []string    `json:"openers"`
	Shown   []string    `json:"shown"`
	Won     int64       `json:"won"`
}

func cardStrings[T interface{ String() string }](cs []T) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.String()
	}
	return out
}

func tableView(t projector.TableState) TableView {
	v := TableView{Table: t.Table, Hand: t.Hand, Number: t.Number, Preset: t.Preset, Dealer: t.Dealer,
		Stage: t.Stage.String(), Round: string(t.Round), ToAct: t.ToAct, Pot: int64(t.Pot), Carry: int64(t.Carry),
		Commitment: t.Commitment, Seq: int(t.Seq), At: t.At, Seats: []SeatView{}, Away: replay.AwayOf(t.Away), Live: true}
	for _, s := range t.Seats {
		v.Seats = append(v.Seats, SeatView{Seat: s.Seat, Player: s.Player, Stack: int64(s.Stack),
			InFront: int64(s.InFront), InPot: int64(s.InPot), Cards: s.Cards, Folded: s.Folded, AllIn: s.AllIn,
			Drawn: s.Drawn, Exposed: cardStrings(s.Exposed), Openers: cardStrings(s.Openers),
			Shown: cardStrings(s.Shown), Won: int64(s.Won)})
	}
	return v
}

// getTables is GET /api/tables: every table, live state where the server has seen its hand.
//
// Every table system's tables are polled here, a quarter of a room's reads: the answer is kept
// (tablesCache) and built again only when Live or the read models moved since, each table's part
// encoded again only when that table changed. It carries an ETag, and a client that sends it
// back in If-None-Match gets 304 Not Modified while nothing changed.
func (s *Server) getTables(w http.ResponseWriter, r *http.Request) {
	body, etag, err := s.tables.answer(r.Context(), s)
	if err != nil {
		storeError(w, err)
		return
	}
	h := w.Header()
	h.Set("ETag", etag)
	h.Set("Cache-Control", "no-cache") // public state: a client may keep it, and asks again each time
	if match := r.Header.Get("If-None-Match"); match != "" && etagMatches(match, etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	w.Write(body)
}

// etagMatches reports whether an If-None-Match header names etag (or is "*").
func etagMatches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == etag {
			return true
		}
	}
	return false
}

// tablesCache keeps the answer of GET /api/tables. Its key is what the answer is built from:
// Live's version and the count of the projector's commits (the tables' rows of the read models
// change only at a commit of the projector, serve's one writer of them). The key is read before
// the answer is built, so an answer kept under a key is never older than the key says. A new
// answer copies out of Live and encodes again only the tables that changed (a room of a thousand
// tables changes a few between two answers).
type tablesCache struct {
	mu    sync.Mutex
	nonce string // this process's: an ETag of an earlier run never matches
	key   [2]uint64
	built bool
	body  []byte
	etag  string
	// parts holds each table's encoded TableView with what it was built from.
	parts map[string]tablePart
	// rows are the tables' rows of the read models at commit count rowsAt, by table id.
	rows   map[string]projector.TableRow
	rowsAt uint64
	rowsOK bool
}

// tablePart is a table's part of the answer: its JSON and what it was built from (Live's version
// of the table when live; else its row's last hand and preset) with its row's counts.
type tablePart struct {
	live         bool
	version      uint64
	hand, preset string
	hands, ended int
	json         []byte
}

func newTablesCache() *tablesCache {
	return &tablesCache{nonce: strconv.FormatInt(time.Now().UnixNano(), 36), parts: map[string]tablePart{}}
}

// answer returns the body of GET /api/tables and its ETag.
func (c *tablesCache) answer(ctx context.Context, s *Server) ([]byte, string, error) {
	key := [2]uint64{s.live.Version(), s.commits.Load()}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.built && c.key == key {
		return c.body, c.etag, nil
	}
	if !c.rowsOK || c.rowsAt != key[1] {
		rows, err := projector.Tables(ctx, s.db)
		if err != nil {
			return nil, "", err
		}
		c.rows = make(map[string]projector.TableRow, len(rows))
		for _, r := range rows {
			c.rows[r.Table] = r
		}
		c.rowsAt, c.rowsOK = key[1], true
	}
	live, changed := s.live.TablesIf(func(id string, version uint64) bool {
		p, ok := c.parts[id]
		r := c.rows[id]
		return !ok || !p.live || p.version != version || p.hands != r.Hands || p.ended != r.HandsEnded
	})
	ids := make([]string, 0, len(live)+len(c.rows))
	versions := make(map[string]uint64, len(live))
	for _, t := range live {
		ids = append(ids, t.Table)
		versions[t.Table] = t.Version
	}
	for id := range c.rows {
		if _, ok := versions[id]; !ok {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	var buf bytes.Buffer
	buf.Grow(len(c.body) + 4096)
	buf.WriteString(`{"tables":[`)
	parts := make(map[string]tablePart, len(ids))
	for i, id := range ids {
		r, hasRow := c.rows[id]
		old, had := c.parts[id]
		var p tablePart
		var v TableView
		encode := true
		if version, ok := versions[id]; ok {
			p = tablePart{live: true, version: version, hands: r.Hands, ended: r.HandsEnded}
			if t, ok := changed[id]; ok {
				v = tableView(t)
			} else {
				encode, p.json = false, old.json // TablesIf found it as it was built
			}
		} else {
			p = tablePart{hand: r.LastHand, preset: r.Preset, hands: r.Hands, ended: r.HandsEnded}
			if had && !old.live && old.hand == p.hand && old.preset == p.preset && old.hands == p.hands && old.ended == p.ended {
				encode, p.json = false, old.json
			} else {
				v = TableView{Table: id, Preset: r.Preset, Hand: r.LastHand, Seats: []SeatView{}}
			}
		}
		if encode {
			if hasRow {
				v.Hands, v.HandsEnded = r.Hands, r.HandsEnded
			}
			b, err := marshalJSON(v)
			if err != nil {
				return nil, "", err
			}
			p.json = b
		}
		parts[id] = p
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.Write(p.json)
	}
	buf.WriteString("]}\n")
	c.parts, c.key, c.built, c.body = parts, key, true, buf.Bytes()
	c.etag = `"` + c.nonce + "-" + strconv.FormatUint(key[0], 36) + "-" + strconv.FormatUint(key[1], 36) + `"`
	return c.body, c.etag, nil
}

// marshalJSON encodes v as writeJSON does, without the newline.
func marshalJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
