"""The messages of installed apps that ship no Dutch: django-simple-history (the history of
games and round entries), django-axes (login attempts), django-tasks-db (the background tasks in
the admin) and the few of Django's admin that its Dutch catalogue lacks.

Our catalogue (locale/, in LOCALE_PATHS) comes before every app's own, so their msgids get
their Dutch there; they are listed here, word for word as in those apps' code and templates,
so that makemessages keeps them; tests/test_admin_dutch.py checks that each has Dutch.
"""

from django.utils.translation import gettext_noop, ngettext_lazy, pgettext_lazy

SIMPLE_HISTORY = (
    gettext_noop("Created"),
    gettext_noop("Changed"),
    gettext_noop("Deleted"),
    gettext_noop("Deleted %(type_name)s"),
    gettext_noop("View history: %s"),
    gettext_noop("Revert %s"),
    gettext_noop('The %(name)s "%(obj)s" was changed successfully.'),
    gettext_noop("You may edit it again below"),
    gettext_noop(
        "Choose a date from the list below to revert to a previous version of this object."
    ),
    gettext_noop("This object doesn't have a change history."),
    gettext_noop("View %(verbose_name)s"),
    gettext_noop("Revert %(verbose_name)s"),
    gettext_noop("Press the 'Revert' button below to revert to this version of the object."),
    gettext_noop("Press the 'Change History' button below to edit the history."),
    gettext_noop("Revert"),
    gettext_noop("Change History"),
    gettext_noop("Object"),
    gettext_noop("Comment"),
    gettext_noop("Change reason"),
    gettext_noop("Changes"),
    ngettext_lazy("entry", "entries", "counter"),
)  # fmt: skip

AXES = (
    gettext_noop("access attempt"),
    gettext_noop("access attempts"),
    gettext_noop("Access Attempt"),
    gettext_noop("access attempt expiration"),
    gettext_noop("access attempt expirations"),
    gettext_noop("access failure"),
    gettext_noop("access failures"),
    gettext_noop("access log"),
    gettext_noop("access logs"),
    gettext_noop("Access lock out"),
    gettext_noop("Attempt Remaining"),
    gettext_noop("Attempt Time"),
    gettext_noop("Clean up expired attempts"),
    gettext_noop("Expires At"),
    gettext_noop("Failed Logins"),
    gettext_noop("Form Data"),
    gettext_noop("GET Data"),
    gettext_noop("HTTP Accept"),
    gettext_noop("IP Address"),
    gettext_noop("Locked Out"),
    gettext_noop("Logout Time"),
    gettext_noop("Meta Data"),
    gettext_noop("Not set"),
    gettext_noop("Path"),
    gettext_noop("POST Data"),
    gettext_noop("Session key hash (sha256)"),
    gettext_noop("The time when access attempt expires and is no longer valid."),
    gettext_noop("User Agent"),
    gettext_noop("Account locked: too many login attempts. Please try again later."),
    gettext_noop(
        "Account locked: too many login attempts. Contact an admin to unlock your account."
    ),
)  # fmt: skip

# Django 5's admin, app list headers for screen readers (not yet in Django's Dutch catalogue).
DJANGO_ADMIN = (
    gettext_noop("Model name"),
    gettext_noop("Add link"),
    gettext_noop("Change or view list link"),
)

# django-tasks-db: the task results in the admin (labels of DBTaskResult and its admin), and
# django-tasks' statuses (in the context "Task").
TASKS = (
    gettext_noop("Task Result"),
    gettext_noop("Task Results"),
    gettext_noop("enqueued at"),
    gettext_noop("started at"),
    gettext_noop("finished at"),
    gettext_noop("args kwargs"),
    gettext_noop("priority"),
    gettext_noop("task path"),
    gettext_noop("worker id"),
    gettext_noop("queue name"),
    gettext_noop("backend name"),
    gettext_noop("run after"),
    gettext_noop("return value"),
    gettext_noop("exception class path"),
    gettext_noop("traceback"),
    pgettext_lazy("Task", "Ready"),
    pgettext_lazy("Task", "Running"),
    pgettext_lazy("Task", "Failed"),
    pgettext_lazy("Task", "Successful"),
)  # fmt: skip
