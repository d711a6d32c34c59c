"""How every password form finds the account it names: by its canonical form.

The login page, the admin's login and ``POST /api/token/`` all call Django's
``authenticate``, which asks the backends of ``AUTHENTICATION_BACKENDS``; this one is the
only one. It is Django's ``ModelBackend`` (permissions, inactive accounts, the same work
for an unknown name as for a wrong password) finding the account through
:func:`common.usernames.user_named`, so ``Carol``, ``ｃａｒｏｌ`` and ``𝐜𝐚𝐫𝐨𝐥`` are the
account ``carol`` — and meet the same throttle count (:mod:`common.throttles`).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend

from common.usernames import user_named


class CanonicalUsernameBackend(ModelBackend):
    def authenticate(self, request, username=None, password=None, **kwargs):
        users = get_user_model()
        if username is None:
            username = kwargs.get(users.USERNAME_FIELD)
        if username is None or password is None:
            return None
        user = user_named(username)
        if user is None:
            users().set_password(password)  # an unknown name costs a hash too (Django #20760)
            return None
        if user.check_password(password) and self.user_can_authenticate(user):
            return user
        return None
