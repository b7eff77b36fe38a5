package browsertest

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/chromedp/chromedp"
)

// axeSource is axe-core's axe.min.js, vendored (testdata/axe-core).
//
//go:embed testdata/axe-core/axe.min.js
var axeSource string

// AxeViolation is one rule of axe-core a page breaks: its id ("color-contrast"), impact
// (serious, critical), what it asks for, and the first elements that break it with why.
type AxeViolation struct {
	ID     string   `json:"id"`
	Impact string   `json:"impact"`
	Help   string   `json:"help"`
	Nodes  []string `json:"nodes"`
}

func (v AxeViolation) String() string {
	return fmt.Sprintf("%s (%s): %s: %s", v.ID, v.Impact, v.Help, strings.Join(v.Nodes, "; "))
}

// Axe checks the page of ctx with axe-core against WCAG 2.0 and 2.1, levels A and AA, and returns
// its serious and critical violations. The checker is injected through the DevTools protocol
// (Runtime.evaluate), which the page's Content Security Policy does not govern, so the pages keep
// their policy of no script but their own.
//
// The checker's 650 kB are sent only to a page that does not have it yet: a page of the dashboard
// or the console keeps it from one check to the next while its address changes only after the #,
// and sending it again costs its parse (20–30 ms a check) for nothing.
func Axe(ctx context.Context) ([]AxeViolation, error) {
	loaded, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`typeof axe === "object"`))
	if err != nil {
		return nil, fmt.Errorf("looking for axe-core in the page: %w", err)
	}
	if !loaded {
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(function () {`+axeSource+`
; return true; }).call(window)`)); err != nil {
			return nil, fmt.Errorf("injecting axe-core: %w", err)
		}
	}
	const run = `(typeof axe === "object" ? axe : window.axe).run(document, {
		runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] }, resultTypes: ["violations"] })
	  .then((r) => r.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => ({
		id: v.id, impact: v.impact, help: v.help,
		nodes: v.nodes.slice(0, 4).map((n) => n.target.join(" ") + ": " + (n.failureSummary || "").replace(/\s+/g, " ")) })))`
	vs, err := chromedp.Run(ctx, chromedp.Evaluate[[]AxeViolation](run, chromedp.EvalAwaitPromise))
	if err != nil {
		return nil, fmt.Errorf("running axe-core: %w", err)
	}
	return vs, nil
}
