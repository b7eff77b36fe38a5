package recorder

import (
	"bytes"
	"encoding/json"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// fastPub publishes the Recorder's fast-path messages and hands each JetStream ack to a callback:
// what jetstream's PublishMsgAsync does, made for a publisher that has one message in flight per
// hand and millions of messages to send. Its acks come to one wildcard inbox subscription, keyed
// by a number in the reply subject; a clean ack is read by hand (parseAck) and only the others
// (errors) go through encoding/json; timeouts are found by one sweep a second instead of a timer
// a message. `fechado record` shares its CPU with the embedded server, and that per-message work
// was a large share of the client's part (BENCHMARKS.md, sixth session).
//
// The errors it reports are those PublishMsgAsync reports, so that the Recorder's slow path
// treats them the same: jetstream.ErrAsyncPublishTimeout, jetstream.ErrNoStreamResponse,
// nats.ErrDisconnected (the connection was lost with the message in flight), a *jetstream.APIError
// the server answered with, or jetstream.ErrInvalidJSAck.
type fastPub struct {
	nc      *nats.Conn
	prefix  string // reply subjects are prefix + a message's number
	timeout time.Duration
	onAck   func(j *handJob, seq uint64, duplicate bool)
	onErr   func(j *handJob, err error)

	sub    *nats.Subscription
	status chan nats.Status
	stop   chan struct{}
	wg     sync.WaitGroup

	mu      sync.Mutex
	next    uint64
	pending map[uint64]inFlight
}

// inFlight is a message waiting for its ack: its hand and when it was sent.
type inFlight struct {
	j    *handJob
	sent time.Time
}

// newFastPub subscribes to the acks' inbox and starts the sweeps; close stops them.
func newFastPub(nc *nats.Conn, timeout time.Duration, onAck func(*handJob, uint64, bool), onErr func(*handJob, error)) (*fastPub, error) {
	p := &fastPub{
		nc: nc, prefix: nc.NewInbox() + ".", timeout: timeout, onAck: onAck, onErr: onErr,
		stop: make(chan struct{}), pending: map[uint64]inFlight{},
	}
	sub, err := nc.Subscribe(p.prefix+"*", p.received)
	if err != nil {
		return nil, err
	}
	// Acks may pile up behind a busy callback, and the default limits would drop them (a slow
	// consumer); the Recorder's window already bounds how many can be in flight.
	if err := sub.SetPendingLimits(-1, -1); err != nil {
		_ = sub.Unsubscribe()
		return nil, err
	}
	p.sub = sub
	p.status = nc.StatusChanged(nats.RECONNECTING, nats.CLOSED)
	p.wg.Add(2)
	go p.sweep()
	go p.watch()
	return p, nil
}

// publish sends m for hand j, with a reply subject of its own. An error means m was not sent and
// nothing more will be said of it.
func (p *fastPub) publish(j *handJob, m *nats.Msg) error {
	p.mu.Lock()
	p.next++
	id := p.next
	p.pending[id] = inFlight{j: j, sent: time.Now()}
	p.mu.Unlock()
	m.Reply = p.prefix + strconv.FormatUint(id, 36)
	if err := p.nc.PublishMsg(m); err != nil {
		p.take(id)
		return err
	}
	return nil
}

// take removes and returns the hand of message id, if it is still waiting.
func (p *fastPub) take(id uint64) *handJob {
	p.mu.Lock()
	defer p.mu.Unlock()
	f, ok := p.pending[id]
	if !ok {
		return nil
	}
	delete(p.pending, id)
	return f.j
}

// received is the inbox subscription's handler: one ack (or status) at a time.
func (p *fastPub) received(m *nats.Msg) {
	if len(m.Subject) <= len(p.prefix) {
		return
	}
	id, err := strconv.ParseUint(m.Subject[len(p.prefix):], 36, 64)
	if err != nil {
		return
	}
	j := p.take(id)
	if j == nil {
		return // timed out already, or cut by a disconnection: the slow path has it
	}
	if len(m.Data) == 0 && m.Header.Get("Status") == "503" {
		p.onErr(j, jetstream.ErrNoStreamResponse)
		return
	}
	if seq, dup, ok := parseAck(m.Data); ok {
		p.onAck(j, seq, dup)
		return
	}
	var pa struct {
		Error *jetstream.APIError `json:"error"`
		jetstream.PubAck
	}
	switch {
	case json.Unmarshal(m.Data, &pa) != nil:
		p.onErr(j, jetstream.ErrInvalidJSAck)
	case pa.Error != nil:
		p.onErr(j, pa.Error)
	case pa.Stream == "":
		p.onErr(j, jetstream.ErrInvalidJSAck)
	default:
		p.onAck(j, pa.Sequence, pa.Duplicate)
	}
}

// sweep reports the messages that waited longer than the timeout, once a second (or once a
// timeout, when that is shorter).
func (p *fastPub) sweep() {
	defer p.wg.Done()
	every := min(time.Second, p.timeout)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case now := <-t.C:
			p.failAll(func(f inFlight) bool { return now.Sub(f.sent) >= p.timeout }, jetstream.ErrAsyncPublishTimeout)
		}
	}
}

