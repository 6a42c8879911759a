"""Settings for clubcomp: one module, driven by environment variables.

``DEBUG`` is off unless set; with it off, ``SECRET_KEY`` is required. The test suite runs
with :mod:`clubcomp.settings_test`, which builds on this module.
``DATABASE_URL`` selects the database (``postgres://postgres@127.0.0.1:5432/clubcomp``);
unset means an SQLite file in the project directory.
"""

import os
from datetime import timedelta
from pathlib import Path
from typing import Any, Literal

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from clubcomp import env
from clubcomp.addresses import site_url

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env.flag("DEBUG")
SECRET_KEY = env.text("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"

ALLOWED_HOSTS = [
    h.strip()
    for h in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1").split(",")
    if h.strip()
]
CSRF_TRUSTED_ORIGINS = [
    o.strip() for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_tables2",
    "crispy_forms",
    "crispy_bootstrap5",
    "simple_history",
    "axes",
    "csp",
    # django-ninja: the API (competition.api); its docs page's script and style come from
    # its own static files (never a CDN) only while it is an installed app.
    "ninja",
    # Background work (docs/decisions.md "Background work"): Django's tasks API (the django-tasks
    # backport; built into Django 6) with the database backend and its worker (db_worker).
    "django_tasks",
    "competition.task_results.TaskResultsConfig",  # django_tasks_db, named in Dutch
    "competition",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "csp.middleware.CSPMiddleware",
    # /api/: CORS for GET (any site, no credentials) and ETags with 304 answers.
    "competition.api.http.ApiHeadersMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "competition.middleware.ClubLanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A signed-in person's pages are not kept by the browser (Back asks the server again).
    "competition.middleware.SignedInPagesNotStoredMiddleware",
    # An address with %00 is not found (PostgreSQL refuses to look it up).
    "competition.middleware.NulCharacterMiddleware",
    # /<club>/… : the club's own addresses (request.club); old addresses redirect.
    "competition.middleware.ClubAddressMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "competition.middleware.DatabaseBusyMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    # Refuses logins from an address that guessed too often, before any password is hashed.
    "competition.security.LoginAddressThrottleMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "clubcomp.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "competition.context_processors.roles",
            ],
        },
    },
]

WSGI_APPLICATION = "clubcomp.wsgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        env.text("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=env.integer("CONN_MAX_AGE", 60),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A small club runs on SQLite with two TDs writing at once. Each transaction takes the
    # write lock when it begins (IMMEDIATE), so a second writer waits its turn (up to
    # ``timeout`` seconds) instead of failing as it turns a read into a write; WAL lets the
    # pages read while someone writes. What still finds the database locked is answered with
    # "try again" (competition.middleware.DatabaseBusyMiddleware).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# django-axes first: it refuses a locked-out login before the password is even checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "nl"
LANGUAGES = [("nl", _("Dutch")), ("en", _("English"))]
# English dates and times in the Dutch style (24-hour clock, day first): clubcomp/formats/.
FORMAT_MODULE_PATH = ["clubcomp.formats"]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365  # a member's choice of English outlives the browser
TIME_ZONE = "Europe/Amsterdam"
USE_I18N = True
USE_TZ = True

# Absolute on purpose: Django puts the script prefix before a relative STATIC_URL when it is first
# read and keeps that, and the club middleware sets the prefix to /<club>/ during a club's request
# (a first read there would send every later page to /<club>/static/).
STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# collectstatic writes here (the Dockerfile, a server of your own); STATIC_ROOT overrides it.
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# The login is the site's, not a club's: /login/ even from a club's page (/<club>/…).
LOGIN_URL = lazy(lambda: site_url("login"), str)()
LOGIN_REDIRECT_URL = "competition:after_login"  # a TD to the club evening, others home
LOGOUT_REDIRECT_URL = "competition:home"

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"
DJANGO_TABLES2_TEMPLATE = "django_tables2/bootstrap5-responsive.html"


