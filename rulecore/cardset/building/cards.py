"""The cards of a cardset: each card type under ``cards:``, and the card types each family makes.

A card's abilities are parsed once, and a family's once for all the cards it makes (one per
combination of the values under its ``each:``, named by its ``id:`` template).  The cards of a
game may not add up to more than the ``Limits`` allow.
"""

from __future__ import annotations

import difflib
import itertools
import re
import string
from typing import Any, Mapping

from ...errors import doc_ref
from ...lang import nodes as n
from ..limits import Limits
from ..model import Ability, CardDef
from .effects import EffectText
from .report import Report


def build_cards(d: Any, report: Report, effects: EffectText, limits: Limits) -> dict[str, CardDef]:
    """Every card type of the data ``d``: its cards, then the cards of its families."""
    cards: dict[str, CardDef] = {}
    total = sum(c["count"] for c in (d.get("cards") or {}).values() if isinstance(c.get("count"), int))
    for f in (d.get("families") or {}).values():  # a family makes every combination of its values
        if isinstance(f, dict) and isinstance(f.get("each"), dict):
            combos = 1
            for values in f["each"].values():
                combos *= len(values) if isinstance(values, list) else 1
            count = f.get("count", 1)
            total += combos * (count if isinstance(count, int) else 1)
    if total > limits.cards:
        report.problem(("cards",), f"the cards add up to {total}, more than the limit of {limits.cards}",
                       f"the limit can be raised: see {doc_ref('docs/untrusted.md')}", "too-big", key=True)
        report.fail()
    for cid, c in (d.get("cards") or {}).items():
        cname = c.get("name", cid.replace("_", " ").title())
        abilities = _abilities(report, effects, ("cards", cid), c, cname, f"card '{cid}'")
        include_if = (
            effects.parse(("cards", cid, "include_if"), cname, expression=True) if "include_if" in c else None
        )
        cards[cid] = CardDef(
            cid, cname, c["count"], tuple(c.get("tags", ())),
            {k: start_value(v) for k, v in (c.get("props") or {}).items()},
            tuple(c.get("scoring", ())), abilities, include_if, c.get("text", ""),
            report.sources.span(("cards", cid), key=True, card=cname),
        )
    for fam, f in (d.get("families") or {}).items():
        before = len(report.problems)
        _family(report, effects, fam, f, cards)
        if len(report.problems) > before:
            report.meaning_unsure = True  # its cards are missing: effect text naming them would only seem wrong
    if not cards and not d.get("families") and not report.is_repaired(("cards",)) \
            and not report.is_repaired(("families",)):
        report.problem((), "the cardset is missing the required key 'cards'" if "cards" not in d
                       else "the cardset has no cards", "list them under 'cards:' (or 'families:')",
                       "missing-key", key=True)
        report.meaning_unsure = True  # every card name and ability would seem unknown
    return cards


def start_value(value: Any) -> Any:
    """A value written in YAML as the language reads it: a list is a collection, null and none are none."""
    if isinstance(value, list):
        return tuple(value)
    if value is None or value == "none":
        return None
    return value


def _abilities(report: Report, effects: EffectText, path: tuple[Any, ...], c: Mapping[str, Any], context: str,
               what: str) -> dict[str, Ability]:
    """The abilities of a card (or of every card of a family) at ``path``, parsed once."""
    zones = effects.data["zones"]
    abilities = {}
    for aname, a in (c.get("abilities") or {}).items():
        apath = path + ("abilities", aname)
        if isinstance(a, str):
            abilities[aname] = Ability(aname, None, effects.parse(apath, context) or n.Block(()))
            continue
        body = effects.parse(apath + ("do",), context)
        when = effects.parse(apath + ("when",), context, expression=True) if "when" in a else None
        trigger_keys = [k for k in ("from", "optional", "instead", "label", "params") if k in a]
        if trigger_keys and "on" not in a:
            report.problem(apath + (trigger_keys[0],), f"'{trigger_keys[0]}' only makes sense with 'on'",
                           "add 'on: EVENT' to make this ability answer a signal", "trigger", key=True)
        zone = a.get("from")
        if "on" in a and zone is None:
            report.problem(apath, f"ability '{aname}' of {what} answers '{a['on']}' but does not say "
                           "from which zone", "add 'from: hand' (or another zone of the signalled player)",
                           "trigger", key=True)
        elif zone is not None and zone not in zones:
            report.unknown(apath + ("from",), "zone", zone, zones)
        abilities[aname] = Ability(
            aname, when, body or n.Block(()), a.get("text"), a.get("on"), zone, a.get("optional", True),
            a.get("instead", False), a.get("label"), tuple(a.get("params", ())),
        )
    return abilities


