"""Explicit input and output shapes of the REST API (they are also its OpenAPI schema)."""

from rest_framework import serializers

from sessions.models import MemberRole, SessionState, ShareRole


class ErrorBodySerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    category = serializers.CharField()
    details = serializers.DictField()
    suggestion = serializers.ListField(child=serializers.CharField())
    retryable = serializers.BooleanField()
    timestamp = serializers.CharField()
    request_id = serializers.CharField()


class ErrorSerializer(serializers.Serializer):
    error = ErrorBodySerializer()


class SessionSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    title = serializers.CharField()
    state = serializers.ChoiceField(choices=SessionState.choices)
    created_at = serializers.DateTimeField()
    last_activity_at = serializers.DateTimeField()
    head_seq = serializers.IntegerField()
    head_checksum = serializers.CharField()


class SessionCreateSerializer(serializers.Serializer):
    title = serializers.CharField(max_length=200)


class SessionUpdateSerializer(serializers.Serializer):
    title = serializers.CharField(max_length=200, required=False)
    state = serializers.ChoiceField(choices=SessionState.choices, required=False)


class MemberSerializer(serializers.Serializer):
    username = serializers.CharField(source="user.username")
    role = serializers.ChoiceField(choices=MemberRole.choices)
    joined_at = serializers.DateTimeField()


class MemberInviteSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    role = serializers.ChoiceField(choices=MemberRole.choices)


class ShareSerializer(serializers.Serializer):
    group = serializers.CharField(source="group.name")
    role = serializers.ChoiceField(choices=ShareRole.choices)
    shared_by = serializers.CharField(source="shared_by.username", default=None, allow_null=True)
    shared_at = serializers.DateTimeField()


class ShareCreateSerializer(serializers.Serializer):
    group = serializers.CharField(max_length=150, help_text="a Django group's name (admins manage groups)")
    role = serializers.ChoiceField(choices=ShareRole.choices)


class SenderSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=["human", "agent"])
    id = serializers.CharField(max_length=150)


class EnvelopeSerializer(serializers.Serializer):
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


class StoredMessageSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    checksum = serializers.CharField()
    envelope = serializers.DictField()


class MessagePageSerializer(serializers.Serializer):
    messages = StoredMessageSerializer(many=True)
    head_seq = serializers.IntegerField()
    next_since_seq = serializers.IntegerField(allow_null=True)


class AckSerializer(serializers.Serializer):
    type = serializers.CharField()
    message_id = serializers.CharField()
    seq = serializers.IntegerField()
    context_checksum = serializers.CharField()


class CheckpointCreateSerializer(serializers.Serializer):
    label = serializers.CharField(max_length=500)


class CheckpointSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    message_id = serializers.CharField()
    label = serializers.CharField()
    at_seq = serializers.IntegerField()
    summary = serializers.DictField()


class FreeFormSerializer(serializers.Serializer):
    """A JSON object whose fields docs/chap.md describes (graphs, summaries, contexts, metrics)."""

    def to_representation(self, instance):
        return instance


class CriterionCheckSerializer(serializers.Serializer):
    index = serializers.IntegerField(min_value=0, max_value=10_000)
    met = serializers.BooleanField()
    note = serializers.CharField(max_length=5000, required=False, allow_blank=True, default="")


class RatingSerializer(serializers.Serializer):
    rating = serializers.IntegerField(min_value=1, max_value=5)
    comment = serializers.CharField(max_length=5000, required=False, allow_blank=True, default="")


class SnippetPartSerializer(serializers.Serializer):
    text = serializers.CharField()
    match = serializers.BooleanField()


class SearchHitSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    message_id = serializers.CharField()
    payload_type = serializers.CharField()
    sender = serializers.CharField()
    snippet = SnippetPartSerializer(many=True, help_text="the matching passage in pieces, the matches marked")


class SearchResultSerializer(serializers.Serializer):
    query = serializers.CharField()
    hits = SearchHitSerializer(many=True)
