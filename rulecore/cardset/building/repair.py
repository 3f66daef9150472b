"""Mend card data that breaks the schema, so that the later stages can check the rest.

The schema stage reports every structural problem.  Rather than stopping there, the
builder asks :func:`repair` for a copy of the data in which each broken value is
replaced by a harmless stand-in (an unknown key dropped, a misspelt enum value read as
the closest choice, a number clamped into its range, a wrong value replaced by an
empty one of the right type).  The effect text and the meaning checks then run on
that copy, and every path that was made up is returned, so that the builder neither
parses it nor reports anything under it: one run gives the structure problems *and*
the effect problems, without problems that only follow from the first ones.
"""

from __future__ import annotations

import copy
import difflib
import re
from typing import TYPE_CHECKING, Any, Iterable

if TYPE_CHECKING:
    import jsonschema

Path = tuple[Any, ...]

# problems the later stages cope with as they are (an empty zones: or phases: list)
_HARMLESS = frozenset({"minProperties", "minItems", "uniqueItems"})
_MISSING = object()


def repair(data: Any, schema: dict[str, Any]) -> tuple[Any, set[Path]] | None:
    """A copy of ``data`` that passes ``schema`` and the paths made up in it; None if it cannot be mended."""
    if not isinstance(data, dict):
        return None
    fixed = copy.deepcopy(data)
    repaired: set[Path] = set()
    import jsonschema  # imported when a file is first validated, not by 'import rulecore'

    validator = jsonschema.Draft202012Validator(schema)
    for _ in range(6):
        errors = [e for e in validator.iter_errors(fixed) if e.validator not in _HARMLESS or _fixable(e)]
        if not errors:
            return fixed, repaired
        # deepest first: mending a value must not hide the problems inside it
        errors.sort(key=lambda e: -len(e.absolute_path))
        for err in errors:
            _fix(fixed, err, repaired, schema)
    return None


def misspelt_required(mapping: dict[Any, Any], err: jsonschema.ValidationError, schema: dict[str, Any]) -> dict[Any, str]:
    """The unknown keys of ``mapping`` (the instance of an additionalProperties error) that are a missing
    required key misspelt, each with that key: 'cuont' -> 'count' when 'count' is missing.  The repair reads
    such a key as the one meant, and the structure check reports it once, as the unknown key with its guess."""
    allowed = set(err.schema.get("properties", {}))
    missing = [k for k in err.schema.get("required", ()) or _required_here(schema, tuple(err.absolute_path))
               if k not in mapping]
    meant: dict[Any, str] = {}
    for key in mapping:
        if key in allowed:
            continue
        guess = difflib.get_close_matches(str(key), missing, n=1, cutoff=0.6)
        if guess:
            meant[key] = guess[0]
            missing.remove(guess[0])
    return meant


def _fixable(err: jsonschema.ValidationError) -> bool:
    """minItems of an optional key (scoring: []) is mended by dropping the key; the rest are left."""
    return err.validator == "uniqueItems" or (err.validator == "minItems" and _optional_key(err))


def _optional_key(err: jsonschema.ValidationError) -> bool:
    path = tuple(err.absolute_path)
    return bool(path) and isinstance(path[-1], str) and path[-1] in ("scoring", "choices", "tags", "params")


def _get(root: Any, path: Iterable[Any]) -> Any:
    value = root
    for key in path:
        try:
            value = value[key]
        except (KeyError, IndexError, TypeError):
            return _MISSING
    return value


def schema_at(schema: dict[str, Any], path: Path) -> dict[str, Any]:
    """The part of ``schema`` that describes the value at ``path`` (best effort; {} if unknown)."""
    here: Any = schema
    for key in path:
        if not isinstance(here, dict):
            return {}
        if "anyOf" in here:
            objects = [s for s in here["anyOf"] if isinstance(s, dict) and s.get("type") in ("object", "array")]
            here = objects[0] if objects else {}
        if isinstance(key, int) and "items" in here:
            here = here["items"]
        elif key in here.get("properties", {}):
            here = here["properties"][key]
        elif isinstance(here.get("additionalProperties"), dict):
            here = here["additionalProperties"]
        else:
            return {}
    return here if isinstance(here, dict) else {}


