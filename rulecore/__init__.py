"""rulecore: run tabletop card games from data.

    import rulecore
    cs = rulecore.load_cardset("path/to/cardset.yaml")   # or a built-in name
    game = rulecore.Game(cs, players=3)
    state = game.new_game(seed=7)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    print(state.result())
"""

from typing import TYPE_CHECKING

from ._lazy import package_dir as __dir__
from ._lazy import package_getattr as __getattr__
from ._resources import builtin_cardsets
from .errors import (
    CardsetError,
    IllegalActionError,
    OptionError,
    Problem,
    RuleError,
    RulecoreError,
    StateError,
)

if TYPE_CHECKING:  # loaded on first use (rulecore._lazy.LAZY_NAMES), so that `import rulecore` is quick
    from .cardset.limits import Limits
    from .cardset.loader import load_cardset
    from .cardset.model import Cardset
    from .engine.game import Game
    from .engine.interpreter.decisions import Decision, Option
    from .engine.state import State

__version__ = "0.1.0"

__all__ = [
    "load_cardset",
    "builtin_cardsets",
    "Cardset",
    "Limits",
    "Game",
    "State",
    "Decision",
    "Option",
    "Problem",
    "RulecoreError",
    "CardsetError",
    "OptionError",
    "IllegalActionError",
    "RuleError",
    "StateError",
]
