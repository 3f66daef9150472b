"""Cardsets: YAML card data loaded into a checked, immutable ``Cardset``.

Loading runs one way, in two steps, each a subpackage; no module calls back up the chain:

    loader.load_cardset(name or path)            loader.load_cardset_text(text)
      |
      |  reading/  the reading step: files in, one Document out
      |    reader      finds the file, reads it and whatever it names (the one caller of the rest)
      |      |-- files       Files: only allowed folders, size caps (limits.Limits); UTF-8 text
      |      |-- yamlsrc     YAML -> plain data, and the line and column of every key and value
      |      |-- includes    merges the files under 'include:' (read by the reader) into the data
      |      `-- variants    'extends:': merges a variant over its base (read by the reader,
      |                      in the same way, its own includes and base first) and 'remove:'
      v
    reading.document.Document: the merged data, Sources (which file and line each value came
      |                        from), the problems so far, the files read
      |
      |  building/  the building step: the Document in, a checked Cardset out
      |    builder     the stages in order, every problem collected into one Report
      |      |-- structure   the JSON Schema (schema) in words; repair mends the data to go on
      |      |-- effects     effect text -> trees (rulecore.lang), once per place (cache.ParseCache)
      |      |-- cards       cards and families;  flow: setup, rounds and phases
      |      `-- checks/     over the built trees: checker and references (errors), lint and
      |                      telling (warnings)
      v
    model.Cardset and its parts, or one CardsetError with every problem found

Beside them: ``schema`` (the JSON Schema, also for editors), ``explain`` (effect trees rendered
back to text), ``fingerprint`` (what a saved game was played with), ``limits``, ``cache`` and
``stored`` (checked cardsets kept between loads: a memo in the process, entries in the user's cache
folder).
The direction is kept by the [tool.importlinter] contracts in pyproject.toml.

May import: rulecore.lang, rulecore.errors, rulecore._resources (never engine or the tools).
"""

from .cache import ParseCache
from .limits import Limits
from .loader import load_cardset, load_cardset_text
from .model import Cardset

__all__ = ["Cardset", "Limits", "ParseCache", "load_cardset", "load_cardset_text"]
