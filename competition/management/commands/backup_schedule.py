"""``manage.py backup_schedule``: queue the next nightly backup task unless one is waiting
(``BACKUP_DIR`` unset: nothing). The stack's worker runs it on start; each night's task then
queues the next night's (competition.services.backups)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from competition.services.backups import backup_schedule_next


class Command(BaseCommand):
    help = "Queue the next nightly backup (BACKUP_DIR, BACKUP_TIME) unless one is waiting."

    def handle(self, *args: object, **options: object) -> None:
        night = backup_schedule_next()
        if night is None:
            self.stdout.write("BACKUP_DIR is not set: no nightly backup")
        else:
            self.stdout.write(f"nightly backup queued for {night.isoformat()}")
