"""People the tests act as (after healthchecks' ``hc/test.py`` base): one line per persona.

``organiser`` owns the ``collection``; ``other_organiser`` owns nothing of it;
``assessor`` judges and is ``organiser``'s person; ``nobody`` has an account but no role.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User

from catalog.models import Clip, Collection, Query, System
from common.roles import ASSESSOR, ORGANISER, grant_role
from people.models import Person

PASSWORD = "correct horse battery staple"


def make_user(username: str, *roles: str, owner: User | None = None) -> User:
    """An account with ``roles``; ``owner`` is the organiser whose person it is (if any)."""
    user = User.objects.create_user(username, f"{username}@example.org", PASSWORD)
    for role in roles:
        grant_role(user, role)
    if owner is not None:
        Person.objects.create(user=user, created_by=owner)
    return user


@dataclass
class Personas:
    organiser: User
    other_organiser: User
    assessor: User
    nobody: User
    collection: Collection


def make_personas() -> Personas:
    organiser = make_user("olivia", ORGANISER)
    collection = Collection.objects.create(name="Tiny collection", owner=organiser)
    clips = [
        Clip.objects.create(collection=collection, external_id=f"c{i}", title=f"Clip {i}")
        for i in range(1, 4)
    ]
    Query.objects.create(collection=collection, clip=clips[0])
    System.objects.create(collection=collection, name="S1")
    return Personas(
        organiser=organiser,
        other_organiser=make_user("oscar", ORGANISER),
        assessor=make_user("ada", ASSESSOR, owner=organiser),
        nobody=make_user("nemo"),
        collection=collection,
    )