def cache_from_env(url: str, key_prefix: str = "clubcomp") -> dict[str, Any]:
    """The default cache: Redis when ``url`` (``REDIS_URL`` or ``CACHE_URL``) names one, shared by
    every worker process on every machine; otherwise this process's memory (``make run``).

    Nothing needs the cache to be shared for pages to be fresh: every cached page's key holds
    the season's versions, read from the database on each request. Sharing it makes one
    worker's build serve the others. Nothing needs it to answer either: while Redis is away the
    pages are built uncached (competition.cache_backend), and a connection that cannot be made
    gives up after a second.

    >>> cache_from_env("")["BACKEND"]
    'django.core.cache.backends.locmem.LocMemCache'
    >>> cache_from_env("redis://redis:6379/0")["LOCATION"]
    'redis://redis:6379/0'
    """
    if url.startswith(("redis://", "rediss://", "unix://")):
        return {
            "BACKEND": "competition.cache_backend.ResilientRedisCache",
            "LOCATION": url,
            "KEY_PREFIX": key_prefix,
            # redis-py waits as long as the system lets it by default
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    if url:
        raise ImproperlyConfigured(f"REDIS_URL/CACHE_URL must be a redis:// URL, not {url!r}.")
    return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": key_prefix}


CACHES = {
    "default": cache_from_env(
        env.text("REDIS_URL") or env.text("CACHE_URL"),
        os.environ.get("CACHE_KEY_PREFIX", "clubcomp"),
    )
}
# Sessions live in the database (Django's default, stated here on purpose): every worker on
# every machine sees a login at once, and a restart or a flushed cache logs nobody out.
SESSION_ENGINE = "django.contrib.sessions.backends.db"

# --- Security (README "Production"; docs/decisions.md "Security") --------------------------
# Cookies are Secure-only unless DEBUG is on or SECURE_COOKIES=0 (plain http in the club room).
SECURE_COOKIES = env.flag("SECURE_COOKIES", not DEBUG)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = LANGUAGE_COOKIE_SECURE = SECURE_COOKIES
SESSION_COOKIE_SAMESITE = CSRF_COOKIE_SAMESITE = "Lax"
# Typed as Django's: the language switch passes it to set_cookie.
LANGUAGE_COOKIE_SAMESITE: Literal["Lax", "Strict", "None", False] | None = "Lax"
LANGUAGE_COOKIE_HTTPONLY = True  # set and read by the server only (the language switch)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_SSL_REDIRECT = env.flag("SECURE_SSL_REDIRECT")
SECURE_HSTS_SECONDS = env.integer("SECURE_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.flag("SECURE_HSTS_INCLUDE_SUBDOMAINS")
SECURE_HSTS_PRELOAD = env.flag("SECURE_HSTS_PRELOAD")
# Behind one TLS-terminating proxy (nginx, Caddy, Traefik) that sets X-Forwarded-Proto and
# appends the client's address to X-Forwarded-For. Never set it without such a proxy: the
# headers would then come from the client.
BEHIND_TLS_PROXY = env.flag("BEHIND_TLS_PROXY")
if BEHIND_TLS_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    AXES_CLIENT_IP_CALLABLE = "competition.security.client_ip_behind_proxy"
# The container's health check asks http://127.0.0.1:8000/healthz from inside: no redirect.
SECURE_REDIRECT_EXEMPT = [r"^healthz/?$"]

# Login throttling (django-axes): a username is locked out from one address after
# LOGIN_FAILURE_LIMIT wrong passwords, for LOGIN_COOLOFF_MINUTES; other accounts and other
# addresses are not. Staff unlock in the admin (Access attempts) or with axes_reset_username.
AXES_FAILURE_LIMIT = env.integer("LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env.integer("LOGIN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False  # "wait 15 minutes" means 15 minutes
AXES_LOCKOUT_CALLABLE = "competition.security.lockout_response"  # locked_out.html
# One address guessing many accounts (each new name escapes the lockout above): after this
# many failures from it within LOGIN_COOLOFF_MINUTES every login from it is refused before
# the password is hashed (competition.security.LoginAddressThrottleMiddleware).
LOGIN_ADDRESS_FAILURE_LIMIT = env.integer("LOGIN_ADDRESS_FAILURE_LIMIT", 30)


def _csp_source(token: str) -> str:
    """A CSP source as written in the environment: keywords may come without their quotes."""
    keyword = token.strip("'")
    return f"'{keyword}'" if keyword in {"self", "none"} else token


# Who may show the public pages in a frame: space-separated CSP sources, e.g.
# "https://www.schaakclub.example.nl" (the club's own site) or "self"; default nobody. The TD's
# pages, the login and the admin are never framed (competition.security.embeddable).
FRAME_ANCESTORS = [_csp_source(t) for t in os.environ.get("FRAME_ANCESTORS", "").split()]
FRAME_ANCESTORS = FRAME_ANCESTORS or [NONE]
X_FRAME_OPTIONS = "DENY"
# Every script and style comes from our own static files: no inline code, no CDN. Bootstrap's
# CSS draws its icons with data: images.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
# The browser features no page of ours uses are off for every page and for anything it frames
# (Permissions-Policy); the embed page's copy button writes to the clipboard of its own origin.
PERMISSIONS_POLICY: dict[str, list[str]] = {
    feature: []
    for feature in (
        "accelerometer",
        "bluetooth",
        "browsing-topics",
        "camera",
        "display-capture",
        "geolocation",
        "gyroscope",
        "hid",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "serial",
        "usb",
    )
}
TD_PUBLIC_NAME = os.environ.get("TD_PUBLIC_NAME", "")  # empty: "the TD", translated

# --- E-mail (invitations, password reset, pairing and correction notices) -------------------
# SMTP from the environment. With DEBUG on and no EMAIL_HOST (``make run``) mail is printed to
# the console instead; the tests use Django's in-memory outbox (pytest-django sets it).
# Without EMAIL_HOST (and DEBUG off) mail goes to a server on the machine itself, port 25.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_PORT = env.integer("EMAIL_PORT", 587 if EMAIL_HOST else 25)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env.text("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = env.flag("EMAIL_USE_TLS", bool(EMAIL_HOST))
EMAIL_TIMEOUT = 20  # a slow mail server must not hold the TD's page for long
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "clubcomp@localhost")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
if not EMAIL_HOST:
    EMAIL_HOST = "localhost"
    if DEBUG:
        EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"

# --- Web Push (members told their pairing on their phones) ----------------------------------
# The VAPID key pair that identifies this site to the browsers' push services, and a contact
# (mailto: or https:) they may reach its operator at. Make a pair with
# ``manage.py vapid_keys``. Without all three, push is not offered and nothing is sent.
# VAPID_PRIVATE_KEY (or VAPID_PRIVATE_KEY_FILE) is a secret.
VAPID_PUBLIC_KEY = env.text("VAPID_PUBLIC_KEY").strip()
VAPID_PRIVATE_KEY = env.text("VAPID_PRIVATE_KEY").strip()
VAPID_SUBJECT = env.text("VAPID_SUBJECT").strip()

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# Development and tests serve static files straight from static/ (no collectstatic needed).
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

# --- Background work: the task queue (docs/decisions.md "Background work") -----------------
# Tasks are rows of the site's own database, queued when the transaction that asked for them
# commits; ``manage.py db_worker`` runs them (any number of workers, on any machines that reach
# the database; ``make run`` starts one beside the development server). Failed tasks, with
# their error, are listed in the admin (Tasks › Task results).
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
# A failing task is tried again this many times in all, waiting TASK_RETRY_SECONDS, then twice
# as long, and so on (competition.tasks.retried).
TASK_ATTEMPTS = env.integer("TASK_ATTEMPTS", 5)
TASK_RETRY_SECONDS = env.number("TASK_RETRY_SECONDS", 30.0)
# The nightly backup task (competition.tasks.backup_nightly): the directory it writes to (empty:
# no nightly backup task), when (local time) and how many backups it keeps.
BACKUP_DIR = os.environ.get("BACKUP_DIR", "")
BACKUP_TIME = os.environ.get("BACKUP_TIME", "03:15")
BACKUP_KEEP = env.integer("BACKUP_KEEP", 14)

# "Can I still win?": simulations per computation (the season_chances task, simulate_season).
CHANCES_SIMULATIONS = env.integer("CHANCES_SIMULATIONS", 1000)
