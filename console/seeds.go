package console

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"strings"
	"time"

	"github.com/fechado/fechado/cards"
	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/recorder"
)

// The bounds of the console's machine shuffles (docs/cli.md, the table console; security.md §5).
const (
	// MaxShuffleSeq is the last place of a hand a machine shuffle may be asked for. The contract
	// sets no limit on a hand's events; a hand of ten players has about 200 besides its bets
	// (deal and draw, burns, antes, shuffles and cuts, the showdown and the settlement), and the
	// longest of the test vectors 75. A shuffle past the thousandth event is shuffled by hand.
	MaxShuffleSeq = 1000
	// MaxTableSeeds is the most seeds the hands of one table that have not ended may hold: a table
	// plays one hand at a time, with one shuffle and a few more (a remedy's, the draw's). The
	// devices of one table share it.
	MaxTableSeeds = 32
	// MaxSeeds is the most seeds the console holds in all: more than a room of a thousand tables
	// needs (about 400 KB of seed file at most).
	MaxSeeds = 4096
	// SeedLife is how long the seeds of a hand are kept after its first machine shuffle: a hand
	// that has not ended and revealed them by then (a shift, as long as a session) was given up,
	// and its seeds are dropped.
	SeedLife = 12 * time.Hour
)

// handKey names a hand at its table. A hand's id is unique at its table only (a device may start
// a hand of its own table with the id of another table's hand: recorder.ErrAmbiguousHand), so the
// seeds of a hand are kept under both.
type handKey struct{ table, hand string }

// handSeeds are the seeds of a hand's machine shuffles, by the seq of their deck.shuffled, and
// when its first was drawn.
type handSeeds struct {
	made  time.Time
	seeds map[events.Seq]cards.Seed
}

// seedLine is one line of the seed file, JSON: seeds drawn for a hand (Seeds, Made), or the hand's
// seeds forgotten (Gone: the hand ended and revealed them, or they were dropped). The file is
// appended a line for each seed and each hand forgotten, and written again whole (one line per
// hand) only when it holds twice as many lines as hands and more than compactSlack, and when the
// console starts: a seed costs one short write, however many hands are in progress.
type seedLine struct {
	Table string                    `json:"table"`
	Hand  string                    `json:"hand"`
	Made  time.Time                 `json:"made,omitzero"`
	Seeds map[events.Seq]cards.Seed `json:"seeds,omitempty"`
	Gone  bool                      `json:"gone,omitempty"`
}

// compactSlack is the lines the seed file may hold beyond twice its hands before it is written
// again whole.
const compactSlack = 64

// seedsOf returns a copy of the seeds of hand of table, nil when it has none.
func (c *Console) seedsOf(k handKey) map[events.Seq]cards.Seed {
	c.mu.Lock()
	defer c.mu.Unlock()
	if h := c.seeds[k]; h != nil {
		return maps.Clone(h.seeds)
	}
	return nil
}

// tableSeeds is the number of seeds the hands of table hold (c.mu held).
func (c *Console) tableSeeds(table string) int {
	n := 0
	for k, h := range c.seeds {
		if k.table == table {
			n += len(h.seeds)
		}
	}
	return n
}

// addSeed keeps seed for the shuffle at seq of the hand k and appends it to the seed file (c.mu
// held); on an error nothing is kept.
func (c *Console) addSeed(k handKey, seq events.Seq, seed cards.Seed) error {
	h := c.seeds[k]
	if h == nil {
		h = &handSeeds{made: c.now(), seeds: map[events.Seq]cards.Seed{}}
		c.seeds[k] = h
	}
	h.seeds[seq] = seed
	c.nseeds++
	err := c.appendLine(seedLine{Table: k.table, Hand: k.hand, Made: h.made, Seeds: map[events.Seq]cards.Seed{seq: seed}})
	if err != nil {
		delete(h.seeds, seq)
		c.nseeds--
		if len(h.seeds) == 0 {
			delete(c.seeds, k)
		}
	}
	return err
}

// forget drops the seeds of hand k and says so in the seed file (c.mu held).
func (c *Console) forget(k handKey) error {
	h := c.seeds[k]
	if h == nil {
		return nil
	}
	delete(c.seeds, k)
	c.nseeds -= len(h.seeds)
	return c.appendLine(seedLine{Table: k.table, Hand: k.hand, Gone: true})
}

// expire drops the seeds of the hands whose first shuffle is older than SeedLife (c.mu held).
func (c *Console) expire() error {
	old := c.now().Add(-SeedLife)
	var err error
	for k, h := range c.seeds {
		if h.made.Before(old) {
			err = errors.Join(err, c.forget(k))
		}
	}
	return err
}

