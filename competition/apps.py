from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CompetitionConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "competition"
    verbose_name = _("Competition")

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in, user_login_failed

        from competition.security import device_login_seen, login_failure_count

        user_login_failed.connect(login_failure_count, dispatch_uid="clubcomp-login-failures")
        user_logged_in.connect(device_login_seen, dispatch_uid="clubcomp-device-login")
