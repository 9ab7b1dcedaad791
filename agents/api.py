"""REST endpoints for SAP, approvals and tasks; they delegate to the services like everything else."""

import asyncio
import threading
from collections.abc import AsyncIterator, Generator, Iterator, Mapping
from functools import partial
from io import BytesIO
from typing import IO, Any, cast
from uuid import UUID

from asgiref.sync import sync_to_async
from django.db.models import QuerySet
from django.http import HttpResponse, StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import parsers, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from agents.gates import DECISIONS, Gate, gate_decide, waiting_for_people
from agents.models import Approval, ApprovalStatus, Task
from agents.operations.uploads import CHUNK_BYTES, refuse_declared, stage
from agents.sap_service import approval_decide, approvals_of, sap_run, workspace_upload
from agents.scheduling.acts import TASK_ACTIONS, task_act, task_create, task_get, tasks_of
from agents.scheduling.plans import plan_decide
from protocol.errors import ProtocolError
from sessions.access import require_access
from sessions.api import ERRORS, request_caller, validated_body
from sessions.serializers import JsonObjectSerializer


class PlainTextParser(parsers.BaseParser):
    media_type = "text/plain"

    # A parser returns what the body is, here text; djangorestframework-stubs allow only mappings.
    def parse(  # type: ignore[override]
        self, stream: IO[Any], media_type: str | None = None, parser_context: Mapping[str, Any] | None = None
    ) -> str:
        body: bytes = stream.read()
        try:
            return body.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("INVALID_REQUEST", "the SAP stream must be UTF-8 text") from None


def _next_piece(pieces: Iterator[bytes]) -> bytes | None:
    return next(pieces, None)


class PieceByPieceResponse(StreamingHttpResponse):
    """A StreamingHttpResponse over a synchronous iterator that Daphne sends as it is produced.

    Served through ASGI, Django reads a synchronous iterator to its end before it sends a byte. This
    takes one piece at a time instead, each in the thread Django runs synchronous code in (where the
    ORM's connection lives), and so sends each piece as soon as it exists. Synchronous callers (the
    test client) iterate as usual. When the client goes away (Django cancels the response), ``gone``
    is set, so the work producing the pieces can stop.
    """

    def __init__(self, pieces: Iterator[str], *, gone: threading.Event, content_type: str) -> None:
        super().__init__(pieces, content_type=content_type)
        self.gone = gone

    async def __aiter__(self) -> AsyncIterator[bytes]:
        pieces = self.streaming_content
        if not isinstance(pieces, Iterator):  # asynchronous already: Django sends it piece by piece
            async for piece in super().__aiter__():
                yield piece
            return
        take = sync_to_async(_next_piece, thread_sensitive=True)
        try:
            while (taken := await take(pieces)) is not None:
                yield taken
        except asyncio.CancelledError:
            self.gone.set()
            if isinstance(pieces, Generator):  # closed in their thread, they leave their audit records
                await sync_to_async(pieces.close, thread_sensitive=True)()
            raise


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
    def post(self, request: Request, session_id: UUID) -> PieceByPieceResponse:
        text = request.data if isinstance(request.data, str) else ""
        gone = threading.Event()
        blocks = sap_run(
            session_id=session_id,
            caller=request_caller(request),
            text=text,
            request_message_id=request.headers.get("X-CHAP-Message-Id") or None,
            cancelled=gone,
        )
        return PieceByPieceResponse(blocks, gone=gone, content_type="text/plain; charset=utf-8")


class ApprovalSerializer(serializers.Serializer[Approval | QuerySet[Approval]]):
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


class DecisionSerializer(JsonObjectSerializer):
    decision = serializers.ChoiceField(choices=["approve", "reject"])
    reason = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")


class ApprovalListView(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("status", str, enum=ApprovalStatus.values)],
        responses={200: ApprovalSerializer(many=True), **ERRORS},
    )
    def get(self, request: Request, session_id: UUID) -> HttpResponse:
        status = request.query_params.get("status") or None
        if status is not None and status not in ApprovalStatus.values:
            raise ProtocolError(
                "VALIDATION_FAILED",
                f"status is one of {ApprovalStatus.values}",
                details={"violations": {"status": status}},
            )
        rows = approvals_of(session_id=session_id, caller=request_caller(request), status=status)
        return Response(ApprovalSerializer(rows.select_related("decided_by"), many=True).data)


class ApprovalDecisionView(APIView):
    @extend_schema(request=DecisionSerializer, responses={200: ApprovalSerializer, **ERRORS})
    def post(self, request: Request, session_id: UUID, approval_id: int) -> HttpResponse:
        data = validated_body(DecisionSerializer, request)
        approval = approval_decide(
            session_id=session_id,
            approval_id=approval_id,
            caller=request_caller(request),
            approve=data["decision"] == "approve",
            reason=data["reason"],
        )
        return Response(ApprovalSerializer(approval).data)