// watch reports every message in flight as cut when the connection is lost (its ack may never
// come), as PublishMsgAsync does.
func (p *fastPub) watch() {
	defer p.wg.Done()
	for {
		select {
		case <-p.stop:
			return
		case s, ok := <-p.status:
			if !ok {
				return
			}
			p.failAll(func(inFlight) bool { return true }, nats.ErrDisconnected)
			if s == nats.CLOSED {
				return
			}
		}
	}
}

// failAll removes the messages in flight that match and reports err for each.
func (p *fastPub) failAll(match func(inFlight) bool, err error) {
	var failed []*handJob
	p.mu.Lock()
	for id, f := range p.pending {
		if match(f) {
			delete(p.pending, id)
			failed = append(failed, f.j)
		}
	}
	p.mu.Unlock()
	for _, j := range failed {
		p.onErr(j, err)
	}
}

// close stops receiving acks. The Recorder calls it once no message is in flight.
func (p *fastPub) close() {
	close(p.stop)
	p.nc.RemoveStatusListener(p.status)
	_ = p.sub.Unsubscribe()
	p.wg.Wait()
}

// parseAck reads a clean JetStream ack in the layout nats-server writes it,
// {"stream":"NAME","seq":N} or {"stream":"NAME","seq":N,"duplicate": true}, without allocating.
// ok is false for anything else (an error, a domain, a batch, another layout), which the caller
// decodes with encoding/json: parseAck never accepts what encoding/json would read differently.
func parseAck(b []byte) (seq uint64, duplicate, ok bool) {
	const head, seqKey = `{"stream":"`, `","seq":`
	if !bytes.HasPrefix(b, []byte(head)) {
		return 0, false, false
	}
	b = b[len(head):]
	// A stream's name holds no quote, backslash or control byte (nats-server refuses them).
	n := 0
	for n < len(b) && b[n] != '"' {
		if c := b[n]; c == '\\' || c < 0x20 || c >= 0x80 {
			return 0, false, false
		}
		n++
	}
	if n == 0 || !bytes.HasPrefix(b[n:], []byte(seqKey)) {
		return 0, false, false
	}
	b = b[n+len(seqKey):]
	digits := 0
	for digits < len(b) && b[digits] >= '0' && b[digits] <= '9' {
		seq = seq*10 + uint64(b[digits]-'0')
		digits++
	}
	// At most 19 digits, which cannot overflow a uint64; no leading zero, which JSON forbids.
	if digits == 0 || digits > 19 || digits > 1 && b[0] == '0' {
		return 0, false, false
	}
	switch rest := b[digits:]; {
	case string(rest) == "}":
		return seq, false, true
	case string(rest) == `,"duplicate": true}`, string(rest) == `,"duplicate":true}`:
		return seq, true, true
	}
	return 0, false, false
}
