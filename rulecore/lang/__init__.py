"""The effect language: grammar access, the lark parser and Transformer, the frozen attrs effect
nodes it builds, and the table of built-in functions.

May import: rulecore.errors, rulecore._resources (never cardset, engine or the tools).
"""
