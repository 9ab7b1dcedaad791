"""The browser's uploads: each file of a multipart form staged on disk as its bytes arrive
(agents.operations.uploads), the files of one request together held to the upload limit.

Past the limit the parse stops where it is (the rest of the body is never read) and the handler's
``refusal`` says why, for the form to show; a body whose declared length is past the limit and the
form's own fields stops before its first file.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.core.files.uploadhandler import FileUploadHandler, StopUpload
from django.http import HttpRequest

from agents.operations.uploads import StagedUpload, Staging, discard_staged, too_large, upload_limit_bytes
from protocol.errors import ProtocolError


class StagedUploadedFile(UploadedFile[bytes]):
    """A form's file, staged on disk and not yet in a workspace: ``staged`` names it to file.write."""

    def __init__(self, staged: StagedUpload, name: str, content_type: str, charset: str | None) -> None:
        super().__init__(None, name, content_type, staged.size, charset)
        self.staged = staged

    def close(self) -> None:
        """Django closes a request's files when the parse fails (past DATA_UPLOAD_MAX_NUMBER_FILES, a
        malformed part) and when the response ends: what has not moved into a workspace by then goes."""
        discard_staged(self.staged)


class BoundedUploadHandler(FileUploadHandler):
    def __init__(self, request: HttpRequest | None = None) -> None:
        super().__init__(request)
        self.refusal: ProtocolError | None = None
        self.taken = 0
        self.staging: Staging | None = None

    def handle_raw_input(
        self, input_data: Any, META: dict[str, Any], content_length: int, boundary: str, encoding: str | None = None
    ) -> None:
        if content_length > settings.MAX_REQUEST_BODY_BYTES:
            self.refusal = too_large(content_length)

    def new_file(self, field_name: str, file_name: str, content_type: str, *args: Any, **kwargs: Any) -> None:
        super().new_file(field_name, file_name, content_type, *args, **kwargs)
        if self.refusal is not None:
            raise StopUpload(connection_reset=True)
        self.staging = Staging(budget=upload_limit_bytes() - self.taken)

    def receive_data_chunk(self, raw_data: bytes, start: int) -> None:
        assert self.staging is not None, "new_file opened it"
        try:
            self.staging.write(raw_data)
        except ProtocolError as refused:
            self.refusal = refused
            raise StopUpload(connection_reset=True) from None

    def file_complete(self, file_size: int) -> StagedUploadedFile:
        assert self.staging is not None and self.file_name is not None, "new_file opened it"
        staged = self.staging.finish()
        self.taken += staged.size
        self.staging = None
        return StagedUploadedFile(staged, self.file_name, self.content_type or "", self.charset)

    def upload_interrupted(self) -> None:
        if self.staging is not None:
            self.staging.discard()


def upload_refusal(request: HttpRequest) -> ProtocolError | None:
    """Why the request's files were not all taken (past the upload limit), or None."""
    for handler in request.upload_handlers:
        if isinstance(handler, BoundedUploadHandler) and handler.refusal is not None:
            return handler.refusal
    return None
