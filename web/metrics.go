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
	lag := prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "fechado_projector_lag_events",
		Help: "Stream messages stored but not yet projected into the read models."}, func() float64 {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		last, err := lastSeq(ctx, s.log)
		if err != nil {
			return -1
		}
		cp, err := s.Checkpoint(ctx)
		if err != nil || cp > last {
			return -1
		}
		return float64(last - cp)
	})
	checkpoint := prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "fechado_projector_checkpoint",
		Help: "Stream sequence the read models have reached."}, func() float64 {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		cp, err := s.Checkpoint(ctx)
		if err != nil {
			return -1
		}
		return float64(cp)
	})
	m.reg.MustRegister(appendedCounter(s.log), m.skipped, m.conflicts, m.rejected, m.findings, m.auditDuration,
		m.handsAudited, m.sseClients, lag, checkpoint,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// appendedCounter is fechado_events_appended_total: the events the hand log holds, read from the
// stream's last sequence at each scrape. Every path appends to that one stream (POST
// /api/events, `fechado record` and `import --publish`, the table console, the demo's simulated
// tables, a table system publishing to NATS itself), from this process or any other, and the
// stream never deletes a message (DenyDelete, DenyPurge): its last sequence is the number of
// events ever appended, which a counter of this process's own appends could not tell. When the
// stream cannot be asked, the last value read is reported, so the counter never goes down.
func appendedCounter(l *recorder.Log) prometheus.Collector {
	var last atomic.Uint64
	return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "fechado_events_appended_total",
		Help: "Events appended to the hand log by any path and any process (the stream's last sequence)."}, func() float64 {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if seq, err := lastSeq(ctx, l); err == nil {
			// Max, for two scrapes at once whose answers arrive out of order.
			for old := last.Load(); seq > old && !last.CompareAndSwap(old, seq); old = last.Load() {
			}
		}
		return float64(last.Load())
	})
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// lastSeq returns the last sequence of the log's stream.
func lastSeq(ctx context.Context, l *recorder.Log) (uint64, error) {
	info, err := l.Stream().Info(ctx)
	if err != nil {
		return 0, err
	}
	return info.State.LastSeq, nil
}
