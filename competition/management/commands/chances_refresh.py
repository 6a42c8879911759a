"""``manage.py chances_refresh``: queue "can I still win?" for every season that waits for it,
and the participants' stored pages of every season that lacks them.

The task queue computes a season's chances after every change that can move them (the
``season_chances`` task; competition.services.chances_queue). This command queues the seasons
that were left waiting: a request whose task was lost (a worker killed mid-task, a queue that
was down when the change committed), and running seasons whose stored chances no longer
describe them without any request (an installation from before the task queue). The workers
run it when they start (docker-compose.yml, ``make run``) and the nightly task runs it too. It
replaces the old ``chances_worker`` polling loop: ``manage.py db_worker`` runs the tasks.

The participants' pages after the latest round are stored by the worker too
(competition.services.explanations); a season whose task was lost is queued the same way.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand

from competition.services.chances_queue import chances_sweep
from competition.services.explanations import explanations_sweep


class Command(BaseCommand):
    help = "Queue the chances of every season whose computation waits without a task."

    def handle(self, *args: object, **options: object) -> None:
        queued = chances_sweep()
        self.stdout.write(f"{queued} season(s) queued for their chances")
        queued = explanations_sweep()
        self.stdout.write(f"{queued} season(s) queued for their participants' pages")
