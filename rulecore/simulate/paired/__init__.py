"""Comparing two sides of a game with paired seeds (``rulecore compare``, docs/compare.md), in the order a
comparison goes through the modules:

- ``run``: :func:`compare` itself: the sides, the batches of ``--until-clear``, Ctrl-C;
- ``pool``: where the paired games are played (this process, a local pool, Dask, Ray), streamed back;
- ``games``: one paired game measured in the worker, reduced to scalars;
- ``figures``: the per-game rows, the figures, Wilson and paired-bootstrap intervals, alpha spending;
- ``report``: the self-contained HTML page (matplotlib, optional).
"""

from .figures import Figure
from .run import Comparison, ComparisonInterrupted, compare

__all__ = ["Comparison", "ComparisonInterrupted", "Figure", "compare"]
