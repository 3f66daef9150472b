"""``rulecore explain``: what the engine understood of a card (its effect tree and its text rendered
back), of a procedure, function, phase or family, or a summary of the whole game."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.text import Text

import rulecore
from rulecore.cardset.explain import explain_entry, explain_game, find_entry, suggest
from rulecore.cli.common import AllowPath, GameArgument, clean_errors, load_game, stdout_console


def explain_command(
    game: GameArgument,
    card: Annotated[
        str | None,
        typer.Argument(
            metavar="CARD",
            show_default=False,
            help="A card (id or name), or a procedure, function or phase; none: the whole game.",
        ),
    ] = None,
    allow_path: AllowPath = None,
) -> None:
    """Show what the engine understood: a card's effect tree and its text rendered back, or a game summary."""
    out = stdout_console()
    with clean_errors():
        cardset = load_game(game, allow_path)
        if card is None:
            out.print(Text(explain_game(cardset)), soft_wrap=True)
            return
        found = find_entry(cardset, card)
        if found is None:
            guess = suggest(cardset, card)
            hint = f"; did you mean '{guess}'?" if guess else f"; its cards: {', '.join(cardset.cards)}"
            raise rulecore.RulecoreError(f"'{cardset.name}' has no card, procedure, function or phase '{card}'{hint}")
        out.print(Text(explain_entry(cardset, *found)), soft_wrap=True)