def _required_here(schema: dict[str, Any], path: Path) -> tuple[str, ...]:
    if not path:
        req = schema.get("required") or schema.get("else", {}).get("required", ())
        return tuple(req)
    return tuple(schema_at(schema, path).get("required", ()))


def placeholder(schema: dict[str, Any], old: Any = None) -> Any:
    """A value of the shape ``schema`` asks for, as close to ``old`` as is easy."""
    if "enum" in schema:
        choices = list(schema["enum"])
        if isinstance(old, str):
            guess = difflib.get_close_matches(old, [str(c) for c in choices], n=1, cutoff=0.5)
            if guess:
                return next(c for c in choices if str(c) == guess[0])
        return choices[0]
    if "anyOf" in schema:
        return placeholder(schema["anyOf"][0], old)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = kind[0]
    if kind == "integer":
        low, high = schema.get("minimum"), schema.get("maximum")
        value = old if isinstance(old, int) and not isinstance(old, bool) else (low if low is not None else 0)
        if low is not None and value < low:
            value = low
        if high is not None and value > high:
            value = high
        return value
    if kind == "string":
        if "pattern" not in schema:
            return old if isinstance(old, str) else ""
        name = _as_name(old)
        if name is not None and re.fullmatch(schema["pattern"], name):
            return name  # 'Unblockable' is read as 'unblockable'
        return "unnamed"
    if kind == "boolean":
        return False
    if kind == "array":
        return []
    if kind == "object":
        props = schema.get("properties", {})
        return {k: placeholder(props.get(k, {})) for k in schema.get("required", ())}
    return None


def _as_name(key: Any) -> str | None:
    """The valid name closest to a key that is not one ('Table' -> 'table', 'draw-pile' -> 'draw_pile')."""
    if not isinstance(key, str):
        return None
    name = re.sub(r"[^a-z0-9_]", "_", key.strip().lower())
    if not name or name[0].isdigit():
        return None
    return name


def _fix(root: Any, err: jsonschema.ValidationError, repaired: set[Path], schema: dict[str, Any]) -> None:
    path = tuple(err.absolute_path)
    value = _get(root, path)
    if value is _MISSING:
        return  # already replaced by a fix of its parent
    how = err.validator
    if how == "additionalProperties":
        if isinstance(value, dict):
            allowed = set(err.schema.get("properties", {}))
            meant = misspelt_required(value, err, schema)
            for key in [k for k in value if k not in allowed]:
                moved = value.pop(key)
                if key in meant:
                    value[meant[key]] = moved  # 'cuont: 8' is read as 'count: 8' by the later stages
        return
    if how == "required":
        if isinstance(value, dict):
            props = err.schema.get("properties") or schema_at(schema, path).get("properties", {})
            for key in err.validator_value:
                if key not in value:
                    value[key] = placeholder(props.get(key, {}))
                    repaired.add(path + (key,))
        return
    if how == "propertyNames" or "propertyNames" in err.schema_path:
        # a key that is not a valid name (the error is about the key, found in the mapping at 'path')
        bad = err.instance
        if isinstance(value, dict) and not isinstance(bad, (dict, list)) and bad in value:
            moved = value.pop(bad)
            name = _as_name(bad)
            if name is not None and name not in value:
                value[name] = moved  # 'Table' is read as 'table', so that text naming 'table' still checks
            else:
                repaired.add(path + ("<names>",))  # names in this section are uncertain now
        return
    if how == "uniqueItems":
        if isinstance(value, list):
            seen: list[Any] = []
            for item in value:
                if item not in seen:
                    seen.append(item)
            value[:] = seen
        return
    if how == "anyOf" and isinstance(value, dict) and err.context:
        same_shape = [e for e in err.context if e.validator != "type" or e.relative_path]
        if same_shape:
            for sub in same_shape:
                _fix(root, sub, repaired, schema)
            return
    if not path:
        return
    parent = _get(root, path[:-1])
    key = path[-1]
    if how in ("minimum", "maximum") and isinstance(value, int):
        parent[key] = placeholder(err.schema, value)
        repaired.add(path)
        return
    parent_schema = schema_at(schema, path[:-1])
    declared = isinstance(parent, dict) and key in parent_schema.get("properties", {})
    if declared and key not in _required_here(schema, path[:-1]):
        del parent[key]  # an optional key with a broken value: as if it were not written
    else:
        parent[key] = placeholder(err.schema, value)
    repaired.add(path)
