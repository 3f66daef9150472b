"""A player's view as text for the terminal: ``render_view`` turns the JSON-like ``state.view(seat)``
into indented lines, ``event_text`` an event into one line, ``changed_lines`` picks what changed
between two renderings of the table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

_VIEW_HIDDEN = frozenset({"decision", "card_names", "terminal", "result"})


@dataclass(frozen=True)
class Look:
    """How to show a view: display names of ids, whose view it is, how many seats."""

    names: Mapping[str, str]
    seat: int | None
    players: int | None


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def fmt(value: Any, look: Look) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, str):
        return look.names.get(value, value)
    return str(value)


def _label(key: Any, look: Look) -> str:
    text = str(key).replace("_", " ")
    if look.seat is not None and text.endswith(f"/{look.seat}"):
        text += " (you)"
    return text


def seat_name(seat: int, look: Look) -> str:
    return "you" if seat == look.seat else f"seat {seat}"


def _per_seat(values: Sequence[Any], look: Look) -> str:
    return ", ".join(f"{seat_name(i, look)} {fmt(v, look)}" for i, v in enumerate(values))


def _item_name(item: Mapping[str, Any], look: Look) -> str | None:
    for key in ("name", "label", "title", "card", "id"):
        value = item.get(key)
        if _is_scalar(value) and value is not None:
            return fmt(value, look)
    return None


def _render(value: Any, indent: int, lines: list[str], look: Look) -> None:
    if isinstance(value, Mapping):
        for key, sub in value.items():
            _render_entry(_label(key, look), sub, indent, lines, look)
    elif isinstance(value, (list, tuple)):
        for i, sub in enumerate(value):
            _render_entry(f"[{i}]", sub, indent, lines, look)
    else:
        lines.append("  " * indent + fmt(value, look))


def _render_entry(name: str, value: Any, indent: int, lines: list[str], look: Look) -> None:
    pad = "  " * indent
    if _is_scalar(value):
        lines.append(f"{pad}{name}: {fmt(value, look)}")
    elif isinstance(value, Mapping):
        _render_mapping(name, value, indent, lines, look)
    elif isinstance(value, (list, tuple)):
        _render_list(name, value, indent, lines, look)
    else:
        lines.append(f"{pad}{name}: {value!r}")


def _render_mapping(
    name: str, value: Mapping[str, Any], indent: int, lines: list[str], look: Look
) -> None:
    pad = "  " * indent
    count = value.get("count")
    lists = [v for k, v in value.items() if k != "count"]
    if not value:
        lines.append(f"{pad}{name}: (empty)")
    elif _is_number(count) and len(lists) <= 1 and all(
        isinstance(v, (list, tuple)) and all(_is_scalar(x) for x in v) for v in lists
    ):
        # a zone-like {"count": n, "cards": [...]}: one line, contents only if visible
        shown = f": {', '.join(fmt(x, look) for x in lists[0]) or '(none)'}" if lists else ""
        lines.append(f"{pad}{name} ({fmt(count, look)}){shown}")
    elif all(_is_scalar(v) for v in value.values()) and len(value) <= 6:
        inline = ", ".join(f"{_label(k, look)} {fmt(v, look)}" for k, v in value.items())
        lines.append(f"{pad}{name}: {inline}")
    else:
        lines.append(f"{pad}{name}:")
        _render(value, indent + 1, lines, look)


def _render_list(
    name: str, value: Sequence[Any], indent: int, lines: list[str], look: Look
) -> None:
    pad = "  " * indent
    if not value:
        lines.append(f"{pad}{name}: (none)")
    elif look.players and len(value) == look.players and all(_is_number(v) for v in value):
        lines.append(f"{pad}{name}: {_per_seat(value, look)}")
    elif all(_is_scalar(v) for v in value):
        lines.append(f"{pad}{name} ({len(value)}): {', '.join(fmt(v, look) for v in value)}")
    elif all(isinstance(v, Mapping) and _item_name(v, look) is not None for v in value):
        names = ", ".join(_item_name(v, look) or "?" for v in value)
        lines.append(f"{pad}{name} ({len(value)}): {names}")
    else:
        lines.append(f"{pad}{name} ({len(value)}):")
        _render(value, indent + 1, lines, look)


def _is_empty(value: Any) -> bool:
    """An empty mapping or list, or one holding only empty ones (e.g. no marks on any player)."""
    if isinstance(value, Mapping):
        return all(_is_empty(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return all(_is_empty(v) for v in value)
    return False


def _look_for(view: Mapping[str, Any], seat: int | None, players: int | None) -> Look:
    names = view.get("card_names")
    return Look(
        names={str(k): str(v) for k, v in names.items()} if isinstance(names, Mapping) else {},
        seat=seat,
        players=players,
    )


def render_view(
    view: Mapping[str, Any], seat: int | None = None, players: int | None = None
) -> str:
    """Render a JSON-like ``state.view(seat)`` as indented readable text.

    Generic: nested mappings are indented, ``{"count": n, "cards": [...]}``
    entries become one line, ids found in a ``card_names`` table are shown by
    name, lists of one number per seat are labelled by seat, and the parts a
    prompt shows anyway (``decision``, ``card_names``, ...) and top-level
    entries with nothing in them (``vars: {}``, no marks on anyone) are left out.
    """
    look = _look_for(view, seat, players)
    shown = {k: v for k, v in view.items() if k not in _VIEW_HIDDEN and v is not None and not _is_empty(v)}
    lines: list[str] = []
    _render(shown, 0, lines, look)
    return "\n".join(lines)


def event_text(event: Any) -> str:
    if isinstance(event, Mapping):
        text = event.get("text")
        if text:
            return str(text)
        return ", ".join(f"{k}={v}" for k, v in event.items())
    return str(event)


def changed_lines(old: Sequence[str], new: Sequence[str]) -> list[str]:
    """The lines of the new table that are not in the old one, each under its (indented) headings."""

    def keyed(lines: Sequence[str]) -> list[tuple[tuple[str, ...], str]]:
        out: list[tuple[tuple[str, ...], str]] = []
        parents: list[tuple[int, str]] = []
        for line in lines:
            indent = len(line) - len(line.lstrip(" "))
            while parents and parents[-1][0] >= indent:
                parents.pop()
            out.append((tuple(p for _, p in parents), line))
            parents.append((indent, line))
        return out

    before = set(keyed(old))
    shown: list[str] = []
    printed: set[tuple[str, ...]] = set()
    for path, line in keyed(new):
        if (path, line) in before:
            continue
        for depth in range(len(path)):  # the headings above it, once each
            if path[: depth + 1] not in printed:
                printed.add(path[: depth + 1])
                shown.append(path[depth])
        printed.add(path + (line,))
        shown.append(line)
    return shown
