"""What game-AI code sees of a game, as numbers: stable action ids (``actions``: a small fixed
vocabulary, each id one part of an answer, asked one part at a time) and observation vectors
(``observation``: fixed-length lists of floats built from ``State.view`` alone).

May import: rulecore.cardset, rulecore.lang, rulecore.errors (never the rest of the engine: the
state and the game call in here, with themselves as arguments).
"""

from .actions import ActionCodec
from .observation import Observer

__all__ = ["ActionCodec", "Observer"]
