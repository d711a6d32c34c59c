"""REST API of background jobs (:mod:`work.jobs`): follow one, cancel one."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from catalog import selectors
from common.apis import OrganiserApi
from work.jobs import job_cancel, job_retry, job_status
from work.models import Job


class JobSerializer(serializers.Serializer):
    """``Job.to_dict()``: what the job page polls too."""

    id = serializers.IntegerField()
    kind = serializers.CharField()
    state = serializers.ChoiceField(choices=[s for s, _ in Job.STATES])
    active = serializers.BooleanField()
    done = serializers.IntegerField()
    total = serializers.IntegerField(allow_null=True)
    fraction = serializers.FloatField(allow_null=True, help_text="0–1; null while unknown")
    message = serializers.CharField(allow_blank=True)
    error = serializers.CharField(allow_blank=True)
    error_file = serializers.CharField(allow_blank=True)
    error_line = serializers.IntegerField(allow_null=True)
    cancel_requested = serializers.BooleanField()
    queue = serializers.CharField(help_text="the Celery queue it waits in: interactive or heavy")
    created_at = serializers.DateTimeField(allow_null=True)
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    url = serializers.CharField(help_text="the job's page")
    result_url = serializers.CharField(help_text="the page of its result")


class JobDetailSerializer(JobSerializer):
    result = serializers.DictField(help_text="what the runner returned (per kind)")
    ahead = serializers.IntegerField(
        allow_null=True, help_text="messages waiting before it in its queue; null if not waiting"
    )
    place = serializers.CharField(allow_blank=True, help_text="where it waits, in a sentence")
    progress_at = serializers.DateTimeField(
        allow_null=True, help_text="when its progress last moved"
    )
    no_progress_for = serializers.IntegerField(
        allow_null=True,
        help_text="seconds a running job's progress has stood still (over a minute)",
    )
    no_progress = serializers.CharField(allow_blank=True, help_text="what its page says about it")


class JobDetailApi(OrganiserApi):
    """A job's state and progress; with its result once done."""

    @extend_schema(responses=JobDetailSerializer)
    def get(self, request, job_id: int):
        job = selectors.job_for_organiser(user=request.user, job_id=job_id, need=self.need)
        detail = {**job_status(job=job), "result": job.result}
        return Response(JobDetailSerializer(detail).data)


class JobCancelApi(OrganiserApi):
    """Ask a job to stop (a queued one stops at once, a running one at its next step)."""

    @extend_schema(request=None, responses=JobSerializer)
    def post(self, request, job_id: int):
        job = selectors.job_for_organiser(user=request.user, job_id=job_id, need=self.need)
        return Response(JobSerializer(job_cancel(job=job).to_dict()).data)


class JobRetryApi(OrganiserApi):
    """Send again a job the broker never received (its state says ``failed`` with the message
    that the worker could not be reached); any other job is returned unchanged."""

    @extend_schema(request=None, responses=JobSerializer)
    def post(self, request, job_id: int):
        job = selectors.job_for_organiser(user=request.user, job_id=job_id, need=self.need)
        return Response(JobSerializer(job_retry(job=job).to_dict()).data)
