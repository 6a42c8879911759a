"""Top-level URLs: the competition app, auth (login, logout, password reset), admin, the language
switch, the JSON API (``/api/v1/``), ``/healthz`` and ``/favicon.ico``."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from competition.api.v1 import api
from competition.forms.accounts import QueuedPasswordResetForm
from competition.views.errors import favicon
from competition.views.health import healthz
from competition.views.offline import manifest, offline_page, service_worker

# The 500 page without the database (400, 403 and 404 are Django's, with the site's templates).
handler500 = "competition.views.errors.server_error"

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("favicon.ico", favicon, name="favicon"),
    # The TD's evening as an installable app that works offline (docs/offline.md); site-level,
    # as the service worker's scope must hold every club's /<club>/td/ pages.
    path("manifest.webmanifest", manifest, name="manifest"),
    path("service-worker.js", service_worker, name="service_worker"),
    path("offline", offline_page, name="offline"),
    path("admin/", admin.site.urls),
    # The public read-only JSON API (docs/api.md); its OpenAPI document and docs page.
    path("api/v1/", api.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    # Django's own password reset for members (templates in templates/registration/); the mail
    # is queued and sent by a worker, for a known and an unknown address alike.
    path(
        "account/password-reset/",
        auth_views.PasswordResetView.as_view(form_class=QueuedPasswordResetForm),
        name="password_reset",
    ),
    path(
        "account/password-reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "account/password-reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "account/password-reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("", include("competition.urls")),
]
