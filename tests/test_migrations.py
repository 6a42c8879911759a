"""Models and migrations agree: a model change without its migration fails here."""

from io import StringIO

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_no_pending_migrations() -> None:
    out = StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=StringIO())
    except SystemExit as exit_:  # makemigrations --check exits 1 when a migration is missing
        pytest.fail(f"models have changes without a migration:\n{out.getvalue()}")
        raise exit_
