"""The structure of a cardset's data, checked against the JSON Schema, in words for people.

Every key, type, value and name that the schema refuses becomes one located problem (an
unknown key with a guess of the key meant, a value of the wrong type, a choice that is not one
of the choices, ...), and every key written twice in a file.  The repair (``repair``) then
mends the data so that the builder can go on.
"""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING, Any

from ...errors import Problem, Span, doc_ref, yaml_words
from ..reading.document import Sources
from ..schema import SCHEMA
from .repair import misspelt_required

if TYPE_CHECKING:
    import jsonschema

_TYPE_WORDS = {
    "integer": "an integer",
    "string": "a text",
    "boolean": "true or false",
    "object": "a mapping (key: value lines)",
    "array": "a list",
    "null": "nothing",
}


def _what(path: tuple[Any, ...]) -> str:
    """'card 'apple'' and the like, for messages."""
    if len(path) >= 2 and path[0] in ("cards", "families", "zones", "counters", "procedures", "options", "vars"):
        kind = {"cards": "card", "families": "family", "zones": "zone", "counters": "counter", "procedures": "procedure",
                "options": "option", "vars": "variable"}[path[0]]
        return f"{kind} '{path[1]}'"
    if path and path[0] == "flow":
        return "the flow"
    if path:
        return f"'{path[0]}'"
    return "the cardset"


def _show(value: Any) -> str:
    """A value for a message, in YAML's words (true, null, not Python's True, None), cut short."""
    return yaml_words(value)


def structure_problems(data: Any, sources: Sources) -> list[Problem]:
    """Every problem of the structure of ``data`` (the merged document), located through ``sources``."""
    found = _Structure(data, sources)
    found.check_schema()
    return found.problems


