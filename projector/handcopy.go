package projector

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/klauspost/compress/s2"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/recorder"
)

// The hand's copy (hand_events, migrations 0008 and 0009). Reading one hand from the log costs a
// read of the log's store where the hand lies, and once the store no longer fits in memory that
// is a read of the disk, whose cost grows with the log. So the projector keeps, in the transaction of each
// hand.ended, the hand's stored lines byte for byte with their stream sequences: a hand read by
// its id is then one lookup in the read models (ReadHand).
//
// When the copy is the hand (docs/stream.md §5): nothing may be appended to a hand after its
// hand.ended (docs/events.md §8), so the lines the projector took into a hand from its
// hand.started to its hand.ended are all of it, provided the log holds nothing else of the hand.
// The projector therefore writes no copy of a hand of which it quarantined a line while the hand
// was open, and voids the copy of a hand one of whose lines it quarantines while the hand is not
// open (before its hand.started, after its hand.ended): such hands are read from the log. A copy
// is trusted only by a reader of the log it was projected from (LogID, source_log). The log stays
// the record: verify, and audits of a table or of the whole log, read the log, never a copy.

// IdentifiedSource is a Source that names the log it reads (LogID), so that readers of the read
// models can tell whether the hands' copies are of the log they read.
type IdentifiedSource interface {
	Source
	LogID() string
}

// LogID names the log l reads: its stream and the time the stream was created, which a stream
// made again under the same name does not share. "" when l has not bound its stream.
func LogID(l *recorder.Log) string {
	if l == nil || l.Stream() == nil {
		return ""
	}
	info := l.Stream().CachedInfo()
	if info == nil || info.Created.IsZero() {
		return ""
	}
	return info.Config.Name + " " + info.Created.UTC().Format(time.RFC3339Nano)
}

// LogID implements IdentifiedSource.
func (s *LogSource) LogID() string { return LogID(s.Log) }

// sourceLog returns what source_log records for the projector's source: its LogID, or "" for a
// source that is not a log.
func (p *Projector) sourceLog() string {
	if s, ok := p.Source.(IdentifiedSource); ok {
		return s.LogID()
	}
	return ""
}

// putCopy writes the copy of hand h, which ended with message m, unless a line of it was
// quarantined or did not decode (the log then holds more than h's events).
func (p *Projector) putCopy(ctx context.Context, m Message, h *hand) error {
	if h.quarantined > 0 || len(h.faults) > 0 {
		return nil
	}
	p.copyBuf = encodeLines(p.copyBuf[:0], h)
	p.zbuf = s2.Encode(p.zbuf[:cap(p.zbuf)], p.copyBuf)
	_, err := p.b.stmt(stPutCopy).ExecContext(ctx, h.startSeq, h.id, h.table, m.Seq, len(h.evs), p.zbuf)
	return err
}

// encodeLines appends the encoding of h's events to b: for each event, in stream order, the
// difference of its stream sequence from the previous one's (from 0 for the first), the length of
// its line and the line, the two numbers as unsigned varints.
func encodeLines(b []byte, h *hand) []byte {
	var prev uint64
	for i, e := range h.evs {
		b = binary.AppendUvarint(b, h.streamSeqs[i]-prev)
		b = binary.AppendUvarint(b, uint64(len(e.Raw)))
		b = append(b, e.Raw...)
		prev = h.streamSeqs[i]
	}
	return b
}

// errBadCopy means a copy does not decode: the hand is read from the log.
var errBadCopy = errors.New("projector: a hand's copy does not decode")

// decodeLines decodes a copy (encodeLines, compressed) into the stored events, n of them.
func decodeLines(z []byte, n int) ([]recorder.Stored, error) {
	b, err := s2.Decode(nil, z)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errBadCopy, err)
	}
	out := make([]recorder.Stored, 0, n)
	var seq uint64
	for len(b) > 0 {
		d, k := binary.Uvarint(b)
		if k <= 0 {
			return nil, errBadCopy
		}
		b = b[k:]
		l, k := binary.Uvarint(b)
		if k <= 0 || l > uint64(len(b)-k) {
			return nil, errBadCopy
		}
		line := b[k : k+int(l) : k+int(l)]
		b = b[k+int(l):]
		seq += d
		e, err := events.Parse(line)
		if err != nil {
			return nil, fmt.Errorf("%w: stream message %d: %v", errBadCopy, seq, err)
		}
		out = append(out, recorder.Stored{Seq: seq, Event: e})
	}
	if len(out) != n {
		return nil, fmt.Errorf("%w: %d events, the row says %d", errBadCopy, len(out), n)
	}
	return out, nil
}

// HandCopy returns the stored events of hand, in stream order, from its copy in the read models,
// and the hand's table; ok is false when there is no copy a reader of the log named logID may
// trust: no copy (the hand is not projected, still in play, or voided), or read models of another
// log (or of no log, or logID ""). A copy that does not decode is an error wrapping errBadCopy.
func HandCopy(ctx context.Context, db *sql.DB, logID, hand string) (table string, evs []recorder.Stored, ok bool, err error) {
	if logID == "" {
		return "", nil, false, nil
	}
	var n int
	var lines []byte
	var source string
	err = db.QueryRowContext(ctx, `SELECT c.table_id, c.events, c.lines, s.log_id
		FROM hands h JOIN hand_events c ON c.hand_seq = h.stream_seq, source_log s
		WHERE h.hand_id = ?1 AND NOT EXISTS (SELECT 1 FROM void_copies v WHERE v.hand_id = ?1)`, hand).Scan(&table, &n, &lines, &source)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return "", nil, false, nil
	case err != nil:
		return "", nil, false, err
	case source != logID:
		return "", nil, false, nil
	}
	evs, err = decodeLines(lines, n)
	if err != nil {
		return "", nil, false, err
	}
	return table, evs, true, nil
}

// ReadHand calls fn for every stored event of one hand, in stream order, as recorder.Log.ReadHand
// does, from the hand's copy in the read models db when they hold one that l may trust
// (HandCopy), and from the log l otherwise. table, when not "", is the hand's table: a copy at
// another table is not used. Without the table, the read models' hands table names it for the
// log read (read models of another log that name a table where the log holds nothing of the hand
// do not hide it: the log is then asked by the hand id alone). db may be nil: the log answers.
// Read models that cannot be read are passed over: the log answers.
func ReadHand(ctx context.Context, db *sql.DB, l *recorder.Log, table, hand string, fn func(recorder.Stored) error) error {
	if db == nil {
		return l.ReadHand(ctx, table, hand, fn)
	}
	t, evs, ok, err := HandCopy(ctx, db, LogID(l), hand)
	if err == nil && ok && (table == "" || table == t) {
		for _, s := range evs {
			if err := fn(s); err != nil {
				if errors.Is(err, recorder.ErrStop) {
					return nil
				}
				return err
			}
		}
		return nil
	}
	if table != "" {
		return l.ReadHand(ctx, table, hand, fn)
	}
	if t, err := HandTable(ctx, db, hand); err == nil && t != "" {
		err := l.ReadHand(ctx, t, hand, fn)
		if !errors.Is(err, recorder.ErrHandNotFound) {
			return err
		}
	}
	return l.ReadHand(ctx, "", hand, fn)
}
