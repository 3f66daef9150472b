"""The effect language: grammar access and the lark parser with its Transformer (``parser``), the
frozen attrs effect nodes it builds and how to walk them (``nodes``), what an expression gives as
read from its text (``kinds``), and the table of built-in functions (``functions``).

``render`` writes effect trees back as effect-language text (the parser's inverse).

May import: rulecore.errors, rulecore._resources (never cardset, engine or the tools).
"""
