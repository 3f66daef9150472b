"""The effect language: text -> frozen effect nodes.

- ``parser``: ``parse_effect``, the lark grammar (``grammar/effects.lark``) and its syntax errors;
- ``builder``: the lark Transformer that makes effect nodes from the tree, resolving names;
- ``names``: the built-in names, the reserved words and ``Symbols`` (the names a cardset declares);
- ``nodes``: the frozen attrs effect nodes and how to walk them;
- ``kinds``: what an expression gives, as read from its text;
- ``functions``: the table of built-in functions.

``render`` writes effect trees back as effect-language text (the parser's inverse).

May import: rulecore.errors, rulecore._resources (never cardset, engine or the tools).
"""
