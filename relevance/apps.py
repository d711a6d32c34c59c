from django.apps import AppConfig


class RelevanceConfig(AppConfig):
    name = "relevance"
    verbose_name = "Relevance judging"

    def ready(self) -> None:
        from catalog.access import clip_listeners_register
        from catalog.services.trash import Kind, trash_kind_register
        from people.selectors import people_campaigns_register, people_reach_register
        from relevance.models import RelevanceCampaign
        from relevance.selectors import (
            assessor_may_hear,
            assessors_of_organised_campaigns,
            relevance_campaigns_for_organiser,
        )

        # assessors hear the clips of their own assignments (catalog's clip-wide URL)
        clip_listeners_register(assessor_may_hear)

        # a relevance campaign is deleted with undo (its judgments are catalog's work)
        trash_kind_register(
            "relevance_campaign", Kind(RelevanceCampaign, lambda c: c.relevance_campaigns.all())
        )

        # an organiser sees the assessors of campaigns on collections they may change
        people_reach_register(assessors_of_organised_campaigns)
        # the People page links the campaigns an organiser adds assessors to
        people_campaigns_register(relevance_campaigns_for_organiser)
