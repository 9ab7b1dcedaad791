"""Errors Django answers itself (no such URL, a crash, a bad or too large request, a CSRF failure)
inside the one error model: ``{"error": {…}}`` JSON on /api/ paths, a page in plain words elsewhere.

A REST view's own errors never come here: workbench.api_errors answers them.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from csp.constants import HEADER
from csp.middleware import CSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from django.template import loader
from django.urls import Resolver404, resolve

from protocol.errors import ProtocolError, request_id_here

logger = logging.getLogger(__name__)

# By status: the error code on /api/, and what a person is told (a title, and what they can do).
_BY_STATUS = {
    400: ("INVALID_REQUEST", "That request could not be read", "Go back and try again, or reload the page."),
    403: (
        "PERMISSION_DENIED",
        "You cannot open this",
        "Sign in with an account that is a member, or ask the session's owner to invite you.",
    ),
    404: (
        "RESOURCE_NOT_FOUND",
        "There is nothing here",
        "The address may be mistyped, or the session is not one of yours.",
    ),
    413: (
        "MESSAGE_TOO_LARGE",
        "That was too large to send",
        "Put large content in a file in the session's workspace and refer to it.",
    ),
    500: ("INTERNAL_ERROR", "Something went wrong on our side", "Try again in a moment."),
}


def is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def error_answer(
    request: HttpRequest, status: int, *, details: dict[str, Any] | None = None, title: str = "", advice: str = ""
) -> HttpResponse:
    """The answer for an error with this HTTP status: JSON on /api/, otherwise a page."""
    code, default_title, default_advice = _BY_STATUS.get(status, _BY_STATUS[500 if status >= 500 else 400])
    request_id = request_id_here()
    if is_api(request):
        error = ProtocolError(code, default_title.lower(), details=details or {}, request_id=request_id)
        return JsonResponse({"error": error.as_dict()}, status=status)
    context: dict[str, Any] = {"status": status, "title": title or default_title, "advice": advice or default_advice}
    if status >= 500:  # no context processors: whatever failed must not fail its error page too
        context["request_id"] = request_id
        return HttpResponse(loader.render_to_string("500.html", context), status=status)
    return HttpResponse(loader.render_to_string("error.html", context, request=request), status=status)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler400; a body over DATA_UPLOAD_MAX_MEMORY_SIZE is 413, not 400."""
    if isinstance(exception, RequestDataTooBig):
        return error_answer(request, 413, details={"limit_bytes": settings.DATA_UPLOAD_MAX_MEMORY_SIZE})
    return error_answer(request, 400)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return error_answer(request, 403)


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return error_answer(request, 404, details={"path": request.path[:500]})


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500 (django.request has logged the traceback)."""
    return error_answer(request, 500)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """CSRF_FAILURE_VIEW: a form posted from a page that has expired, or from another site."""
    return error_answer(
        request,
        403,
        details={"reason": reason},
        title="This form has expired",
        advice="Reload the page and send it again; you may need to sign in again.",
    )


class ApiErrorsAsJson:
    """On /api/, an error Django answered as HTML (DEBUG's technical pages too) is answered in the
    error model instead, so a client of the API always gets JSON it can read."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code >= 400 and is_api(request) and response.get("Content-Type", "").startswith("text/html"):
            return error_answer(request, response.status_code)
        return response


class NotFoundPage:
    """Every 404 is ``page_not_found``'s, with DEBUG on too: Django's technical 404 page lists the URL
    patterns, and DEBUG=1, the default a newcomer runs, should not publish the site's map. Placed
    after CommonMiddleware, which still turns a 404 for an address without its slash into a redirect."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            resolve(request.path_info, getattr(request, "urlconf", None))
        except Resolver404:
            return page_not_found(request)
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        return page_not_found(request, exception) if isinstance(exception, Http404) else None


class ContentSecurityPolicy(CSPMiddleware):
    """django-csp's middleware, except that a 404 keeps the policy with DEBUG on: django-csp leaves it
    off for Django's technical 404 page, which NotFoundPage never lets through."""

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if response.status_code == 404 and settings.DEBUG and HEADER not in response:
            response[HEADER] = build_policy(**asdict(self.get_policy_parts(request=request, response=response)))
        return super().process_response(request, response)
