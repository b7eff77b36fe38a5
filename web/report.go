package web

import (
	"bytes"
	"net/http"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/lang"
	"github.com/fechado/fechado/report"
)

// getReport is GET /hands/{id}/report?lang=: the dispute report of an ended hand, the page
// `fechado report` writes, in the language asked for (else the browser's, else English). A hand
// in progress has no report: it shows every card.
func (s *Server) getReport(w http.ResponseWriter, r *http.Request) {
	evs, view, fs, ok := s.shownHand(w, r)
	if !ok {
		return
	}
	if view != viewStored {
		writeError(w, http.StatusConflict, "the hand is still being played: its report comes when it ends", &apiError{Hand: r.PathValue("id")})
		return
	}
	var b bytes.Buffer
	if err := report.Write(&b, evs, report.Options{Lang: readerLang(r), Findings: asFindings(evs[0], fs)}); err != nil {
		writeError(w, http.StatusUnprocessableEntity, err.Error(), &apiError{Hand: r.PathValue("id")})
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(b.Bytes())
}

// readerLang is the language of ?lang=, else the first of Accept-Language fechado speaks, else
// English.
func readerLang(r *http.Request) *lang.Lang { return lang.FromRequest(r) }

// asFindings gives the stored findings of a hand back their finding.Finding form.
func asFindings(first *events.Event, fs []FindingView) []finding.Finding {
	out := make([]finding.Finding, len(fs))
	for i, f := range fs {
		out[i] = finding.Finding{Hand: first.Hand, Table: first.Table, Seq: events.Seq(f.Seq), Code: finding.Code(f.Code),
			Severity: finding.Severity(f.Severity), Seat: events.Seat(f.Seat), Message: f.Message}
		if len(f.Expected) > 0 {
			out[i].Expected = f.Expected
		}
		if len(f.Actual) > 0 {
			out[i].Actual = f.Actual
		}
	}
	return out
}
