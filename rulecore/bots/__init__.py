"""Game-agnostic bots that play any rulecore game through the public State API.

Every bot is built with an integer seed and draws all of its randomness from its
own :class:`random.Random`, so a bot's choice is a pure function of its seed, the
sequence of states it has been asked about, and what those states let it know.

Fair bots (``random``, ``greedy``, ``ismcts``) only look at the seat they play:
``current_player``, ``legal_actions()``, ``view()`` and worlds dealt by
``state.resample(seat, seed)``, never the true state's hidden cards.  The
``oracle`` bot clones the *full* state, so in games with hidden information it
sees what its seat could not (other hands, face-down piles, future shuffles): it
gives upper bounds for balance work, not a fair opponent.  See docs/bots.md.

The modules, each one job:

- ``protocol``: what a bot is (``Bot``) and what it may ask of a game (``GameState``), and the
  rules every built-in bot keeps (the deciding seat, the best of valued actions);
- ``memory``: the no-repeat memory (no action taken again at a decision it led back to
  unchanged) and ``MemoryBot``, the decision step every built-in bot runs;
- ``random_bot``, ``greedy``, ``ismcts`` (the bot and its tree search), ``oracle``: one bot each;
- ``registry``: ``make_bot`` and ``BOT_NAMES``, the built-in bots by name with their settings,
  and the user's own ``module:attr`` bots.

May import: rulecore's public API (and so engine, cardset, lang, errors; today only
rulecore.errors); never simulate or cli.
"""

from .greedy import GreedyBot
from .ismcts import ISMCTSBot
from .oracle import OracleBot
from .protocol import Bot, GameState
from .random_bot import RandomBot
from .registry import BOT_NAMES, make_bot

__all__ = [
    "BOT_NAMES",
    "Bot",
    "GameState",
    "GreedyBot",
    "ISMCTSBot",
    "OracleBot",
    "RandomBot",
    "make_bot",
]
