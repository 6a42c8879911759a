"""Field shapes the models share."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import models

if TYPE_CHECKING:
    from django.utils.functional import _StrOrPromise as StrOrPromise


def optional_text(
    verbose_name: StrOrPromise, *, max_length: int, help_text: StrOrPromise = ""
) -> models.CharField:
    """A short text a form may leave empty: blank allowed, empty by default (never NULL)."""
    return models.CharField(
        verbose_name, max_length=max_length, blank=True, default="", help_text=help_text
    )
