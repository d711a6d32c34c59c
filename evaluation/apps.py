from django.apps import AppConfig


class EvaluationConfig(AppConfig):
    name = "evaluation"
    verbose_name = "Evaluation"

    def ready(self) -> None:
        from evaluation.services.sweep import recomputes_sweep_step
        from work.sweep import sweep_register

        sweep_register("recomputes", recomputes_sweep_step)  # the one sweep of background work
