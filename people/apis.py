"""REST API of people: an organiser's API token, assessor accounts and invitation links
(see :mod:`people.services`).

An invitation's link is in the answer only once, when it is made; it is never stored.
"""

from __future__ import annotations

from django.contrib.auth import authenticate
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from common.apis import NestedSerializerSchema, OrganiserApi
from common.roles import ASSESSOR, ORGANISER, is_organiser
from common.throttles import TokenAccountThrottle, TokenAddressThrottle
from people.selectors import people_for_organiser, person_for_organiser
from people.services import invitation_create, invitation_email_send, person_create


class TokenObtainApi(APIView):
    """An organiser's API token, from their username and password (created on first use).

    ``POST /api/token/`` with ``{"username", "password"}`` gives ``{"token"}``; send it
    as ``Authorization: Token <token>``. Only organisers get one. A wrong password, an
    unknown username and an account without the organiser role get the same 400; too
    many attempts from one address or for one username get 429 (:mod:`common.throttles`).
    """

    authentication_classes: list = []
    permission_classes: list = []
    throttle_classes = [TokenAddressThrottle, TokenAccountThrottle]
    schema = NestedSerializerSchema()
    REFUSED = "Unknown username, wrong password, or an account without the organiser role."

    class InputSerializer(serializers.Serializer):
        username = serializers.CharField()
        password = serializers.CharField(style={"input_type": "password"}, trim_whitespace=False)

    class OutputSerializer(serializers.Serializer):
        token = serializers.CharField()

    @extend_schema(request=InputSerializer, responses=OutputSerializer)
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = authenticate(
            request,
            username=data.validated_data["username"],
            password=data.validated_data["password"],
        )
        # One answer for every refusal, so that it tells nobody which accounts exist.
        if user is None or not is_organiser(user):
            raise ValidationError({"detail": self.REFUSED})
        token, _ = Token.objects.get_or_create(user=user)
        return Response(self.OutputSerializer({"token": token.key}).data)


class InvitationSerializer(serializers.Serializer):
    url = serializers.CharField(help_text="Send it to the person; it works once.")
    expires_at = serializers.DateTimeField()
    emailed_to = serializers.CharField(
        allow_null=True, help_text="the address it was e-mailed to (null: not e-mailed)"
    )


def _invitation(request, new) -> dict:
    url = request.build_absolute_uri(new.path)
    emailed_to = invitation_email_send(new=new, url=url, by=request.user)
    return {"url": url, "expires_at": new.invitation.expires_at, "emailed_to": emailed_to}


class PeopleListApi(OrganiserApi):
    """The organiser's people (administrators: everyone) with whether they can log in."""

    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField(source="user.pk")
        username = serializers.CharField(source="user.username")
        role = serializers.ChoiceField(choices=[ASSESSOR, ORGANISER])
        can_log_in = serializers.BooleanField()
        invitation_expires_at = serializers.DateTimeField(allow_null=True)
        campaigns = serializers.IntegerField(help_text="relevance campaigns they judge in")
        can_invite = serializers.BooleanField(
            help_text="whether you may send them an invitation link (their account is yours)"
        )

    @extend_schema(responses=OutputSerializer(many=True))
    def get(self, request):
        rows = people_for_organiser(user=request.user)
        return Response(self.OutputSerializer(rows, many=True).data)


class PersonCreateApi(OrganiserApi):
    """Create an assessor (organisers: administrators only), with a password or an invitation."""

    class InputSerializer(serializers.Serializer):
        username = serializers.CharField(max_length=150)
        email = serializers.EmailField(required=False, allow_blank=True, default="")
        role = serializers.ChoiceField(choices=[ASSESSOR, ORGANISER], default=ASSESSOR)
        password = serializers.CharField(
            required=False, allow_null=True, default=None, trim_whitespace=False,
            help_text="Leave out for an invitation link that lets them choose it.",
        )  # fmt: skip

    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        username = serializers.CharField()
        role = serializers.CharField()
        invitation = InvitationSerializer(allow_null=True)

    @extend_schema(request=InputSerializer, responses={201: OutputSerializer})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        person = person_create(created_by=request.user, **data.validated_data)
        invitation = None
        if not data.validated_data["password"]:
            invitation = _invitation(
                request, invitation_create(user=person, created_by=request.user)
            )
        body = {"id": person.pk, "username": person.username, "role": data.validated_data["role"],
                "invitation": invitation}  # fmt: skip
        return Response(self.OutputSerializer(body).data, status=status.HTTP_201_CREATED)


class InvitationCreateApi(OrganiserApi):
    """A new invitation link for one of your assessors (earlier links stop working)."""

    @extend_schema(request=None, responses={201: InvitationSerializer})
    def post(self, request, user_id: int):
        person = person_for_organiser(user=request.user, person_id=user_id)
        new = invitation_create(user=person, created_by=request.user)
        return Response(
            InvitationSerializer(_invitation(request, new)).data, status=status.HTTP_201_CREATED
        )
