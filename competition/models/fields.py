"""Field shapes the models share."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.utils.functional import _StrOrPromise as StrOrPromise


def optional_text(
    verbose_name: StrOrPromise, *, max_length: int, help_text: StrOrPromise = ""
) -> models.CharField[str, str]:
    """A short text a form may leave empty: blank allowed, empty by default (never NULL)."""
    return models.CharField(
        verbose_name, max_length=max_length, blank=True, default="", help_text=help_text
    )


def optional_count(
    verbose_name: StrOrPromise, *, help_text: StrOrPromise = ""
) -> models.PositiveSmallIntegerField[int | None, int | None]:
    """A whole number from 1 up that a form may leave empty (stored as NULL)."""
    return models.PositiveSmallIntegerField(
        verbose_name,
        null=True,
        blank=True,
        validators=[MinValueValidator(1)],
        help_text=help_text,
    )


def optional_account(
    verbose_name: StrOrPromise, *, related_name: str = "+", editable: bool = True
) -> models.ForeignKey[User | None, User | None]:
    """The account that did something (or a member's own account): empty when there is none,
    and set to NULL when the account is deleted, so the row it is on stays."""
    return models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name=related_name,
        editable=editable,
        verbose_name=verbose_name,
    )
