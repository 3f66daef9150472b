"""Plain, hand-written Witching Hour: the speed baseline for the rulecore engine.

This module does not import rulecore. It implements the complete rules of
Witching Hour (rulebook: shared/rules/witching-hour.txt, card numbers from
witching-hour-cards.md) as an ordinary Python loop over lists, with a uniformly
random choice at every decision a player makes.

Data layout: a card is a type index 0..9 (see ``TYPES``). Hands and Hex piles
are per-player lists of ten counts; the discard pile is a list of type indices
(so a random card is one ``randrange`` away).

Decisions (each one is a uniform random choice; single-option "decisions" are
taken without consuming randomness or being counted):

* turn: one flat list of every legal move - attack (target, type, count, with
  or without one Candle; or Candles alone), Book (target opponent), Cauldron,
  Chalice (target player), Hourglass, Skull;
* block (every defender, each step of a Mirror chain): no block, Familiar block
  (not against Toadstool attacks - those are never blockable anyway), or N cards
  of one non-Bell type, optionally N-1 of one type plus exactly one Candle;
* Cauldron: which of the two drawn cards goes into your own Hex pile (by type),
  then which other player receives the other;
* Hourglass: which card type to take from your Hex pile;
* Skull: which card type to take from the discard pile.

Interpretations where the rulebook is silent (the engine should agree):

* Hourglass: the card is chosen from the Hex pile as it was *before* the
  Hourglass was placed (so it cannot take itself back); with an empty Hex pile
  the play is allowed and nothing is taken. An extra turn follows.
* Skull with an empty discard pile is allowed and takes nothing.
* Cauldron with fewer than two cards in the discard pile: with one card it goes
  into your own Hex pile, with none nothing happens.
* Toadstool with an empty discard pile draws what there is (possibly nothing).
* When nobody holds cards at the end of a round, the player who emptied their hand
  last starts the next one ("the player who last had cards in their hand").
* An extra turn (Book, Hourglass, Skull) is taken only if the round did not end
  and the player still has cards in hand; otherwise play passes clockwise.
* A reflected attack keeps its size (attack cards incl. its Candle); a defender
  with an empty hand cannot block and takes the cards.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

TYPES = (
    "Bell", "Book", "Candle", "Cauldron", "Chalice",
    "Familiar", "Hourglass", "Mirror", "Skull", "Toadstool",
)
BELL, BOOK, CANDLE, CAULDRON, CHALICE, FAMILIAR, HOURGLASS, MIRROR, SKULL, TOADSTOOL = range(10)
NTYPES = len(TYPES)

COPIES = (8, 4, 8, 4, 4, 6, 4, 6, 4, 8)
POINTS = (
    (1, 3, 4, 5, 7, 9),       # Bell
    (0, 2, 5, 8),             # Book
    (1, 2, 3, 5, 7, 9),       # Candle
    (1, 3, 6, 10),            # Cauldron
    (-3, 2, 5, 8),            # Chalice
    (1, 2, 4, 6, 8),          # Familiar
    (0, 2, 5, 9),             # Hourglass
    (1, 2, 4, 6, 8),          # Mirror
    (0, 3, 6, 10),            # Skull
    (2, 3, 4, 6, 8, 10),      # Toadstool
)
ROUNDS = 3

# move kinds (first element of a turn-move tuple)
ATTACK, PLAY_BOOK, PLAY_CAULDRON, PLAY_CHALICE, PLAY_HOURGLASS, PLAY_SKULL = range(6)
NO_BLOCK = None
FAMILIAR_BLOCK = "familiar"


class InvariantError(AssertionError):
    """Raised by ``WitchingHour.check`` when the state is inconsistent."""


def deck_counts(players: int) -> list[int]:
    """Copies of each type in the deck for this player count (no Books with 2)."""
    counts = list(COPIES)
    if players == 2:
        counts[BOOK] = 0
    return counts


def hand_size(players: int) -> int:
    """Cards dealt to each player: 13 for 2-4 players, 10 for 5."""
    return 13 if players <= 4 else 10


def score_hex(hex_counts) -> int:
    """Points for one Hex pile (list of ten counts); the last ladder value holds."""
    total = 0
    for t in range(NTYPES):
        c = hex_counts[t]
        if c:
            ladder = POINTS[t]
            total += ladder[c - 1] if c <= len(ladder) else ladder[-1]
    return total


def apply_round_scores(totals: list[int], scores: list[int], round_no: int) -> list[int]:
    """Add one round's scores to the totals (in place) and return the scores as booked.

    Round 1: a negative score counts as zero. Later rounds: negative scores are
    subtracted. A total never goes below zero.
    """
    booked = []
    for p, s in enumerate(scores):
        if round_no == 1 and s < 0:
            s = 0
        booked.append(s)
        t = totals[p] + s
        totals[p] = t if t > 0 else 0
    return booked


class WitchingHour:
    """One game of Witching Hour played by uniformly random players."""

    def __init__(self, players: int, seed: int, check: bool = False):
        if not 2 <= players <= 5:
            raise ValueError("Witching Hour is for 2 to 5 players")
        self.n = players
        self.rng = random.Random(seed)
        self.check_enabled = check
        self.deck = deck_counts(players)
        self.deal = hand_size(players)
        self.totals = [0] * players
        self.round_scores: list[list[int]] = []
        self.last_empty = 0  # the player who most recently emptied their hand
        self.decisions = 0
        self.turns = 0
        self.rounds = 0
        self.hands: list[list[int]] = []
        self.hand_n: list[int] = []
        self.hexes: list[list[int]] = []
        self.discard: list[int] = []
        self.table = [0] * NTYPES      # attack cards in the middle of the table

    # ------------------------------------------------------------------ helpers
    def choose(self, options):
        """A player's decision: uniform random; forced moves are not counted."""
        if len(options) == 1:
            return options[0]
        self.decisions += 1
        return options[self.rng.randrange(len(options))]

    def draw_discard(self) -> int:
        """Remove and return a random card from the discard pile."""
        d = self.discard
        i = self.rng.randrange(len(d))
        card = d[i]
        d[i] = d[-1]
        d.pop()
        return card

    def check(self) -> None:
        """Card conservation and basic consistency; raises InvariantError."""
        seen = [0] * NTYPES
        for c in self.discard:
            seen[c] += 1
        for t in range(NTYPES):
            seen[t] += self.table[t]
        for p in range(self.n):
            hand, hx = self.hands[p], self.hexes[p]
            if sum(hand) != self.hand_n[p]:
                raise InvariantError(f"hand size of seat {p} out of sync")
            for t in range(NTYPES):
                if hand[t] < 0 or hx[t] < 0:
                    raise InvariantError(f"negative count of {TYPES[t]} for seat {p}")
                seen[t] += hand[t] + hx[t]
        if seen != self.deck:
            raise InvariantError(f"cards not conserved: {seen} != {self.deck}")
        if any(t < 0 for t in self.totals):
            raise InvariantError("negative total")

    # ------------------------------------------------------------------- rounds
    def start_round(self) -> None:
        cards = [t for t in range(NTYPES) for _ in range(self.deck[t])]
        self.rng.shuffle(cards)
        n, k = self.n, self.deal
        self.hands = []
        for p in range(n):
            hand = [0] * NTYPES
            for c in cards[p * k:(p + 1) * k]:
                hand[c] += 1
            self.hands.append(hand)
        self.hand_n = [k] * n
        self.hexes = [[0] * NTYPES for _ in range(n)]
        self.discard = cards[n * k:]
        self.table = [0] * NTYPES
        if self.check_enabled:
            self.check()

    def play_round(self, starter: int) -> int:
        """Play one round from ``starter``; score it; return next round's starter."""
        self.rounds += 1
        self.start_round()
        n = self.n
        hand_n = self.hand_n
        p = starter
        while True:
            extra = self.turn(p)
            self.turns += 1
            if self.check_enabled:
                self.check()
            holders = [q for q in range(n) if hand_n[q]]
            if len(holders) <= 1:
                if holders:
                    h = holders[0]
                    hand, hx = self.hands[h], self.hexes[h]
                    for t in range(NTYPES):
                        hx[t] += hand[t]
                        hand[t] = 0
                    hand_n[h] = 0
                    nxt = h
                else:
                    nxt = self.last_empty  # "the player who last had cards in their hand"
                break
            if not (extra and hand_n[p]):
                p = (p + 1) % n
                while not hand_n[p]:
                    p = (p + 1) % n
        if self.check_enabled:
            self.check()
        scores = [score_hex(hx) for hx in self.hexes]
        self.round_scores.append(apply_round_scores(self.totals, scores, self.rounds))
        return nxt

    # -------------------------------------------------------------------- turns
    def turn_moves(self, p: int) -> list[tuple]:
        n = self.n
        hand = self.hands[p]
        hand_n = self.hand_n
        targets = [q for q in range(n) if q != p and hand_n[q]]
        candles = hand[CANDLE]
        sets = []
        for t in range(NTYPES):
            c = hand[t]
            if not c:
                continue
            if t == CANDLE:
                for k in range(1, c + 1):
                    sets.append((t, k, 0))
            else:
                for k in range(1, c + 1):
                    sets.append((t, k, 0))
                    if candles:
                        sets.append((t, k, 1))
        moves = [(ATTACK, q, t, k, cd) for q in targets for (t, k, cd) in sets]
        if hand[BOOK]:
            moves.extend((PLAY_BOOK, q) for q in targets)
        if hand[CAULDRON]:
            moves.append((PLAY_CAULDRON,))
        if hand[CHALICE]:
            moves.extend((PLAY_CHALICE, q) for q in range(n))
        if hand[HOURGLASS]:
            moves.append((PLAY_HOURGLASS,))
        if hand[SKULL]:
            moves.append((PLAY_SKULL,))
        return moves

    def turn(self, p: int) -> bool:
        """Play one turn for seat ``p``; return True if it grants another turn."""
        move = self.choose(self.turn_moves(p))
        kind = move[0]
        hand = self.hands[p]
        if kind == ATTACK:
            self.attack(p, move[1], move[2], move[3], move[4])
            return False
        hx = self.hexes[p]
        if kind == PLAY_CHALICE:
            hand[CHALICE] -= 1
            self.hand_n[p] -= 1
            if not self.hand_n[p]:
                self.last_empty = p  # the last to have had cards so far
            self.hexes[move[1]][CHALICE] += 1
            return False
        if kind == PLAY_BOOK:
            hand[BOOK] -= 1
            self.hand_n[p] -= 1
            if not self.hand_n[p]:
                self.last_empty = p  # the last to have had cards so far
            hx[BOOK] += 1
            q = move[1]
            victim = self.hands[q]
            r = self.rng.randrange(self.hand_n[q])
            for t in range(NTYPES):
                r -= victim[t]
                if r < 0:
                    break
            victim[t] -= 1
            self.hand_n[q] -= 1
            if not self.hand_n[q]:
                self.last_empty = q  # the last to have had cards so far
            hand[t] += 1
            self.hand_n[p] += 1
            return True
        if kind == PLAY_CAULDRON:
            hand[CAULDRON] -= 1
            self.hand_n[p] -= 1
            if not self.hand_n[p]:
                self.last_empty = p  # the last to have had cards so far
            hx[CAULDRON] += 1
            if len(self.discard) >= 2:
                a = self.draw_discard()
                b = self.draw_discard()
                keep = self.choose([a] if a == b else [a, b])
                give = b if keep == a else a
                hx[keep] += 1
                q = self.choose([q for q in range(self.n) if q != p])
                self.hexes[q][give] += 1
            elif self.discard:
                hx[self.draw_discard()] += 1
            return False
        if kind == PLAY_HOURGLASS:
            hand[HOURGLASS] -= 1
            self.hand_n[p] -= 1
            if not self.hand_n[p]:
                self.last_empty = p  # the last to have had cards so far
            available = [t for t in range(NTYPES) if hx[t]]
            hx[HOURGLASS] += 1
            if available:
                t = self.choose(available)
                hx[t] -= 1
                hand[t] += 1
                self.hand_n[p] += 1
            return True
        if kind == PLAY_SKULL:
            hand[SKULL] -= 1
            self.hand_n[p] -= 1
            if not self.hand_n[p]:
                self.last_empty = p  # the last to have had cards so far
            hx[SKULL] += 1
            if self.discard:
                present = [0] * NTYPES
                for c in self.discard:
                    present[c] = 1
                t = self.choose([t for t in range(NTYPES) if present[t]])
                self.discard.remove(t)
                hand[t] += 1
                self.hand_n[p] += 1
            return True
        raise ValueError(f"unknown move {move!r}")

    def block_options(self, d: int, size: int) -> list:
        hand = self.hands[d]
        opts = [NO_BLOCK]
        if hand[FAMILIAR]:
            opts.append(FAMILIAR_BLOCK)
        candles = hand[CANDLE]
        for t in range(1, NTYPES):          # 0 is Bell: cannot block
            c = hand[t]
            if t == CANDLE:
                if c >= size:
                    opts.append((CANDLE, size, 0))
                continue
            if c >= size:
                opts.append((t, size, 0))
            if candles and size > 1 and c >= size - 1:
                opts.append((t, size - 1, 1))
        return opts

    def attack(self, p: int, q: int, t: int, k: int, cd: int) -> None:
        hands, hexes, hand_n, table = self.hands, self.hexes, self.hand_n, self.table
        hands[p][t] -= k
        hands[p][CANDLE] -= cd
        hand_n[p] -= k + cd
        if not self.hand_n[p]:
            self.last_empty = p  # the last to have had cards so far
        table[t] += k
        table[CANDLE] += cd
        size = k + cd
        if t == TOADSTOOL:
            # unblockable; the defender takes the cards, then the attacker draws
            dx = hexes[q]
            dx[TOADSTOOL] += k
            dx[CANDLE] += cd
            table[TOADSTOOL] -= k
            table[CANDLE] -= cd
            ax = hexes[p]
            for _ in range(k):
                if not self.discard:
                    break
                ax[self.draw_discard()] += 1
            return
        attacker, defender = p, q
        while True:
            dh = hands[defender]
            block = self.choose(self.block_options(defender, size)) if hand_n[defender] else NO_BLOCK
            if block is NO_BLOCK:
                dx = hexes[defender]
                dx[t] += k
                dx[CANDLE] += cd
                break
            if block == FAMILIAR_BLOCK:
                dh[FAMILIAR] -= 1
                hand_n[defender] -= 1
                if not self.hand_n[defender]:
                    self.last_empty = defender  # the last to have had cards so far
                hexes[defender][FAMILIAR] += 1
                self.discard.extend([t] * k + [CANDLE] * cd)
                break
            bt, bk, bcd = block
            dh[bt] -= bk
            dh[CANDLE] -= bcd
            hand_n[defender] -= bk + bcd
            if not self.hand_n[defender]:
                self.last_empty = defender  # the last to have had cards so far
            self.discard.extend([bt] * bk + [CANDLE] * bcd)
            if bt == MIRROR:
                attacker, defender = defender, attacker
                if self.check_enabled:
                    self.check()
                continue
            self.discard.extend([t] * k + [CANDLE] * cd)
            break
        table[t] -= k
        table[CANDLE] -= cd

    # --------------------------------------------------------------------- game
    def play(self) -> dict:
        starter = 0
        for _ in range(ROUNDS):
            starter = self.play_round(starter)
        while self.totals.count(min(self.totals)) > 1:
            starter = self.play_round(starter)
        low = min(self.totals)
        return {
            "totals": list(self.totals),
            "winner": self.totals.index(low),
            "rounds": self.rounds,
            "decisions": self.decisions,
            "turns": self.turns,
            "round_scores": self.round_scores,
        }


def play_game(players: int, seed: int, check: bool = False) -> dict:
    """Play one random game; return totals, winner, rounds, decisions (and more).

    ``check=True`` verifies card conservation after every action (slow).
    """
    return WitchingHour(players, seed, check=check).play()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Plain-Python Witching Hour, random players.")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--check", action="store_true", help="verify invariants after every action")
    args = ap.parse_args(argv)
    wins = [0] * args.players
    decisions = rounds = 0
    t0 = time.perf_counter()
    for i in range(args.games):
        r = play_game(args.players, args.seed + i, check=args.check)
        wins[r["winner"]] += 1
        decisions += r["decisions"]
        rounds += r["rounds"]
    dt = time.perf_counter() - t0
    print(f"{args.games} games, {args.players} players, {dt:.3f} s")
    print(f"  games/sec      {args.games / dt:10.1f}")
    print(f"  decisions/sec  {decisions / dt:10.1f}")
    print(f"  rounds/game    {rounds / args.games:10.2f}")
    print(f"  wins by seat   {wins}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
