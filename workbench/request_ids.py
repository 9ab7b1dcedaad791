"""Every HTTP request gets an id that its log lines carry and its error answers show."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from protocol.errors import new_request_id
from protocol.logs import log_context


class RequestIds:
    """First in MIDDLEWARE, so that everything the request logs, a crash's traceback included, carries
    its id (settings.LOGGING's format shows it as ``request_id``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        with log_context(request=new_request_id()):
            return self.get_response(request)
