"""REST API: parse, authorise, delegate to the same services the WebSocket and SAP use."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.contrib.auth.models import User
from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from protocol.errors import ProtocolError, not_found
from sessions import log, membership, selectors
from sessions.access import Access, Caller, caller_for_principal, require_access
from sessions.chap import retrospective
from sessions.chap.deliverable import deliverable_markdown
from sessions.chap.notebook import notebook
from sessions.chap.summary import layered_summary
from sessions.graphs import graph_at, graph_cache
from sessions.models import WorkSession
from sessions.retrospectives import criterion_check, retrospective_report, session_rate
from sessions.search import search_messages
from sessions.serializers import (
    AckSerializer,
    CheckpointCreateSerializer,
    CheckpointSerializer,
    CriterionCheckSerializer,
    EnvelopeSerializer,
    ErrorSerializer,
    FreeFormSerializer,
    MemberInviteSerializer,
    MemberSerializer,
    MessagePageSerializer,
    RatingSerializer,
    SearchResultSerializer,
    SessionCreateSerializer,
    SessionSerializer,
    SessionUpdateSerializer,
    ShareCreateSerializer,
    ShareSerializer,
)

MAX_PAGE = 1000
ERRORS = {code: ErrorSerializer for code in (400, 401, 403, 404, 409, 413, 429)}


def request_caller(request: Request) -> Caller:
    """Who makes an API request, for the services (the agents' API asks the same)."""
    caller = caller_for_principal(request.user)
    if caller is None:  # IsAuthenticated lets no anonymous request through to a view
        raise NotAuthenticated()
    return caller


def _person(request: Request) -> User:
    """The signed-in person making a request that agents cannot make (they are turned away before)."""
    if not isinstance(request.user, User):
        raise NotAuthenticated()
    return request.user


def _access(request: Request, session_id: UUID, *, write: bool = False) -> Access:
    return require_access(session_id, request_caller(request), write=write)


def _int_param(request: Request, name: str, default: int, *, minimum: int = 0, maximum: int | None = None) -> int:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ProtocolError(
            "VALIDATION_FAILED", f"{name} must be a whole number", details={"invalid": {name: "expected integer"}}
        ) from None
    if value < minimum or (maximum is not None and value > maximum):
        bounds = f">= {minimum}" + (f" and <= {maximum}" if maximum is not None else "")
        raise ProtocolError(
            "VALIDATION_FAILED", f"{name} must be {bounds}", details={"violations": {name: f"must be {bounds}"}}
        )
    return value


def validated_body(serializer_class: type[serializers.Serializer[Any]], request: Request) -> dict[str, Any]:
    """The request's JSON object, checked by ``serializer_class``; errors in the workbench's model."""
    if not isinstance(request.data, dict):
        raise ProtocolError("INVALID_REQUEST", "the body must be a JSON object")
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    validated: dict[str, Any] = serializer.validated_data
    return validated


class SessionListView(APIView):
    @extend_schema(responses={200: SessionSerializer(many=True), **ERRORS})
    def get(self, request: Request) -> HttpResponse:
        agent = getattr(request.user, "agent", None)
        if agent is not None:
            sessions = WorkSession.objects.filter(participants__agent=agent, participants__agent__enabled=True)
        else:
            sessions = selectors.sessions_for_user(user=_person(request))
        return Response(SessionSerializer(sessions, many=True).data)

    @extend_schema(request=SessionCreateSerializer, responses={201: SessionSerializer, **ERRORS})
    def post(self, request: Request) -> HttpResponse:
        data = validated_body(SessionCreateSerializer, request)
        if getattr(request.user, "agent", None) is not None:
            raise ProtocolError(
                "PERMISSION_DENIED", "agents cannot create sessions", details={"permission": "session.create"}
            )
        session = membership.session_create(owner=_person(request), title=data["title"])
        return Response(SessionSerializer(session).data, status=status.HTTP_201_CREATED)


class SessionDetailView(APIView):
    @extend_schema(responses={200: SessionSerializer, **ERRORS})
    def get(self, request: Request, session_id: UUID) -> HttpResponse:
        return Response(SessionSerializer(_access(request, session_id).session).data)

    @extend_schema(request=SessionUpdateSerializer, responses={200: SessionSerializer, **ERRORS})
    def patch(self, request: Request, session_id: UUID) -> HttpResponse:
        _access(request, session_id)
        data = validated_body(SessionUpdateSerializer, request)
        session = membership.session_update(session_id=session_id, caller=request_caller(request), **data)
        return Response(SessionSerializer(session).data)


class SessionArchiveView(APIView):
    @extend_schema(request=None, responses={200: SessionSerializer, **ERRORS})
    def post(self, request: Request, session_id: UUID) -> HttpResponse:
        session = membership.session_update(session_id=session_id, caller=request_caller(request), state="archived")
        return Response(SessionSerializer(session).data)


class MemberListView(APIView):
    @extend_schema(responses={200: MemberSerializer(many=True), **ERRORS})
    def get(self, request: Request, session_id: UUID) -> HttpResponse:
        session = _access(request, session_id).session
        return Response(MemberSerializer(session.memberships.select_related("user"), many=True).data)

    @extend_schema(request=MemberInviteSerializer, responses={201: MemberSerializer, **ERRORS})
    def post(self, request: Request, session_id: UUID) -> HttpResponse:
        _access(request, session_id)
        data = validated_body(MemberInviteSerializer, request)
        member = membership.member_invite(session_id=session_id, caller=request_caller(request), **data)
        return Response(MemberSerializer(member).data, status=status.HTTP_201_CREATED)


class MemberDetailView(APIView):
    @extend_schema(request=None, responses={204: None, **ERRORS})
    def delete(self, request: Request, session_id: UUID, username: str) -> HttpResponse:
        """Remove a member (owner only); the member's open sockets of this session close at once."""
        membership.member_remove(session_id=session_id, caller=request_caller(request), username=username)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ShareListView(APIView):
    @extend_schema(
        responses={200: ShareSerializer(many=True), **ERRORS},
        description="The teams (Django groups) the session is shared with, and with which role.",
    )
    def get(self, request: Request, session_id: UUID) -> HttpResponse:
        session = _access(request, session_id).session
        return Response(ShareSerializer(session.group_shares.select_related("group", "shared_by"), many=True).data)

    @extend_schema(
        request=ShareCreateSerializer,
        responses={201: ShareSerializer, **ERRORS},
        description="Share the session with a team, or give the team another role (owner); logged as a session event.",
    )
    def post(self, request: Request, session_id: UUID) -> HttpResponse:
        data = validated_body(ShareCreateSerializer, request)
        share = membership.session_share(session_id=session_id, caller=request_caller(request), **data)
        return Response(ShareSerializer(share).data, status=status.HTTP_201_CREATED)


class ShareDetailView(APIView):
    @extend_schema(request=None, responses={204: None, **ERRORS})
    def delete(self, request: Request, session_id: UUID, group: str) -> HttpResponse:
        """Stop sharing with a team (owner); logged, and the team's open sockets of the session close."""
        membership.session_unshare(session_id=session_id, caller=request_caller(request), group=group)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MessageListView(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("since_seq", int, description="return messages after this sequence number"),
            OpenApiParameter("page_size", int, description=f"at most {MAX_PAGE}"),
        ],
        responses={200: MessagePageSerializer, **ERRORS},
    )
    def get(self, request: Request, session_id: UUID) -> HttpResponse:
        session = _access(request, session_id).session
        since = _int_param(request, "since_seq", 0)
        size = _int_param(request, "page_size", 100, minimum=1, maximum=MAX_PAGE)
        rows = list(
            session.messages.filter(seq__gt=since).order_by("seq").values("seq", "checksum", "envelope")[: size + 1]
        )
        more = len(rows) > size
        rows = rows[:size]
        return Response(
            {"messages": rows, "head_seq": session.head_seq, "next_since_seq": rows[-1]["seq"] if more else None}
        )

    @extend_schema(request=EnvelopeSerializer, responses={201: AckSerializer, 200: AckSerializer, **ERRORS})
    def post(self, request: Request, session_id: UUID) -> HttpResponse:
        _access(request, session_id)
        if not isinstance(request.data, dict):
            raise ProtocolError("INVALID_MESSAGE", "a CHAP message is a JSON object")
        ack = log.message_post(session_id=session_id, caller=request_caller(request), envelope=request.data)
        return Response(ack.as_frame(), status=status.HTTP_200_OK if ack.replayed else status.HTTP_201_CREATED)


