package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/fechado/fechado/events"
	"github.com/fechado/fechado/finding"
	"github.com/fechado/fechado/internal/logfile"
	"github.com/fechado/fechado/lang"
	"github.com/fechado/fechado/rules"
	"github.com/fechado/fechado/sim"
)

func init() {
	register(&command{
		name:     "sim",
		summary:  "simulate hands at one table with computer players",
		usage:    "sim --rules NAME --players N --hands K [--seed S] [--table ID] [--out FILE] [--inject CODE]... [--cash] [--publish]   |   sim --room --players P --tables T --hands H [--colluders K --collusion KIND,… --truth FILE]   |   sim --tournament --rules NAME --entries N [--tables T] [--level DURATION] [--id ID] …   |   sim --live --target URL [--tables N] [--pace D] [--duration D] [--readers K] [--user U --password P]",
		helpFrom: simHelp,
		run:      runSim,
	})
}

func simHelp() string {
	var b strings.Builder
	b.WriteString(`Plays K hands of closed poker at one table under the preset NAME (br-fechado, br-online,
tr-kapali, std-draw, online-draw) with N computer players, or fewer hands if one player wins
every chip first, and writes every event as JSON Lines (events-v1.md) to stdout or --out, or
appends them to the log with --publish.

The players have styles (tight or loose, passive or aggressive, bluffers), open with openers,
call, raise and draw by hand strength. Shuffles are machine shuffles (hmac-sha256-fy-v1) whose
seeds come from --seed and are revealed at the end of each hand; ids and times come from the same
seed and a simulated clock, so the same --seed gives the same bytes. Now and then the dealer
exposes a card (--expose-rate) and applies the preset's remedy; such hands carry a card.exposed
warning. Where the preset allows rebuys, a player who loses every chip buys in again (twice at
most), else he leaves; in tr-kapali he is dealt in with no chips for two hands first.

--cash plays a cash session (events-v1.md §7): between hands a player now and then sits out for
one to three hands (listed as away with his chips) and comes back, or leaves with his chips
(left), and a newcomer may take the free seat with a buy-in of --stack (joined). It is for the
presets with rebuys and antes: br-fechado, tr-kapali and std-draw.

Stakes default per preset (ante/min_bet/max_bet): br-fechado 5/10/100, br-online 0/10/0,
tr-kapali 5/10/0, std-draw 5/10/20, online-draw blinds 5/10 no limit. Stacks vary by seat from
20% to 150% of --stack (all equal in br-online, or with --even-stacks).

--inject CODE (repeatable, or comma-separated; "all" for every code the preset can show) gives
every hand that fits it exactly one irregularity of that code, the only error the auditor finds
in the hand; several codes take turns, the fewest injected first. A hand no code fits is
written clean. The players play clean: each irregularity is a mutation of the finished hand
(table.dealer writes every player one seat on; table.seating leaves a player out and deals the
same shuffle and cut to the others).
Codes that cannot be injected:
`)
	var codes []string
	for c := range sim.NotInjectable {
		codes = append(codes, string(c))
	}
	sort.Strings(codes)
	for _, c := range codes {
		fmt.Fprintf(&b, "  %s: %s\n", c, sim.NotInjectable[finding.Code(c)])
	}
	b.WriteString(`Some codes fit only some presets: deck.shuffles (br-fechado), blind.amount (online-draw),
table.rebuy (br-online), draw.declared and open.not-allowed (tr-kapali), draw.too-many (at most
four cards drawn), deck.foreign-card (decks without the deuces), open.* (presets with openers);
--inject rejects a code the preset cannot show.

Example: fechado sim --rules br-fechado --players 4 --hands 100 --seed 7 --out table.jsonl
` + simTournamentHelp + simRoomHelp + `

Exit status: 0; 2 for bad usage; 3 when --publish cannot reach the log or an append is refused.`)
	b.WriteString(simLiveHelp)
	return b.String()
}

// chipsFlag is an optional amount of chips (-1 = not set).
type chipsFlag struct{ v events.Chips }

func (c *chipsFlag) String() string { return strconv.FormatInt(int64(c.v), 10) }

func (c *chipsFlag) Set(s string) error {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return fmt.Errorf("want a whole number of chips, not %q", s)
	}
	c.v = events.Chips(n)
	return nil
}

