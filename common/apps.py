from django.apps import AppConfig


class CommonConfig(AppConfig):
    name = "common"
    verbose_name = "Common"

    def ready(self) -> None:
        from django.urls import register_converter

        from common.validation import IdConverter

        register_converter(IdConverter, "id")  # every URL's ids: common.validation.parse_id
