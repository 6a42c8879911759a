"""Presentation: everything that turns codes and exact numbers into words and markup for a reader.

:mod:`~competition.presentation.numbers` (one number style per language),
:mod:`~competition.presentation.labels` (the words for the pure packages' codes and notes),
:mod:`~competition.presentation.descriptions` (a system's rules in words from its parameters),
:mod:`~competition.presentation.legend` (the standings' legend),
:mod:`~competition.presentation.ties` (equal scores explained),
:mod:`~competition.presentation.reasons` (the pairing engine's reasons as sentences),
:mod:`~competition.presentation.names` (how a member's name shows in public),
and :mod:`~competition.presentation.charts` (the SVG charts). The template filters in
:mod:`competition.templatetags.clubcomp` are thin wrappers over these. The page-row builders
that use them stand beside the views they serve (:mod:`competition.views.tables`,
:mod:`competition.views.participant_rows`).

This package may import the pure core (scoring, pairing, formats, exact numbers) and Django's
translation, formatting, html and url utilities; never models, selectors, services or views
(tests/test_layering.py).
"""
