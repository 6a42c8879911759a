"""Settings for the test suite: production's settings (DEBUG off), made fit for tests.

Tests need no secret of their own, hash passwords with a fast hasher (the real one is made
slow on purpose, and the suite logs in hundreds of times), serve static files straight from
``static/`` without ``collectstatic``, and talk plain HTTP to the live server of the browser
tests, so cookies cannot be Secure-only.
"""

import os

os.environ.setdefault("SECRET_KEY", "tests-only-not-a-secret")

from clubcomp.settings import *  # noqa: F403
from clubcomp.settings import STORAGES

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True

SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