class GraphView(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("as", str, enum=["node-link", "graphml"], description="default node-link"),
            OpenApiParameter("version", int, description="the sequence number to view the graph at; default head"),
        ],
        responses={
            (200, "application/json"): OpenApiTypes.OBJECT,
            (200, "application/xml"): OpenApiTypes.STR,
            **ERRORS,
        },
    )
    def get(self, request: Request, session_id: UUID) -> HttpResponse:
        session = _access(request, session_id).session
        version = _int_param(request, "version", session.head_seq, maximum=session.head_seq)
        # "as", not "format": DRF reserves ?format= for choosing a renderer.
        output = request.query_params.get("as", "node-link")
        if output not in ("node-link", "graphml"):
            raise ProtocolError(
                "VALIDATION_FAILED", "as is node-link or graphml", details={"violations": {"as": output}}
            )
        if version == session.head_seq:
            entry = graph_cache.entry(session)
            with entry.lock:
                exported = entry.graph.graphml() if output == "graphml" else entry.graph.node_link()
        else:
            graph = graph_at(session, version)
            exported = graph.graphml() if output == "graphml" else graph.node_link()
        if isinstance(exported, str):  # graphml is text to download, node-link a JSON object
            return _download(exported, content_type="application/xml", filename=f"context-graph-{session.pk}.graphml")
        return Response({"version": version, "graph": exported})


