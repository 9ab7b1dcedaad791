"""REST endpoints for SAP and approvals; they delegate to agents.sap_service like everything else."""

from django.http import StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import parsers, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from agents.models import ApprovalStatus
from agents.sap import SapError
from agents.sap_service import approval_decide, approvals_of, sap_run, workspace_upload
from sessions.access import caller_for_principal
from sessions.api import ERRORS, validated_body


class PlainTextParser(parsers.BaseParser):
    media_type = "text/plain"

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return stream.read().decode("utf-8")
        except UnicodeDecodeError:
            raise SapError("INVALID_REQUEST", "the SAP stream must be UTF-8 text") from None


class SapView(APIView):
    parser_classes = [PlainTextParser]

    @extend_schema(
        request={"text/plain": OpenApiTypes.STR},
        responses={(200, "text/plain"): OpenApiTypes.STR, **ERRORS},
        parameters=[
            OpenApiParameter(
                "X-CHAP-Message-Id",
                str,
                location=OpenApiParameter.HEADER,
                description="the CHAP message that asked for these operations; the records link to it",
            )
        ],
        description="A stream of SAP blocks (prose between them allowed); the response streams the event, "
        "result and error blocks in request order, each as soon as it exists.",
    )
    def post(self, request, session_id):
        text = request.data if isinstance(request.data, str) else ""
        blocks = sap_run(
            session_id=session_id,
            caller=caller_for_principal(request.user),
            text=text,
            request_message_id=request.headers.get("X-CHAP-Message-Id") or None,
        )
        return StreamingHttpResponse(blocks, content_type="text/plain; charset=utf-8")


class ApprovalSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    operation = serializers.CharField()
    requested_by = serializers.CharField()
    request = serializers.DictField()
    reason = serializers.CharField()
    status = serializers.CharField()
    decided_by = serializers.CharField(source="decided_by.username", default=None, allow_null=True)
    decided_at = serializers.DateTimeField(allow_null=True)
    decision_reason = serializers.CharField()
    response = serializers.DictField(allow_null=True)
    created_at = serializers.DateTimeField()


class DecisionSerializer(serializers.Serializer):
    decision = serializers.ChoiceField(choices=["approve", "reject"])
    reason = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")


class ApprovalListView(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("status", str, enum=ApprovalStatus.values)],
        responses={200: ApprovalSerializer(many=True), **ERRORS},
    )
    def get(self, request, session_id):
        status = request.query_params.get("status") or None
        if status is not None and status not in ApprovalStatus.values:
            raise SapError(
                "VALIDATION_FAILED",
                f"status is one of {ApprovalStatus.values}",
                details={"violations": {"status": status}},
            )
        rows = approvals_of(session_id=session_id, caller=caller_for_principal(request.user), status=status)
        return Response(ApprovalSerializer(rows.select_related("decided_by"), many=True).data)


class ApprovalDecisionView(APIView):
    @extend_schema(request=DecisionSerializer, responses={200: ApprovalSerializer, **ERRORS})
    def post(self, request, session_id, approval_id):
        data = validated_body(DecisionSerializer, request)
        approval = approval_decide(
            session_id=session_id,
            approval_id=approval_id,
            caller=caller_for_principal(request.user),
            approve=data["decision"] == "approve",
            reason=data["reason"],
        )
        return Response(ApprovalSerializer(approval).data)


class RawBytesParser(parsers.BaseParser):
    """The body as bytes. Uploads are not multipart: Daphne (Twisted) answers a malformed multipart
    body with an empty 400 before the workbench sees it, and a raw body has nothing to get wrong."""

    media_type = "application/octet-stream"

    def parse(self, stream, media_type=None, parser_context=None):
        return stream.read() if stream is not None else b""


class UploadView(APIView):
    parser_classes = [RawBytesParser]

    @extend_schema(
        request={"application/octet-stream": OpenApiTypes.BINARY},
        parameters=[
            OpenApiParameter("path", str, required=True, description="where in the workspace, e.g. data/sales.csv")
        ],
        responses={201: OpenApiTypes.OBJECT, **ERRORS},
        description="Upload a file into the session's workspace (owners and editors); agents read it with file.read.",
    )
    def post(self, request, session_id):
        path = request.query_params.get("path") or ""
        if not path:
            raise SapError("VALIDATION_FAILED", "path is required", details={"missing": ["path"]})
        data = request.data if isinstance(request.data, bytes) else b""
        response = workspace_upload(
            session_id=session_id, caller=caller_for_principal(request.user), path=path, data=data
        )
        return Response(response.body, status=201)
