// Package projector owns fechado's SQLite read models: it reads the event log from a Source and
// keeps tables, hands, per-player hand rows, actions, draws, pots, awards and a quarantine of
// events it could not apply, so that the dashboard and sqlite3 can query them; it is the one
// auditor of a running system: every hand is audited once, at its hand.ended, against what its
// table's last hand left (table_memory), and every finding is stored with expected and actual;
// the hands of a tournament also go through the tournament model, whose tournament.* findings
// are stored with the hand's and whose tournaments, tables, levels, moves, knock-outs and
// standings are kept (tournament.go); it computes the draw-poker statistics over them (PlayerStats, OpenByPosition), answers the read
// API the web renders (read.go), and keeps Live, the public state of hands in progress. It keeps
// each finished hand's stored lines too, byte for byte, so that a hand is read by its id from the
// read models instead of the log when they hold it complete (ReadHand, handcopy.go).
//
// Exactly once. Each batch of events (DefaultBatchSize per transaction) is written with the
// stream sequence it reached, in one SQLite transaction: a crash at any point leaves the rows and
// the checkpoint of the last commit, and the projector resumes after that checkpoint, so no row is
// lost or repeated. Rows of single events are keyed by stream sequence.
//
// Hands in progress. Events of one hand interleave with other hands in the stream. The projector
// keeps the events of each open hand in memory and writes the per-hand aggregates (hands,
// hand_players, pots, findings) when hand.ended arrives, in the same transaction. The memory is not
// stored: after a restart the projector reads the stream again from the hand.started of the
// oldest hand still open (hands.end_seq IS NULL), applying to memory only the events of those
// hands up to the checkpoint, and writing nothing for them. This costs nothing per event; the
// price is that a hand that never ends makes every restart re-read the stream from its start.
package projector

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/fechado/fechado/audit"
	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/events/handorder"
	"github.com/fechado/fechado/finding"
)

// DefaultBatchSize is how many stream messages a projector writes per transaction. Each commit
// writes to the WAL again the last, partly filled page of every B-tree a hand adds to: batches of
// 2,000 messages (about 70 hands) write a third fewer bytes a hand than batches of 500, and
// project a tenth faster (BENCHMARKS.md, twelfth session). Readers see a batch at its commit; a
// projector following a live stream commits whenever it has caught up, whatever the size.
const DefaultBatchSize = 2000

// DefaultName is the checkpoint row of a projector without a Name.
const DefaultName = "read-models"

// ErrOtherProjector is returned when the database's read models are kept by a projector of
// another Name: two projectors cannot share the tables.
var ErrOtherProjector = errors.New("projector: the database is kept by a projector of another name")

// ErrCheckpointMoved is returned when the checkpoint in the database is not the one the
// projector wrote last: another projector writes the same database.
var ErrCheckpointMoved = errors.New("projector: checkpoint moved under the projector (another projector writes this database?)")

