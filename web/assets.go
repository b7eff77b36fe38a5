package web

import "embed"

// assets are the dashboard's pages, served at /: plain HTML, CSS and JavaScript, no CDN.
//
//go:embed assets
var assets embed.FS
