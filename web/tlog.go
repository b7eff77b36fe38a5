package web

import "net/http"

// TransparencyRoutes are the routes of the transparency log (docs/security.md, "Checking the log
// from outside"): the latest signed checkpoint, the inclusion and consistency proofs, a player's
// receipt of a hand and the tiles, all read-only GETs, and the POST of a witness's co-signature,
// which carries its own authentication (a signature by a key of the allow-list): it needs no
// user's login.
var TransparencyRoutes = []string{"GET /checkpoint", "GET /tlog/proof/", "GET /tlog/receipt/", "GET /tile/", "POST /tlog/cosignature"}

// transparencyRoutes mounts Options.Transparency on m.
func (s *Server) transparencyRoutes(m *http.ServeMux) {
	if s.tlog == nil {
		return
	}
	for _, p := range TransparencyRoutes {
		m.Handle(p, s.tlog)
	}
}