class RawBodyParser(parsers.BaseParser):
    """The body as the stream it arrives on, for the view to stage on disk. Uploads are not multipart:
    Daphne (Twisted) answers a malformed multipart body with an empty 400 before the workbench sees
    it, and a raw body has nothing to get wrong."""

    media_type = "application/octet-stream"

    def parse(  # type: ignore[override]  # a stream, as PlainTextParser's text
        self, stream: IO[bytes] | None, media_type: str | None = None, parser_context: Mapping[str, Any] | None = None
    ) -> IO[bytes]:
        return stream if stream is not None else BytesIO()


def _declared_length(request: Request) -> int | None:
    try:
        return int(request.headers.get("content-length") or "")
    except ValueError:
        return None


class UploadView(APIView):
    parser_classes = [RawBodyParser]

    @extend_schema(
        request={"application/octet-stream": OpenApiTypes.BINARY},
        parameters=[
            OpenApiParameter("path", str, required=True, description="where in the workspace, e.g. data/sales.csv")
        ],
        responses={201: OpenApiTypes.OBJECT, 202: OpenApiTypes.OBJECT, **ERRORS},
        description=(
            "Upload a file into the session's workspace: owners and editors, and agents allowed file.write "
            "(202 with approval.requested when the agent's writes wait for a person); agents read it with file.read. "
            "The body streams to disk; past WORKBENCH_MAX_UPLOAD_MB it is refused (413 LIMIT_EXCEEDED), before "
            "a byte is read when Content-Length says so. The log records the file's size and sha256."
        ),
    )
    def post(self, request: Request, session_id: UUID) -> HttpResponse:
        path = request.query_params.get("path") or ""
        if not path:
            raise ProtocolError("VALIDATION_FAILED", "path is required", details={"missing": ["path"]})
        caller = request_caller(request)
        require_access(session_id, caller, write=True)  # outsiders and readers are refused before the body
        refuse_declared(_declared_length(request))
        # The Django request itself, the stream RawBodyParser hands on: DRF sees no body at all when no
        # Content-Length is declared (a chunked upload), and its request.data would be an empty dict.
        body = cast("IO[bytes]", request._request)
        upload = stage(iter(partial(body.read, CHUNK_BYTES), b""))
        response = workspace_upload(session_id=session_id, caller=caller, path=path, upload=upload)
        return Response(response.body, status=202 if response.type == "event" else 201)


class TaskSerializer(serializers.Serializer[Task | QuerySet[Task] | list[Task]]):
    id = serializers.IntegerField(source="pk")
    session_id = serializers.CharField()
    title = serializers.CharField()
    instructions = serializers.CharField()
    agent = serializers.CharField(source="agent.name", default=None, allow_null=True)
    required_role = serializers.CharField()
    priority = serializers.IntegerField()
    state = serializers.CharField()
    paused = serializers.BooleanField()
    requires_approval = serializers.BooleanField()
    depends_on = serializers.SerializerMethodField()
    plan_message_id = serializers.CharField(source="source_message_id")
    plan_step = serializers.IntegerField(allow_null=True)
    attempts = serializers.IntegerField()
    result_message_id = serializers.CharField()
    last_error = serializers.CharField()
    resources = serializers.DictField()
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)

    def get_depends_on(self, task: Task) -> list[int]:
        return sorted(t.pk for t in task.depends_on.all())


class TaskCreateSerializer(JsonObjectSerializer):
    title = serializers.CharField(max_length=2000)
    instructions = serializers.CharField(max_length=100_000, required=False, allow_blank=True, default="")
    agent = serializers.CharField(max_length=100, required=False, allow_null=True, default=None)
    required_role = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    priority = serializers.IntegerField(min_value=-1000, max_value=1000, required=False, default=0)
    depends_on = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**31 - 1), required=False, default=list, max_length=100
    )
    requires_approval = serializers.BooleanField(required=False, default=False)


class TaskActionSerializer(JsonObjectSerializer):
    action = serializers.ChoiceField(
        choices=sorted(TASK_ACTIONS), error_messages={"invalid_choice": 'unknown action "{input}"'}
    )
    agent = serializers.CharField(max_length=100, required=False, help_text="reassign or forward: to this agent")
    role = serializers.CharField(max_length=200, required=False, help_text="reassign: to whoever can take this role")
    priority = serializers.IntegerField(
        min_value=-1000,
        max_value=1000,
        required=False,
        help_text="reprioritise",
        error_messages={"invalid": "priority is a whole number"},
    )
    reason = serializers.CharField(max_length=5000, required=False, allow_blank=True, help_text="cancel: why")
    note = serializers.CharField(max_length=5000, required=False, allow_blank=True, help_text="forward: for the agent")
    confirm = serializers.BooleanField(
        required=False, help_text="reassign: to an agent that does not take the task's role (else ROLE_MISMATCH)"
    )

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        needs = {"reprioritise": "priority", "forward": "agent"}.get(data["action"])
        if needs and needs not in data:
            raise serializers.ValidationError({needs: f"{data['action']} needs {needs}"})
        if data["action"] == "reassign" and not (data.get("agent") or data.get("role")):
            raise serializers.ValidationError({"agent": "reassign needs an agent or a role"})
        return data