class CheckpointListView(APIView):
    @extend_schema(responses={200: CheckpointSerializer(many=True), **ERRORS})
    def get(self, request: Request, session_id: UUID) -> HttpResponse:
        return Response(selectors.checkpoints(session=_access(request, session_id).session))

    @extend_schema(request=CheckpointCreateSerializer, responses={201: AckSerializer, **ERRORS})
    def post(self, request: Request, session_id: UUID) -> HttpResponse:
        _access(request, session_id)
        data = validated_body(CheckpointCreateSerializer, request)
        ack = log.checkpoint_create(session_id=session_id, caller=request_caller(request), label=data["label"])
        return Response(ack.as_frame(), status=status.HTTP_201_CREATED)


class SummaryView(APIView):
    @extend_schema(responses={200: FreeFormSerializer, **ERRORS})
    def get(self, request: Request, session_id: UUID) -> HttpResponse:
        entry = graph_cache.entry(_access(request, session_id).session)
        with entry.lock:
            return Response(layered_summary(entry.graph))


class AgentContextView(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("task_message_id", str, description="the message the task serves"),
            OpenApiParameter("budget", int, description="token budget, 200 to 100000 (default 4000)"),
        ],
        responses={200: FreeFormSerializer, **ERRORS},
    )
    def get(self, request: Request, session_id: UUID) -> HttpResponse:
        session = _access(request, session_id).session
        budget = _int_param(request, "budget", 4000, minimum=200, maximum=100_000)
        task = request.query_params.get("task_message_id") or None
        return Response(selectors.agent_context(session=session, task_message_id=task, budget=budget))


class MetricsView(APIView):
    @extend_schema(responses={200: FreeFormSerializer, **ERRORS})
    def get(self, request: Request, session_id: UUID) -> HttpResponse:
        return Response(selectors.metrics(session=_access(request, session_id).session))


class ExportView(APIView):
    @extend_schema(responses={200: FreeFormSerializer, **ERRORS})
    def get(self, request: Request, session_id: UUID) -> HttpResponse:
        session = _access(request, session_id).session
        response = Response(selectors.session_export(session=session))
        response["Content-Disposition"] = f'attachment; filename="chap-session-{session.pk}.json"'
        return response


