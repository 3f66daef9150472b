"""``rulecore play``: a person plays GAME at seat 0 against bots in the terminal. Each decision shows
what happened, what changed on the table and the numbered options; the person answers by number or
name, asks for the table or a card's text, or quits; the end shows the winners and the scores."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

import rulecore
from rulecore.arguments import shown
from rulecore.bots import BOT_NAMES, Bot, make_bot
from rulecore.bots.registry import choose
from rulecore.cardset.explain import best_total, find_entry, plain_value, suggest
from rulecore.cli.common import (
    AllowPath,
    GameArgument,
    GameOptions,
    clean_errors,
    counted,
    load_game,
    players_or_default,
    stdout_console,
)
from rulecore.cli.options import option_specs, parse_options, split_names
from rulecore.cli.view import Look, changed_lines, event_text, fmt, render_view, seat_name
from rulecore.lang.render import render_block, render_expr
from rulecore.simulate import bot_seed

HUMAN_SEAT = 0
_QUIT_WORDS = frozenset({"q", "quit", "exit"})
_TABLE_WORDS = frozenset({"t", "table"})
_HELP_WORDS = frozenset({"?", "help"})
_COMMANDS_HELP = (
    "Type an option's number or the start of its name (any case); t or table: the whole table; "
    "? CARD or help CARD: a card's text; q: quit."
)


def _choices(state: Any) -> tuple[str, list[tuple[str, str]]]:
    """The prompt and (action, label) pairs of the human's decision."""
    decision = state.decision
    if decision is not None and getattr(decision, "options", None):
        pairs = [(str(o.action), str(o.label)) for o in decision.options]
        return str(getattr(decision, "prompt", "") or "Your choice"), pairs
    return "Your choice", [(a, a) for a in state.legal_actions()]


def _match_option(raw: str, pairs: Sequence[tuple[str, str]]) -> tuple[int | None, str]:
    """The index of the option typed as a number or a name (an unambiguous prefix, any case).

    Returns (index, "") or (None, a message saying what is wrong).
    """
    count = len(pairs)
    digits = raw[1:] if raw.startswith("-") else raw
    if digits.isascii() and digits.isdigit():
        if len(digits) <= 9 and 1 <= int(raw) <= count:  # a longer number is out of range anyway
            return int(raw) - 1, ""
        typed = raw if len(raw) <= 12 else f"{raw[:9]}... ({len(digits):,} digits)"
        return None, f"{typed} is out of range; type a number from 1 to {count}."
    word = " ".join(raw.split()).casefold()
    exact = [i for i, (_, label) in enumerate(pairs) if " ".join(label.split()).casefold() == word]
    found = exact or [i for i, (_, label) in enumerate(pairs) if label.casefold().startswith(word)]
    if len({pairs[i][1] for i in found}) == 1:
        return found[0], ""
    if not found:
        return None, f"{shown(raw)} is neither an option's number (1 to {count}) nor the start of its name."
    names = ", ".join(pairs[i][1] for i in found[:6]) + (", ..." if len(found) > 6 else "")
    return None, f"{shown(raw)} fits {len(found)} options ({names}); type more of the name, or its number."


def _card_lookup(cardset: Any, name: str) -> tuple[str | None, str]:
    """(card id, "") for a card typed by id, name or an unambiguous name prefix; else (None, why)."""
    cards = getattr(cardset, "cards", None)
    if not isinstance(cards, Mapping) or not cards:
        return None, "this game has no card texts to show."
    found = find_entry(cardset, name)
    if found is not None and found[0] == "card":
        return found[1], ""
    word = name.casefold()
    starts = [cid for cid, card in cards.items() if str(getattr(card, "name", cid)).casefold().startswith(word)]
    if len(starts) == 1:
        return starts[0], ""
    guess = suggest(cardset, name)
    hint = f"did you mean '{guess}'?" if guess else "its cards: " + ", ".join(
        str(getattr(c, "name", cid)) for cid, c in cards.items()
    )
    return None, f"no card {name!r}; {hint}"


