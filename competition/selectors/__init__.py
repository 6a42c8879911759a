"""Reads: everything the pages show, each in a small, constant number of queries.

By page area: :mod:`~competition.selectors.public` (home, standings, round, crosstable, how it
works), :mod:`~competition.selectors.systems` (the systems side by side),
:mod:`~competition.selectors.participant` (a participant's breakdown),
:mod:`~competition.selectors.td` (the TD's club evening, including the draft pairing the
services rewrite), :mod:`~competition.selectors.corrections` (corrections of a round, on the
public round page and the TD's pages) and :mod:`~competition.selectors.common` (the engine's
input for a season and small reads the others share).

Selectors never import services; services may read through selectors. What the pages show in
words and numbers (labels, the number style, the pairing engine's reasons as sentences) is
written by :mod:`competition.presentation`, which selectors may call; of that package only
``participant_rows`` reads a selector (the participant page's dataclasses).
"""
