package audit

import (
	"slices"
	"strings"
	"sync"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/rules"
)

// This file spreads an audit over several goroutines without changing a byte of what it reports
// or the order it reports it in. The log stays one stream: the Auditor still takes its events in
// order on one goroutine, and keeps on it what spans the whole log (the chain of each hand, the
// ids seen, the open hands, the last line for a line that is not JSON). What a hand costs once it
// has ended — its replay through the rules — is done by whichever worker is free: a hand's replay
// needs nothing but its own events. What links a hand to the hands before it, its table's
// continuity and its tournament's books, is cheap and follows the hands in the order they ended:
// one goroutine, the reporter, does it as each hand comes back from its worker, and reports every
// finding in the order the Auditor alone would have (ParallelReaders spreads the decoding of the
// lines too). A log of tables one after the other spreads as well as one of tables interleaved.

// Spread makes a audit each ended hand on one of n workers (n < 2: one) while it goes on with
// the next events, until Close, which waits for them all. The findings, the Hand callback and the
// counts are exactly those of an Auditor that was not spread, in the same order; Report and Hand
// are called on another goroutine than the one that feeds the events, one call at a time.
func (a *Auditor) Spread(n int) {
	if a.par != nil {
		return
	}
	n = max(n, 1)
	pl := &pipeline{a: a, jobs: make(chan *batch, 4*n), out: make(chan *batch, 8*n), done: make(chan struct{}), cur: &batch{}}
	pl.keep = a.Hand != nil
	for range n {
		w := New(nil)
		// The reporter follows tables and tournaments (below). When a Hand callback may keep a
		// hand's state, a callback of the worker's own makes it allocate each state afresh;
		// else it renews the states the reporter is done with (pl.states), as one Auditor
		// renews its one state.
		w.linksLater = true
		if pl.keep {
			w.Hand = func(*HandResult) {}
		}
		pl.wg.Add(1)
		go func() {
			defer pl.wg.Done()
			for b := range pl.jobs {
				for _, j := range b.hands {
					if !pl.keep {
						w.hand, _ = pl.states.Get().(*rules.Hand)
					}
					j.audit(w)
				}
				close(b.ready)
			}
		}()
	}
	go pl.report()
	a.par = pl
}

// batchHands is how many ended hands go to a worker at once: a hand is replayed in some tens of
// microseconds, and handing one over costs a wake-up of two goroutines, which on a busy machine
// (more goroutines ready than cores) may wait a time slice; a batch pays it once.
const batchHands = 128

// pipeline is a spread audit: the workers' queue and the reporter's.
type pipeline struct {
	a    *Auditor
	jobs chan *batch
	wg   sync.WaitGroup
	// out holds the batches in the order they were filled, for the reporter.
	out  chan *batch
	done chan struct{}
	// cur is the batch being filled by the Auditor's goroutine.
	cur *batch
	// keep is set when the Auditor's Hand callback may keep a hand's state; else states holds
	// the rules states the reporter is done with, for the workers to renew.
	keep   bool
	states sync.Pool
}

// batch is a run of what the Auditor found, in order: hands, replayed by a worker, and findings
// found on the Auditor's goroutine between them.
type batch struct {
	items []item
	hands []*handJob
	ready chan struct{} // closed once a worker has replayed the hands
}

// item is one entry of a batch: a hand, a function to call once what comes before is reported
// (then), or else a finding.
type item struct {
	job *handJob
	fn  func()
	f   finding.Finding
}

// handJob is one ended hand, replayed by a worker.
type handJob struct {
	p   *pending
	res HandResult
	// evs are the events in seq order when the hand reaches its table's continuity and its
	// tournament (it was replayed and it ended); nil otherwise.
	evs []*events.Event
}

// audit replays the hand as Auditor.finish does, but for its links to the hands before it.
func (j *handJob) audit(w *Auditor) {
	p := j.p
	j.res = HandResult{Table: strings.Clone(p.table), Hand: strings.Clone(p.hand)}
	w.auditHand(p, &j.res)
	// auditHand follows the table and the tournament last, when the hand could be replayed and
	// it ended.
	if j.res.State == nil || len(p.events) == 0 {
		return
	}
	evs := p.events
	if !slices.IsSortedFunc(evs, eventBySeq) {
		evs = slices.Clone(evs)
		slices.SortStableFunc(evs, eventBySeq)
	}
	if evs[len(evs)-1].Type == events.HandEndedType {
		j.evs = evs
	}
}

// hand adds an ended hand to the batch being filled, sent once it holds batchHands hands.
func (pl *pipeline) hand(p *pending) {
	j := &handJob{p: p}
	pl.cur.items = append(pl.cur.items, item{job: j})
	pl.cur.hands = append(pl.cur.hands, j)
	if len(pl.cur.hands) >= batchHands {
		pl.flush()
	}
}

// finding queues a finding found on the Auditor's goroutine after the hands ended before it.
func (pl *pipeline) finding(f finding.Finding) {
	pl.cur.items = append(pl.cur.items, item{f: detach(f)})
}

// then queues fn, called by the reporter once everything queued before it is reported.
func (pl *pipeline) then(fn func()) {
	pl.cur.items = append(pl.cur.items, item{fn: fn})
}

// flush sends the batch being filled to a worker, and its place to the reporter.
func (pl *pipeline) flush() {
	b := pl.cur
	if len(b.items) == 0 {
		return
	}
	pl.cur = &batch{items: make([]item, 0, len(b.items)), hands: make([]*handJob, 0, batchHands)}
	b.ready = make(chan struct{})
	pl.jobs <- b
	pl.out <- b
}

// close waits until the workers are done and everything is reported.
func (pl *pipeline) close() {
	pl.flush()
	close(pl.jobs)
	close(pl.out)
	<-pl.done
	pl.wg.Wait()
}

// report reports, in order, what the Auditor queued: for a hand, what Auditor.finish reports.
func (pl *pipeline) report() {
	defer close(pl.done)
	a := pl.a
	for b := range pl.out {
		<-b.ready
		for _, it := range b.items {
			j := it.job
			switch {
			case it.fn != nil:
				it.fn()
				continue
			case j == nil:
				a.deliver(it.f)
				continue
			}
			res := &j.res
			if j.evs != nil {
				res.Findings = a.continuity(res.Findings, j.p.table, j.evs[0], res.State)
				res.Findings = a.tournament(res.Findings, j.evs)
			}
			a.Hands++
			if !slices.IsSortedFunc(res.Findings, bySeq) {
				slices.SortStableFunc(res.Findings, bySeq)
			}
			for i, f := range res.Findings {
				res.Findings[i] = a.deliver(f)
			}
			if a.Hand != nil {
				a.Hand(res)
			} else if res.State != nil {
				pl.states.Put(res.State)
			}
		}
	}
}
