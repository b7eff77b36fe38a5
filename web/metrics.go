package web

import (
	"context"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/fechado/fechado/recorder"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are the Prometheus series at /metrics, on a registry of the server's own.
type metrics struct {
	reg           *prometheus.Registry
	skipped       prometheus.Counter
	conflicts     prometheus.Counter
	rejected      prometheus.Counter
	findings      *prometheus.CounterVec
	auditDuration prometheus.Histogram
	handsAudited  prometheus.Counter
	sseClients    prometheus.Gauge
}

func newMetrics(s *Server) *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		skipped: prometheus.NewCounter(prometheus.CounterOpts{Name: "fechado_events_skipped_total",
			Help: "Events posted that were already stored byte for byte (not appended twice)."}),
		conflicts: prometheus.NewCounter(prometheus.CounterOpts{Name: "fechado_append_conflicts_total",
			Help: "Hands whose append the store refused with a sequence conflict."}),
		rejected: prometheus.NewCounter(prometheus.CounterOpts{Name: "fechado_append_rejected_total",
			Help: "Hands not appended because an event of theirs is invalid."}),
		findings: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "fechado_findings_total",
			Help: "Findings of the live auditor, by code and severity."}, []string{"code", "severity"}),
		auditDuration: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "fechado_audit_duration_seconds",
			Help:    "Time the live auditor takes to audit one hand.",
			Buckets: prometheus.ExponentialBuckets(0.00001, 4, 10)}),
		handsAudited: prometheus.NewCounter(prometheus.CounterOpts{Name: "fechado_hands_audited_total",
			Help: "Hands the live auditor audited."}),
		sseClients: prometheus.NewGauge(prometheus.GaugeOpts{Name: "fechado_sse_clients",
			Help: "Connections to GET /api/events: one per browser, whose tabs share it."}),
	}
	m.reg.MustRegister(collectInTurn{newLogSeries(s.log, s.Checkpoint), m.skipped, m.conflicts, m.rejected, m.findings,
		m.auditDuration, m.handsAudited, m.sseClients,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{})})
	return m
}

// collectInTurn is the registry's one collector: it collects each of its collectors in turn, in
// the goroutine the registry gives it. Registered apart, each collector is a goroutine of its own
// in every scrape, and the registry yields the processor (runtime.Gosched) each time it starts
// one: cheap on an idle server, but on a busy one each yield waits behind every goroutine ready
// to run, and ten of them made /metrics the slowest endpoint at a million hands (BENCHMARKS.md).
// Every collector here is a few reads of memory, one of the read models' checkpoint and a few of
// /proc: nothing is worth a goroutine.
type collectInTurn []prometheus.Collector

func (cs collectInTurn) Describe(ch chan<- *prometheus.Desc) {
	for _, c := range cs {
		c.Describe(ch)
	}
}

func (cs collectInTurn) Collect(ch chan<- prometheus.Metric) {
	for _, c := range cs {
		c.Collect(ch)
	}
}

// logSeries are the three series of the log and its projection, from one read of the stream's
// last sequence and one of the read models' checkpoint per scrape:
//
//   - fechado_events_appended_total: the events the hand log holds, the stream's last sequence.
//     Every path appends to that one stream (POST /api/events, `fechado record` and `import
//     --publish`, the table console, the demo's simulated tables, a table system publishing to
//     NATS itself), from this process or any other, and the stream never deletes a message
//     (DenyDelete, DenyPurge): its last sequence is the number of events ever appended, which a
//     counter of this process's own appends could not tell. Read at each scrape, an append
//     acknowledged before it is counted. When the stream cannot be asked, the last value read is
//     reported, so the counter never goes down.
//   - fechado_projector_checkpoint: the stream sequence the read models have reached, -1 when
//     the database cannot be read.
//   - fechado_projector_lag_events: the first minus the second, -1 when either is unknown.
//
// The checkpoint is read first: it never passes a sequence already stored, so the lag is never
// negative, and the three series of one scrape agree (lag = appended - checkpoint). Embedded, the
// last sequence is a function call (recorder.Log.LastSeq), not a request: a scrape of a busy
// server no longer waits for the request's goroutines to get a core, twice.
type logSeries struct {
	log        *recorder.Log
	checkpoint func(context.Context) (uint64, error)
	appended   *prometheus.Desc
	lag        *prometheus.Desc
	cp         *prometheus.Desc
	last       atomic.Uint64 // the largest last sequence read
}

func newLogSeries(l *recorder.Log, checkpoint func(context.Context) (uint64, error)) *logSeries {
	return &logSeries{
		log: l, checkpoint: checkpoint,
		appended: prometheus.NewDesc("fechado_events_appended_total",
			"Events appended to the hand log by any path and any process (the stream's last sequence).", nil, nil),
		lag: prometheus.NewDesc("fechado_projector_lag_events",
			"Stream messages stored but not yet projected into the read models.", nil, nil),
		cp: prometheus.NewDesc("fechado_projector_checkpoint",
			"Stream sequence the read models have reached.", nil, nil),
	}
}

func (c *logSeries) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.appended
	ch <- c.lag
	ch <- c.cp
}

func (c *logSeries) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	cp, cpErr := c.checkpoint(ctx)
	seq, seqErr := c.log.LastSeq(ctx)
	if seqErr == nil {
		// Max, for two scrapes at once whose answers arrive out of order.
		for old := c.last.Load(); seq > old && !c.last.CompareAndSwap(old, seq); old = c.last.Load() {
		}
	}
	last := c.last.Load()
	ch <- prometheus.MustNewConstMetric(c.appended, prometheus.CounterValue, float64(last))
	cpv, lag := -1.0, -1.0
	if cpErr == nil {
		cpv = float64(cp)
		if seqErr == nil && cp <= last {
			lag = float64(last - cp)
		}
	}
	ch <- prometheus.MustNewConstMetric(c.cp, prometheus.GaugeValue, cpv)
	ch <- prometheus.MustNewConstMetric(c.lag, prometheus.GaugeValue, lag)
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}
