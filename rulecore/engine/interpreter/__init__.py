"""The statement interpreter: one generic machine for every game.

Execution state is data in the ``State``: a stack of frames ``(node, pc, data, env)`` where
``node`` is the running statement, ``pc`` how far it got, ``data`` a tuple it keeps (the items of
a ``for each``, the options of a choice) and ``env`` the local variables of the running effect
(shared by the frames of one call).  A choice stores its question in the state and the machine
stops; ``resume`` records the answer and runs on.  There is no Python call stack to save, so a
state can be cloned, saved and loaded at any point.  The machine never sees a lark tree.

Its modules, from the bottom up:

- ``decisions``: what a paused game asks (``Decision``, ``Option``);
- ``frames``: the frame stack and what every handler uses on it (``Ctx``, ``ev``, ``actor``,
  ``enter``, ``unwind``, the step and depth limits);
- ``simple``: the statements that never pause (``SIMPLE``: ``let``, ``move``, ``say``, ...);
- ``signals``: signals and the abilities that answer them, and the count of each ability used;
- ``choices``: ``choose`` and menus, which ask a player;
- ``control``: the statements that run others (``if``, loops, calls, phases, rounds, turns,
  ``simultaneously``, ``in any order``);
- ``driver``: the loop (``run``, ``drive``, ``resume``) and the tables that map each statement
  kind to its handler (``HANDLERS``, ``RESUMERS``) and list what generated code calls
  (``MACHINE``).

Each module imports only modules listed before it.  May import: rulecore.lang and
rulecore.errors (the ``State`` it works on only for type checking).
"""

from .decisions import Decision, Option
from .driver import resume, run
from .frames import Ctx, ev

__all__ = ["Decision", "Option", "Ctx", "ev", "run", "resume"]
