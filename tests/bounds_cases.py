"""The worst expressions of issue 25 as pieces of cardset text, shared by tests/test_hostile_bounds.py
and benchmarks/bench_bounds.py."""

from __future__ import annotations

# Python's words that must never reach a person (docs/effect-language.md)
PYTHON_WORDS = ("NoneType", "operand", "index out of range", "empty separator", "not supported between",
                "'int'", "'str'", "Traceback", "Error:")


def nested_sum(depth: int) -> str:
    """sum(players, sum(players, ... it + 1 ...)) ``depth`` deep: 2^depth values at 2 players."""
    expr = "it"
    for _ in range(depth):
        expr = f"sum(players, {expr} + 1)"
    return expr


def nested_where(depth: int) -> str:
    """deck where count(deck where count(...) > 0) > 0, ``depth`` wheres: len(deck)^depth visits."""
    expr = "deck where it == 1"
    for _ in range(depth - 1):
        expr = f"deck where count({expr}) > 0"
    return expr


def user_functions(depth: int) -> str:
    """A functions: section with f_i = f_{i+1}() + f_{i+1}(), ``depth`` deep: 2^depth calls of f0()."""
    lines = ["functions:"]
    for i in range(depth):
        lines.append(f"  f{i}: f{i + 1}() + f{i + 1}()")
    lines.append(f"  f{depth}: 1")
    return "\n".join(lines) + "\n"


def many_cards(count: int, indent: str = "") -> str:
    """One card type with ``count`` copies (entries under cards:)."""
    return f"{indent}many: {{count: {count}, props: {{power: 1}}}}"


def chain_cards(count: int) -> str:
    """``count`` card types that all share property g (entries under cards:): chain() has to look at every pair."""
    return "\n".join(f"k{i}: {{count: 1, props: {{g: 1}}}}" for i in range(count))


def nested_loops(depth: int) -> str:
    """``depth`` repeats inside one another around 'say 1'."""
    body = "say 1"
    for _ in range(depth):
        body = f"repeat 1 {{ {body} }}"
    return body


def nested_ifs(depth: int) -> str:
    """``depth`` ifs inside one another around 'say 1'."""
    body = "say 1"
    for _ in range(depth):
        body = f"if true {{ {body} }}"
    return body


def elifs(count: int) -> str:
    """An if with ``count`` elifs, the else taken: 'say 1'."""
    return "if false { say 0 }" + "".join(f" elif false {{ say {i} }}" for i in range(count)) + " else { say 1 }"


def nested_ands(depth: int, op: str = "and") -> str:
    """true and (true and (... )), ``depth`` deep."""
    return "(true " + f"{op} (true " * depth + ")" * (depth + 1)
