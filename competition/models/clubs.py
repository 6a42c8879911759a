"""Clubs and their members: who plays, under which name, at which web address."""

from __future__ import annotations

import datetime

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from competition.models.fields import optional_account, optional_text
from competition.scoring.exact import is_fraction_text

StrOrPromise = str | Promise


def validate_exact_number(value: str) -> None:
    """An exact number as text: a decimal (``199.831776``) or a fraction (``1356/7``), as
    :mod:`competition.scoring.exact` reads it."""
    if not is_fraction_text(value):
        raise ValidationError(
            _("Enter a number such as 199.5 or a fraction such as 1356/7."), code="invalid"
        )


# First parts of a path that are the site's own, never a club's address (/<club>/...).
RESERVED_CLUB_SLUGS = frozenset(
    {
        "account", "admin", "api", "clubs", "embed", "files", "groups", "healthz", "i18n", "in",
        "login", "logout", "manifest.webmanifest", "me", "member", "offline", "season",
        "service-worker.js", "static", "taal", "td", "welcome",
    }
)  # fmt: skip


def validate_club_slug(value: str) -> None:
    if value in RESERVED_CLUB_SLUGS:
        raise ValidationError(
            _("“%(value)s” is one of the site's own addresses; choose another web address."),
            code="reserved",
            params={"value": value},
        )


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(
        _("web address"),
        unique=True,
        validators=[validate_club_slug],
        help_text=_("The club's pages are at /<web address>/."),
    )
    admin_group = models.OneToOneField(
        "auth.Group",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="admin_club",
        verbose_name=_("club admins"),
        help_text=_(
            "Members of this group set the club's rules, members and tournament directors."
        ),
    )
    embed_origins = models.TextField(
        _("sites that may embed the club's pages"),
        blank=True,
        help_text=_(
            "One address per line, such as https://www.myclub.nl: these sites may show the "
            "standings in a frame on their own pages."
        ),
    )
    td_group = models.OneToOneField(
        "auth.Group",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="club",
        verbose_name=_("tournament directors"),
        help_text=_("Members of this group run rounds and enter results for this club."),
    )
    # Dutch time (settings.TIME_ZONE): the members' calendars show the evenings from then on.
    evening_start = models.TimeField(
        _("club evenings start at"),
        default=datetime.time(20, 0),
        help_text=_("The time the club's evenings begin; a season may have its own."),
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class NameDisplay(models.TextChoices):
    """How a member's name shows on public pages, exports and feeds (the TD sees full names)."""

    FULL = "full", _("full name")
    SHORT = "short", _("first name and initial")

    @classmethod
    def choices_with_default(cls) -> list[tuple[str, StrOrPromise]]:
        return [("", _("as the season says")), *cls.choices]


class Member(models.Model):
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="members", verbose_name=_("club")
    )
    name = models.CharField(_("name"), max_length=120)
    knsb_id = optional_text(
        _("KNSB relatienummer"),
        max_length=12,
        help_text=_("The member's KNSB relation number, unique within the club."),
    )
    fide_id = models.PositiveBigIntegerField(_("FIDE ID"), null=True, blank=True)
    # The FIDE federation the member plays for (NED, BEL, ...): the FIDE rating report needs it.
    federation = optional_text(
        _("federation"), max_length=3, help_text=_("FIDE's three-letter code, such as NED.")
    )
    rating = models.PositiveSmallIntegerField(_("rating"), null=True, blank=True)
    rating_date = models.DateField(_("rating list date"), null=True, blank=True)
    birth_year = models.PositiveSmallIntegerField(_("birth year"), null=True, blank=True)
    active = models.BooleanField(_("active"), default=True)
    # The member's own account (one per club: a person in two clubs is two members). A member
    # account has no TD rights; those come from the club's TD group only.
    user = optional_account(_("account"), related_name="memberships")
    email = models.EmailField(_("e-mail address"), blank=True, default="")
    name_display = models.CharField(
        _("name on public pages"),
        max_length=8,
        choices=NameDisplay.choices_with_default(),
        blank=True,
        default="",
        help_text=_("Empty: as the season says (juniors by birth year)."),
    )
    notify_pairing = models.BooleanField(
        _("e-mail me when the pairing is published"), default=False
    )
    notify_correction = models.BooleanField(
        _("e-mail me when a correction changes my result"), default=False
    )
    # The secret part of the member's private calendar address (made on first use).
    feed_token = models.CharField(
        _("key of the calendar address"),
        max_length=43,
        null=True,
        blank=True,
        unique=True,
        editable=False,
    )
    anonymised_at = models.DateTimeField(_("anonymised"), null=True, blank=True, editable=False)

    class Meta:
        ordering = ["name"]
        verbose_name = _("member")
        verbose_name_plural = _("members")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=Q(user__isnull=False),
                name="member_one_account_per_club",
                violation_error_message=_("This account already belongs to a member of this club."),
            ),
            models.UniqueConstraint(
                fields=["club", "knsb_id"],
                condition=~Q(knsb_id=""),
                name="member_unique_knsb_id_per_club",
                violation_error_message=_("Another member of this club has this relatienummer."),
            ),
            models.UniqueConstraint(
                fields=["club", "fide_id"],
                condition=Q(fide_id__isnull=False),
                name="member_unique_fide_id_per_club",
                violation_error_message=_("Another member of this club has this FIDE ID."),
            ),
        ]

    def __str__(self) -> str:
        return self.name
