package report

import (
	"html/template"
	"sync"
)

// css lays the report out for a screen of any width and for print (A4, the browser's "save as
// PDF"): sections do not break across pages, the drawings keep to the page width.
const css = `
*{box-sizing:border-box}
body{font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1b1b;background:#f4f2ec;margin:0}
main{max-width:1080px;margin:0 auto;padding:16px}
h1{font-size:1.6em;margin:.2em 0}
h2{font-size:1.25em;border-bottom:2px solid #1f6b3a;padding-bottom:.2em;margin-top:1.6em}
section,article{background:#fff;border-radius:8px;padding:12px 16px;margin:12px 0}
.hint{color:#555;font-size:.9em}
.result{font-size:1.2em;font-weight:700;margin:.3em 0}
.legend{color:#444;font-size:.85em;margin:.2em 0 .8em}
table.players{border-collapse:collapse;width:100%;font-size:.95em}
table.players th,table.players td{border-bottom:1px solid #ddd;padding:6px 8px;text-align:left;vertical-align:top}
table.players td.num{text-align:right;font-variant-numeric:tabular-nums}
table.players tr.marked td{background:#fde8ea}
.cards{white-space:nowrap;font-size:1.1em}
.red{color:#c0122c}
article.finding{border-left:6px solid #c0122c}
article.finding.warning{border-left-color:#d4a017}
article.finding.info{border-left-color:#2364aa}
.badge{display:inline-block;font-weight:700;padding:1px 8px;border-radius:4px;background:#c0122c;color:#fff;margin-right:6px}
.warning .badge{background:#d4a017;color:#111}
.info .badge{background:#2364aa}
.sentence{font-size:1.1em;margin:.4em 0}
.cite{color:#333;font-size:.92em}
.remedy{background:#f4f2ec;border-radius:6px;padding:6px 10px;margin:.5em 0}
.remedy h3{font-size:1em;margin:0 0 .2em}
.remedy p{margin:0}
ol.timeline{padding-left:0;list-style:none;margin:0}
ol.timeline li{display:flex;gap:10px;padding:3px 0;border-bottom:1px dotted #ddd}
ol.timeline .seq{flex:0 0 4.5em;color:#666;font-variant-numeric:tabular-nums}
ol.timeline li.flag{background:#fde8ea}
.deckcards{display:flex;flex-wrap:wrap;gap:3px;margin:.3em 0 .8em}
.deckcards span{border:1px solid #999;border-radius:3px;padding:0 4px;min-width:2.4em;text-align:center;background:#fff}
.deckcards span.bad{border:2px solid #c0122c;background:#fde8ea}
.ok{color:#1f6b3a;font-weight:700}
.bad{color:#c0122c;font-weight:700}
code.hash{display:block;font:15px ui-monospace,"DejaVu Sans Mono",monospace;word-break:break-all;background:#f4f2ec;padding:8px;border-radius:4px}
.scroll{overflow-x:auto}
@media (max-width:600px){main{padding:6px}.drawing{min-width:620px}section,article{padding:8px}table.players{font-size:.85em}table.players th,table.players td{padding:4px}}
@media print{
 body{background:#fff;font-size:11pt}
 main{max-width:none;padding:0}
 section,article{padding:0;margin:8px 0;break-inside:avoid}
 section.timeline{break-inside:auto}
 .hint{display:none}
 svg.table{max-width:17cm}
 @page{size:A4;margin:14mm}
}
`

// tmpl is parsed on its first use, by report alone: parsed by the package's initialisation it cost
// every fechado process about 0.5 ms at start.
var tmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Parse(pageTemplate))
})

