from django.apps import AppConfig


class WorkConfig(AppConfig):
    name = "work"
    verbose_name = "Background work"

    def ready(self) -> None:
        from work.jobs import jobs_sweep_step
        from work.sweep import sweep_register

        sweep_register("jobs", jobs_sweep_step)  # the one sweep of background work
