import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("competition", "0009_rule_changes_from_round"),
    ]

    operations = [
        migrations.CreateModel(
            name="SeasonChances",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("computed_at", models.DateTimeField(default=django.utils.timezone.now, verbose_name="computed at")),
                ("data_version", models.PositiveIntegerField(verbose_name="data version")),
                ("rules_version", models.PositiveIntegerField(verbose_name="rules version")),
                ("after_round", models.PositiveSmallIntegerField(verbose_name="after round")),
                ("rounds_left", models.PositiveSmallIntegerField(verbose_name="rounds left")),
                ("simulations", models.PositiveIntegerField(verbose_name="simulations")),
                ("seed", models.PositiveIntegerField(default=0, verbose_name="seed")),
                ("draw_rate", models.FloatField(default=0, verbose_name="draw rate")),
                ("rows", models.JSONField(default=list, verbose_name="rows")),
                (
                    "season",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="chances",
                        to="competition.season",
                        verbose_name="season",
                    ),
                ),
            ],
            options={
                "verbose_name": "chances",
                "verbose_name_plural": "chances",
            },
        ),
    ]
