from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("judging", "0030_canonical_usernames")]

    operations = [
        migrations.AddField(
            model_name="job",
            name="task_id",
            field=models.CharField(
                blank=True, default="", max_length=255,
                help_text="The Celery task that claimed it: that task redelivered means its worker died.",
            ),  # fmt: skip
        ),
    ]