const pageTemplate = `<!DOCTYPE html>
<html lang="{{.Lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>{{.CSS}}</style>
</head>
<body>
<main>
<header>
<h1>{{.Title}}</h1>
<p>{{.Intro}}</p>
{{range .Result}}<p class="result">{{.}}</p>{{end}}
<p class="hint">{{.PrintHint}}</p>
</header>

<section>
<h2>{{index .Labels "report.final"}}</h2>
<div class="scroll" tabindex="0"><div class="drawing">{{.Final}}</div></div>
<p class="legend">{{index .Labels "report.legend"}}</p>
<div class="scroll" tabindex="0">
<table class="players">
<thead><tr><th>{{index .Labels "col.seat"}}</th><th>{{index .Labels "col.player"}}</th><th>{{index .Labels "col.start"}}</th><th>{{index .Labels "col.final"}}</th><th>{{index .Labels "col.cards"}}</th><th>{{index .Labels "col.hand"}}</th><th>{{index .Labels "col.result"}}</th></tr></thead>
<tbody>
{{range .Players}}<tr{{if .Marked}} class="marked"{{end}}><td class="num">{{.Seat}}</td><td><strong>{{.Name}}</strong></td><td class="num">{{.Start}}</td><td class="num">{{.Final}}</td><td class="cards">{{.Cards}}</td><td>{{.Hand}}</td><td>{{.Result}}</td></tr>
{{end}}</tbody>
</table>
</div>
</section>

<section>
<h2>{{index .Labels "report.findings"}}</h2>
{{range .Findings}}<article class="finding {{.Class}}" id="finding-{{.Index}}">
<p><span class="badge">{{.Severity}}</span> <strong>{{.At}}</strong></p>
<p class="sentence">{{.Sentence}}</p>
{{if .Remedy}}<div class="remedy"><h3>{{index $.Labels "report.remedy"}}</h3><p>{{.Remedy}}</p></div>{{end}}
<p class="cite">{{.Citation}}</p>
{{if .Who}}<p>{{.Who}}</p>{{end}}{{if .Cards}}<p class="cards">{{.Cards}}</p>{{end}}
{{if .Table}}<h3>{{.Caption}}</h3><div class="scroll" tabindex="0"><div class="drawing">{{.Table}}</div></div>
<p class="legend">{{index $.Labels "report.legend"}}</p>{{end}}
</article>
{{else}}<p class="ok">{{index .Labels "report.nofindings"}}</p>
{{end}}
</section>

<section class="timeline">
<h2>{{index .Labels "report.timeline"}}</h2>
<ol class="timeline">
{{range .Timeline}}<li{{if .Findings}} class="flag"{{end}}><span class="seq">{{.Seq}}{{if ne .Seq .Last}}–{{.Last}}{{end}}</span><span>{{.Text}}{{range .Findings}} <a href="#finding-{{.}}">⚑ {{.}}</a>{{end}}</span></li>
{{end}}</ol>
</section>

<section>
<h2>{{index .Labels "report.deck"}}</h2>
{{range .Decks}}<div class="deck">
<p>{{.Method}}</p>
{{if .Verdict}}<p class="{{if .Good}}ok{{else}}bad{{end}}">{{.Verdict}}</p>{{end}}
{{if .Dealt}}<p class="{{if .DealtOK}}ok{{else}}bad{{end}}">{{.Dealt}}</p>{{end}}
{{if .Checked}}<p>{{index $.Labels "deck.taken"}}</p>
<div class="deckcards">{{range .Taken}}<span class="{{if .Red}}red{{end}}{{if .Bad}} bad{{end}}">{{.Text}}{{if .Bad}} ✗{{end}}</span>{{end}}</div>
<p>{{index $.Labels "deck.order"}}</p>
<div class="deckcards">{{range .Order}}<span class="{{if .Red}}red{{end}}">{{.Text}}</span>{{end}}</div>{{end}}
</div>
{{end}}
</section>

<section>
<h2>{{index .Labels "report.chain"}}</h2>
<p>{{.ChainText}}</p>
<code class="hash">{{.Chain}}</code>
</section>
{{with .Proof}}
<section class="proof">
<h2>{{.Title}}</h2>
<p>{{.Text}}</p>
<p>{{.Check}}</p>
<div class="scroll"><pre><code class="hash">{{.Checkpoint}}</code></pre></div>
<pre id="fechado-proof" hidden>{{.Sealed}}</pre>
</section>
{{end}}</main>
</body>
</html>
`
