from django.apps import AppConfig


class RelevanceConfig(AppConfig):
    name = "relevance"
    verbose_name = "Relevance judging"
