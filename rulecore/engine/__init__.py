"""The running game: rules compiled from a cardset, the interpreter of effect trees, the attrs
state model, its seeded random generator, and ``Game``.

May import: rulecore.cardset, rulecore.lang, rulecore.errors (never bots, simulate or cli).
"""
