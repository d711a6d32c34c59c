from django.apps import AppConfig


class RelevanceConfig(AppConfig):
    name = "relevance"
    verbose_name = "Relevance judging"

    def ready(self) -> None:
        from people.selectors import people_reach_register
        from relevance.selectors import assessors_of_organised_campaigns

        # an organiser sees the assessors of campaigns on collections they may change
        people_reach_register(assessors_of_organised_campaigns)
