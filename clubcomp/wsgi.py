"""WSGI entry point (gunicorn clubcomp.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubcomp.settings")
application = get_wsgi_application()
