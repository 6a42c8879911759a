"""Shared fixtures: the demo club (built once per session), users with roles.

The demo club is what most page and service tests read. Building it runs ten club evenings
through the TD's services and the pairing engine, so it is built once per test session and
rolled back; each test that asks for ``demo_club`` gets the same rows inserted in bulk inside
its own transaction, which the test's rollback removes again. Tests that need other data build
only that, with the factories.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterator

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.management import call_command
from django.core.management.color import no_style
from django.core.serializers import sort_dependencies
from django.db import connection, transaction
from django.db.models import Model
from django.utils import translation

import tests.profiles  # noqa: F401  (loads the hypothesis profile)
from tests.static_files import collected_problem

# Rows that migrations create and every test database already holds.
_MIGRATED = {"contenttypes.contenttype", "auth.permission", "sessions.session"}

DemoRows = list[tuple[type[Model], list[Model]]]


def pytest_sessionstart(session: pytest.Session) -> None:
    """Refuse to start on missing or stale collected static files (tests/static_files.py).

    Checked once, before pytest-xdist starts its workers (whose pages all read the same
    files); the workers never collect, so none writes while another reads."""
    if hasattr(session.config, "workerinput"):
        return
    problem = collected_problem()
    if problem:
        raise pytest.UsageError(f"The tests serve the collected static files: {problem}.")


def _models_in_insert_order() -> list[type[Model]]:
    """Every model with a table, each after the models its foreign keys point to."""
    app_list = [(config, None) for config in apps.get_app_configs()]
    ordered = [m for m in sort_dependencies(app_list, allow_cycles=True) if m._meta.managed]
    through = [
        m
        for m in apps.get_models(include_auto_created=True)
        if m._meta.auto_created and m not in ordered
    ]
    return [m for m in ordered + through if m._meta.label_lower not in _MIGRATED]


@pytest.fixture(autouse=True)
def _club_addresses_followed(request, monkeypatch) -> None:
    """The test client follows the redirect of an address from before clubs had their own
    (``/season/<slug>/`` → ``/<club>/season/<slug>/``), so that a test may name a page with a
    plain ``reverse()``: the request is sent again, form data and all, to the club's address
    (as a browser does with the 301/308). tests/views/test_club_addresses.py checks the redirect
    itself, with ``@pytest.mark.club_redirects_seen``."""
    if request.node.get_closest_marker("club_redirects_seen"):
        return
    from django.test import Client

    generic = Client.generic

    def following(self, method, path, *args, **kwargs):  # type: ignore[no-untyped-def]
        response = generic(self, method, path, *args, **kwargs)
        for _hop in range(3):
            if not getattr(response, "club_redirect", False):
                break
            location = response["Location"]
            target, _mark, query = location.partition("?")
            if query:
                kwargs = {**kwargs, "QUERY_STRING": query}
            response = generic(self, method, target, *args, **kwargs)
        return response

    monkeypatch.setattr(Client, "generic", following)


@pytest.fixture(scope="session", autouse=True)
def _cache_emptied_at_the_end() -> Iterator[None]:
    """A shared cache (Redis, with this run's key prefix) keeps nothing of this run."""
    yield
    cache.clear()


@pytest.fixture(scope="session")
def demo_rows(django_db_setup, django_db_blocker) -> DemoRows:
    """The demo club's rows, built once through ``seed_demo`` and then rolled back.

    Their primary keys are those of a fresh database whatever ran before: PostgreSQL's sequences
    keep counting across rolled-back tests, so they are set back to the rows there are (none of
    the demo's tables has a row between tests) before the demo is seeded. The names it makes
    (a group's season: "groep A, periode 2") are in the site's language."""
    with (
        django_db_blocker.unblock(),
        transaction.atomic(),
        translation.override(settings.LANGUAGE_CODE),  # as manage.py runs it, whatever ran before
    ):
        _sequences_reset(_models_in_insert_order())
        call_command("seed_demo", stdout=io.StringIO())
        rows = [
            (model, list(model._base_manager.order_by("pk"))) for model in _models_in_insert_order()
        ]
        transaction.set_rollback(True)
    return [(model, objs) for model, objs in rows if objs]


@transaction.atomic
def _insert(rows: DemoRows) -> None:
    for model, _objs in rows:
        assert not model._base_manager.exists(), (
            f"{model._meta.label} has rows before the demo club: ask for demo_club before "
            "fixtures that create rows (the demo keeps its primary keys)"
        )
    for model, objs in rows:
        model._base_manager.bulk_create(objs)
    # Rows came with their primary keys; the next row a test creates must not collide.
    _sequences_reset([m for m, _ in rows])


def _sequences_reset(models: list[type[Model]]) -> None:
    """Each model's next primary key: one more than its highest row (no-op on SQLite)."""
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), models):
            cursor.execute(sql)


