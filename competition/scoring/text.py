"""Marking English texts for translation without importing Django.

The pure scoring package writes its user-facing texts (names, descriptions, notes) in English
only and marks each with :func:`gettext_noop`; Django's ``makemessages`` treats that name as a
keyword wherever it is defined, so the texts land in the catalogue, and
:mod:`competition.labels` translates them for the reader.
"""

from __future__ import annotations


def gettext_noop(message: str) -> str:
    """``message`` unchanged; marks it for ``makemessages``.

    >>> gettext_noop("cut: lowest")
    'cut: lowest'
    """
    return message
