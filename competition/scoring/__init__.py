"""Pure-Python scoring: ranking systems, tie-breaks, standings and explanations (no Django).

Entry points: :mod:`competition.scoring.engine` (``standings_after``, ``standings_history``,
``explain``) and :mod:`competition.scoring.registry` (``SYSTEMS``, ``get_system``).
"""
