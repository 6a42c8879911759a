"""Writes: every user action is one service call in one transaction (see the modules here).

Modules: ``errors`` (the one error services raise), ``rounds`` (opening a round, results,
closing it, and the invariants of games and entries), ``evening`` (attendance, the draft
pairing, publishing, corrections of entries), ``standings`` (caching the engine's output),
``rules`` and ``transfer``. Services read through ``competition.selectors``, never the reverse.
"""
