from django.apps import AppConfig


class ListeningConfig(AppConfig):
    name = "listening"
    verbose_name = "Listening"
