"""HTTP answers that reach the client piece by piece under ASGI."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

from asgiref.sync import sync_to_async
from django.http import StreamingHttpResponse


def _next_piece(pieces: Iterator[bytes]) -> bytes | None:
    return next(pieces, None)


class PieceByPieceResponse(StreamingHttpResponse):
    """A StreamingHttpResponse over a synchronous iterator that Daphne sends as it is produced.

    Served through ASGI, Django reads a synchronous iterator to its end before it sends a byte. This
    takes one piece at a time instead, each in the thread Django runs synchronous code in (where the
    ORM's connection lives), and so sends each piece as soon as it exists. Synchronous callers (the
    test client) iterate as usual.
    """

    async def __aiter__(self) -> AsyncIterator[bytes]:
        pieces = self.streaming_content
        if not isinstance(pieces, Iterator):  # asynchronous already: Django sends it piece by piece
            async for piece in super().__aiter__():
                yield piece
            return
        take = sync_to_async(_next_piece, thread_sensitive=True)
        while (taken := await take(pieces)) is not None:
            yield taken
