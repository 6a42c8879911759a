# Production-like image: gunicorn serving clubcomp, static files collected for whitenoise; the
# same image runs the task worker (docker-compose.yml, service worker).
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app

# pg_dump and pg_restore of the database's major version, for the worker's nightly backup.
RUN apt-get update \
    && apt-get install -y --no-install-recommends postgresql-client-15 \
    && rm -rf /var/lib/apt/lists/*

# Dependencies first, so a code change does not reinstall them.
COPY pyproject.toml README.md ./
COPY clubcomp ./clubcomp
COPY competition ./competition
RUN pip install --no-cache-dir .

# Only what the app needs at run time (never the local .venv, database or caches).
# locale/ holds the compiled .mo files, so gettext is not needed in the image.
COPY manage.py gunicorn.conf.py ./
COPY bin ./bin
COPY templates ./templates
COPY static ./static
COPY locale ./locale
RUN SECRET_KEY=build-only python manage.py collectstatic --noinput \
    && useradd --system --no-create-home clubcomp \
    && mkdir -p /backups && chown clubcomp /backups
USER clubcomp

EXPOSE 8000
# gunicorn.conf.py: WEB_CONCURRENCY workers (3 unless set), no Server header.
# DEMO_DATA=1 loads the demo club (with its public demo passwords) into an empty database.
CMD ["sh", "-c", "python manage.py migrate --noinput && if [ \"${DEMO_DATA:-0}\" = 1 ]; then python manage.py seed_demo --if-empty; fi && exec gunicorn -c gunicorn.conf.py clubcomp.wsgi --bind 0.0.0.0:8000 --access-logfile -"]
