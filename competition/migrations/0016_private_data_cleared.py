"""Private data the app kept where it no longer belongs (data only, no schema change).

- Members anonymised before anonymising cleared every note about the member keep the notes of
  the round entries their absence reports were copied into (and the history of those), the
  reason of a withdrawal and the notes of pairs they may not be paired in: cleared now, as
  ``competition.services.accounts.member_notes_clear`` does.
- Linking a member to an account by its username copied the account's e-mail address into the
  member, and it stayed after unlinking. A member without an account whose address is an
  account's address got it from that account: cleared, with the notices he chose (they were
  the account owner's choice and went to that address).
"""

from django.db import migrations
from django.db.models import Q


def clear(apps, schema_editor):
    Member = apps.get_model("competition", "Member")
    Participant = apps.get_model("competition", "Participant")
    AbsenceReport = apps.get_model("competition", "AbsenceReport")
    RoundEntry = apps.get_model("competition", "RoundEntry")
    ForbiddenPair = apps.get_model("competition", "ForbiddenPair")
    User = apps.get_model("auth", "User")
    histories = [
        apps.get_model("competition", "HistoricalAbsenceReport"),
        apps.get_model("competition", "HistoricalRoundEntry"),
    ]

    anonymised = Participant.objects.filter(member__anonymised_at__isnull=False)
    ids = list(anonymised.values_list("pk", flat=True))
    for start in range(0, len(ids), 500):
        batch = ids[start : start + 500]
        AbsenceReport.objects.filter(participant_id__in=batch).update(note="")
        RoundEntry.objects.filter(participant_id__in=batch).update(note="")
        for history in histories:
            history.objects.filter(participant_id__in=batch).update(note="")
        Participant.objects.filter(pk__in=batch).update(withdrawal_note="")
        ForbiddenPair.objects.filter(Q(first_id__in=batch) | Q(second_id__in=batch)).update(
            note=""
        )

    addresses = {
        email.casefold() for email in User.objects.exclude(email="").values_list("email", flat=True)
    }
    copied = [
        pk
        for pk, email in Member.objects.filter(user__isnull=True)
        .exclude(email="")
        .values_list("pk", "email")
        if email.casefold() in addresses
    ]
    for start in range(0, len(copied), 500):
        Member.objects.filter(pk__in=copied[start : start + 500]).update(
            email="", notify_pairing=False, notify_correction=False
        )


class Migration(migrations.Migration):
    dependencies = [
        ("competition", "0015_labels_and_season_changed_at"),
    ]

    operations = [
        migrations.RunPython(clear, migrations.RunPython.noop),
    ]