def _download(body: str, *, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


class DeliverableView(APIView):
    @extend_schema(responses={(200, "text/markdown"): OpenApiTypes.STR, **ERRORS})
    def get(self, request: Request, session_id: UUID) -> HttpResponse:
        """The final deliverable as Markdown with its review and sources: the latest written report
        that no later one replaced, else the latest standing report."""
        session = _access(request, session_id).session
        found = selectors.final_report(session=session)
        if found is None:
            raise not_found(
                "DELIVERABLE",
                None,
                "no report has been delivered in this session yet",
                suggestion=["wait for an agent's collaborative_response, or post one"],
            )
        return _download(
            deliverable_markdown(found, title=session.title),
            content_type="text/markdown; charset=utf-8",
            filename=f"deliverable-{session.pk}.md",
        )


class NotebookView(APIView):
    @extend_schema(responses={(200, "application/x-ipynb+json"): OpenApiTypes.OBJECT, **ERRORS})
    def get(self, request: Request, session_id: UUID) -> HttpResponse:
        """Every answer's reproducing code as a Jupyter notebook, in the order the answers came."""
        session = _access(request, session_id).session
        messages = selectors.session_messages(session=session, milestone_marks=False)
        return _download(
            notebook(messages, title=session.title),
            content_type="application/x-ipynb+json",
            filename=f"analyses-{session.pk}.ipynb",
        )


class RetrospectiveView(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("as", str, enum=["json", "markdown"], description="default json")],
        responses={(200, "application/json"): OpenApiTypes.OBJECT, (200, "text/markdown"): OpenApiTypes.STR, **ERRORS},
    )
    def get(self, request: Request, session_id: UUID) -> HttpResponse:
        """A done session's retrospective: criteria checked, delivery, process metrics, ratings."""
        output = request.query_params.get("as", "json")
        if output not in ("json", "markdown"):
            raise ProtocolError("VALIDATION_FAILED", "as is json or markdown", details={"violations": {"as": output}})
        report = retrospective_report(session_id=session_id, caller=request_caller(request))
        if output == "markdown":
            return _download(
                retrospective.markdown(report),
                content_type="text/markdown; charset=utf-8",
                filename=f"retrospective-{session_id}.md",
            )
        response = Response(report)
        response["Content-Disposition"] = f'attachment; filename="retrospective-{session_id}.json"'
        return response


class SearchView(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("q", str, description="words (all must match), at most 500 characters")],
        responses={200: SearchResultSerializer, **ERRORS},
    )
    def get(self, request: Request, session_id: UUID) -> HttpResponse:
        """Full-text search over the session's messages, best first (at most 50)."""
        session = _access(request, session_id).session
        query = request.query_params.get("q", "")
        hits = search_messages(session=session, text=query)
        return Response(
            {
                "query": query,
                "hits": [
                    {
                        "seq": hit.seq,
                        "message_id": hit.message_id,
                        "payload_type": hit.payload_type,
                        "sender": hit.sender,
                        "snippet": [{"text": text, "match": match} for text, match in hit.parts],
                    }
                    for hit in hits
                ],
            }
        )


class CriterionCheckView(APIView):
    @extend_schema(request=CriterionCheckSerializer, responses={200: FreeFormSerializer, **ERRORS})
    def post(self, request: Request, session_id: UUID) -> HttpResponse:
        """Record whether a success criterion was met (owner and editors; the session must be done)."""
        data = validated_body(CriterionCheckSerializer, request)
        check = criterion_check(session_id=session_id, caller=request_caller(request), **data)
        return Response({"index": check.index, "criterion": check.criterion, "met": check.met, "note": check.note})


class RatingView(APIView):
    @extend_schema(request=RatingSerializer, responses={200: FreeFormSerializer, **ERRORS})
    def post(self, request: Request, session_id: UUID) -> HttpResponse:
        """The caller's rating (1-5) and comment of a done session; a second one replaces the first."""
        data = validated_body(RatingSerializer, request)
        rated = session_rate(session_id=session_id, caller=request_caller(request), **data)
        return Response({"rating": rated.rating, "comment": rated.comment})