class TaskListView(APIView):
    @extend_schema(responses={200: TaskSerializer(many=True), **ERRORS})
    def get(self, request: Request, session_id: UUID) -> HttpResponse:
        tasks = tasks_of(session_id=session_id, caller=request_caller(request))
        return Response(TaskSerializer(tasks, many=True).data)

    @extend_schema(request=TaskCreateSerializer, responses={201: TaskSerializer, **ERRORS})
    def post(self, request: Request, session_id: UUID) -> HttpResponse:
        data = validated_body(TaskCreateSerializer, request)
        task = task_create(session_id=session_id, caller=request_caller(request), **data)
        return Response(TaskSerializer(task).data, status=201)


class TaskDetailView(APIView):
    @extend_schema(responses={200: TaskSerializer, **ERRORS})
    def get(self, request: Request, session_id: UUID, task_id: int) -> HttpResponse:
        task = task_get(session_id=session_id, task_id=task_id, caller=request_caller(request))
        return Response(TaskSerializer(task).data)


class TaskActionView(APIView):
    @extend_schema(
        request=TaskActionSerializer,
        responses={200: TaskSerializer, **ERRORS},
        description="A member's act on a task (owners and editors); each is logged as a task_event message.",
    )
    def post(self, request: Request, session_id: UUID, task_id: int) -> HttpResponse:
        data = validated_body(TaskActionSerializer, request)
        task = task_act(session_id=session_id, task_id=task_id, caller=request_caller(request), **data)
        return Response(TaskSerializer(task).data)


class PlanAcceptView(APIView):
    @extend_schema(
        request=None,
        responses={201: TaskSerializer(many=True), **ERRORS},
        description="Approve the proposed plan of an agent_capability_declaration: the approval is logged and "
        "its steps become tasks (once).",
    )
    def post(self, request: Request, session_id: UUID, message_id: str) -> HttpResponse:
        tasks = plan_decide(session_id=session_id, caller=request_caller(request), message_id=message_id, approve=True)
        return Response(TaskSerializer(tasks, many=True).data, status=201)


class GateOptionSerializer(JsonObjectSerializer):
    id = serializers.CharField()
    # A declared field, not Field.label: DRF's serializer metaclass takes it out of the class.
    label = serializers.CharField()  # type: ignore[assignment]


class GateSerializer(serializers.Serializer[Gate | tuple[Gate, ...]]):
    kind = serializers.ChoiceField(choices=["operation", "step", "plan", "question"])
    key = serializers.CharField(help_text="names the item for the decide endpoint")
    label = serializers.CharField(help_text="what waits, in plain words")  # type: ignore[assignment]  # as above
    status = serializers.CharField(help_text='"waiting for approval" or "waiting for an answer"')
    on_approval = serializers.CharField(help_text="what happens when a person approves (or answers)")
    asked_by = serializers.CharField()
    since = serializers.DateTimeField(allow_null=True)
    reason = serializers.CharField(help_text="why it waits")
    detail = serializers.CharField(help_text="the request, the steps or the instructions")
    deciders = serializers.ListField(child=serializers.CharField(), help_text="the roles that may decide")
    approval_id = serializers.IntegerField(allow_null=True)
    task_id = serializers.IntegerField(allow_null=True)
    message_id = serializers.CharField()
    question_index = serializers.IntegerField(allow_null=True)
    options = GateOptionSerializer(many=True)


class GateDecisionSerializer(JsonObjectSerializer):
    key = serializers.CharField(max_length=300)
    decision = serializers.ChoiceField(choices=DECISIONS, help_text="approve or reject; answer for a question")
    reason = serializers.CharField(
        max_length=2000, required=False, allow_blank=True, default="", help_text="why (or a question's answer)"
    )
    option_id = serializers.CharField(max_length=128, required=False, allow_blank=True, default="")


class WaitingListView(APIView):
    @extend_schema(
        responses={200: GateSerializer(many=True), **ERRORS},
        description="What waits for people in the session: the list the workspace, the scheduling view and "
        "the sessions list show.",
    )
    def get(self, request: Request, session_id: UUID) -> HttpResponse:
        access = require_access(session_id, request_caller(request))
        return Response(GateSerializer(waiting_for_people(access.session), many=True).data)


class WaitingDecisionView(APIView):
    @extend_schema(
        request=GateDecisionSerializer,
        responses={200: GateSerializer, **ERRORS},
        description="Approve, reject or answer one item of the list (owners and editors).",
    )
    def post(self, request: Request, session_id: UUID) -> HttpResponse:
        data = validated_body(GateDecisionSerializer, request)
        gate = gate_decide(session_id=session_id, caller=request_caller(request), **data)
        return Response(GateSerializer(gate).data)