@pytest.fixture
def demo_club(db, demo_rows: DemoRows) -> Iterator[None]:
    """The demo club of ``seed_demo`` (seasons, members, TD ``wedstrijdleider``, admin)."""
    cache.clear()
    _insert(demo_rows)
    yield
    cache.clear()


@pytest.fixture
def demo_club_committed(transactional_db, demo_rows: DemoRows) -> Iterator[None]:
    """The demo club for tests that need committed rows (a live server, several threads)."""
    cache.clear()
    _insert(demo_rows)
    yield
    cache.clear()


@pytest.fixture
def superuser(db) -> User:
    return User.objects.create_superuser("admin", "admin@example.org", "admin-pass-123")


@pytest.fixture
def td_user(db) -> User:
    from competition.permissions import td_group

    user = User.objects.create_user("td", password="td-pass-12345")
    user.groups.add(td_group())
    return user


@pytest.fixture
def member_user(db) -> User:
    return User.objects.create_user("member", password="member-pass-123")


# --- The live server: Django's threaded server, or gunicorn in the production-parity stage ---

GUNICORN_LIVE_SERVER = os.environ.get("CLUBCOMP_LIVE_SERVER") == "gunicorn"


class GunicornLiveServer:
    """What the browser tests need of pytest-django's ``live_server``: its ``url``."""

    class _NoSettings:  # pytest-django changes ALLOWED_HOSTS for its own server only
        def enable(self) -> None: ...

        def disable(self) -> None: ...

    _live_server_modified_settings = _NoSettings()

    def __init__(self, url: str, mail_dir: str) -> None:
        self.url = url
        self.mail_dir = mail_dir

    def __str__(self) -> str:
        return self.url


@pytest.fixture(scope="session")
def gunicorn_server(django_db_setup, django_db_blocker, tmp_path_factory) -> Iterator[object]:
    """gunicorn (``gunicorn.conf.py``, two workers) on this run's test database and cache, with
    this process's environment (.env.example's in the parity stage): PostgreSQL only (a server
    of its own cannot open SQLite's in-memory test database)."""
    from tests.app_servers import gunicorn_servers, server_environment

    if connection.vendor != "postgresql":
        pytest.skip("a gunicorn server needs PostgreSQL (set DATABASE_URL=postgres://...)")
    logs = tmp_path_factory.mktemp("gunicorn")
    mail_dir = logs / "mail"
    mail_dir.mkdir()
    env = server_environment(TEST_EMAIL_DIR=str(mail_dir))
    with (logs / "server.log").open("wb") as log:
        try:
            # a busy machine (CI's, with the browsers) may take a while to start two workers
            with gunicorn_servers(env, [log], workers=2, healthy=False, boot_seconds=180) as (
                base,
            ):
                # "localhost", as Django's live server: another origin than 127.0.0.1
                yield GunicornLiveServer(base.replace("127.0.0.1", "localhost"), str(mail_dir))
        finally:
            log.flush()
            print("--- gunicorn:\n" + (logs / "server.log").read_text()[-5000:])


def _as_it_is(application: object) -> object:
    return application


@pytest.fixture(scope="session")
def live_server(request: pytest.FixtureRequest) -> Iterator[object]:
    """The browser tests' server (pytest-django's fixture, replaced): gunicorn in the parity
    stage (``CLUBCOMP_LIVE_SERVER=gunicorn``), else Django's threaded live server serving the
    static files as production does, by WhiteNoise from the collected files (pytest-django's
    own would serve them from ``static/`` through Django's finders, which know no hashed name)."""
    if GUNICORN_LIVE_SERVER:
        yield request.getfixturevalue("gunicorn_server")
        return
    from pytest_django.live_server_helper import LiveServer

    server = LiveServer("localhost", start=False)
    server.thread.static_handler = _as_it_is  # the middleware (WhiteNoise) answers /static/
    server.start()
    try:
        yield server
    finally:
        server.stop()
