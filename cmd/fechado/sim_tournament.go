package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/sim"
)

const simTournamentHelp = `
Tournaments: with --tournament, sim plays a whole tournament instead of one table (events-v1.md
§7): --entries N players enter with --stack chips each and are drawn to --tables T tables (more
tables are opened when N players do not fit at tables of the preset's seat count: 8 in br-fechado
and std-draw, 6 in tr-kapali and online-draw, 4 in br-online). The tables play in parallel, their
hands interleaved in simulated time, and the log gives the hands in the order they end. The
level rises every --level of simulated time (default 10m); each level multiplies level 1's
stakes (1, 2, 3, 4, 6, 8, 10, 15, 20, 30, …). A player with no chips is knocked out and leaves
his table. As players go out the director breaks a table as soon as the others have seats for
its players, and balances the tables: a table with two players more than the shortest one gives
it the player who would deal next, who takes the seat there that deals last (the TDA's
procedure, in ante games). Moved players sit down with from (the table they come from); the table
they left lists them in left with to. The tournament ends when one player holds every chip.
--players, --hands and --table do not apply; the tables are named ID-t01, ID-t02, …

--inject, in a tournament, takes the tournament codes only: tournament.move (a moved player
arrives with chips he did not have), tournament.level (a table plays one hand at the level before
its last one), tournament.chips (a player who never entered sits down with a starting stack once a
table breaks); "all" for the three.

--colluders K plants K pairs of colluders among the entries, as in a room (--collusion, --truth:
see Rooms below); the draw seats each pair at one table, and balancing and breaking tables may
part them later, as in a real tournament.

Example: fechado sim --tournament --rules std-draw --entries 60 --tables 8 --seed 3 --out cup.jsonl`

// tournamentSimFlags are sim's tournament flags.
type tournamentSimFlags struct {
	on      bool
	entries int
	tables  int
	id      string
	level   time.Duration
}

func addTournamentSimFlags(fs *flag.FlagSet) *tournamentSimFlags {
	tf := &tournamentSimFlags{}
	fs.BoolVar(&tf.on, "tournament", false, "play a tournament on several tables (see Tournaments below)")
	fs.IntVar(&tf.entries, "entries", 0, "tournament: players who enter")
	fs.IntVar(&tf.tables, "tables", 1, "tournament: tables opened at the start")
	fs.StringVar(&tf.id, "id", sim.DefaultTournament, "tournament: its id, which its tables' ids begin with")
	fs.DurationVar(&tf.level, "level", sim.DefaultLevelDuration, "tournament: how long each level lasts, in simulated time")
	return tf
}

// runSimTournament plays a tournament and writes it as JSON Lines, or appends it to the log.
// Its colluders (rf: --colluders, --collusion) are planted as in a room, and --truth names them.
func runSimTournament(m *Main, tf *tournamentSimFlags, rf *roomSimFlags, rules string, seed uint64, stack events.Chips, expose float64, inject []string, out string, publish bool, store *logFlags) error {
	if rules == "" || tf.entries == 0 {
		return usageErr("--tournament needs --rules and --entries (see 'fechado sim --help')")
	}
	kinds, err := sim.ParseCollusion(rf.collusion)
	if err != nil {
		return usageErr("%v", err)
	}
	cfg := sim.TournamentConfig{Rules: rules, ID: tf.id, Entries: tf.entries, Tables: tf.tables, Level: tf.level, Seed: seed, ExposeRate: expose,
		Colluders: rf.colluders, Collusion: kinds}
	if expose == 0 {
		cfg.ExposeRate = -1
	}
	if stack > 0 {
		cfg.Stack = stack
	} else if stack == 0 {
		return usageErr("--stack must be at least 1")
	}
	for _, c := range inject {
		if c == "all" {
			cfg.Inject = append(cfg.Inject, sim.TournamentInjectable()...)
			continue
		}
		if !slices.Contains(sim.TournamentInjectable(), finding.Code(c)) {
			return usageErr("--inject: %q cannot be injected into a tournament (tournament.move, tournament.level, tournament.chips)", c)
		}
		cfg.Inject = append(cfg.Inject, finding.Code(c))
	}
	t, err := sim.NewTournament(cfg)
	if err != nil {
		return usageErr("%v", err)
	}
	if publish {
		if out != "" {
			return usageErr("--publish and --out exclude each other")
		}
		err = publishHands(m, t.Next, store)
	} else {
		err = writeSim(m, out, t.Next)
	}
	if err != nil {
		return err
	}
	return writeTruth(rf.truth, t.Pairs())
}

// publishHands appends the hands next gives to the log, event by event.
func publishHands(m *Main, next func() (*sim.Hand, error), store *logFlags) error {
	ctx := context.Background()
	l, err := store.open(ctx)
	if err != nil {
		return err
	}
	defer l.Close()
	n := 0
	for {
		h, err := next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		for _, e := range h.Events {
			if _, err := l.Append(ctx, e); err != nil {
				return withCode(exitStore, fmt.Errorf("appending hand %s seq %d: %w", e.Hand, e.Seq, err))
			}
			n++
		}
	}
	fmt.Fprintf(m.Stderr, "fechado sim: appended %d events\n", n)
	return nil
}
