"""The running game: what never changes in one game (``rules``), effects compiled to Python
(``codegen``, a package whose docstring says how compiled effects run), the interpreter of the
statements that pause (the package ``interpreter``), the attrs state model and its play methods
(``state``), what each player may know of it (``views``), saving and loading it (``saves``),
laying out a scenario (``scenarios``), its seeded random generator (``rng``), ``Game``
(``game``), what a table program needs beside play (``table``: option references, the card
catalogue), and the stable action ids and observation vectors of game-AI code (``encoding``).

The decision path is lean: the pending decision is kept as tuples (``State.asking``) and the
attrs ``Decision`` built only when read; ``apply`` finds the action with ``tuple.index``;
``clone`` shares zone and counter lists copy-on-write (``State._zone_w``/``_counter_w``).

May import: rulecore.cardset, rulecore.lang, rulecore.errors (never bots, simulate or cli).
"""
