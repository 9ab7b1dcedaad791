"""The REST API's JSON parser: strict JSON (protocol.strict_json), each refusal a structured error.

DRF reads a JSON body through ``request.body``, so a body over DATA_UPLOAD_MAX_MEMORY_SIZE is refused
before it gets here (RequestDataTooBig, answered 413 by workbench.api_errors).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

from rest_framework.parsers import JSONParser

from protocol import strict_json
from protocol.errors import ProtocolError


class StrictJSONParser(JSONParser):
    def parse(
        self, stream: IO[Any], media_type: str | None = None, parser_context: Mapping[str, Any] | None = None
    ) -> Any:
        try:
            return strict_json.loads(stream.read())
        except strict_json.JsonRefused as refused:
            details: dict[str, str | int] = {"reason": refused.reason}
            if refused.position is not None:
                details["position"] = refused.position
            raise ProtocolError("INVALID_REQUEST", f"the body is not strict JSON: {refused}", details=details) from None
