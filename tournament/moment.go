package tournament

import (
	"time"

	"github.com/fechado/fechado/events"
)

// Moment is a tournament as it stood at a moment: what replay --tournament and the API's
// tournament at a time both show, built here once.
type Moment struct {
	Tournament string        `json:"tournament"`
	Entries    int           `json:"entries"`
	Stack      events.Chips  `json:"stack"`
	Rebuys     events.Chips  `json:"rebuys"`
	Level      int           `json:"level"`
	Hands      int           `json:"hands"`
	InPlay     int           `json:"in_play"`
	Finished   bool          `json:"finished"`
	ChipsHeld  events.Chips  `json:"chips_held"`
	ChipsMade  events.Chips  `json:"chips_made"`
	Tables     []TableMoment `json:"tables"`
	Standings  []Standing    `json:"standings"`
}

// TableMoment is one table of a tournament at a moment.
type TableMoment struct {
	Table string `json:"table"`
	Level int    `json:"level"`
	Hands int    `json:"hands"`
	// Number and Hand are the number and id of the table's last hand ended by then, Ended its end.
	Number int          `json:"number"`
	Hand   string       `json:"hand"`
	Ended  string       `json:"ended"`
	Carry  events.Chips `json:"carry"`
	// Players are the players still in seated there, with their chips after that hand.
	Players []Seat `json:"players"`
	// InProgress is the id of the hand started at the table and not ended by then, if any.
	InProgress string `json:"in_progress,omitempty"`
}

// Moment returns the tournament as the events added so far leave it, or nil when none of its
// hands has ended.
func (f *Follower) Moment() *Moment {
	t := f.Tournament()
	if t == nil {
		return nil
	}
	m := &Moment{Tournament: t.ID, Entries: t.Entries, Stack: t.Stack, Rebuys: t.Rebuys, Level: t.Level,
		Hands: t.Hands, InPlay: t.InPlay(), Finished: t.Finished(), Standings: t.Standings(), Tables: []TableMoment{}}
	m.ChipsHeld, m.ChipsMade = t.Chips()
	running := map[string]string{}
	for _, evs := range f.Running() {
		if len(evs) > 0 {
			running[evs[0].Table] = evs[0].Hand
		}
	}
	for _, tb := range t.Tables() {
		m.Tables = append(m.Tables, TableMoment{Table: tb.ID, Level: tb.Level, Hands: tb.Hands, Number: tb.Number,
			Hand: tb.Hand, Ended: tb.End.Format(time.RFC3339Nano), Carry: tb.Carry, Players: t.Seated(tb.ID), InProgress: running[tb.ID]})
	}
	return m
}
