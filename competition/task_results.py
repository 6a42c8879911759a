"""django-tasks-db's app (the queued, running and finished background tasks) under a Dutch name
in the admin: ``INSTALLED_APPS`` names this config instead of ``django_tasks_db``. It lives in a
module of its own: an ``apps.py`` with two configs would leave Django unable to pick the
competition's own."""

from django.utils.translation import gettext_lazy as _
from django_tasks_db.apps import TasksAppConfig


class TaskResultsConfig(TasksAppConfig):
    verbose_name = _("Background tasks")  # type: ignore[assignment]  # a lazy text is a str