// appendLine appends l to the seed file (c.mu held), or writes the file again whole when it has
// grown past its bound or no hand holds a seed any more.
func (c *Console) appendLine(l seedLine) error {
	if c.seedFile == "" {
		return nil
	}
	if len(c.seeds) == 0 || c.seedLines+1 > 2*len(c.seeds)+compactSlack {
		return c.writeSeeds()
	}
	b, err := json.Marshal(l)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(c.seedFile, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(append(b, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		c.seedLines++
	}
	return err
}

// writeSeeds writes the seed file whole (c.mu held): one line per hand, in a new file renamed over
// the old one, readable by its owner only, as the seeds of hands in progress are secret.
func (c *Console) writeSeeds() error {
	if c.seedFile == "" {
		return nil
	}
	var buf bytes.Buffer
	for k, h := range c.seeds {
		b, err := json.Marshal(seedLine{Table: k.table, Hand: k.hand, Made: h.made, Seeds: h.seeds})
		if err != nil {
			return err
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	tmp := c.seedFile + ".new"
	if err := os.WriteFile(tmp, buf.Bytes(), 0o600); err != nil {
		return err
	}
	if err := os.Rename(tmp, c.seedFile); err != nil {
		return err
	}
	c.seedLines = len(c.seeds)
	return nil
}

// loadSeeds reads the seed file, drops the seeds past SeedLife and writes the file again whole. A
// line cut short at the end of the file (a write the machine stopped in) is left out; any other
// line that cannot be read is an error. A file of the form before the seeds were kept by table
// (one JSON object of hands) is read too, each hand's table asked of the log.
func (c *Console) loadSeeds(l *recorder.Log) error {
	b, err := os.ReadFile(c.seedFile)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return err
	}
	var byHand map[string]map[events.Seq]cards.Seed
	if json.Unmarshal(b, &byHand) == nil {
		if err := c.adopt(l, byHand); err != nil {
			return err
		}
	} else {
		rest := b
		for len(rest) > 0 {
			line, after, complete := bytes.Cut(rest, []byte("\n"))
			rest = after
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			var sl seedLine
			if err := json.Unmarshal(line, &sl); err != nil || sl.Table == "" || sl.Hand == "" {
				if !complete {
					break // cut short by a crash: the seed it held was never answered
				}
				return fmt.Errorf("the seeds in %s: a line that is not a hand's seeds: %.80s", c.seedFile, line)
			}
			k := handKey{sl.Table, sl.Hand}
			if sl.Gone {
				if h := c.seeds[k]; h != nil {
					c.nseeds -= len(h.seeds)
					delete(c.seeds, k)
				}
				continue
			}
			h := c.seeds[k]
			if h == nil {
				h = &handSeeds{made: sl.Made, seeds: map[events.Seq]cards.Seed{}}
				c.seeds[k] = h
			}
			if !sl.Made.IsZero() && sl.Made.Before(h.made) {
				h.made = sl.Made
			}
			for seq, s := range sl.Seeds {
				if _, ok := h.seeds[seq]; !ok {
					c.nseeds++
				}
				h.seeds[seq] = s
			}
		}
	}
	old := c.now().Add(-SeedLife)
	for k, h := range c.seeds {
		if h.made.Before(old) {
			delete(c.seeds, k)
			c.nseeds -= len(h.seeds)
		}
	}
	return c.writeSeeds()
}

// adopt takes the seeds of a seed file of the form before the seeds were kept by table: each hand's
// table is the one the log holds it at. A hand the log does not hold (its shuffle was never
// recorded) or holds at several tables (whose seeds they are cannot be told) is left out; they
// count from now towards SeedLife.
func (c *Console) adopt(l *recorder.Log, byHand map[string]map[events.Seq]cards.Seed) error {
	if len(byHand) == 0 {
		return nil
	}
	if l == nil {
		return errors.New("the seeds of the hands in progress need the log to find their tables")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for hand, seeds := range byHand {
		subject, err := l.HandSubject(ctx, hand)
		switch {
		case errors.Is(err, recorder.ErrHandNotFound), errors.Is(err, recorder.ErrAmbiguousHand):
			continue
		case err != nil:
			return err
		}
		table, ok := strings.CutPrefix(subject, recorder.SubjectPrefix)
		if !ok || !strings.HasSuffix(table, "."+hand) || len(seeds) == 0 {
			continue
		}
		table = strings.TrimSuffix(table, "."+hand)
		c.seeds[handKey{table, hand}] = &handSeeds{made: c.now(), seeds: seeds}
		c.nseeds += len(seeds)
	}
	return nil
}
