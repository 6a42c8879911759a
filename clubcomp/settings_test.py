"""Settings for the test suite: production's settings (DEBUG off), made fit for tests.

A request in a test goes through what it goes through in production: the same middleware, the
same static files storage (``CompressedManifestStaticFilesStorage`` on the files ``collectstatic``
wrote to ``STATIC_ROOT``: ``make test`` collects them first, and tests/conftest.py refuses to
start when they are missing or older than ``static/``), the same cache and sessions. What
differs only saves time or suits the test machine: a secret of the tests' own, a fast password
hasher (the real one is made slow on purpose, and the suite logs in hundreds of times), and the
plain-http settings of README "Security and HTTPS" (the browser tests talk plain HTTP to their
server), unless the environment says otherwise (the production-parity stage sets them from
.env.example). Login throttling (django-axes) stays on with the production limits: its attempts
live in the database, which every test rolls back, and ``client.force_login`` does not go
through it.
"""

import os

os.environ.setdefault("SECRET_KEY", "tests-only-not-a-secret")
os.environ.setdefault("SECURE_COOKIES", "0")  # plain http to the live server (README)

from clubcomp.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

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

# A server a test starts (the parity stage's gunicorn) writes its mail where the test reads it
# (tests/app_servers.py: sent_mail); the suite's own process uses Django's in-memory outbox.
if os.environ.get("TEST_EMAIL_DIR"):
    EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    EMAIL_FILE_PATH = os.environ["TEST_EMAIL_DIR"]
