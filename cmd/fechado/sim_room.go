package main

import (
	"encoding/json"
	"flag"
	"io"
	"os"

	"github.com/fechado/fechado/sim"
)

const simRoomHelp = `
Rooms: with --room, sim plays a room of many cash tables instead of one table: a pool of
--players P players, --tables T tables at once, --hands H hands in all, under --rules (default
std-draw). Every round (three hours of simulated time) each table seats 3 to 6 players drawn
from those not seated elsewhere for a session of 20 to 100 hands, so players come and go between
tables; each session is a table of its own, room-T-R (table T, round R). A player keeps his style
from session to session. --colluders K plants K pairs of colluders; --collusion soft-play,
chip-dump, share-cards (comma-separated; default all three, given to the pairs in turn) says how
they collude: soft-play partners seldom bet into each other and fold to each other's bets;
chip-dump partners pass chips one way (the first of the pair folds to the second's bets and bets
weak hands into him); share-cards partners fold to a third player's bet when the partner holds
more and raise when they hold more than the partner. A colluder brings his free partner to his
table half of the time. --truth FILE writes the planted pairs as JSON Lines {"a","b","kind"}
(in a chip dump, a passes chips to b). See docs/integrity.md.
Example: fechado sim --room --players 200 --tables 30 --hands 200000 --colluders 6 --truth truth.jsonl --out room.jsonl
`

// roomSimFlags are sim's flags of a room (--room).
type roomSimFlags struct {
	on        bool
	colluders int
	collusion string
	truth     string
}

func addRoomSimFlags(fs *flag.FlagSet) *roomSimFlags {
	var rf roomSimFlags
	fs.BoolVar(&rf.on, "room", false, "play a room of many cash tables whose players come and go (see Rooms below)")
	fs.IntVar(&rf.colluders, "colluders", 0, "room or tournament: pairs of colluders to plant")
	fs.StringVar(&rf.collusion, "collusion", "", "room or tournament: kinds of collusion, comma-separated: soft-play, chip-dump, share-cards (default all)")
	fs.StringVar(&rf.truth, "truth", "", "room or tournament: write the planted pairs to FILE as JSON Lines")
	return &rf
}

// runSimRoom plays a room (sim.Room) and writes its hands to out (stdout when "") and the planted
// pairs to --truth.
func runSimRoom(m *Main, rf *roomSimFlags, preset string, players, tables, hands int, seed uint64, out string) error {
	kinds, err := sim.ParseCollusion(rf.collusion)
	if err != nil {
		return usageErr("%v", err)
	}
	if players <= 0 || hands <= 0 {
		return usageErr("--room needs --players and --hands (see 'fechado sim --help')")
	}
	var pairs []sim.Pair
	err = writeSimOut(m, out, func(w io.Writer) error {
		var err error
		pairs, err = sim.Room(sim.RoomConfig{Rules: preset, Players: players, Tables: tables, Hands: hands, Seed: seed,
			Colluders: rf.colluders, Collusion: kinds}, w)
		if err != nil {
			return usageErr("%v", err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return writeTruth(rf.truth, pairs)
}

// writeTruth writes the planted pairs to path as JSON Lines (--truth); nothing when path is "".
func writeTruth(path string, pairs []sim.Pair) error {
	if path == "" {
		return nil
	}
	f, err := os.Create(path)
	if err != nil {
		return usageErr("%v", err)
	}
	enc := json.NewEncoder(f)
	for _, p := range pairs {
		if err := enc.Encode(p); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}
