"""The checks of a built cardset, run by every load over its effect trees.

Errors: ``checker`` (names bound, references real, kinds sensible, arities, function cycles),
``references`` (names written as text, answers to signals, values of the wrong kind), ``types``
(what locals and game variables hold, for those kinds; a number compared with a text, prompts),
``returns`` (``return`` and ``let x = call``) and ``flows`` (card names passed through names).
Warnings, kept on ``Cardset.warnings``: ``lint`` (what loads but looks like a mistake) with
``telling`` (menus whose asking tells what others cannot see).  ``walking`` holds what they
share: every tree of a cardset with where it is, and the helpers of their messages.

May import: rulecore.lang, rulecore.errors, and of the cardset package ``model`` and
``explain`` (to show effect text in a message).
"""
