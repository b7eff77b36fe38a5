package lang

// The web pages' own words (web/assets): the menu, the live indicator and the page frame.
var _ = extend("es", map[string]Text{
	"web.nav.tables":        {Other: "Mesas"},
	"web.nav.hands":         {Other: "Manos"},
	"web.nav.players":       {Other: "Jugadores"},
	"web.nav.tournaments":   {Other: "Torneos"},
	"web.live.on":           {Other: "en vivo"},
	"web.live.off":          {Other: "desconectado"},
	"web.live.reconnecting": {Other: "reconectando"},
	"web.loading":           {Other: "Cargando…"},
	"web.footer":            {Other: "Registro de manos de póquer cerrado"},
	"web.metrics":           {Other: "métricas"},
	"web.nav.label":         {Other: "Páginas"},
	"web.lang.label":        {Other: "Idioma"},
	"web.live.title":        {Other: "Actualizaciones en vivo de las mesas: una sola conexión sirve a todas las pestañas de este navegador."},
	"web.unknown":           {Other: "Esta página no existe."},
})