def _card_text(cardset: Any, cid: str) -> str:
    """A card as a player reads it: name, copies, tags, text, scoring and each ability's effect text."""
    card = cardset.cards[cid]
    lines = [f"{card.name} (x{card.count})" + (f"  tags: {', '.join(card.tags)}" if card.tags else "")]
    if card.text:
        lines.append("  " + " ".join(card.text.split()))
    for key, value in card.props.items():
        lines.append(f"  {key}: {plain_value(value)}")
    if card.scoring:
        lines.append("  scores for copies: " + ", ".join(f"{i}: {v}" for i, v in enumerate(card.scoring, 1)))
    for ability in card.abilities.values():
        head = f"  {ability.label or ability.name}"
        if ability.on is not None:
            head += f" (answers '{ability.on}' from {ability.zone})"
        lines.append(head + (f": {' '.join(ability.text.split())}" if ability.text else ""))
        if ability.when is not None:
            lines.append(f"    when {render_expr(ability.when)}")
        lines.extend("    " + line for line in render_block(ability.body).splitlines())
    return "\n".join(lines)


@dataclass
class _Screen:
    """What the person at seat 0 has been shown: events read so far and the last table."""

    out: Console
    cardset: Any
    players: int
    events: int = 0
    table: list[str] | None = None

    def show_events(self, state: Any) -> None:
        events = list(state.events(HUMAN_SEAT))
        for event in events[self.events:]:
            self.out.print(Text(f"  • {event_text(event)}"))
        self.events = len(events)

    def show_table(self, lines: list[str]) -> None:
        self.out.rule(f"Your view (seat {HUMAN_SEAT})")
        self.out.print(Text("\n".join(lines)), soft_wrap=True)

    def show_changes(self, state: Any) -> None:
        """The whole table the first time; after that only its lines that changed."""
        lines = render_view(state.view(HUMAN_SEAT), HUMAN_SEAT, self.players).splitlines()
        if self.table is None:
            self.show_table(lines)
        else:
            changed = changed_lines(self.table, lines)
            if changed:
                self.out.print(Text("Changed (t: the whole table):", style="dim"))
                self.out.print(Text("\n".join("  " + line for line in changed)), soft_wrap=True)
        self.table = lines

    def ask(self, prompt: str, pairs: Sequence[tuple[str, str]]) -> str | None:
        """Ask until an option is chosen by number or name; None when the person quits."""
        self.out.print(Text(prompt, style="bold"))
        for number, (_, label) in enumerate(pairs, 1):
            self.out.print(Text(f"  {number:>2}. {label}"))
        while True:
            raw = " ".join(self.out.input(f"Choose 1-{len(pairs)} or a name (? help, q quit): ").split())
            word, _, rest = raw.partition(" ")
            if raw.lower() in _QUIT_WORDS:
                return None
            if not raw:
                self.out.print(Text(f"Please type a number from 1 to {len(pairs)}, or an option's name."))
            elif raw.lower() in _TABLE_WORDS:
                self.show_table(self.table or [])
            elif raw.lower() in _HELP_WORDS:
                self.out.print(Text(_COMMANDS_HELP))
            elif word.lower() in _HELP_WORDS or raw.startswith("?"):
                name = rest if word.lower() in _HELP_WORDS else raw[1:].strip()
                cid, why = _card_lookup(self.cardset, name)
                self.out.print(Text(_card_text(self.cardset, cid) if cid is not None else why), soft_wrap=True)
            else:
                index, why = _match_option(raw, pairs)
                if index is not None:
                    return pairs[index][0]
                self.out.print(Text(why))


def _score_table(result: Mapping[str, Any], players: int, round_label: str = "round",
                 best: str | None = None) -> Table | None:
    """Round-by-round scores and totals per seat, when the result has them; ``best``: which end of the
    totals wins ('lowest' or 'highest'), said under the table when the lowest wins."""
    totals = result.get("totals")
    rounds = result.get("round_scores")
    if not isinstance(totals, (list, tuple)) and not isinstance(rounds, (list, tuple)):
        return None
    look = Look(names={}, seat=HUMAN_SEAT, players=players)
    lowest_wins = best == "lowest" and isinstance(totals, (list, tuple))
    table = Table(title="Scores", caption="The lowest total wins." if lowest_wins else None)
    table.add_column("")
    for seat in range(players):
        table.add_column(seat_name(seat, look), justify="right")
    for number, row in enumerate(rounds if isinstance(rounds, (list, tuple)) else [], 1):
        if isinstance(row, (list, tuple)):
            table.add_row(f"{round_label[:1].upper()}{round_label[1:]} {number}", *(fmt(v, look) for v in row))
    if isinstance(totals, (list, tuple)):
        table.add_row("Total", *(fmt(v, look) for v in totals), style="bold")
    return table


