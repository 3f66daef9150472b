"""The running game: what never changes in one game (``rules``), expressions compiled to Python
closures (``compiler``), the interpreter of effect trees (``interpreter``), the attrs state model
(``state``), its seeded random generator (``rng``), and ``Game`` (``game``).

May import: rulecore.cardset, rulecore.lang, rulecore.errors (never bots, simulate or cli).
"""
