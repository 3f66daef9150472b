"""The building step of loading: one ``Document`` in, a checked ``Cardset`` out.

``builder`` runs the stages in order and collects every problem into one ``report.Report``:
the structure against the JSON Schema (``structure``), a repaired copy of broken data to go on
with (``repair``), the effect text parsed into trees (``effects``), the cards and families
(``cards``), the flow (``flow``), and the checks over the built trees (``..checks``).  Nothing
here reads a file.

May import: rulecore.lang, rulecore.errors, and of the cardset package ``model``, ``limits``,
``cache``, ``schema``, ``checks`` and ``reading.document`` (what the reading step hands over).
"""
