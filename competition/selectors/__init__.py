"""Reads: everything the pages show, each in a small, constant number of queries.

By feature, with the same names as the services and the views: for instance
:mod:`~competition.selectors.standings` (standings, crosstable, what a round changed),
:mod:`~competition.selectors.rounds` (the public round page and the TD's round),
:mod:`~competition.selectors.evening` (the TD's club evening, including the draft pairing the
services rewrite), :mod:`~competition.selectors.participants` (a participant's breakdown),
:mod:`~competition.selectors.members` (the member's own page), :mod:`~competition.selectors.clubs`
(a club's home page, the directory of clubs), :mod:`~competition.selectors.page_cache` (the
versions the cached pages are keyed by), :mod:`~competition.selectors.corrections` (corrections
of a round, on the public round page and the TD's pages) and
:mod:`~competition.selectors.common` (the engine's input for a season and small reads the
others share).

Selectors never import services; services may read through selectors. What the pages show in
words and numbers (labels, the number style, the pairing engine's reasons as sentences) is
written by :mod:`competition.presentation`, which selectors may call; of that package only
``participant_rows`` reads a selector (the participant page's dataclasses).
"""
