from django.apps import AppConfig


class JudgingConfig(AppConfig):
    """Only migrations: the models moved to the apps by area (issue 30)."""

    name = "judging"
    verbose_name = "Judging (migration history)"
