"""Explicit input and output shapes of the REST API (they are also its OpenAPI schema)."""

from typing import Any

from django.db.models import QuerySet
from rest_framework import serializers

from sessions.models import GroupShare, MemberRole, Membership, SessionState, ShareRole, WorkSession

# What most shapes here read and write: a JSON object (the API's own answers, a request's body). The
# shapes of rows read one row, or a query's rows with many=True.
JsonObjectSerializer = serializers.Serializer[dict[str, Any]]


class ErrorBodySerializer(JsonObjectSerializer):
    code = serializers.CharField()
    message = serializers.CharField()
    category = serializers.CharField()
    details = serializers.DictField()
    suggestion = serializers.ListField(child=serializers.CharField())
    retryable = serializers.BooleanField()
    timestamp = serializers.CharField()
    request_id = serializers.CharField()


class ErrorSerializer(JsonObjectSerializer):
    error = ErrorBodySerializer()


class SessionSerializer(serializers.Serializer[WorkSession | QuerySet[WorkSession]]):
    id = serializers.UUIDField()
    title = serializers.CharField()
    state = serializers.ChoiceField(choices=SessionState.choices)
    created_at = serializers.DateTimeField()
    last_activity_at = serializers.DateTimeField()
    head_seq = serializers.IntegerField()
    head_checksum = serializers.CharField()


class SessionCreateSerializer(JsonObjectSerializer):
    title = serializers.CharField(max_length=200)


class SessionUpdateSerializer(JsonObjectSerializer):
    title = serializers.CharField(max_length=200, required=False)
    state = serializers.ChoiceField(choices=SessionState.choices, required=False)


class MemberSerializer(serializers.Serializer[Membership | QuerySet[Membership]]):
    username = serializers.CharField(source="user.username")
    role = serializers.ChoiceField(choices=MemberRole.choices)
    joined_at = serializers.DateTimeField()


class MemberInviteSerializer(JsonObjectSerializer):
    username = serializers.CharField(max_length=150)
    role = serializers.ChoiceField(choices=MemberRole.choices)


class ShareSerializer(serializers.Serializer[GroupShare | QuerySet[GroupShare]]):
    group = serializers.CharField(source="group.name")
    role = serializers.ChoiceField(choices=ShareRole.choices)
    shared_by = serializers.CharField(source="shared_by.username", default=None, allow_null=True)
    shared_at = serializers.DateTimeField()


class ShareCreateSerializer(JsonObjectSerializer):
    group = serializers.CharField(max_length=150, help_text="a Django group's name (admins manage groups)")
    role = serializers.ChoiceField(choices=ShareRole.choices)


class SenderSerializer(JsonObjectSerializer):
    type = serializers.ChoiceField(choices=["human", "agent"])
    id = serializers.CharField(max_length=150)


class EnvelopeSerializer(JsonObjectSerializer):
    """Documents the envelope; the CHAP validator (docs/chap.md) decides what is accepted."""

    chap_version = serializers.CharField()
    session_id = serializers.CharField()
    message_id = serializers.CharField(max_length=128)
    in_reply_to = serializers.CharField(allow_null=True, required=False)
    timestamp = serializers.CharField()
    sender = SenderSerializer()
    context_checksum = serializers.CharField()
    payload_type = serializers.CharField()
    payload = serializers.DictField()


class StoredMessageSerializer(JsonObjectSerializer):
    seq = serializers.IntegerField()
    checksum = serializers.CharField()
    envelope = serializers.DictField()


class MessagePageSerializer(JsonObjectSerializer):
    messages = StoredMessageSerializer(many=True)
    head_seq = serializers.IntegerField()
    next_since_seq = serializers.IntegerField(allow_null=True)


class AckSerializer(JsonObjectSerializer):
    type = serializers.CharField()
    message_id = serializers.CharField()
    seq = serializers.IntegerField()
    context_checksum = serializers.CharField()


class CheckpointCreateSerializer(JsonObjectSerializer):
    # A declared field, not Field.label: DRF's serializer metaclass takes it out of the class.
    label = serializers.CharField(max_length=500)  # type: ignore[assignment]


class CheckpointSerializer(JsonObjectSerializer):
    seq = serializers.IntegerField()
    message_id = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]  # a declared field, as above
    at_seq = serializers.IntegerField()
    summary = serializers.DictField()


class FreeFormSerializer(JsonObjectSerializer):
    """A JSON object whose fields docs/chap.md describes (graphs, summaries, contexts, metrics)."""

    def to_representation(self, instance: dict[str, Any]) -> dict[str, Any]:
        return instance


class CriterionCheckSerializer(JsonObjectSerializer):
    index = serializers.IntegerField(min_value=0, max_value=10_000)
    met = serializers.BooleanField()
    note = serializers.CharField(max_length=5000, required=False, allow_blank=True, default="")


class RatingSerializer(JsonObjectSerializer):
    rating = serializers.IntegerField(min_value=1, max_value=5)
    comment = serializers.CharField(max_length=5000, required=False, allow_blank=True, default="")


class SnippetPartSerializer(JsonObjectSerializer):
    text = serializers.CharField()
    match = serializers.BooleanField()


class SearchHitSerializer(JsonObjectSerializer):
    seq = serializers.IntegerField()
    message_id = serializers.CharField()
    payload_type = serializers.CharField()
    sender = serializers.CharField()
    snippet = SnippetPartSerializer(many=True, help_text="the matching passage in pieces, the matches marked")


class SearchResultSerializer(JsonObjectSerializer):
    query = serializers.CharField()
    hits = SearchHitSerializer(many=True)
