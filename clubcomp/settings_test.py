"""Settings for the test suite: production's settings (DEBUG off), made fit for tests.

Tests need no secret of their own, hash passwords with a fast hasher (the real one is made
slow on purpose, and the suite logs in hundreds of times), serve static files straight from
``static/`` without ``collectstatic``, and talk plain HTTP to the live server of the browser
tests, so cookies cannot be Secure-only. Login throttling (django-axes) stays on with the
production limits: its attempts live in the database, which every test rolls back, and
``client.force_login`` does not go through it.
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
LANGUAGE_COOKIE_SECURE = False

# The per-address login throttle counts in the cache, which tests do not roll back: the suite's
# many failed logins from 127.0.0.1 must not add up to a lockout of later tests. Its own test
# sets the limit it needs.
LOGIN_ADDRESS_FAILURE_LIMIT = 10_000

# With REDIS_URL (CI's run of the page tests) every run writes under a key prefix of its own and
# clears only that (tests.redis_cache): other runs may share the Redis database. Servers a test
# starts are given the prefix of that test (CACHE_KEY_PREFIX).
if CACHES["default"]["BACKEND"].endswith("RedisCache"):  # noqa: F405
    CACHES["default"]["BACKEND"] = "tests.redis_cache.RunScopedRedisCache"  # noqa: F405
    if "CACHE_KEY_PREFIX" not in os.environ:
        CACHES["default"]["KEY_PREFIX"] = f"clubcomp-test-{os.getpid()}-{os.urandom(4).hex()}"  # noqa: F405
