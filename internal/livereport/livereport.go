// Package livereport owns the shape of the report `fechado sim --live` prints (JSON on standard
// output) and the benchmark harness reads (make load, make bench): one type for both commands, so
// that the writer and the reader cannot drift apart.
package livereport

// Figures sums up latencies: the count of samples, the errors, and percentiles in milliseconds.
type Figures struct {
	Count      int     `json:"count"`
	Errors     int     `json:"errors"`
	FirstError string  `json:"first_error,omitempty"`
	P50        float64 `json:"p50_ms"`
	P99        float64 `json:"p99_ms"`
	Max        float64 `json:"max_ms"`
}

// Report is sim --live's report: the load offered, and the append latency, the live-audit lag
// (an event appended → its hand shown ended and audited by the read models) and the read latency
// measured while it ran.
type Report struct {
	Tables    int     `json:"tables"`
	PaceMS    float64 `json:"pace_ms"`
	Seconds   float64 `json:"seconds"`
	Hands     int     `json:"hands_ended"`
	Append    Figures `json:"append"`
	Lag       Figures `json:"lag"`
	LagUnseen int     `json:"lag_unseen"` // hands ended whose end the read models had not shown at the end
	Read      Figures `json:"read"`
}
