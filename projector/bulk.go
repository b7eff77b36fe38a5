package projector

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"hash/maphash"
	"slices"
	"strings"

	"github.com/fechado/fechado/schema"
)

// Filling empty read models. A projector that starts with no checkpoint and no hand drops the
// indexes of schema.DeferredIndexes and the triggers of schema.DeferredTriggers before its first
// row, and builds them once it has read the log to its end. The keys of two of those indexes, a
// hand id and a start time, do not grow with the stream: kept while a long log goes in, each new
// hand writes a page of each at a random place in the WAL once they outgrow memory, and
// projecting a hand takes longer the longer the log (docs/stream.md §5); built at the end, each
// is one sort. The others serve only readers. The triggers keep the counts of migrations 0011
// and 0012 (player_totals, hand_counts, player_slices, player_positions) a statement or three for
// each row of hands and hand_players; at the end those tables are counted once from the rows
// (schema.Recount), as the migrations first filled them, to the same counts. Until then the
// projector keeps its own index of the hands it wrote, from a hash of the hand id to the row, to
// find a hand by its id as its writes must (is a hand.started the second of its hand? has the
// hand of a stray line ended?). Readers of the database meanwhile find a hand by its id by
// reading the whole table, and see counts of zero: the read models are not complete before the
// end anyway.
//
// The indexes and triggers dropped are written down in schema.DeferredTable in the transaction
// that drops them, and load builds again any it finds there, counting again: a projector stopped
// before the end (an error, a crash, Ctrl-C) leaves the database with every index, trigger and
// count at its next start.

// defaultBulkHands is how many hands a projector writes into empty read models before it builds
// the deferred indexes even if the log goes on: its index of them holds about 22 bytes a hand
// (handIndex; BenchmarkHandIndex), so memory stays flat past it, and the hands after it are
// written with the indexes in place.
const defaultBulkHands = 2_000_000

// bulk is the projector's index of the hands it wrote while the deferred indexes are dropped.
type bulk struct {
	seed  maphash.Seed
	hands handIndex // maphash of the hand id → hands.stream_seq of its row
	limit int
}

// bulkLimit is the number of hands after which a projector filling empty read models builds
// the deferred indexes; 0 means it never drops them.
func (p *Projector) bulkLimit() int {
	switch {
	case p.bulkHands < 0:
		return 0
	case p.bulkHands == 0:
		return defaultBulkHands
	}
	return p.bulkHands
}

// startBulk drops the deferred indexes of read models that are empty, and starts the
// projector's own index of the hands it writes. It does nothing unless the read models hold no
// hand.
func (p *Projector) startBulk(ctx context.Context) error {
	limit := p.bulkLimit()
	if limit == 0 {
		return nil
	}
	tx, err := p.DB.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("projector: drop indexes: %w", err)
	}
	defer tx.Rollback()
	var some bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM hands)`).Scan(&some); err != nil || some {
		return err
	}
	for _, d := range deferred() {
		var q string
		err := tx.QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE type = ? AND name = ?`, d.kind, d.name).Scan(&q)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return fmt.Errorf("projector: %s %s: %w", d.kind, d.name, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO `+schema.DeferredTable+` (name, sql) VALUES (?, ?)`, d.name, q); err != nil {
			return fmt.Errorf("projector: %s %s: %w", d.kind, d.name, err)
		}
		// The name comes from the lists in package schema, never from input.
		if _, err := tx.ExecContext(ctx, `DROP `+strings.ToUpper(d.kind)+` "`+d.name+`"`); err != nil {
			return fmt.Errorf("projector: drop %s %s: %w", d.kind, d.name, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("projector: drop indexes: %w", err)
	}
	p.bulk = &bulk{seed: maphash.MakeSeed(), limit: limit}
	return nil
}

// deferredObject is an index or a trigger a projector filling empty read models drops.
type deferredObject struct{ kind, name string }

// deferred returns schema.DeferredIndexes and schema.DeferredTriggers, each with its kind.
func deferred() []deferredObject {
	var out []deferredObject
	for _, n := range schema.DeferredIndexes {
		out = append(out, deferredObject{"index", n})
	}
	for _, n := range schema.DeferredTriggers {
		out = append(out, deferredObject{"trigger", n})
	}
	return out
}

// endBulk builds the deferred indexes, counts the kept counts and creates their triggers again,
// and forgets the projector's own index.
func (p *Projector) endBulk(ctx context.Context) error {
	p.bulk = nil
	return restoreIndexes(ctx, p.DB)
}

// restoreIndexes creates again, in one transaction, every index and trigger schema.DeferredTable
// names that the database lacks, and empties the table. When it names a trigger of
// schema.DeferredTriggers, the tables they keep are counted again from the rows first
// (schema.Recount): the rows written without the triggers are then counted once, the rows
// written after by the triggers.
func restoreIndexes(ctx context.Context, db *sql.DB) error {
	var n int
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+schema.DeferredTable).Scan(&n); err != nil || n == 0 {
		return err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("projector: build indexes: %w", err)
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `SELECT d.name, d.sql,
		EXISTS (SELECT 1 FROM sqlite_master m WHERE m.type IN ('index', 'trigger') AND m.name = d.name)
		FROM `+schema.DeferredTable+` d ORDER BY d.name`)
	if err != nil {
		return fmt.Errorf("projector: build indexes: %w", err)
	}
	var names, qs []string
	recount := false
	for rows.Next() {
		var name, q string
		var exists bool
		if err := rows.Scan(&name, &q, &exists); err != nil {
			rows.Close()
			return err
		}
		// A trigger a migration created again meanwhile still leaves the rows written without
		// it uncounted.
		recount = recount || slices.Contains(schema.DeferredTriggers, name)
		if !exists {
			names, qs = append(names, name), append(qs, q)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if recount {
		for _, q := range schema.Recount {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("projector: recount: %w", err)
			}
		}
	}
	for i, q := range qs {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("projector: build %s: %w", names[i], err)
		}
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM `+schema.DeferredTable); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("projector: build indexes: %w", err)
	}
	return nil
}

