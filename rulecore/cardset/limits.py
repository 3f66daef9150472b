"""Caps on card data that may come from strangers: ``Limits``, and the defaults every load uses.

The reading step holds files to the size caps (``reading.files``); the building step holds the
cards and the effect text to theirs.  See docs/untrusted.md.
"""

from __future__ import annotations

import attrs


@attrs.frozen
class Limits:
    """Caps on card data; each may be raised (or lowered) by whoever loads.

    ``file_bytes`` and ``cardset_bytes``: the size of one file and of all the files of a
    cardset (includes and bases too); ``cards``: cards in a game (every count added up);
    ``effect_chars`` and ``effect_total``: characters of one piece of effect text and of all
    of them.  (An integer of more than 4300 digits, in the YAML or the effect text, is always a
    problem: Python does not read one.)
    """

    file_bytes: int = 2_000_000
    cardset_bytes: int = 10_000_000
    cards: int = 100_000
    effect_chars: int = 50_000
    effect_total: int = 2_000_000


DEFAULT_LIMITS = Limits()
