"""django-simple-history in Dutch (one language at a time, in the admin too).

simple-history ships no Dutch catalogue, names its models "historical <name>" in English
whatever the language, and gives its own fields no label ("history date"). ``History`` is
``HistoricalRecords`` with translated model names and field labels; the Dutch of
simple-history's admin pages is in our catalogue (see competition/vendor_messages.py).
"""

from typing import Any

from django.db import models
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

HISTORY_FIELD_LABELS = {
    "history_id": _("number in the history"),
    "history_date": _("changed at"),
    "history_change_reason": _("reason for the change"),
    "history_type": _("kind of change"),
    "history_user": _("changed by"),
}


class History(HistoricalRecords):
    """``HistoricalRecords`` whose historical models and fields have translated names."""

    def get_extra_fields(self, model: type[models.Model], fields: Any) -> dict[str, Any]:
        extra = super().get_extra_fields(model, fields)
        for name, label in HISTORY_FIELD_LABELS.items():
            field = extra.get(name)
            if isinstance(field, models.Field):
                field.verbose_name = field._verbose_name = label  # type: ignore[attr-defined]
        return extra

    def get_meta_options(self, model: type[models.Model]) -> dict[str, Any]:
        options = super().get_meta_options(model)
        # Lazy both ways: the name follows the language of each request, not of start-up.
        if not self.user_set_verbose_name:
            options["verbose_name"] = format_lazy(_("historical {}"), model._meta.verbose_name)
        if not self.user_set_verbose_name_plural:
            options["verbose_name_plural"] = format_lazy(
                _("historical {}"), model._meta.verbose_name_plural
            )
        return options