def _family(report: Report, effects: EffectText, fam: str, f: Mapping[str, Any], cards: dict[str, CardDef]) -> None:
    """Add the card types of a family (one per combination of the values under 'each') to ``cards``.
    Problems point at the family's lines; its effect text is parsed once, for every card."""
    path = ("families", fam)
    each = f.get("each")
    if report.is_repaired(path) or any(p[:2] == path for p in report.repaired) or not isinstance(each, dict) \
            or not each or not all(isinstance(v, list) and v for v in each.values()):
        report.meaning_unsure = True  # its shape was already reported: its cards cannot be made
        return
    common = {k: start_value(v) for k, v in (f.get("props") or {}).items()}
    dims = []
    for dim, values in f["each"].items():
        dims.append([{k: start_value(x) for k, x in v.items()} if isinstance(v, dict) else {dim: start_value(v)}
                     for v in values])
    context = f"family {fam}"
    abilities = _abilities(report, effects, path, f, context, f"family '{fam}'")
    include_if = effects.parse(path + ("include_if",), context, expression=True) if "include_if" in f else None
    seen: dict[str, str] = {}
    for combo in itertools.product(*dims):
        props = dict(common)
        for part in combo:
            props.update(part)
        fields = {"family": fam, **props}
        default_id = "_".join([fam] + [str(next(iter(part.values()))) for part in combo])
        raw_id = _fill(report, path + ("id",), f["id"], fields) if "id" in f else default_id
        if raw_id is None:
            return
        cid = re.sub(r"[\s\-']+", "_", raw_id.strip().lower())
        if not re.fullmatch(r"[a-z_][a-z0-9_]*", cid):
            report.problem(path + ("id",) if "id" in f else path, f"family '{fam}' makes the card id '{cid}', "
                           "which is not a valid name", "ids are lower case letters, digits and '_', starting "
                           "with a letter: e.g. id: \"card_{rank}_{suit}\"", "name", key="id" not in f)
            return
        if cid in cards or cid in seen:
            other = seen.get(cid) or f"card '{cid}'"
            report.problem(path + ("id",) if "id" in f else path,
                           f"family '{fam}' makes the card id '{cid}' twice" if cid in seen
                           else f"family '{fam}' makes the card id '{cid}', which {other} already has",
                           "put every property that varies into the 'id' template, e.g. id: \"{rank}_of_{suit}\"",
                           "duplicate", key="id" not in f)
            return
        seen[cid] = f"family '{fam}'"
        name = _fill(report, path + ("name",), f["name"], fields) if "name" in f else cid.replace("_", " ").title()
        text = _fill(report, path + ("text",), f["text"], fields) if "text" in f else ""
        if name is None or text is None:
            return
        cards[cid] = CardDef(
            cid, name, f.get("count", 1), tuple(f.get("tags", ())), props, tuple(f.get("scoring", ())),
            abilities, include_if, text, report.sources.span(path, key=True, card=name), fam,
        )


def _fill(report: Report, path: tuple[Any, ...], template: str, fields: Mapping[str, Any]) -> str | None:
    """A family's template with {property} filled in; None (and a problem) if it names no property."""
    def shown(value: Any) -> str:
        return {True: "true", False: "false"}.get(value, str(value)) if isinstance(value, bool) else str(value)

    try:
        pieces = list(string.Formatter().parse(template))
    except ValueError:
        report.problem(path, f"'{path[-1]}' has a '{{' or '}}' without its partner",
                       "write {property} to fill in a property, {{ and }} for the braces themselves", "template")
        return None
    out = []
    for literal, name, spec, conversion in pieces:
        out.append(literal)
        if name is None:
            continue
        if spec or conversion or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            field = "{" + name + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}"
            report.problem(path, f"'{path[-1]}' has the field '{field[:60]}', and a template takes only "
                           "{property}", "write {property} alone: no ':' formats, '!' conversions, "
                           "indexes or fields inside fields", "template")
            return None
        if name not in fields:
            guess = difflib.get_close_matches(name, list(fields), n=1)
            hint = ("did you mean '{" + guess[0] + "}'?") if guess else f"the family's properties: {', '.join(fields)}"
            report.problem(path, f"'{path[-1]}' names '{{{name}}}', which is no property of the family", hint,
                           "template")
            return None
        out.append(shown(fields[name]))
    return "".join(out)
