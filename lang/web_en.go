package lang

// The web pages' own words (web/assets): the menu, the live indicator and the page frame.
var _ = extend("en", map[string]Text{
	"web.nav.tables":        {Other: "Tables"},
	"web.nav.hands":         {Other: "Hands"},
	"web.nav.players":       {Other: "Players"},
	"web.nav.tournaments":   {Other: "Tournaments"},
	"web.live.on":           {Other: "live"},
	"web.live.off":          {Other: "offline"},
	"web.live.reconnecting": {Other: "reconnecting"},
	"web.loading":           {Other: "Loading…"},
	"web.footer":            {Other: "Closed poker hand log"},
	"web.metrics":           {Other: "metrics"},
	"web.nav.label":         {Other: "Pages"},
	"web.lang.label":        {Other: "Language"},
	"web.live.title":        {Other: "Live updates from the tables: one connection serves every tab of this browser."},
	"web.unknown":           {Other: "There is no such page."},
})
