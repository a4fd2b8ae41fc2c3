"""Sealed ballots (docs/secrecy.md): bags with receipts and sealed ballots replace the
per-option vote counters; presence is counted per socket and process; the last Undo's notice;
the debate timer kept by the server.

A bag already counted keeps its receipts (its tally is in the action log). A bag still open
when the server is upgraded cannot be carried over (its counters would link the last ballots to
their options, and the new bag's key cannot be made outside the server): it is marked as held by
no key store, so the server reopens it empty and asks its phones to vote again.
"""

import secrets
import uuid

import django.db.models.deletion
from django.db import migrations, models

OPTIONS = {"tax": ["A", "B", "C", "D"], "budget": ["health", "education", "shield"]}


def receipts_into_bags(apps, schema_editor):
    Bag = apps.get_model("facilitator", "Bag")
    BallotReceipt = apps.get_model("facilitator", "BallotReceipt")
    VoteCounter = apps.get_model("facilitator", "VoteCounter")
    TableAction = apps.get_model("facilitator", "TableAction")
    keys = set(BallotReceipt.objects.values_list("table_id", "round", "kind"))
    keys |= set(VoteCounter.objects.values_list("table_id", "round", "kind"))
    for table_id, round_, kind in sorted(keys):
        count = next((a for a in TableAction.objects.filter(table_id=table_id, round=round_)
                      .order_by("seq")
                      if a.payload.get("type") == "count" and a.payload.get("kind") == kind),
                     None)
        opener = (VoteCounter.objects.filter(table_id=table_id, round=round_, kind=kind)
                  .exclude(step=None).values_list("step_id", flat=True).first()
                  or BallotReceipt.objects.filter(table_id=table_id, round=round_, kind=kind)
                  .exclude(step=None).values_list("step_id", flat=True).first())
        bag = Bag.objects.create(
            table_id=table_id, decision=f"{round_}:{kind}", options=OPTIONS.get(kind, []),
            status="counted" if count else "open", key_ref=secrets.token_hex(16), store="",
            fingerprint="", step_id=opener, counted_by_id=count.step_id if count else None)
        BallotReceipt.objects.filter(table_id=table_id, round=round_, kind=kind).update(bag=bag)


class Migration(migrations.Migration):

    dependencies = [
        ("facilitator", "0002_session_class_size"),
    ]

    operations = [
        migrations.CreateModel(
            name="Bag",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False,
                                           verbose_name="ID")),
                ("decision", models.CharField(max_length=40)),
                ("options", models.JSONField()),
                ("status", models.CharField(choices=[("open", "Open"), ("counted", "Counted")],
                                            default="open", max_length=10)),
                ("key_ref", models.CharField(max_length=32)),
                ("store", models.CharField(blank=True, max_length=40)),
                ("fingerprint", models.CharField(blank=True, max_length=32)),
                ("reopened", models.CharField(blank=True, max_length=10)),
                ("counted_by", models.ForeignKey(
                    blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL,
                    related_name="counted_bags", to="facilitator.teacherstep")),
                ("step", models.ForeignKey(
                    blank=True, null=True, on_delete=django.db.models.deletion.CASCADE,
                    related_name="bags", to="facilitator.teacherstep")),
                ("table", models.ForeignKey(
                    on_delete=django.db.models.deletion.CASCADE, related_name="bags",
                    to="facilitator.table")),
            ],
            options={
                "constraints": [models.UniqueConstraint(fields=("table", "decision"),
                                                        name="one_bag_per_decision")],
            },
        ),
        migrations.AddField(
            model_name="ballotreceipt",
            name="bag",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.CASCADE,
                                    related_name="receipts", to="facilitator.bag"),
        ),
        migrations.RunPython(receipts_into_bags, migrations.RunPython.noop),
        migrations.RemoveConstraint(model_name="ballotreceipt", name="one_ballot_per_vote"),
        migrations.RemoveField(model_name="ballotreceipt", name="round"),
        migrations.RemoveField(model_name="ballotreceipt", name="kind"),
        migrations.RemoveField(model_name="ballotreceipt", name="step"),
        migrations.RemoveField(model_name="ballotreceipt", name="table"),
        migrations.AlterField(
            model_name="ballotreceipt",
            name="bag",
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                    related_name="receipts", to="facilitator.bag"),
        ),
        migrations.AddConstraint(
            model_name="ballotreceipt",
            constraint=models.UniqueConstraint(fields=("bag", "seat"), name="one_ballot_per_bag"),
        ),
        migrations.CreateModel(
            name="SealedBallot",
            fields=[
                ("id", models.UUIDField(default=uuid.uuid4, editable=False, primary_key=True,
                                        serialize=False)),
                ("sealed", models.BinaryField(max_length=64)),
                ("bag", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                          related_name="sealed", to="facilitator.bag")),
            ],
        ),
        migrations.DeleteModel(name="VoteCounter"),
        migrations.RemoveField(model_name="seat", name="connected"),
        migrations.CreateModel(
            name="Presence",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False,
                                           verbose_name="ID")),
                ("process", models.CharField(max_length=16)),
                ("sockets", models.IntegerField(default=0)),
                ("seen_at", models.DateTimeField()),
                ("seat", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                           related_name="presence", to="facilitator.seat")),
            ],
            options={
                "constraints": [models.UniqueConstraint(fields=("seat", "process"),
                                                        name="one_presence_per_process")],
            },
        ),
        migrations.AddField(
            model_name="classsession",
            name="undone",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="classsession",
            name="timer",
            field=models.JSONField(blank=True, null=True),
        ),
    ]
