"""``manage.py invite USERNAME [--role organiser]``: an account and its invitation link.

For whoever administers the server: it can create organisers (the pages let organisers
create assessors only). An existing account gets a new link (its older ones stop).
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from common.roles import ASSESSOR, ORGANISER, grant_role
from common.usernames import user_named
from people.services import invitation_create, person_create


class Command(BaseCommand):
    help = "Create an assessor or organiser account (if missing) and print its invitation link."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--role", choices=[ASSESSOR, ORGANISER], default=ASSESSOR)
        parser.add_argument("--email", default="")
        parser.add_argument(
            "--base-url", default="http://127.0.0.1:8000", help="where Earshot is served"
        )
        parser.add_argument("--days", type=int, default=None, help="how long the link works")

    def handle(self, *args, username, role, email, base_url, days, **options):
        user = user_named(username)
        try:
            if user is None:
                user = person_create(created_by=None, username=username, email=email, role=role)
                self.stdout.write(f"Created the {role} {user.username}.")
            else:
                grant_role(user, role)
            new = invitation_create(user=user, created_by=None, days=days)
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from error
        self.stdout.write(
            f"Send {user.username} this link (it works once, until "
            f"{new.invitation.expires_at:%Y-%m-%d %H:%M} UTC):\n"
            f"  {base_url.rstrip('/')}{new.path}"
        )
