package lang

// The web pages' own words (web/assets): the menu, the live indicator and the page frame.
var _ = extend("pt-BR", map[string]Text{
	"web.nav.tables":        {Other: "Mesas"},
	"web.nav.hands":         {Other: "Mãos"},
	"web.nav.players":       {Other: "Jogadores"},
	"web.nav.tournaments":   {Other: "Torneios"},
	"web.live.on":           {Other: "ao vivo"},
	"web.live.off":          {Other: "desconectado"},
	"web.live.reconnecting": {Other: "reconectando"},
	"web.loading":           {Other: "Carregando…"},
	"web.footer":            {Other: "Registro de mãos de pôquer fechado"},
	"web.metrics":           {Other: "métricas"},
	"web.nav.label":         {Other: "Páginas"},
	"web.lang.label":        {Other: "Idioma"},
	"web.live.title":        {Other: "Atualizações ao vivo das mesas: uma só conexão atende todas as abas deste navegador."},
	"web.unknown":           {Other: "Esta página não existe."},
})
