"""``manage.py devserver [ADDR:PORT] [--workers N]``: Django's development server with the task
worker beside it, what ``make run`` runs (one command; Ctrl-C stops both).

It first queues the seasons whose chances wait without a task (``chances_refresh``), starts
``N`` ``manage.py db_worker`` processes (default 1; in a session of their own, so that the
development server's reloading leaves them be) and then runs ``runserver ADDR:PORT``. When the
server stops the workers are stopped too: asked first (a task in progress ends), killed after
a few seconds. The workers print what they do, and the mail they send with the console backend,
in the same terminal.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser
from django.utils.autoreload import DJANGO_AUTORELOAD_ENV

STOP_SECONDS = 5


class Command(BaseCommand):
    help = "Run the development server with a task worker beside it (make run)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("addrport", nargs="?", default="", help="as runserver's")
        parser.add_argument("--workers", type=int, default=1, help="task workers beside it")

    def handle(self, *args: object, **options: object) -> None:
        addrport = str(options["addrport"])
        runserver_args = [addrport] if addrport else []
        if os.environ.get(DJANGO_AUTORELOAD_ENV) == "true":
            # runserver's reloaded process: the workers started with the first one run on
            call_command("runserver", *runserver_args)
            return
        call_command("chances_refresh", stdout=self.stdout)
        manage = Path(settings.BASE_DIR) / "manage.py"
        workers = [
            subprocess.Popen(
                [sys.executable, str(manage), "db_worker", "--worker-id", f"dev-{n}"],
                start_new_session=True,
            )
            for n in range(1, int(options["workers"]) + 1)  # type: ignore[call-overload]
        ]
        self.stdout.write(f"task worker(s) running beside the server: {len(workers)}")
        try:
            call_command("runserver", *runserver_args)
        finally:
            _stop(workers)


def _stop(workers: list[subprocess.Popen[bytes]]) -> None:
    for worker in workers:
        _signal_group(worker, signal.SIGTERM)
    deadline = time.monotonic() + STOP_SECONDS
    for worker in workers:
        with contextlib.suppress(subprocess.TimeoutExpired):
            worker.wait(max(0.1, deadline - time.monotonic()))
        _signal_group(worker, signal.SIGKILL)  # its reloader's child too, if it lingers
        worker.wait()


def _signal_group(worker: subprocess.Popen[bytes], sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(worker.pid, sig)
