#!/usr/bin/env python3
"""Five-card draw high, fixed limit, one draw, played by pokerkit and written as PHH.

pokerkit (https://github.com/uoftcprg/pokerkit) has no five-card draw high, and PHH no code for it.
This script defines the game as a generic pokerkit game (a 52-card deck, standard high hands, a
betting round, one draw, a second betting round; fixed limit with a bet and three raises) and
registers it with pokerkit's HandHistory under fechado's code F5CD (and the pot- and no-limit
games, built on pokerkit's single-draw streets, under P5CD and N5CD), so that pokerkit writes and
reads PHH of it like any of its own variants.

    PYTHONPATH=/path/to/pokerkit python3 fivedraw.py generate --seed 45 --hands 500 > hands.phhs
    PYTHONPATH=/path/to/pokerkit python3 fivedraw.py replay FILE.phh|FILE.phhs ...

generate plays seeded random hands (2 to 6 players, random stacks, random actions and discards)
and writes them as one .phhs file, each hand with its finishing stacks. replay reads PHH files of
F5CD, P5CD or N5CD (for instance fechado's `export --format phh`), replays every hand in pokerkit and checks
that its finishing stacks are pokerkit's; it prints one line per file and exits 1 on a mismatch.
"""

import argparse
import random
import sys
from functools import partial

from pokerkit import (
    Automation,
    BettingStructure,
    Deck,
    HandHistory,
    Mode,
    NoLimitPokerMixin,
    Opening,
    Poker,
    PotLimitPokerMixin,
    SingleDraw,
    StandardHighHand,
    Street,
    rake as pokerkit_rake,
)

SMALL_BLIND, BIG_BLIND = 1, 2
SMALL_BET, BIG_BET = 2, 4

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_DEALING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


class FixedLimitFiveCardDraw(Poker):
    """Five-card draw high with blinds: five cards face down, a betting round (small bets, three
    raises after the big blind), one draw (a burn, then the replacements), a betting round (big
    bets, a bet and three raises), the best high hand of five wins."""

    deck = Deck.STANDARD
    hand_types = (StandardHighHand,)
    betting_structure = BettingStructure.FIXED_LIMIT

    def __init__(self, automations, ante_trimming_status, raw_antes, raw_blinds_or_straddles,
                 small_bet, big_bet, *, mode=Mode.CASH_GAME, starting_board_count=1,
                 divmod=divmod, rake=pokerkit_rake):
        super().__init__(
            automations,
            (
                Street(False, (False,) * 5, 0, False, Opening.POSITION, small_bet, 3),
                Street(True, (), 0, True, Opening.POSITION, big_bet, 4),
            ),
            ante_trimming_status,
            raw_antes,
            raw_blinds_or_straddles,
            0,
            mode=mode,
            starting_board_count=starting_board_count,
            divmod=divmod,
            rake=rake,
        )


class FiveCardDrawMixin:
    """Five cards dealt face down, standard high hands, a 52-card deck."""

    deck = Deck.STANDARD
    hand_types = (StandardHighHand,)
    hole_dealing_count = 5


class PotLimitFiveCardDraw(PotLimitPokerMixin, FiveCardDrawMixin, SingleDraw):
    """Five-card draw high, pot limit, one draw (pokerkit's single-draw streets)."""


class NoLimitFiveCardDraw(NoLimitPokerMixin, FiveCardDrawMixin, SingleDraw):
    """Five-card draw high, no limit, one draw (pokerkit's single-draw streets)."""


class FiveCardDrawHistory(HandHistory):
    """pokerkit's HandHistory with fechado's codes for five-card draw high: F5CD, P5CD, N5CD."""

    game_types = {
        **HandHistory.game_types,
        'F5CD': FixedLimitFiveCardDraw,
        'P5CD': PotLimitFiveCardDraw,
        'N5CD': NoLimitFiveCardDraw,
    }
    variants = {game: code for code, game in game_types.items()}
    required_field_names = {
        **HandHistory.required_field_names,
        'F5CD': ('variant', 'antes', 'blinds_or_straddles', 'small_bet', 'big_bet',
                 'starting_stacks', 'actions'),
        'P5CD': ('variant', 'antes', 'blinds_or_straddles', 'min_bet', 'starting_stacks', 'actions'),
        'N5CD': ('variant', 'antes', 'blinds_or_straddles', 'min_bet', 'starting_stacks', 'actions'),
    }


