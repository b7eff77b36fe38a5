package lang

// The web pages' own words (web/assets): the menu, the live indicator and the page frame.
var _ = extend("tr", map[string]Text{
	"web.nav.tables":        {Other: "Masalar"},
	"web.nav.hands":         {Other: "Eller"},
	"web.nav.players":       {Other: "Oyuncular"},
	"web.nav.tournaments":   {Other: "Turnuvalar"},
	"web.live.on":           {Other: "canlı"},
	"web.live.off":          {Other: "bağlantı yok"},
	"web.live.reconnecting": {Other: "yeniden bağlanıyor"},
	"web.loading":           {Other: "Yükleniyor…"},
	"web.footer":            {Other: "Kapalı poker el kaydı"},
	"web.metrics":           {Other: "ölçümler"},
	"web.nav.label":         {Other: "Sayfalar"},
	"web.lang.label":        {Other: "Dil"},
	"web.live.title":        {Other: "Masalardan canlı güncellemeler: tek bir bağlantı bu tarayıcının tüm sekmelerine hizmet eder."},
	"web.unknown":           {Other: "Böyle bir sayfa yok."},
})