// Projector projects the event log into the read models of a database opened with Open. It is
// not safe for concurrent use: one goroutine calls CatchUp or Run.
type Projector struct {
	DB     *sql.DB
	Source Source
	// Name is the checkpoint row; "" means DefaultName. Every projector of one database must
	// use the same Name (the tables are one set); another name gets ErrOtherProjector.
	Name string
	// BatchSize is the number of messages per transaction; 0 means DefaultBatchSize.
	BatchSize int
	// Live, when set, receives every event the projector accepted, after its commit.
	Live *Live
	// Audit audits each hand at hand.ended; nil means audit.HandAfter, the auditor. Its
	// findings go to the findings table and hands.audit_status, what it leaves for the table's
	// next hand to table_memory, in the transaction of the hand.ended.
	Audit AuditFunc
	// OnAudit, when set, receives what each stream message gave the auditor to find (a hand
	// audited, or a stray event's finding), after the commit that stored it: once, however
	// often the projector restarts.
	OnAudit func(Audited)
	// OnCommit, when set, receives after each commit what the call of CatchUp has committed so
	// far, its Checkpoint the stream sequence reached: the progress of a long catch-up.
	OnCommit func(Progress)
	// GroupCommit is how long Run, following a live log through a Follower, keeps a batch open
	// once caught up, for the events that come next (a commit of a few events at a time is most
	// of a live projector's cost); 0 means DefaultGroupCommit, a negative value commits as soon
	// as the projector has caught up.
	GroupCommit time.Duration

	loaded     bool
	checkpoint uint64
	open       map[string]*hand
	replay     map[string]uint64 // open hands being re-read after a restart: id → start stream seq
	replaying  bool
	// mem caches table_memory by table (nil: the table has none); dropped with the memory.
	mem map[string]*audit.TableMemory
	// waiting holds, by table, the ended hands waiting for the hand before them (order.go).
	waiting map[string][]*waitingHand
	// waitingIDs holds the same hands by hand id; links is nextWaiting's scratch.
	waitingIDs map[string]*waitingHand
	links      []handorder.Link
	// tourHands holds the ended hands of each tournament followed since the load, as
	// tournament_hands holds them (tournament.go).
	tourHands map[string][]storedHand
	// copyBuf and zbuf are reused to encode each hand's copy (handcopy.go).
	copyBuf, zbuf []byte
	// sourceSaved is set once a commit of this projector has written source_log.
	sourceSaved bool
	// bulk is set while the projector fills empty read models without the deferred indexes
	// (bulk.go); bulkHands overrides defaultBulkHands (tests; < 0: never drop them).
	bulk      *bulk
	bulkHands int
	// prev is where the message before lies, where a line that is not JSON goes (apply).
	prev events.Place

	b *batch
	// prepared are the projector's statements, prepared once and taken into each transaction
	// (Tx.StmtContext prepares a statement on a connection once, and reuses it there) instead of
	// prepared again by every transaction: a projector following a live log commits every few
	// events, and preparing some forty statements, each with the triggers it fires, was a sixth
	// of serve's CPU under `make load` (issue 43). Run keeps them until it returns, a CatchUp or
	// Settle of its own until it returns (release).
	prepared [numStmts]*sql.Stmt
	running  bool
}

// New returns a projector of src into db.
func New(db *sql.DB, src Source) *Projector {
	return &Projector{DB: db, Source: src}
}

// Progress counts what a call projected and committed.
type Progress struct {
	Events      int    // stream messages past the checkpoint handled (applied or quarantined)
	Hands       int    // hands ended and stored
	Quarantined int    // messages sent to quarantine
	Checkpoint  uint64 // the stream sequence committed
}

func (p *Projector) name() string {
	if p.Name == "" {
		return DefaultName
	}
	return p.Name
}

func (p *Projector) batchSize() int {
	if p.BatchSize <= 0 {
		return DefaultBatchSize
	}
	return p.BatchSize
}

// Checkpoint returns the stream sequence the projector has committed (after its first CatchUp).
func (p *Projector) Checkpoint() uint64 { return p.checkpoint }

// CatchUp projects every message past the checkpoint that the source holds now, and returns.
// On error the projector forgets its memory: the next call reloads it from the database.
func (p *Projector) CatchUp(ctx context.Context) (Progress, error) {
	if !p.running {
		defer p.release()
	}
	pr := Progress{Checkpoint: p.checkpoint}
	if err := p.load(ctx); err != nil {
		p.reset()
		return pr, err
	}
	err := p.Source.Read(ctx, p.checkpoint+1, func(m Message) error { return p.take(ctx, m, &pr) })
	if err == nil && p.b != nil {
		err = p.commit(ctx, &pr)
	}
	if err == nil && p.bulk != nil {
		err = p.endBulk(ctx)
	}
	pr.Checkpoint = p.checkpoint
	if err != nil {
		p.reset()
		return pr, err
	}
	return pr, nil
}