class _Structure:
    """The problems of one document's structure, collected as the schema's errors are worded."""

    def __init__(self, data: Any, sources: Sources) -> None:
        self.data = data
        self.sources = sources
        self.problems: list[Problem] = []
        self.meant: dict[tuple[Any, ...], str] = {}  # the path of a misspelt required key -> the key meant

    def problem(self, path: tuple[Any, ...], message: str, hint: str | None = None, code: str = "invalid",
                key: bool = False) -> None:
        self.problems.append(Problem(message, self.sources.span(path, key=key), hint, code))

    def where(self, path: tuple[Any, ...]) -> str:
        """'card 'apple'', 'phase 'main'' and the like: what holds the value at ``path``, for messages."""
        if path[:1] == ("flow",):
            for i in range(1, len(path) - 1):
                if path[i] == "phases" and isinstance(path[i + 1], int):
                    phase: Any = self.data
                    for key in path[:i + 2]:
                        phase = phase[key]
                    name = phase.get("name") if isinstance(phase, dict) else None
                    return f"phase '{name}'" if isinstance(name, str) else f"phase {path[i + 1] + 1} of the flow"
        return _what(path)

    def check_schema(self) -> None:
        """The data is a mapping, every schema error worded, every key written twice."""
        if not isinstance(self.data, dict):
            main = self.sources.main
            span = main.span(())
            if not span.line:
                span = Span(main.file, 1, 1, None, main.line_text(1))
            self.problems.append(Problem("a cardset file must be a mapping of keys (name:, players:, zones:, cards:, ...)",
                                         span,
                                         f"start from the example {doc_ref('docs/examples/tiny-game.yaml')}", "schema"))
            return
        import jsonschema  # imported when a file is first validated, not by 'import rulecore'

        validator = jsonschema.Draft202012Validator(SCHEMA)
        errors = sorted(validator.iter_errors(self.data), key=lambda e: list(map(str, e.absolute_path)))
        for err in errors:  # a misspelt required key is reported once: as the unknown key, with the key meant
            if err.validator == "additionalProperties" and isinstance(err.instance, dict):
                meant = misspelt_required(err.instance, err, SCHEMA)
                self.meant.update({tuple(err.absolute_path) + (key,): name for key, name in meant.items()})
        for err in errors:
            self._schema_problem(err)
        for source in self.sources.all:
            for path, pos in source.keys.items():
                if path and path[-1] == "<duplicate>":
                    self.problems.append(Problem(f"duplicate key '{path[-2]}'", Span(source.file, pos[0], pos[1], None,
                                                 source.line_text(pos[0])), "each key may appear once", "duplicate"))

    def _schema_problem(self, err: jsonschema.ValidationError) -> None:
        path = tuple(err.absolute_path)
        validator = err.validator
        where = self.where(path)
        if validator == "additionalProperties":
            allowed = sorted(err.schema.get("properties", {}))
            extra = [k for k in err.instance if k not in allowed] if isinstance(err.instance, dict) else []
            for key in extra:
                if self._cut_at_comma(path, key, err.instance):
                    continue
                guess = [self.meant[path + (key,)]] if path + (key,) in self.meant \
                    else difflib.get_close_matches(str(key), allowed, n=1, cutoff=0.6)
                hint = f"did you mean '{guess[0]}'?" if guess else f"allowed keys: {', '.join(allowed)}"
                self.problem(path + (key,), f"unknown key '{key}' in {where}", hint, "unknown-key", key=True)
            return
        if validator == "required":
            missing = err.message.split("'")[1] if "'" in err.message else err.message
            if any(at[:-1] == path and meant == missing for at, meant in self.meant.items()):
                return  # written, but misspelt: reported as the unknown key
            self.problem(path, f"{where} is missing the required key '{missing}'", None, "missing-key", key=True)
            return
        if validator == "type":
            want = err.validator_value
            wants = [want] if isinstance(want, str) else list(want)
            words = " or ".join(_TYPE_WORDS.get(w, w) for w in wants)
            field = f"'{path[-1]}'" if path else "the value"
            if path and isinstance(path[-1], int) and len(path) >= 2:  # an item of a list
                field = f"item {path[-1] + 1} of '{path[-2]}'"
            self.problem(path, f"{field} must be {words} (got {_show(err.instance)})", None, "type")
            return
        if validator == "enum":
            field = path[-1] if path else "value"
            choices = ", ".join(yaml_words(c) for c in err.validator_value)
            guess = difflib.get_close_matches(str(err.instance), [str(c) for c in err.validator_value], n=1)
            hint = f"did you mean '{guess[0]}'?" if guess else f"one of {choices}"
            self.problem(path, f"'{field}' must be one of {choices} (got {_show(err.instance)})", hint, "enum")
            return
        if validator in ("minimum", "maximum"):
            field = path[-1] if path else "value"
            bound = "at least" if validator == "minimum" else "at most"
            self.problem(path, f"'{field}' must be {bound} {err.validator_value} (got {_show(err.instance)})", None, "range")
            return
        if validator == "pattern":
            # a key that is not a valid name is reported by jsonschema at the mapping holding it
            if "propertyNames" in err.schema_path and not isinstance(err.instance, (dict, list)):
                path = path + (err.instance,)
            self.problem(path, f"{_show(err.instance)} is not a valid name", "use lower case letters, digits and '_'",
                         "name", key=True)
            return
        if validator == "propertyNames":
            bad = err.instance if not isinstance(err.instance, dict) else None
            # point at the offending key itself, not at the mapping holding it
            at = path + (bad,) if bad is not None else path
            self.problem(at, f"{yaml_words(bad)} is not a valid name" if bad else err.message,
                         "use lower case letters, digits and '_'", "name", key=True)
            return
        if validator == "anyOf" and err.context:
            # report the alternative that matches the value's shape (a mapping vs a text)
            # (an alternative whose own type fits: its problem is deeper, or not about the type)
            same_shape = [e for e in err.context if e.validator != "type" or e.relative_path]
            if same_shape:
                import jsonschema.exceptions  # loaded by check_schema already

                self._schema_problem(jsonschema.exceptions.best_match(same_shape))
                return
        if validator == "anyOf":
            field = path[-1] if path else "value"
            self.problem(path, f"'{field}' has the wrong form in {where} (got {_show(err.instance)})",
                         f"see {doc_ref('docs/cardset-reference.md')}", "type")
            return
        if validator == "minItems" and path:
            self.problem(path, f"'{path[-1]}' must list at least {err.validator_value} item"
                         f"{'s' if err.validator_value != 1 else ''} (it is empty)", None, "range")
            return
        if validator == "uniqueItems" and path:
            self.problem(path, f"'{path[-1]}' lists the same value twice", "each value may appear once", "duplicate")
            return
        self.problem(path, f"{where}: {err.message}", None, "schema")

    def _cut_at_comma(self, path: tuple[Any, ...], key: Any, mapping: Any) -> bool:
        """An unknown key without a value right after ', ' inside {...}: the rest of a text cut at a comma
        ('{description: cards, face down}').  Reported as that; True if so."""
        if mapping.get(key) is not None:
            return False
        span = self.sources.span(path + (key,), key=True)
        before = (span.source_line or "")[: max(span.column - 1, 0)]
        if "{" not in before or not before.rstrip().endswith(","):
            return False
        self.problem(path + (key,), f"'{key}' is read as a key of {self.where(path)}: a ',' inside {{...}} ends the "
                     "text before it", "put the text that holds the comma in quotes: description: \"..., ...\"",
                     "unknown-key", key=True)
        return True
