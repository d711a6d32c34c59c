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
