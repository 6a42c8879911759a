# The club rating follows the FIDE Rating Regulations as amended on 1 October 2025 (docs/ratings.md):
# the ledger remembers whether a member's rating was ever 2300 or more (a junior keeps K 40 only
# while his rating has remained under 2300). Existing rows are filled from their own history;
# the ratings themselves follow the new rounding and K order after `manage.py club_ratings CLUB
# --replay` or the next closed round.

from django.db import migrations, models


def fill_junior_limit(apps, schema_editor):
    """A row's flag holds after its evening: the member's rating was 2300 or more before or
    after this evening or an earlier one."""
    ClubRatingChange = apps.get_model("competition", "ClubRatingChange")
    reached = set()
    changed = []
    rows = ClubRatingChange.objects.order_by("member_id", "date").only(
        "member_id", "rating_before", "rating_after"
    )
    for row in rows.iterator():
        if max(row.rating_before, row.rating_after) >= 2300:
            reached.add(row.member_id)
        if row.member_id in reached:
            row.reached_junior_limit = True
            changed.append(row)
    ClubRatingChange.objects.bulk_update(changed, ["reached_junior_limit"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("competition", "0019_club_rating"),
    ]

    operations = [
        migrations.AddField(
            model_name="clubratingchange",
            name="reached_junior_limit",
            field=models.BooleanField(default=False, verbose_name="2300 reached"),
        ),
        migrations.RunPython(fill_junior_limit, migrations.RunPython.noop),
    ]
