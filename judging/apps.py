from django.apps import AppConfig


class JudgingConfig(AppConfig):
    name = "judging"
    verbose_name = "Judging"

    def ready(self) -> None:
        from django.urls import register_converter

        from judging.validation import IdConverter

        register_converter(IdConverter, "id")  # every URL's ids: judging.validation.parse_id

        from judging.services.jobs import jobs_sweep_step
        from work.sweep import sweep_register

        sweep_register("jobs", jobs_sweep_step)  # the one sweep of background work

        from django.contrib.auth import get_user_model
        from django.db.models.signals import pre_save

        from judging.usernames import username_canonical_on_save

        # Every account name is stored in its canonical form, whoever creates it.
        pre_save.connect(
            username_canonical_on_save, sender=get_user_model(), dispatch_uid="username_canonical"
        )
