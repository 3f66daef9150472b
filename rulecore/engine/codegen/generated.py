"""The game's generated module: ``CodeGen``, the whole code writer, writes and ``compile()``s one
root at a time (an expression, a menu, a block that can pause) the first time it runs, with the
user functions and procedure bodies it reaches; ``Generated`` keeps each compiled piece's source
and the span of the effect text each of its lines was written for.

All pieces of a game run in one namespace (``RUNTIME``, then the constants the writer made: zone
keys, card tables, nodes, closures). A Python error inside generated code is reported at the
effect text that caused it (``Generated.span_of_traceback``).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, Callable

from ...lang import nodes as n
from .closures import Fn
from .frames import FrameWriter
from .writer import Lines

if TYPE_CHECKING:
    from .compiler import Compiler


class Generated:
    """The generated code of one game: its source pieces and, per piece, the span of each line."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.pieces: dict[str, tuple[str, list[Any]]] = {}  # file name -> (source, span per line)

    @property
    def source(self) -> str:
        return "\n".join(src for src, _ in self.pieces.values())

    def span_at(self, filename: str, lineno: int) -> Any:
        """The span of the effect text that line ``lineno`` of the piece ``filename`` was written for."""
        piece = self.pieces.get(filename)
        if piece is None or not 1 <= lineno <= len(piece[1]):
            return None
        return piece[1][lineno - 1]

    def span_of_traceback(self, tb: Any) -> Any:
        """The span of the innermost generated line in a traceback, or None."""
        span = None
        while tb is not None:
            code = tb.tb_frame.f_code
            if code.co_filename in self.pieces:
                span = self.span_at(code.co_filename, tb.tb_lineno) or span
            tb = tb.tb_next
        return span


class CodeGen(FrameWriter):
    """Writes the Python source of a game's effects, one root at a time (see the package's docstring)."""

    def __init__(self, compiler: "Compiler", rules: Any, name: str) -> None:
        super().__init__(compiler, rules)
        self.generated = Generated(name)
        self._lock = threading.Lock()

    # ---- compiling, one root at a time
    def function(self, node: Any) -> Callable[..., Any]:
        """Write and compile the function of the root ``node`` (with any user function it reaches first)."""
        with self._lock:  # states of one game played in several threads share this writer
            return self._function(node)

    def _function(self, node: Any) -> Callable[..., Any]:
        self.w = Lines()
        self.pending = []
        if type(node) is tuple:
            name = self.loop(node[1]) if type(node[1]) is n.While else self.block(node[1])
        elif isinstance(node, n.Menu):
            name = self.menu(node)
        else:
            name = self.root(node)
        writers = [self.w]
        while self.pending:  # user functions, and those they reach
            more, self.pending = self.pending, []
            writers.extend(more)
        lines: list[str] = []
        spans: list[Any] = []
        for pw in writers:
            lines += pw.lines
            spans += pw.spans
        source = "\n".join(lines) + "\n"
        filename = f"<rulecore {self.generated.name} #{len(self.generated.pieces)}>"
        self.generated.pieces[filename] = (source, spans)
        self.ns.update(self._new_consts)
        self._new_consts.clear()
        exec(compile(source, filename, "exec"), self.ns)
        return self.ns[name]  # type: ignore[no-any-return]

    def lazy(self, node: Any, cache: dict[int, Fn]) -> Fn:
        """A stand-in that compiles ``node`` the first time it is called and then takes its place."""

        done: list[Fn] = []

        def first_call(*args: Any) -> Any:
            if not done:
                done.append(self.function(node))
                cache[id(node)] = done[0]
            return done[0](*args)

        return first_call
