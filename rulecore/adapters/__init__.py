"""Adapters to the standard game-AI interfaces, for any cardset: ``rulecore.adapters.gymnasium`` (one
seat against opponents, a ``gymnasium.Env``), ``rulecore.adapters.pettingzoo`` (an AEC environment)
and ``rulecore.adapters.openspiel`` (pyspiel games; importing it registers the built-ins).

They need the ``rl`` extra (``pip install 'rulecore[rl]'``); nothing else in rulecore imports them.
All speak in the game's stable action ids and observation vectors (``Game.num_distinct_actions``,
``State.legal_action_ids``, ``State.observation``). See docs/ai.md.
"""