func runSim(m *Main, args []string) error {
	if slices.Contains(args, "--live") || slices.Contains(args, "-live") {
		return runSimLive(m, args) // the load generator (sim_live.go)
	}
	fs := m.flags(commands["sim"])
	name := fs.String("rules", "", "the preset: "+strings.Join(rules.Names(), ", "))
	players := fs.Int("players", 0, "players at the table")
	hands := fs.Int("hands", 0, "hands to play")
	seed := fs.Uint64("seed", 1, "the seed of every random choice")
	table := fs.String("table", "", "table id (default sim-RULES-SEED, so that two runs never share a table)")
	out := fs.String("out", "", "write the events to FILE instead of stdout")
	publish := fs.Bool("publish", false, "append the events to the log instead of writing JSON Lines")
	store := addLogFlags(fs)
	stack := &chipsFlag{-1}
	fs.Var(stack, "stack", "starting stack (default 1000; 500 in br-online)")
	even := fs.Bool("even-stacks", false, "every player starts with --stack")
	ante, minBet, maxBet, sb := &chipsFlag{-1}, &chipsFlag{-1}, &chipsFlag{-1}, &chipsFlag{-1}
	fs.Var(ante, "ante", "ante (default: the preset's)")
	fs.Var(minBet, "min-bet", "min_bet (default: the preset's)")
	fs.Var(maxBet, "max-bet", "max_bet, 0 = no limit (default: the preset's)")
	fs.Var(sb, "small-blind", "online-draw small blind (default half of min_bet)")
	expose := fs.Float64("expose-rate", sim.DefaultExposeRate, "chance per hand that the dealer exposes a card (0 = never)")
	cash := fs.Bool("cash", false, "a cash session: players sit out and come back, leave with their chips, newcomers sit down (presets with rebuys and antes)")
	var inject []string
	fs.Func("inject", "inject CODE into every hand that fits (repeatable, comma-separated, or all)", func(v string) error {
		for _, c := range strings.Split(v, ",") {
			if c = strings.TrimSpace(c); c != "" {
				inject = append(inject, c)
			}
		}
		return nil
	})
	language := fs.String("lang", "", "language of the messages on standard error: en, pt-BR, tr, es (default: LC_ALL, LC_MESSAGES, LANG, else en)")
	tf := addTournamentSimFlags(fs)
	rf := addRoomSimFlags(fs)
	operands, err := m.parse(fs, args)
	if err != nil {
		return err
	}
	if len(operands) > 0 {
		return usageErr("unexpected argument %q (see 'fechado sim --help')", operands[0])
	}
	if rf.on {
		return runSimRoom(m, rf, *name, *players, tf.tables, *hands, *seed, *out)
	}
	if tf.on {
		return runSimTournament(m, tf, rf, *name, *seed, stack.v, *expose, inject, *out, *publish, store)
	}
	if rf.colluders != 0 || rf.collusion != "" || rf.truth != "" {
		return usageErr("--colluders, --collusion and --truth go with --room or --tournament")
	}
	if *name == "" || *players == 0 || *hands <= 0 {
		return usageErr("--rules, --players and --hands are required (see 'fechado sim --help')")
	}
	if *table == "" {
		*table = fmt.Sprintf("sim-%s-%d", *name, *seed)
	}
	cfg := sim.Config{Rules: *name, Players: *players, Hands: *hands, Seed: *seed, Table: *table,
		EvenStacks: *even, ExposeRate: *expose, Cash: *cash}
	if *expose == 0 {
		cfg.ExposeRate = -1
	}
	if stack.v >= 0 {
		if stack.v == 0 {
			return usageErr("--stack must be at least 1")
		}
		cfg.Stack = stack.v
	}
	if ante.v >= 0 || minBet.v >= 0 || maxBet.v >= 0 {
		st := sim.DefaultStakes(*name)
		if ante.v >= 0 {
			st.Ante = ante.v
		}
		if minBet.v >= 0 {
			st.MinBet = minBet.v
		}
		if maxBet.v >= 0 {
			st.MaxBet = maxBet.v
		}
		cfg.Stakes = &st
	}
	if sb.v > 0 {
		cfg.SmallBlind = sb.v
	}
	for _, c := range inject {
		if c == "all" {
			cfg.Inject = append(cfg.Inject, sim.InjectableFor(*name)...)
			continue
		}
		code := finding.Code(c)
		if !code.Known() {
			return usageErr("--inject: unknown finding code %q", c)
		}
		cfg.Inject = append(cfg.Inject, code)
	}
	s, err := sim.New(cfg)
	if err != nil {
		return usageErr("%v", err)
	}
	if *publish {
		if *out != "" {
			return usageErr("--publish and --out exclude each other")
		}
		err = publishSim(m, s, store)
	} else {
		err = writeSim(m, *out, s.Next)
	}
	if err == nil {
		sayEnding(m, cfg, s.Ending(), *language)
	}
	return err
}

// sayEnding tells on standard error, in the reader's language, that the table stopped before
// its hands were played, and why: without it a run asked for 2000 hands that wrote 43 looks
// like a fault.
func sayEnding(m *Main, cfg sim.Config, e sim.Ending, language string) {
	if e.Reason == "" {
		return
	}
	l, err := lang.Choose(language, m.getenv)
	if err != nil {
		l = lang.English()
	}
	a := lang.Args{"table": cfg.Table, "played": e.Played, "wanted": cfg.Hands, "player": e.Player,
		"n": e.WithChips, "min": e.Needed, "preset": cfg.Rules}
	fmt.Fprintf(m.Stderr, "fechado sim: %s\n", l.T("sim.ended."+e.Reason, a))
}

// writeSim writes the hands next gives as JSON Lines to the file out, or to stdout when out is "".
func writeSim(m *Main, out string, next func() (*sim.Hand, error)) error {
	return writeSimOut(m, out, func(w io.Writer) error { return sim.WriteAll(w, next) })
}

// writeSimOut gives write a buffered writer to the file out (created), or to stdout when out is
// "", and flushes and closes it: the output of every form of sim.
func writeSimOut(m *Main, out string, write func(io.Writer) error) error {
	var w io.Writer = m.Stdout
	var f *os.File
	if out != "" {
		var err error
		if f, err = os.Create(out); err != nil {
			return usageErr("%v", err)
		}
		defer f.Close()
		w = f
	}
	bw := logfile.NewWriter(w)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if f != nil {
		return f.Close()
	}
	return nil
}

// publishSim appends the simulated hands to the log, event by event. The recorder refuses what
// it cannot store (an injected broken envelope among them): exit 3, as for any refused append.
func publishSim(m *Main, s *sim.Sim, store *logFlags) error { return publishHands(m, s.Next, store) }
