from django.apps import AppConfig


class PairwiseConfig(AppConfig):
    name = "pairwise"
    verbose_name = "Pairwise preferences"

    def ready(self) -> None:
        from crowd.models import PreferenceCampaign
        from crowd.services.tasks import work_coming_register
        from pairwise.services.driver import (
            pairs_answers_received,
            pairs_work_coming,
            pairwise_sweep_step,
        )
        from work import kinds
        from work.handoff import ANSWERS_ACCEPTED_TASK
        from work.sweep import sweep_register

        # a pairs campaign's answers move its sorts on (the crowd's hand-off), and the
        # sweep drives what a lost hand-off left
        kinds.receiver_register(ANSWERS_ACCEPTED_TASK, pairs_answers_received)
        sweep_register("pairwise", pairwise_sweep_step)
        # a worker out of pairs while a sort goes on is not finished: the next round comes
        work_coming_register(PreferenceCampaign.PAIRS, pairs_work_coming)
