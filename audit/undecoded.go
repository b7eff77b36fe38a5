package audit

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
)

// This file is events-v1.md §8, "auditing a line that is not a valid event": such a line is a
// log.schema finding at its seq like any other, its envelope still counts for the sequence and the
// chain, and a field that cannot be read is treated as unknown, so that one bad field is one
// finding and not a cascade.

// Salvaged is what can still be read of a line that did not decode.
type Salvaged struct {
	// Event is the line's envelope (id, table, hand, seq, type, prev as far as they could be
	// read) with Raw the line itself. When Decoded, it is a whole event: the line with the
	// fields that could not be read left out.
	Event   *events.Event
	Decoded bool
	// JSON reports whether the line is JSON at all; when it is not, its seq is the previous
	// line's + 1, in the previous line's hand (§8).
	JSON bool
}

// envelope is the envelope of a line as encoding/json reads it, with everything else left raw.
type envelope struct {
	ID    string          `json:"id"`
	Table string          `json:"table"`
	Hand  string          `json:"hand"`
	Seq   *int64          `json:"seq"`
	At    string          `json:"at"`
	Type  string          `json:"type"`
	Prev  *string         `json:"prev"`
	Data  json.RawMessage `json:"data"`
}

var (
	reID   = regexp.MustCompile(`"id"\s*:\s*"([^"\\]*)"`)
	reHand = regexp.MustCompile(`"hand"\s*:\s*"([^"\\]*)"`)
	reSeq  = regexp.MustCompile(`"seq"\s*:\s*([1-9][0-9]{0,8})\b`)
	reType = regexp.MustCompile(`"type"\s*:\s*"([^"\\]*)"`)
)

// Salvage reads what it can of line, which failed to decode with err: the envelope when the line
// is JSON (or, cut short, still shows its hand and seq), and the whole event with the offending
// field (err's events.Error.Field) left out when that alone was wrong. prevHand, prevTable and
// prevSeq are the previous line's, for a line that is not JSON at all (§8: seq = previous + 1).
// It returns nil when nothing places the line: no hand can be read and there is no previous line.
func Salvage(line []byte, err error, prevHand, prevTable string, prevSeq events.Seq) *Salvaged {
	raw := line
	var env envelope
	if jerr := json.Unmarshal(line, &env); jerr == nil && env.Hand != "" && env.Seq != nil && *env.Seq > 0 {
		e := &events.Event{ID: env.ID, Table: env.Table, Hand: env.Hand, Seq: events.Seq(*env.Seq), At: env.At,
			Type: events.Type(env.Type), Raw: raw}
		if env.Prev != nil {
			e.Prev, e.HasPrev = *env.Prev, true
		}
		if d := lenient(line, err); d != nil {
			d.Raw = raw
			return &Salvaged{Event: d, Decoded: true, JSON: true}
		}
		return &Salvaged{Event: e, JSON: true}
	}
	get := func(re *regexp.Regexp) string {
		if m := re.FindSubmatch(line); m != nil {
			return string(m[1])
		}
		return ""
	}
	if hand, seq := get(reHand), get(reSeq); hand != "" && seq != "" {
		// Cut short, or otherwise broken JSON, but its place can be read. What it says of prev
		// cannot be trusted, but its bytes are what the next line of the hand must hash.
		n, _ := strconv.Atoi(seq)
		table := prevTable
		if hand != prevHand {
			table = ""
		}
		return &Salvaged{Event: &events.Event{ID: get(reID), Table: table, Hand: hand, Seq: events.Seq(n),
			Type: events.Type(get(reType)), Raw: raw}}
	}
	if prevHand == "" {
		return nil
	}
	return &Salvaged{Event: &events.Event{Table: prevTable, Hand: prevHand, Seq: prevSeq + 1, Raw: raw}}
}

