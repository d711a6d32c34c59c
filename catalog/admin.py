from django.contrib import admin
from django.contrib.auth import admin as auth_admin
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.core.exceptions import ValidationError

from catalog.models import Clip, Collection, Query, RelevanceJudgment, RunEntry, System
from common.usernames import username_canonical, username_problem, username_taken_message
from relevance.models import Assignment, JudgmentActivity, PoolEntry, RelevanceCampaign


@admin.register(Collection)
class CollectionAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "created_at"]
    search_fields = ["name"]


@admin.register(Clip)
class ClipAdmin(admin.ModelAdmin):
    list_display = ["external_id", "title", "artist", "genre", "duration", "collection"]
    list_filter = ["collection", "genre"]
    search_fields = ["external_id", "title", "artist"]


@admin.register(Query)
class QueryAdmin(admin.ModelAdmin):
    list_display = ["__str__", "collection"]
    list_filter = ["collection"]
    raw_id_fields = ["clip"]


@admin.register(System)
class SystemAdmin(admin.ModelAdmin):
    list_display = ["name", "team", "collection"]
    list_filter = ["collection"]


@admin.register(RunEntry)
class RunEntryAdmin(admin.ModelAdmin):
    list_display = ["system", "query", "rank", "clip", "score"]
    list_filter = ["system__collection", "system"]
    raw_id_fields = ["query", "clip"]


@admin.register(RelevanceJudgment)
class RelevanceJudgmentAdmin(admin.ModelAdmin):
    list_display = ["query", "clip", "assessor", "source", "broad", "fine", "updated_at"]
    list_filter = ["query__collection", "source"]
    raw_id_fields = ["query", "clip"]


@admin.register(RelevanceCampaign)
class RelevanceCampaignAdmin(admin.ModelAdmin):
    list_display = ["name", "collection", "cutoff", "assessors_per_query", "is_open", "created_at"]
    list_filter = ["is_open", "collection"]
    filter_horizontal = ["assessors"]


@admin.register(PoolEntry)
class PoolEntryAdmin(admin.ModelAdmin):
    list_display = ["campaign", "query", "clip"]
    list_filter = ["campaign"]
    raw_id_fields = ["query", "clip"]


@admin.register(Assignment)
class AssignmentAdmin(admin.ModelAdmin):
    list_display = [
        "campaign",
        "query",
        "slot",
        "assessor",
        "assigned_at",
        "touched_at",
        "completed_at",
    ]
    list_filter = ["campaign"]
    raw_id_fields = ["query"]


@admin.register(JudgmentActivity)
class JudgmentActivityAdmin(admin.ModelAdmin):
    list_display = ["assignment", "pool_entry", "listened_seconds", "judging_seconds", "plays"]
    raw_id_fields = ["assignment", "pool_entry", "judgment"]


# --- crowd preference judging ----------------------------------------------------------

from crowd.models import (  # noqa: E402
    Answer,
    Example,
    ExampleItem,
    PreferenceCampaign,
    PreferenceTask,
    TrapQuestion,
    Worker,
)


@admin.register(PreferenceCampaign)
class PreferenceCampaignAdmin(admin.ModelAdmin):
    list_display = ["name", "collection", "is_open", "quiz_length", "trap_rate", "created_at"]
    list_filter = ["is_open"]


class ExampleItemInline(admin.TabularInline):
    model = ExampleItem
    raw_id_fields = ["clip"]
    extra = 0


@admin.register(Example)
class ExampleAdmin(admin.ModelAdmin):
    list_display = ["pk", "campaign", "query", "source", "slots_taken"]
    list_filter = ["campaign", "source"]
    raw_id_fields = ["query", "system_a", "system_b"]
    inlines = [ExampleItemInline]


@admin.register(TrapQuestion)
class TrapQuestionAdmin(admin.ModelAdmin):
    list_display = ["example", "pool", "accepted_answers", "contested"]
    list_filter = ["pool", "contested", "example__campaign"]
    raw_id_fields = ["example"]


@admin.register(Worker)
class WorkerAdmin(admin.ModelAdmin):
    list_display = [
        "platform_id", "platform", "campaign", "status", "stop_reason", "trust", "answer_count",
    ]  # fmt: skip
    list_filter = ["campaign", "platform", "status", "stop_reason"]
    search_fields = ["platform_id"]


@admin.register(PreferenceTask)
class PreferenceTaskAdmin(admin.ModelAdmin):
    list_display = ["worker", "position", "example", "swapped", "is_quiz", "answered_at"]
    raw_id_fields = ["worker", "example"]


@admin.register(Answer)
class AnswerAdmin(admin.ModelAdmin):
    list_display = ["worker", "example", "outcome", "correct", "excluded", "accepted_at"]
    list_filter = ["excluded", "example__campaign"]
    raw_id_fields = ["task", "worker", "example"]


# --- organiser self-service: sharing, background jobs, invitations ----------------------

from catalog.models import CollectionShare  # noqa: E402
from people.models import Invitation  # noqa: E402
from work.models import Job  # noqa: E402


@admin.register(CollectionShare)
class CollectionShareAdmin(admin.ModelAdmin):
    list_display = ["collection", "user", "access", "created_at"]
    list_filter = ["access"]


@admin.register(Job)
class JobAdmin(admin.ModelAdmin):
    list_display = ["pk", "kind", "state", "owner", "collection", "done", "total", "created_at"]
    list_filter = ["kind", "state"]
    readonly_fields = ["created_at", "started_at", "finished_at", "updated_at"]


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    """Who was invited and when; the link itself is never stored, so it cannot be shown."""

    list_display = ["user", "created_by", "created_at", "expires_at", "used_at"]
    readonly_fields = ["user", "token_hash", "created_by", "created_at", "expires_at"]


class _CanonicalUsername:
    """The admin's user forms store the canonical form of the name typed and refuse a name
    another account has in any spelling, with the People page's message
    (:mod:`common.usernames`), instead of failing when the account is saved."""

    def clean_username(self):
        typed = self.cleaned_data.get("username") or ""
        canonical = username_canonical(typed)
        problem = username_problem(canonical)
        if problem:
            raise ValidationError(problem[0].upper() + problem[1:] + ".")
        if self.instance.pk is not None and typed == self.instance.username:
            return typed  # unchanged (an old lookalike name stays until it is renamed)
        other = get_user_model().objects.filter(username=canonical).exclude(pk=self.instance.pk)
        if other.exists():
            raise ValidationError(username_taken_message(typed, canonical))
        return canonical


class CanonicalUserCreationForm(_CanonicalUsername, AdminUserCreationForm):
    pass


class CanonicalUserChangeForm(_CanonicalUsername, UserChangeForm):
    pass


admin.site.unregister(get_user_model())


@admin.register(get_user_model())
class UserAdmin(auth_admin.UserAdmin):
    add_form = CanonicalUserCreationForm
    form = CanonicalUserChangeForm
