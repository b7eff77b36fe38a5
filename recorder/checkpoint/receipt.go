package checkpoint

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/fechado/fechado/events"
	"golang.org/x/mod/sumdb/tlog"
)

// ReceiptFormat names the JSON form of a player's receipt.
const ReceiptFormat = "fechado-receipt/v1"

// Receipt is what a player keeps of a hand once it has ended: the hand, the SHA-256 of its last
// stored line (the end of the hand's chain: every event before it is bound to it by prev), that
// line itself with its inclusion proof, and the signed checkpoint the proof leads to. Later,
// anyone checks it with the log's verifier key (Verify), and that the log still holds it: the
// consistency proof from the receipt's checkpoint to the log's latest (Extends).
type Receipt struct {
	Format        string     `json:"format"`
	Hand          string     `json:"hand"`
	Table         string     `json:"table"`
	LastEventHash string     `json:"last_event_hash"`
	Link          string     `json:"link"` // where the log gives this receipt again
	Checkpoint    string     `json:"checkpoint"`
	Last          EventProof `json:"last"`
}

// ReceiptPath is the path of a hand's receipt on the log's web server: the short link.
func ReceiptPath(hand string) string { return "/tlog/receipt/" + url.PathEscape(hand) }

// ErrNotEnded: a receipt or a proof is given once the hand has ended.
var ErrNotEnded = errors.New("checkpoint: the hand has not ended")

// Receipt returns the receipt of an ended hand against the latest checkpoint that covers it.
func (k *Keeper) Receipt(ctx context.Context, table, hand string) (*Receipt, error) {
	evs, err := k.ReadHand(ctx, table, hand)
	if err != nil {
		return nil, err
	}
	last := evs[len(evs)-1]
	if last.Event.Type != events.HandEndedType {
		return nil, fmt.Errorf("%w: %s", ErrNotEnded, hand)
	}
	signed, err := k.Covering(ctx, last.Seq)
	if err != nil {
		return nil, err
	}
	p, err := k.ProveHand(signed, evs[len(evs)-1:])
	if err != nil {
		return nil, err
	}
	return &Receipt{Format: ReceiptFormat, Hand: hand, Table: last.Event.Table, LastEventHash: events.Hash(last.Event.Raw),
		Link: ReceiptPath(hand), Checkpoint: string(signed), Last: p.Events[0]}, nil
}

// Verify checks a receipt offline: the checkpoint's signature (and witnesses' co-signatures),
// that the last event is the hand's hand.ended with the hash the receipt names, and its
// inclusion in the checkpoint's tree.
func (r *Receipt) Verify(logKey string, witnessKeys ...string) (*Signed, error) {
	if r.Format != ReceiptFormat {
		return nil, fmt.Errorf("%w receipt: format %q, not %q", ErrFormat, r.Format, ReceiptFormat)
	}
	s, err := OpenSigned([]byte(r.Checkpoint), logKey, witnessKeys...)
	if err != nil {
		return nil, err
	}
	e, err := events.Parse(r.Last.Data)
	if err != nil {
		return nil, fmt.Errorf("checkpoint: the receipt's event: %w", err)
	}
	switch {
	case e.Hand != r.Hand || e.Table != r.Table || e.Type != events.HandEndedType:
		return nil, fmt.Errorf("checkpoint: the receipt's event is %s of hand %s, not the end of hand %s", e.Type, e.Hand, r.Hand)
	case events.Hash(r.Last.Data) != r.LastEventHash:
		return nil, errors.New("checkpoint: the receipt's event does not have the hash it names")
	case r.Last.Leaf != int64(r.Last.StreamSeq)-1 || r.Last.Leaf < 0 || r.Last.Leaf >= s.Size:
		return nil, fmt.Errorf("checkpoint: leaf %d is not in a tree of size %d", r.Last.Leaf, s.Size)
	}
	if err := tlog.CheckRecord(r.Last.Proof, s.Size, s.Hash, r.Last.Leaf, tlog.RecordHash(r.Last.Data)); err != nil {
		return nil, fmt.Errorf("checkpoint: the hand's last event is not in the signed log: %w", err)
	}
	return s, nil
}

// Extends fetches the log's latest checkpoint from its base URL and checks, with the consistency
// proof the log gives, that it extends the receipt's checkpoint s: the hand is still in the log.
func Extends(ctx context.Context, client *http.Client, logURL, logKey string, s *Signed) (*Signed, error) {
	w := &Witness{Log: logURL, Client: client}
	latest, err := w.get(ctx, "/checkpoint")
	if err != nil {
		return nil, err
	}
	cur, err := OpenSigned(latest, logKey)
	if err != nil {
		return nil, err
	}
	if cur.Size < s.Size {
		return cur, fmt.Errorf("%w: the log's latest tree size %d is smaller than the receipt's %d", ErrFork, cur.Size, s.Size)
	}
	body, err := w.get(ctx, "/tlog/proof/consistency?old="+strconv.FormatInt(s.Size, 10)+"&new="+strconv.FormatInt(cur.Size, 10))
	if err != nil {
		return cur, err
	}
	var c Consistency
	if err := json.Unmarshal(body, &c); err != nil {
		return cur, fmt.Errorf("%w consistency proof: %v", ErrFormat, err)
	}
	if err := tlog.CheckTree(c.Proof, cur.Size, cur.Hash, s.Size, s.Hash); err != nil {
		return cur, fmt.Errorf("%w: the log's tree of size %d does not extend the receipt's of size %d: %v", ErrFork, cur.Size, s.Size, err)
	}
	return cur, nil
}