// lenient decodes line with the field named by err left out, as an event of a hand whose room did
// not show that field (a card not seen, §4); nil when the line still does not decode, or err names
// no field.
func lenient(line []byte, err error) *events.Event {
	var ee *events.Error
	if !errors.As(err, &ee) || ee.Field == "" || !strings.HasPrefix(ee.Field, "data") {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil || !removePath(v, ee.Field) {
		return nil
	}
	fixed, jerr := json.Marshal(v)
	if jerr != nil {
		return nil
	}
	e, perr := events.Parse(fixed)
	if perr != nil {
		return nil
	}
	return e
}

// removePath deletes the member at path ("data.seats[1].card") from v, decoded JSON; false when
// there is none, or it is an element of an array (removing it would shift the others).
func removePath(v any, path string) bool {
	parts := strings.Split(path, ".")
	for i, part := range parts {
		name, idx := part, ""
		if k := strings.IndexByte(part, '['); k >= 0 {
			name, idx = part[:k], part[k:]
		}
		obj, ok := v.(map[string]any)
		if !ok {
			return false
		}
		if i == len(parts)-1 && idx == "" {
			if _, ok := obj[name]; !ok {
				return false
			}
			delete(obj, name)
			return true
		}
		v = obj[name]
		for idx != "" {
			end := strings.IndexByte(idx, ']')
			if end < 0 {
				return false
			}
			n, err := strconv.Atoi(idx[1:end])
			arr, ok := v.([]any)
			if err != nil || !ok || n < 0 || n >= len(arr) {
				return false
			}
			v, idx = arr[n], idx[end+1:]
		}
		if i == len(parts)-1 {
			return false
		}
	}
	return false
}

// AddUndecoded feeds a line of the log that did not decode, with the error that says why, and sum
// its SHA-256 (nil: computed here). It is reported as log.schema at its seq; its envelope takes its
// place in its hand's sequence and chain; when only a field was wrong the event is replayed with
// that field unknown, and otherwise the hand's play is not judged from that line on (its rules
// findings there would only echo the missing event).
func (a *Auditor) AddUndecoded(line []byte, sum *[sha256.Size]byte, err error) {
	s := Salvage(line, err, string(a.prevHand), string(a.prevTable), a.prevSeq)
	msg := fmt.Sprintf("this line is not a valid event: %v", err)
	if s == nil {
		a.emit(mk("", "", a.prevSeq+1, finding.LogSchema, 0, msg, nil, nil))
		return
	}
	e := s.Event
	fault := mk(e.Hand, e.Table, e.Seq, finding.LogSchema, 0, msg, nil, nil)
	if s.Decoded {
		a.AddSummed(e, sum)
		if p := a.open[e.Hand]; p != nil {
			p.faults = append(p.faults, fault)
		} else {
			a.emit(fault) // the hand ended with this line: its findings are out already
		}
		return
	}
	a.note(e)
	p := a.open[e.Hand]
	if p == nil && !a.chain.Ended(e.Hand) {
		p = a.openHand(e)
	}
	track := a.chain.TrackIDs
	a.chain.TrackIDs = track && e.ID != ""
	problems := a.chain.CheckSum(e, sum)
	a.chain.TrackIDs = track
	if p == nil {
		a.emit(fault)
		for _, pr := range problems {
			a.emit(finding.Finding{Hand: e.Hand, Table: e.Table, Seq: pr.Seq, Code: finding.Code(pr.Kind),
				Severity: finding.Code(pr.Kind).Severity(), Message: pr.Message})
		}
		return
	}
	if fault.Table == "" {
		fault.Table = p.table
	}
	p.faults = append(p.faults, fault)
	for _, pr := range problems {
		p.faults = append(p.faults, finding.Finding{Hand: e.Hand, Table: p.table, Seq: pr.Seq, Code: finding.Code(pr.Kind),
			Severity: finding.Code(pr.Kind).Severity(), Message: pr.Message})
	}
	if p.lost == 0 || e.Seq < p.lost {
		p.lost = e.Seq
	}
}

// note remembers the envelope of the line just fed, for a next line that is not JSON (§8). The
// copies reuse their memory: a long log costs no allocation here.
func (a *Auditor) note(e *events.Event) {
	a.prevHand = append(a.prevHand[:0], e.Hand...)
	a.prevTable = append(a.prevTable[:0], e.Table...)
	a.prevSeq = e.Seq
}

// AuditLines audits the JSON Lines log r (name for messages) as AuditReader does, but gives each
// line that does not decode to AddUndecoded with the line itself, so that its envelope and fields
// are read as §8 says. It returns the number of such lines.
func AuditLines(a *Auditor, r io.Reader, name string) (bad int, err error) {
	t := &lineTap{r: r, first: 1}
	rd := events.NewReader(t, name)
	for {
		e, err := rd.Next()
		if err == nil {
			a.AddRead(rd, e)
			t.forget(rd.Line())
			continue
		}
		if err == io.EOF {
			return bad, nil
		}
		if !errors.Is(err, events.ErrInvalid) {
			return bad, err
		}
		bad++
		a.AddUndecoded(t.line(rd.Line()), rd.LineSum(), err)
	}
}

// lineTap passes a reader's bytes on and keeps those of the lines not yet forgotten, so that the
// line of a decoding error can be had. events.Reader does not give it back; the copy is the
// price of reading it, until it does.
type lineTap struct {
	r     io.Reader
	buf   []byte // from the start of line first
	first int
}

func (t *lineTap) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	t.buf = append(t.buf, p[:n]...)
	return n, err
}

// forget drops the lines before line n once enough has piled up, moving the rest to the front.
func (t *lineTap) forget(n int) {
	if len(t.buf) < 1<<18 {
		return
	}
	rest := t.buf
	for t.first < n {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			break
		}
		rest = rest[i+1:]
		t.first++
	}
	t.buf = t.buf[:copy(t.buf, rest)]
}

// line returns line n (without its newline), or nil when it was forgotten.
func (t *lineTap) line(n int) []byte {
	if n < t.first {
		return nil
	}
	rest := t.buf
	for k := t.first; k < n; k++ {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			return nil
		}
		rest = rest[i+1:]
	}
	if i := bytes.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[:i]
	}
	return bytes.Clone(rest)
}
