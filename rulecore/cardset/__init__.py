"""Cardsets: YAML read with positions, the JSON Schema and its repairs, includes and variants
(``extends:``), the loader that builds a checked ``Cardset``, the meaning checks, lint warnings
and ``explain`` (effect trees rendered back to text).

May import: rulecore.lang, rulecore.errors, rulecore._resources (never engine or the tools).
"""
