from django.contrib import admin

from crowd.models import (
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
