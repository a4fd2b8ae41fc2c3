"""Lesson modules: a session's game and stage are named by its lesson module (no fixed
choices, so a new module needs no migration), and a bag may weigh its ballots.

Stored values do not change: a State in Class lesson started before this migration continues
after it (tests/facilitator/test_migration_keeps_lessons.py).
"""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("facilitator", "0003_sealed_ballots"),
    ]

    operations = [
        migrations.AlterField(
            model_name="classsession",
            name="game",
            field=models.CharField(max_length=40),
        ),
        migrations.AlterField(
            model_name="classsession",
            name="stage",
            field=models.CharField(default="lobby", max_length=40),
        ),
        migrations.AddField(
            model_name="bag",
            name="weights",
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