def play(rng, number):
    """Plays one hand with random players, stacks and actions; returns its FiveCardDrawHistory."""
    n = rng.randint(2, 6)
    # Mostly deep stacks, some short ones, so that all-ins and side pots happen.
    stacks = [rng.choice([rng.randint(1, 12), rng.randint(20, 200), rng.randint(20, 200)]) for _ in range(n)]
    game = FixedLimitFiveCardDraw(AUTOMATIONS, True, 0, (SMALL_BLIND, BIG_BLIND), SMALL_BET, BIG_BET)
    state = game(stacks, n)
    while state.status:
        if state.actor_index is not None:
            r = rng.random()
            facing = state.checking_or_calling_amount
            if facing and state.can_fold() and r < 0.2:
                state.fold()
            elif r > 0.7 and state.can_complete_bet_or_raise_to():
                state.complete_bet_or_raise_to()
            else:
                state.check_or_call()
        elif state.stand_patter_or_discarder_index is not None:
            i = state.stand_patter_or_discarder_index
            k = rng.choices([0, 1, 2, 3, 4, 5], [20, 30, 25, 19, 4, 2])[0]
            state.stand_pat_or_discard(rng.sample(list(state.hole_cards[i]), k))
        else:
            raise RuntimeError(f'hand {number}: stuck with no actor and no draw')
    seats = sorted(rng.sample(range(1, 7), n))
    return FiveCardDrawHistory.from_game_state(
        game, state,
        hand=number,
        seats=seats,
        players=[f'Player{s}' for s in seats],
        finishing_stacks=list(state.stacks),
    )


def generate(args):
    random.seed(args.seed)  # pokerkit shuffles its deck with the random module
    rng = random.Random(args.seed + 1)
    hands = [play(rng, k + 1) for k in range(args.hands)]
    sys.stdout.write(FiveCardDrawHistory.dumps_all(hands) + '\n')


def replay(args):
    bad = 0
    for path in args.files:
        with open(path, 'rb') as f:
            text = f.read().decode()
        if path.endswith('.phhs'):
            hands = list(FiveCardDrawHistory.loads_all(text))
        else:
            hands = [FiveCardDrawHistory.loads(text)]
        wrong = 0
        for hh in hands:
            if hh.variant not in ('F5CD', 'P5CD', 'N5CD'):
                raise SystemExit(f'{path}: variant {hh.variant!r} is not five-card draw high')
            *_, state = iter(hh)
            if hh.finishing_stacks is not None and list(state.stacks) != list(hh.finishing_stacks):
                wrong += 1
                name = hh.user_defined_fields.get('_fechado_table', hh.hand)
                print(f'{path}: hand {name}: pokerkit ends with {list(state.stacks)}, '
                      f'the file says {hh.finishing_stacks}')
        print(f'{path}: {len(hands)} hand(s) replayed, {wrong} with other finishing stacks')
        bad += wrong
    sys.exit(1 if bad else 0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    sub = ap.add_subparsers(dest='cmd', required=True)
    g = sub.add_parser('generate', help='play seeded random hands and write them as PHH')
    g.add_argument('--seed', type=int, default=45)
    g.add_argument('--hands', type=int, default=500)
    g.set_defaults(run=generate)
    r = sub.add_parser('replay', help='replay five-card draw PHH files and check their finishing stacks')
    r.add_argument('files', nargs='+')
    r.set_defaults(run=replay)
    args = ap.parse_args()
    args.run(args)


if __name__ == '__main__':
    main()
