"""The configured games: their cardsets (loaded once), what ``GET /api/games`` says of them, their card
catalogues, and the ``Game`` objects matches play on (one per table set-up, shared while it is the same)."""

from __future__ import annotations

import collections
import json
import threading
from typing import Any, Mapping, Sequence

import rulecore
from rulecore.engine.game import check_player_names

from .config import GameSource

#: Game objects kept at once: a match holds its own; this only lets new matches of one set-up share one
GAME_CACHE = 64


class Games:
    """The cardsets a server may play, loaded when the server starts (a bad one stops it there)."""

    def __init__(self, sources: Sequence[GameSource]):
        self.sources = {s.name: s for s in sources}
        self.cardsets: dict[str, rulecore.Cardset] = {
            s.name: rulecore.load_cardset(s.source, roots=s.roots) for s in sources}
        self._games: collections.OrderedDict[str, rulecore.Game] = collections.OrderedDict()
        self._lock = threading.Lock()

    def __contains__(self, name: object) -> bool:
        return name in self.cardsets

    def info(self) -> list[dict[str, Any]]:
        """Each game's name, title, description, player range, options and zones, for the lobby."""
        out = []
        for name, cs in self.cardsets.items():
            out.append({
                "name": name,
                "title": cs.title or name,
                "description": cs.description,
                "players": {"min": cs.min_players, "max": cs.max_players},
                "options": [{"name": o.name, "default": o.default, "description": o.description,
                             "choices": list(o.choices) if o.choices is not None else None}
                            for o in cs.options.values()],
                "zones": [{"name": z.name, "label": z.label or z.name, "owner": "player" if z.per_player else "none",
                           "visibility": z.visibility, "slots": z.slots, "description": z.description}
                          for z in cs.zones.values()],
                "counters": [{"name": c.name, "owner": "player" if c.per_player else "none",
                              "visibility": c.visibility} for c in cs.counters.values()],
            })
        return out

    def game(self, name: str, players: int, options: Mapping[str, Any],
             player_names: Sequence[str] | None = None) -> rulecore.Game:
        """The ``Game`` of this set-up (raises ``OptionError`` for players or options the cardset refuses)."""
        names = tuple(player_names) if player_names is not None else None
        key = json.dumps([name, players, sorted(options.items()), names], default=str)
        with self._lock:
            game = self._games.get(key)
            if game is not None:
                self._games.move_to_end(key)
                return game
        game = rulecore.Game(self.cardsets[name], players, dict(options), player_names=names)
        with self._lock:
            self._games[key] = game
            while len(self._games) > GAME_CACHE:
                self._games.popitem(last=False)
        return game

    def check_names(self, name: str, players: int, names: Sequence[str]) -> None:
        """Raise ``OptionError`` unless ``names`` could name the seats of this game."""
        check_player_names(names, players, self.cardsets[name])
