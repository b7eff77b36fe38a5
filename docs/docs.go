// Package docs holds the documents of fechado's public contract that programs show to people:
// the rules of the presets (rules.md), whose sections the findings cite.
package docs

import _ "embed"

// Rules is docs/rules.md: the presets rule by rule, each with its source quoted, under stable
// anchors (<a id="preset-topic">).
//
//go:embed rules.md
var Rules string