// wrote adds the row of hand id, at stream sequence seq, to the projector's own index. A hash
// two ids share keeps the first: the second is found by handRow's scan.
func (b *bulk) wrote(id string, seq uint64) {
	b.hands.add(maphash.String(b.seed, id), seq)
}

// full reports whether the projector has written as many hands as it keeps in its index.
func (b *bulk) full() bool { return b.hands.len() >= b.limit }

// handRow returns hands.stream_seq of the row of hand id, and whether there is one: from the
// projector's own index while the deferred indexes are dropped, else with hands_hand_id.
func (p *Projector) handRow(ctx context.Context, id string) (uint64, bool, error) {
	if p.bulk != nil {
		seq, ok := p.bulk.hands.get(maphash.String(p.bulk.seed, id))
		if !ok {
			return 0, false, nil
		}
		var at string
		if err := p.b.stmt(stHandAt).QueryRowContext(ctx, seq).Scan(&at); err != nil {
			return 0, false, err
		}
		if at == id {
			return seq, true, nil
		}
		// Another id of the same hash: the table read whole, as it is without its index.
	}
	var seq uint64
	err := p.b.stmt(stHandRow).QueryRowContext(ctx, id).Scan(&seq)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	return seq, err == nil, err
}

// handIndex maps 64-bit keys to stream sequences in 16 bytes a key (about 22 with the slice's
// room to grow and the map): a slice of pairs sorted by key, searched by halves, and a map of
// the keys added since it was last merged into the slice. A map of every key costs about 38
// bytes a key (BenchmarkHandIndex), and Go's collector lets the heap grow to twice what is live.
type handIndex struct {
	sorted  []keySeq
	recent  map[uint64]uint64
	mergeAt int // keys in recent that make a merge; 0 means recentKeys
}

type keySeq struct{ key, seq uint64 }

// recentKeys is how many keys handIndex takes into its map before merging them into its slice:
// a merge moves the whole slice, so it is rare, and the map stays small.
const recentKeys = 1 << 16

func (x *handIndex) len() int { return len(x.sorted) + len(x.recent) }

// get returns the sequence of key, and whether it has one.
func (x *handIndex) get(key uint64) (uint64, bool) {
	if seq, ok := x.recent[key]; ok {
		return seq, true
	}
	i, ok := slices.BinarySearchFunc(x.sorted, key, func(e keySeq, k uint64) int { return cmp.Compare(e.key, k) })
	if !ok {
		return 0, false
	}
	return x.sorted[i].seq, true
}

// add gives key the sequence seq, unless it has one.
func (x *handIndex) add(key, seq uint64) {
	if _, ok := x.get(key); ok {
		return
	}
	if x.mergeAt == 0 {
		x.mergeAt = recentKeys
	}
	if x.recent == nil {
		x.recent = make(map[uint64]uint64, x.mergeAt)
	}
	x.recent[key] = seq
	if len(x.recent) >= x.mergeAt {
		x.merge()
	}
}

// merge moves the keys of the map into the slice, in key order, from the slice's end down.
func (x *handIndex) merge() {
	add := make([]keySeq, 0, len(x.recent))
	for k, s := range x.recent {
		add = append(add, keySeq{k, s})
	}
	slices.SortFunc(add, func(a, b keySeq) int { return cmp.Compare(a.key, b.key) })
	clear(x.recent)
	n := len(x.sorted)
	x.sorted = slices.Grow(x.sorted, len(add))[:n+len(add)]
	i, j := n-1, len(add)-1
	for w := len(x.sorted) - 1; j >= 0; w-- {
		if i >= 0 && x.sorted[i].key > add[j].key {
			x.sorted[w] = x.sorted[i]
			i--
		} else {
			x.sorted[w] = add[j]
			j--
		}
	}
}
