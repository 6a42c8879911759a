"""Settings for ``bench/load.py``: production's, with the benchmark's trivial views mounted
(``bench.load_urls``) and static files served from ``static/`` (no ``collectstatic``)."""

from clubcomp.settings import *  # noqa: F403
from clubcomp.settings import STORAGES

ROOT_URLCONF = "bench.load_urls"
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
