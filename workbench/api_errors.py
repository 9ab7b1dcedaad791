"""Every REST error in the one error model: ``{"error": {code, message, category, …}}``."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from rest_framework import exceptions, status
from rest_framework.response import Response

from protocol.errors import Category, ProtocolError, internal_error

logger = logging.getLogger(__name__)

_STATUS_BY_CODE = {
    "RESOURCE_NOT_FOUND": status.HTTP_404_NOT_FOUND,
    "OPERATION_NOT_FOUND": status.HTTP_404_NOT_FOUND,
    "RESOURCE_ALREADY_EXISTS": status.HTTP_409_CONFLICT,
    "UNAUTHENTICATED": status.HTTP_401_UNAUTHORIZED,
    "RATE_LIMITED": status.HTTP_429_TOO_MANY_REQUESTS,
    "MESSAGE_TOO_LARGE": status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
    "LIMIT_EXCEEDED": status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
    "TIMEOUT": status.HTTP_504_GATEWAY_TIMEOUT,
}
_STATUS_BY_CATEGORY = {
    Category.VALIDATION: status.HTTP_400_BAD_REQUEST,
    Category.PROTOCOL: status.HTTP_400_BAD_REQUEST,
    Category.RESOURCE: status.HTTP_404_NOT_FOUND,
    Category.PERMISSION: status.HTTP_403_FORBIDDEN,
    Category.CONFLICT: status.HTTP_409_CONFLICT,
    Category.LIMIT: status.HTTP_429_TOO_MANY_REQUESTS,
    Category.INTERNAL: status.HTTP_500_INTERNAL_SERVER_ERROR,
}


def http_status(error: ProtocolError) -> int:
    return _STATUS_BY_CODE.get(error.code, _STATUS_BY_CATEGORY[error.category])


def error_response(error: ProtocolError) -> Response:
    return Response({"error": error.as_dict()}, status=http_status(error))


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response:
    if isinstance(exc, ProtocolError):
        return error_response(exc)
    if isinstance(exc, RequestDataTooBig):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        return error_response(
            ProtocolError(
                "MESSAGE_TOO_LARGE",
                f"request bodies are limited to {limit} bytes",
                details={"limit_bytes": limit},
                suggestion=["put large content in a workspace file (POST …/files/) and refer to it"],
            )
        )
    if isinstance(exc, exceptions.ValidationError):
        return error_response(
            ProtocolError("VALIDATION_FAILED", "the request's fields are not valid", details={"invalid": exc.detail})
        )
    if isinstance(exc, exceptions.NotAuthenticated | exceptions.AuthenticationFailed):
        response = error_response(ProtocolError("UNAUTHENTICATED", str(exc.detail)))
        response["WWW-Authenticate"] = 'Bearer realm="chap"'
        return response
    if isinstance(exc, exceptions.PermissionDenied):
        return error_response(ProtocolError("PERMISSION_DENIED", str(exc.detail)))
    if isinstance(exc, exceptions.NotFound):
        return error_response(ProtocolError("RESOURCE_NOT_FOUND", str(exc.detail)))
    if isinstance(exc, exceptions.Throttled):
        # DRF sets Throttled.wait in __init__; djangorestframework-stubs leaves it out.
        wait = exc.wait  # type: ignore[attr-defined]
        return error_response(ProtocolError("RATE_LIMITED", str(exc.detail), details={"wait_s": wait}))
    if isinstance(exc, exceptions.APIException):
        response = error_response(ProtocolError("INVALID_REQUEST", str(exc.detail)))
        response.status_code = exc.status_code
        return response
    return error_response(internal_error(logger, "API request"))
