"""The error every service raises for a refused action, with a message fit for the user."""

from django.core.exceptions import ValidationError


class ServiceError(ValidationError):
    """A user action was refused; nothing was changed. ``str(error)`` is the message to show."""

    def __str__(self) -> str:
        return " ".join(str(m) for m in self.messages)
