// Package rules owns the game: the five closed-poker presets of presets.md as data, the five-card
// hand evaluator, and the hand state machine that replay, audit, simulation and statistics share.
package rules