// take applies m in the open batch (beginning one), and commits the batch once it holds the
// batch size.
func (p *Projector) take(ctx context.Context, m Message, pr *Progress) error {
	if m.Seq <= p.checkpoint {
		return nil // delivered again: already projected
	}
	if p.b == nil {
		if err := p.begin(ctx); err != nil {
			return err
		}
	}
	if err := p.apply(ctx, m); err != nil {
		return err
	}
	p.b.done.Events++
	p.b.last = m.Seq
	if p.b.done.Events >= p.batchSize() {
		if err := p.commit(ctx, pr); err != nil {
			return err
		}
		if p.bulk != nil && p.bulk.full() {
			return p.endBulk(ctx)
		}
	}
	return nil
}

// Run catches up, then follows the stream, projecting new messages as they come, until ctx is
// done; it returns nil then, or the first error. Once caught up with the log as it was when Run
// began, it settles the hands still waiting for the hand before them (Settle), as `fechado
// project` and the audit do at the end of the log; later hands wait for the hand before them
// as long as it takes.
func (p *Projector) Run(ctx context.Context) error {
	p.running = true
	defer func() { p.running = false; p.release() }()
	settled := false
	for {
		if _, err := p.CatchUp(ctx); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		if !settled {
			if err := p.Settle(ctx); err != nil {
				if ctx.Err() != nil {
					return nil
				}
				return err
			}
			settled = true
		}
		if f, ok := p.Source.(Follower); ok {
			err := p.follow(ctx, f)
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		if err := p.Source.Wait(ctx, p.checkpoint); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
	}
}

// DefaultGroupCommit is how long a projector following a live log keeps a batch open, once it
// has caught up, for the events that come next (Projector.GroupCommit). A live log brings a few
// events at a time: committing each time it catches up made a transaction of one to three events
// (the checkpoint row, the triggers' aggregates and the WAL pages written again each time), and
// each commit moves what readers built from the read models (GET /api/tables is built again). A
// twentieth of a second adds as much to the live audit's lag at most (issue 43's goal: 1 s).
const DefaultGroupCommit = 50 * time.Millisecond

// followed is a message of a Follower with what the source held after it.
type followed struct {
	m       Message
	pending uint64
}

// follow projects what f delivers from the checkpoint on, until ctx is done or an error. A batch
// is committed when it holds the batch size, or once the projector has caught up with the log and
// the batch is GroupCommit old; later events wait in the batch until then. Exactly once as
// CatchUp: the checkpoint is committed with the rows of the events before it, and an open batch
// is rolled back on any error (and lost in a crash), its events read again from the stream.
func (p *Projector) follow(ctx context.Context, f Follower) error {
	fctx, cancel := context.WithCancel(ctx)
	defer cancel()
	msgs := make(chan followed, 256)
	read := make(chan error, 1)
	go func() {
		read <- f.Follow(fctx, p.checkpoint+1, func(m Message, pending uint64) error {
			select {
			case msgs <- followed{m, pending}:
				return nil
			case <-fctx.Done():
				return fctx.Err()
			}
		})
	}()
	window := p.GroupCommit
	if window == 0 {
		window = DefaultGroupCommit
	}
	var pr Progress
	var opened time.Time // when the open batch took its first event
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	fail := func(err error) error {
		p.reset()
		cancel()
		<-read
		return err
	}
	commit := func() error {
		timer.Stop()
		if p.b == nil {
			return nil
		}
		return p.commit(ctx, &pr)
	}
	for {
		select {
		case x := <-msgs:
			if p.b == nil {
				opened = time.Now()
			}
			if err := p.take(ctx, x.m, &pr); err != nil {
				return fail(err)
			}
			if p.b == nil || x.pending > 0 || len(msgs) > 0 {
				continue // committed at the batch size, or more is coming
			}
			if wait := window - time.Since(opened); wait > 0 {
				timer.Reset(wait)
				continue
			}
			if err := commit(); err != nil {
				return fail(err)
			}
		case <-timer.C:
			if err := commit(); err != nil {
				return fail(err)
			}
		case err := <-read:
			p.reset()
			if err == nil {
				err = errors.New("projector: the log's follower stopped")
			}
			return err
		}
	}
}

// release ends any open transaction and closes the prepared statements.
func (p *Projector) release() {
	if p.b != nil {
		p.b.tx.Rollback()
		p.b = nil
	}
	for i, st := range p.prepared {
		if st != nil {
			st.Close()
			p.prepared[i] = nil
		}
	}
}

// reset drops the memory and any open transaction.
func (p *Projector) reset() {
	if p.b != nil {
		p.b.tx.Rollback()
		p.b = nil
	}
	p.loaded, p.open, p.replay, p.replaying, p.checkpoint, p.mem, p.waiting, p.waitingIDs, p.tourHands = false, nil, nil, false, 0, nil, nil, nil, nil
	p.sourceSaved, p.bulk = false, nil
}

// errReplayDone stops the re-reading of open hands at the checkpoint.
var errReplayDone = errors.New("replay done")

// load reads the checkpoint and, after a restart, rebuilds the memory of the hands still open
// by reading their events again from the stream. It builds the indexes a projector stopped
// while filling empty read models left dropped, and drops them if the read models are empty.
func (p *Projector) load(ctx context.Context) error {
	if p.loaded {
		return nil
	}
	if err := restoreIndexes(ctx, p.DB); err != nil {
		return err
	}
	p.open = map[string]*hand{}
	p.mem = map[string]*audit.TableMemory{}
	var cp sql.NullInt64
	err := p.DB.QueryRowContext(ctx, `SELECT stream_seq FROM checkpoint WHERE name = ?`, p.name()).Scan(&cp)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("projector: read checkpoint: %w", err)
	}
	p.checkpoint = uint64(cp.Int64)
	var other string
	err = p.DB.QueryRowContext(ctx, `SELECT name FROM checkpoint WHERE name <> ? LIMIT 1`, p.name()).Scan(&other)
	switch {
	case err == nil:
		return fmt.Errorf("%w: %q, not %q", ErrOtherProjector, other, p.name())
	case !errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("projector: read checkpoint: %w", err)
	}
	if p.checkpoint == 0 {
		if err := p.startBulk(ctx); err != nil {
			return err
		}
	}
	rows, err := p.DB.QueryContext(ctx, `SELECT hand_id, stream_seq FROM hands WHERE end_seq IS NULL`)
	if err != nil {
		return fmt.Errorf("projector: open hands: %w", err)
	}
	p.replay = map[string]uint64{}
	from := uint64(0)
	for rows.Next() {
		var id string
		var seq uint64
		if err := rows.Scan(&id, &seq); err != nil {
			rows.Close()
			return err
		}
		p.replay[id] = seq
		if from == 0 || seq < from {
			from = seq
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if len(p.replay) > 0 {
		p.replaying = true
		err := p.Source.Read(ctx, from, func(m Message) error {
			if m.Seq > p.checkpoint {
				return errReplayDone
			}
			return p.apply(ctx, m)
		})
		p.replaying = false
		if err != nil && !errors.Is(err, errReplayDone) {
			return fmt.Errorf("projector: re-read open hands: %w", err)
		}
		for id := range p.replay {
			if p.open[id] == nil {
				return fmt.Errorf("projector: open hand %s: its hand.started is no longer in the stream", id)
			}
		}
	}
	p.replay = nil
	if err := p.loadWaiting(ctx); err != nil {
		return err
	}
	p.loaded = true
	return nil
}

// apply handles one message: it decides whether the event applies, updates the memory, and
// (unless re-reading open hands after a restart) writes its rows.
func (p *Projector) apply(ctx context.Context, m Message) error {
	e := m.Event
	if e == nil {
		var err error
		if e, err = events.ParseLenient(m.Data); err != nil {
			// Where `fechado audit` puts the line (audit.AuditReader, events-v1.md §8): at its
			// envelope, as far as events reads it, else after the line before; the same finding.
			at := audit.Place(e, nil, p.prev.Hand, p.prev.Table, p.prev.Seq)
			if at == nil {
				at = &events.Event{Seq: p.prev.Seq + 1} // no line before it names a hand
			} else {
				p.prev = events.Place{Hand: at.Hand, Table: at.Table, Seq: at.Seq}
			}
			if h := p.open[at.Hand]; h != nil {
				// Of an open hand: judged with the hand, where it lies (hand.lines).
				h.bad = append(h.bad, badLine{at: len(h.all), line: audit.Line{Event: e, Err: err}})
			} else if at.Hand != "" {
				// Of a hand that has ended, or not started: judged as the audit of the whole
				// log judges it, from the hand's lines before it (strayLine).
				if err := p.strayLine(ctx, m, at.Hand, audit.Line{Event: e, Err: err}); err != nil {
					return err
				}
			} else if err := p.stray(ctx, m, audit.Unreadable(err, at.Hand, at.Table, at.Seq)); err != nil {
				return err
			}
			return p.quarantine(ctx, m, at.Hand, "undecodable: "+err.Error())
		}
	}
	p.prev = events.Place{Hand: e.Hand, Table: e.Table, Seq: e.Seq}
	if p.replaying {
		start, ok := p.replay[e.Hand]
		if !ok || m.Seq < start {
			return nil // not an open hand: its rows are written
		}
	}
	h := p.open[e.Hand]
	if e.Type == events.HandStartedType && h == nil {
		return p.startHand(ctx, m, e)
	}
	if h == nil {
		if p.replaying {
			return nil // already quarantined and found
		}
		reason := "hand not started"
		var ended bool
		seq, ok, err := p.handRow(ctx, e.Hand)
		if err == nil && ok {
			err = p.b.stmt(stHandEnded).QueryRowContext(ctx, seq).Scan(&ended)
		}
		if err != nil {
			return err
		}
		if ended {
			reason = "event after hand.ended"
		} // else not reachable: open hands are in memory
		if err := p.strayLine(ctx, m, e.Hand, audit.Line{Event: e}); err != nil {
			return err
		}
		return p.quarantine(ctx, m, e.Hand, reason)
	}
	h.all = append(h.all, e)
	if reason := h.check(e); reason != "" {
		return p.quarantine(ctx, m, e.Hand, reason)
	}
	h.lastSeq = e.Seq
	h.evs = append(h.evs, e)
	h.streamSeqs = append(h.streamSeqs, m.Seq)
	if !p.replaying {
		if err := p.writeEvent(ctx, m, h, e); err != nil {
			return err
		}
	}
	if e.Type == events.HandEndedType {
		delete(p.open, h.id)
		if !p.replaying {
			if err := p.endHand(ctx, m, h); err != nil {
				return err
			}
			p.b.done.Hands++
		}
	}
	p.accepted(e)
	return nil
}

// accepted passes e to Live: after the commit, or at once while re-reading (already committed).
func (p *Projector) accepted(e *events.Event) {
	if p.Live == nil {
		return
	}
	if p.replaying {
		p.Live.Apply(e)
		return
	}
	p.b.live = append(p.b.live, e)
}

func (p *Projector) quarantine(ctx context.Context, m Message, handID, reason string) error {
	h := p.open[handID]
	if h != nil {
		h.quarantined++
	}
	if p.replaying {
		return nil
	}
	if h == nil && handID != "" {
		// A line of a hand not open (not yet started, or ended) is not in its copy.
		if _, err := p.b.stmt(stVoidCopy).ExecContext(ctx, handID); err != nil {
			return err
		}
	}
	p.b.done.Quarantined++
	_, err := p.b.stmt(stQuarantine).ExecContext(ctx, m.Seq, handID, reason, m.Data)
	return err
}

func (p *Projector) startHand(ctx context.Context, m Message, e *events.Event) error {
	hs := e.Data.(*events.HandStarted)
	if e.Seq != 1 {
		if err := p.strayLine(ctx, m, e.Hand, audit.Line{Event: e}); err != nil {
			return err
		}
		return p.quarantine(ctx, m, e.Hand, fmt.Sprintf("hand.started at seq %d, want 1", e.Seq))
	}
	if p.replaying {
		if m.Seq != p.replay[e.Hand] {
			return nil // a second hand.started: quarantined when first read
		}
	} else {
		ms, err := unixMilli(e.At)
		if err != nil {
			if err := p.stray(ctx, m, audit.Unreadable(err, e.Hand, e.Table, e.Seq)); err != nil {
				return err
			}
			return p.quarantine(ctx, m, e.Hand, err.Error())
		}
		inserted, err := p.insertHand(ctx, m, e, hs, ms)
		if err != nil {
			return err
		}
		if !inserted {
			if err := p.strayLine(ctx, m, e.Hand, audit.Line{Event: e}); err != nil {
				return err
			}
			return p.quarantine(ctx, m, e.Hand, "hand.started of a hand already projected")
		}
		if _, err := p.b.stmt(stUpsertTable).ExecContext(ctx, e.Table, hs.Rules.Name, e.At, e.Hand, fold(e.Table)); err != nil {
			return err
		}
		if err := p.seatChanges(ctx, m, e, hs); err != nil {
			return err
		}
	}
	h := &hand{id: e.Hand, table: e.Table, startSeq: m.Seq, start: hs, startedAt: e.At, lastSeq: 1,
		evs: []*events.Event{e}, streamSeqs: []uint64{m.Seq}, all: []*events.Event{e}}
	p.open[e.Hand] = h
	p.accepted(e)
	return nil
}

// insertHand writes the row of a hand.started, and reports false, writing nothing, when the hand
// has one: found by hands_hand_id, or by the projector's own index while that is dropped.
func (p *Projector) insertHand(ctx context.Context, m Message, e *events.Event, hs *events.HandStarted, ms int64) (bool, error) {
	if p.bulk != nil {
		if _, ok, err := p.handRow(ctx, e.Hand); err != nil || ok {
			return false, err
		}
	}
	res, err := p.b.stmt(stInsertHand).ExecContext(ctx, e.Hand, m.Seq, e.Table, hs.Number, hs.Rules.Name,
		int(hs.Dealer), len(hs.Seats), int64(hs.Stakes.Ante), int64(hs.Stakes.MinBet), int64(hs.Stakes.MaxBet),
		int64(hs.Carry), hs.PassedOut, e.At, ms)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	if err != nil || n == 0 {
		return false, err
	}
	if p.bulk != nil {
		p.bulk.wrote(e.Hand, m.Seq)
	}
	return true, nil
}

// seatChanges writes the rows of seat_changes for a hand.started: who sat down, sat out, left or
// rebought since the table's previous hand (events-v1.md §7).
func (p *Projector) seatChanges(ctx context.Context, m Message, e *events.Event, hs *events.HandStarted) error {
	put := func(player, kind string, seat any, amount events.Chips, to string) error {
		_, err := p.b.stmt(stSeatChange).ExecContext(ctx, e.Hand, player, kind, e.Table, m.Seq, e.At, seat, int64(amount), to)
		return err
	}
	for _, s := range hs.Seats {
		if s.Joined {
			if err := put(s.Player, "joined", int(s.Seat), s.Stack, ""); err != nil {
				return err
			}
		}
		if s.Rebuy != nil && *s.Rebuy > 0 {
			if err := put(s.Player, "rebuy", int(s.Seat), *s.Rebuy, ""); err != nil {
				return err
			}
		}
	}
	for _, a := range hs.Away {
		if err := put(a.Player, "away", int(a.Seat), a.Stack, ""); err != nil {
			return err
		}
	}
	for _, l := range hs.Left {
		if err := put(l.Player, "left", nil, l.Stack, l.To); err != nil {
			return err
		}
	}
	return nil
}

func unixMilli(at string) (int64, error) {
	t, err := time.Parse(time.RFC3339Nano, at)
	if err != nil {
		return 0, fmt.Errorf("bad time %q", at)
	}
	return t.UnixMilli(), nil
}

// writeEvent writes the row of a single event, if its type has one.
func (p *Projector) writeEvent(ctx context.Context, m Message, h *hand, e *events.Event) error {
	var err error
	switch d := e.Data.(type) {
	case *events.PlayerActed:
		pl, _ := h.player(d.Seat)
		_, err = p.b.stmt(stInsertAction).ExecContext(ctx, m.Seq, h.startSeq, h.id, int(e.Seq), e.At, int(d.Seat), pl,
			string(d.Round), string(d.Action), int64(d.Amount))
	case *events.CardsDiscarded:
		pl, _ := h.player(d.Seat)
		var declared any
		if d.Declared != nil {
			declared = *d.Declared
		}
		_, err = p.b.stmt(stInsertDraw).ExecContext(ctx, m.Seq, h.startSeq, h.id, int(e.Seq), int(d.Seat), pl, len(d.Cards), declared)
	case *events.PotAwarded:
		pl, _ := h.player(d.Seat)
		_, err = p.b.stmt(stInsertAward).ExecContext(ctx, m.Seq, h.startSeq, h.id, int(e.Seq), d.Pot, int(d.Seat), pl, int64(d.Amount))
	}
	return err
}

// endHand writes the aggregates of a hand that ended.
func (p *Projector) endHand(ctx context.Context, m Message, h *hand) error {
	// The auditor replays the hand now, whether or not the hand before it is judged yet: the
	// rows take what the hand did from its rules.Hand (summarize), the findings wait for it.
	t0 := time.Now()
	var j *audit.Judgement
	if len(h.bad) > 0 {
		j = audit.JudgeLines(h.lines())
	} else {
		j = audit.Judge(h.all)
	}
	h.judgeTook = time.Since(t0) // counted in the audit's time (Audited.Took)
	s := summarize(h, j.State())
	endMs, _ := unixMilli(s.endedAt) // checked when hand.ended was accepted
	if err := p.tournamentHand(ctx, m.Seq, h); err != nil {
		return err
	}
	var findings []finding.Finding
	l, linked := linkOf(h)
	ready := true
	if linked {
		var err error
		if ready, err = p.ready(ctx, l); err != nil {
			return err
		}
	}
	if ready {
		var err error
		if findings, err = p.auditHand(ctx, m.Seq, h, j); err != nil {
			return err
		}
	} else {
		p.wait(h, m.Seq, l, j) // judged once the hand before it is (order.go)
	}
	if err := p.putCopy(ctx, m, h); err != nil {
		return err
	}
	status, nFindings := auditStatus(findings), len(findings)
	if !ready {
		status = AuditWaiting
	}
	if _, err := p.b.stmt(stEndHand).ExecContext(ctx, m.Seq, s.endedAt, endMs, len(h.evs),
		int64(s.potTotal), int64(s.awarded), int64(s.raked), int64(s.carryOut),
		b2i(s.passed), b2i(s.misdeal), b2i(s.showdown), s.winners, status, nFindings, h.quarantined, h.startSeq); err != nil {
		return err
	}
	for i := range s.seats {
		x := &s.seats[i]
		var drawn any
		if x.drew {
			drawn = x.cardsDrawn
		}
		if _, err := p.b.stmt(stInsertPlayer).ExecContext(ctx, h.startSeq, h.id, int(x.seat), x.player, x.position,
			int64(x.start), int64(x.end), int64(x.end-x.start), int64(x.putIn), int64(x.returned), int64(x.won),
			b2i(x.vpip), b2i(x.openChance), b2i(x.opened), b2i(x.raisedPre),
			x.bets, x.raises, x.calls, x.checks, b2i(x.folded), b2i(x.drew), drawn, b2i(x.stoodPat),
			b2i(x.sawSecond), b2i(x.wtsd), b2i(x.wsd), b2i(x.aggressivePost), cards.Join(x.shown, " "), fold(x.player)); err != nil {
			return err
		}
	}
	for _, pt := range s.pots {
		if _, err := p.b.stmt(stInsertPot).ExecContext(ctx, h.startSeq, h.id, pt.pot, int64(pt.awarded), int64(pt.raked), pt.winners); err != nil {
			return err
		}
	}
	for i, f := range findings {
		if f.Table == "" {
			f.Table = h.table
		}
		if err := p.insertFinding(ctx, m, h.id, i+1, f); err != nil {
			return err
		}
	}
	if _, err := p.b.stmt(stEndTable).ExecContext(ctx, h.table); err != nil {
		return err
	}
	if ready && linked {
		return p.releaseWaiting(ctx, h.table)
	}
	return nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// batch is the transaction in progress.
type batch struct {
	tx    *sql.Tx
	stmts [numStmts]*sql.Stmt // the projector's prepared statements taken into tx, when used
	// prepared are the projector's (Projector.prepared).
	prepared *[numStmts]*sql.Stmt
	done     Progress        // what it holds (Checkpoint unused)
	last     uint64          // stream sequence reached
	live     []*events.Event // accepted events, for Live after the commit
	// audited holds what the auditor found in the batch, for OnAudit after the commit.
	audited []Audited
	// tours names the tournaments whose hands the batch followed, with the last hand of each:
	// their memory is written at the commit.
	tours map[string]string
}

// stmt returns statement id in the transaction, taken into it at its first use (prepared on
// the transaction's connection the first time that connection runs it).
func (b *batch) stmt(id stmtID) *sql.Stmt {
	if b.stmts[id] == nil {
		b.stmts[id] = b.tx.StmtContext(context.Background(), b.prepared[id])
	}
	return b.stmts[id]
}

func (p *Projector) begin(ctx context.Context) error {
	for id, q := range statements {
		if p.prepared[id] != nil {
			continue
		}
		st, err := p.DB.PrepareContext(ctx, q)
		if err != nil {
			return fmt.Errorf("projector: prepare %q: %w", strings.Join(strings.Fields(q)[:3], " "), err)
		}
		p.prepared[id] = st
	}
	tx, err := p.DB.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("projector: begin: %w", err)
	}
	p.b = &batch{tx: tx, prepared: &p.prepared}
	var cp sql.NullInt64
	err = tx.QueryRowContext(ctx, `SELECT stream_seq FROM checkpoint WHERE name = ?`, p.name()).Scan(&cp)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("projector: read checkpoint: %w", err)
	}
	if uint64(cp.Int64) != p.checkpoint {
		return fmt.Errorf("%w: the database says %d, the projector %d", ErrCheckpointMoved, cp.Int64, p.checkpoint)
	}
	return nil
}

// commit writes the checkpoint and commits the batch, adds its counts to pr, then passes its
// events to Live, what the auditor found to OnAudit and pr to OnCommit.
func (p *Projector) commit(ctx context.Context, pr *Progress) error {
	b := p.b
	if err := p.refreshTournaments(ctx); err != nil {
		return err
	}
	if !p.sourceSaved {
		if _, err := b.stmt(stSourceLog).ExecContext(ctx, p.sourceLog()); err != nil {
			return fmt.Errorf("projector: source log: %w", err)
		}
	}
	if _, err := b.stmt(stCheckpoint).ExecContext(ctx, p.name(), b.last); err != nil {
		return fmt.Errorf("projector: checkpoint: %w", err)
	}
	if err := b.tx.Commit(); err != nil {
		return fmt.Errorf("projector: commit: %w", err)
	}
	p.b = nil
	p.sourceSaved = true
	p.checkpoint = b.last
	pr.Events += b.done.Events
	pr.Hands += b.done.Hands
	pr.Quarantined += b.done.Quarantined
	if p.Live != nil {
		for _, e := range b.live {
			p.Live.Apply(e)
		}
	}
	if p.OnAudit != nil {
		for _, a := range b.audited {
			p.OnAudit(a)
		}
	}
	if p.OnCommit != nil {
		pr.Checkpoint = p.checkpoint
		p.OnCommit(*pr)
	}
	return nil
}
