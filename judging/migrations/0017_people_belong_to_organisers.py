"""People belong to organisers (issue 20): every assessor account gets a ``Person`` row
naming the organiser whose account it is.

An account from before is given to the organiser who invited it (the earliest invitation
made by an organiser, not by the command line), else to the owner of the collection of
the first relevance campaign it judges in, else to nobody (administrators only).
Organisers' accounts belong to no organiser.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def people_owned(apps, schema_editor):
    User = apps.get_model("auth", "User")
    Person = apps.get_model("judging", "Person")
    Invitation = apps.get_model("judging", "Invitation")
    RelevanceCampaign = apps.get_model("judging", "RelevanceCampaign")
    assessors = (
        User.objects.filter(groups__name="assessor")
        .exclude(groups__name="organiser")
        .exclude(is_superuser=True)
        .distinct()
    )
    for user in assessors.order_by("pk"):
        owner_id = (
            Invitation.objects.filter(user=user, created_by__isnull=False)
            .exclude(created_by=user)
            .order_by("created_at", "pk")
            .values_list("created_by", flat=True)
            .first()
        )
        if owner_id is None:
            owner_id = (
                RelevanceCampaign.objects.filter(assessors=user)
                .order_by("pk")
                .values_list("collection__owner", flat=True)
                .first()
            )
        Person.objects.get_or_create(user=user, defaults={"created_by_id": owner_id})


class Migration(migrations.Migration):
    dependencies = [
        ("judging", "0016_job_runs"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Person",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "created_by",
                    models.ForeignKey(
                        blank=True,
                        help_text="The organiser whose account this is: only they (and administrators) send it invitation links, which reset its password.",
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="people_created",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "user",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="person",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
        ),
        migrations.RunPython(people_owned, migrations.RunPython.noop),
    ]