def _show_result(out: Console, state: Any, cardset: Any, players: int) -> None:
    result = state.result()
    out.rule("Game over")
    winners = list(result.get("winners", []))
    if winners:
        names = ", ".join("you" if w == HUMAN_SEAT else f"seat {w}" for w in winners)
        out.print(Text(f"Winner{'s' if len(winners) > 1 else ''}: {names}", style="bold"))
    else:
        out.print(Text("No winner.", style="bold"))
    label = getattr(cardset, "round_label", "round")
    table = _score_table(result, players, str(label), best_total(cardset))
    if table is not None:
        out.print(table)
    shown = {"totals", "round_scores", "winners"} if table is not None else {"winners"}
    extra = {k: v for k, v in result.items() if k not in shown}
    if extra:
        out.print(Text(render_view(extra, HUMAN_SEAT, players)))


def _play_loop(screen: _Screen, state: Any, bots: Mapping[int, Bot]) -> bool:
    """Run the game to the end; False if the person quit."""
    while not state.is_terminal():
        seat = state.current_player
        if seat == HUMAN_SEAT:
            screen.show_events(state)
            screen.show_changes(state)
            prompt, pairs = _choices(state)
            action = screen.ask(prompt, pairs)
            if action is None:
                return False
            state.apply(action)
        elif seat in bots:
            state.apply(choose(bots[seat], state, str(getattr(bots[seat], "name", "")) or f"seat {seat}"))
        else:
            raise rulecore.RulecoreError(f"the game asked seat {seat!r} to decide, which has no player")
    screen.show_events(state)
    _show_result(screen.out, state, screen.cardset, screen.players)
    return True


def play_command(
    game: GameArgument,
    players: Annotated[
        int | None,
        typer.Option("--players", "-p", metavar="P", show_default=False,
                     help="Players including you (default: cardset minimum)."),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option("--seed", "-s", metavar="SEED", show_default=False, help="Game seed (default: random)."),
    ] = None,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            "-b",
            metavar="BOTS",
            help=f"Comma-separated bot for each other seat, or one for all ({', '.join(BOT_NAMES)}, or "
            "module:attr for your own; oracle sees every hidden card).",
        ),
    ] = "random",
    option: GameOptions = None,
    allow_path: AllowPath = None,
) -> None:
    """Play GAME in the terminal as seat 0 against bots."""
    out = stdout_console()
    with clean_errors():
        cardset = load_game(game, allow_path)
        options = parse_options(option or [], option_specs(cardset))
        n_players = players_or_default(players, cardset)
        game_obj = rulecore.Game(cardset, players=n_players, options=options)
        names = split_names(bots) or ["random"]
        others = list(range(1, n_players))
        if len(names) == 1:
            names = names * len(others)
        if len(names) != len(others):
            raise rulecore.RulecoreError(
                f"{counted(len(names), 'bot')} given for {counted(len(others), 'other seat')}; give one bot "
                f"for each other seat or a single bot for all of them"
            )
        game_seed = secrets.randbelow(2**31) if seed is None else seed
        bot_map: dict[int, Bot] = {
            s: make_bot(name, bot_seed(game_seed, s), user_bots=True) for s, name in zip(others, names)
        }
        state = game_obj.new_game(seed=game_seed)
        out.print(
            Text(
                f"{getattr(cardset, 'name', game)}: you are seat {HUMAN_SEAT} of {n_players}; "
                f"seed {game_seed}; bots: "
                + ", ".join(f"seat {s} {bot_map[s].name}" for s in others),
                style="bold",
            )
        )
        try:
            finished = _play_loop(_Screen(out, cardset, n_players), state, bot_map)
        except EOFError:
            out.print(Text(f"\nInput closed; game abandoned (seed {game_seed})."))
            return
        except KeyboardInterrupt:
            out.print(Text(f"\nInterrupted; game abandoned (seed {game_seed})."))
            raise typer.Exit(130) from None
        if not finished:
            out.print(Text(f"You left the game (seed {game_seed})."))
