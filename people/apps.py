from django.apps import AppConfig


class PeopleConfig(AppConfig):
    name = "people"
    verbose_name = "People"

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.db.models.signals import pre_save

        from common.usernames import username_canonical_on_save

        # Every account name is stored in its canonical form, whoever creates it.
        pre_save.connect(
            username_canonical_on_save, sender=get_user_model(), dispatch_uid="username_canonical"
        )
