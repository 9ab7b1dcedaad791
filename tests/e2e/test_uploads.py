"""Uploads through a real Daphne process: streamed to disk with the server's memory flat, refused past
WORKBENCH_MAX_UPLOAD_MB with a structured 413 (before the body when Content-Length says so), and
recorded in the log by name, size and sha256. Memory is the server process's resident set (psutil),
sampled while the request runs."""

import hashlib
import http.client
import json
import os
import secrets
import socket

import pytest

from agents.operations.files import workspace_root
from agents.operations.uploads import staging_root
from sessions.models import Message, WorkSession
from tests.factories import make_session, make_user
from tests.live import DaphneServer, PeakMemory, generated, signed_in

pytestmark = pytest.mark.processes

MB = 1024 * 1024
SMALL_LIMIT_MB = 4
# A file just under this limit is streamed in; 1024 (the default limit) took 42 s and 83 s on two busy
# cores, so the suite runs 256 and bench/uploads.py measures 1024 (README, "Benchmarks").
STREAMED_LIMIT_MB = int(os.environ.get("CHAP_UPLOAD_TEST_MB", 256))


def start(limit_mb: int) -> DaphneServer:
    server = DaphneServer(WORKBENCH_MAX_UPLOAD_MB=str(limit_mb)).start()
    request(server, "GET", "/accounts/login/")  # warm: the first request imports what every later one uses
    return server


@pytest.fixture
def small_server(transactional_db):
    server = start(SMALL_LIMIT_MB)
    yield server
    server.stop()


def browser_headers(server, user, **more):
    """A signed-in browser's cookie and CSRF token (the login session lives in the shared database)."""
    csrf = secrets.token_hex(16)
    return {
        "Cookie": f"{signed_in(user)}; csrftoken={csrf}",
        "X-CSRFToken": csrf,
        "Referer": f"{server.url}/",
        **more,
    }


def request(server, method, path, body=None, headers=None, timeout=120):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=timeout)
    connection.request(method, path, body=body, headers=headers or {})
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, response.getheader("Content-Type", ""), data


def head_only(server, path, headers) -> bytes:
    """Send a request's head, none of its body, and read what the server answers."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=20) as raw:
        lines = [f"POST {path} HTTP/1.1", "Host: 127.0.0.1", *(f"{k}: {v}" for k, v in headers.items()), "", ""]
        raw.sendall("\r\n".join(lines).encode())
        answer = b""
        while not complete(answer):
            answer += raw.recv(65536)
        return answer


def complete(answer: bytes) -> bool:
    head, found, body = answer.partition(b"\r\n\r\n")
    lengths = [line.split(b":")[1] for line in head.lower().split(b"\r\n") if line.startswith(b"content-length:")]
    return bool(found and lengths and len(body) >= int(lengths[0]))


def multipart(fields: dict[str, str], file_field: str, file_name: str, size: int):
    """A multipart body (its length, its pieces) with the file's bytes generated, never whole."""
    boundary = secrets.token_hex(12)
    head = b"".join(
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
        for name, value in fields.items()
    )
    head += (
        f'--{boundary}\r\nContent-Disposition: form-data; name="{file_field}"; filename="{file_name}"\r\n'
        "Content-Type: text/csv\r\n\r\n"
    ).encode()
    tail = f"\r\n--{boundary}--\r\n".encode()

    def body():
        yield head
        yield from generated(size)
        yield tail

    return f"multipart/form-data; boundary={boundary}", len(head) + size + len(tail), body()


def log_bytes(session) -> int:
    return sum(
        len(json.dumps(payload))
        for payload in Message.objects.filter(session=session).values_list("envelope", flat=True)
    )


def test_rest_refuses_a_declared_length_past_the_limit_before_the_body(small_server):
    owner = make_user("olga")
    session = make_session(owner=owner)
    size = int(1.5 * SMALL_LIMIT_MB * MB)
    headers = browser_headers(small_server, owner, **{"Content-Type": "application/octet-stream"})
    with PeakMemory(small_server.process.pid) as memory:
        answer = head_only(
            small_server,
            f"/api/sessions/{session.pk}/files/?path=big.csv",
            {**headers, "Content-Length": str(size), "Expect": "100-continue"},
        )
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413")
    error = json.loads(body)["error"]
    assert error["code"] == "LIMIT_EXCEEDED" and error["details"]["limit_mb"] == SMALL_LIMIT_MB
    assert error["details"]["size_bytes"] == size and error["suggestion"]
    assert memory.growth_mb < 100
    assert not (workspace_root(session.pk) / "big.csv").exists()


def test_rest_and_the_form_refuse_an_upload_of_one_and_a_half_times_the_limit(small_server):
    owner = make_user("olga")
    session = make_session(owner=owner)
    size = int(1.5 * SMALL_LIMIT_MB * MB)
    with PeakMemory(small_server.process.pid) as memory:
        status, kind, body = request(
            small_server,
            "POST",
            f"/api/sessions/{session.pk}/files/?path=big.csv",
            body=generated(size),
            headers=browser_headers(
                small_server, owner, **{"Content-Type": "application/octet-stream", "Content-Length": str(size)}
            ),
        )
    assert memory.growth_mb < 100
    assert status == 413 and kind == "application/json"
    assert json.loads(body)["error"]["code"] == "LIMIT_EXCEEDED"
    before, staged = WorkSession.objects.count(), set(staging_root().iterdir())
    # The form's 6 MB lies within the room for its other fields, so Daphne passes it on and the
    # form's upload handler stops it as its bytes pass the limit.
    headers = browser_headers(small_server, owner)
    kind, length, body = multipart(
        {"csrfmiddlewaretoken": headers["X-CSRFToken"], "goal": "Read it"}, "files", "big.csv", size
    )
    with PeakMemory(small_server.process.pid) as memory:
        status, _, page = request(
            small_server,
            "POST",
            "/sessions/new/",
            body=body,
            headers={**headers, "Content-Type": kind, "Content-Length": str(length)},
        )
    assert memory.growth_mb < 100
    assert status == 413 and f"uploads are limited to {SMALL_LIMIT_MB} MB" in page.decode()
    assert WorkSession.objects.count() == before
    assert set(staging_root().iterdir()) == staged, "a refused upload leaves nothing staged"


def test_a_file_just_under_the_limit_streams_in_with_flat_memory(transactional_db):
    """A file 1 MB under the limit, generated on the fly, its log record holding size and hash."""
    server = start(STREAMED_LIMIT_MB)
    try:
        owner = make_user("olga")
        session = make_session(owner=owner)
        size = (STREAMED_LIMIT_MB - 1) * MB
        digest = hashlib.sha256()
        log_before = log_bytes(session)
        headers = browser_headers(
            server, owner, **{"Content-Type": "application/octet-stream", "Content-Length": str(size)}
        )
        with PeakMemory(server.process.pid) as memory:
            status, _, body = request(
                server,
                "POST",
                f"/api/sessions/{session.pk}/files/?path=data/big.csv",
                body=generated(size, digest=digest),
                headers=headers,
            )
        assert status == 201, body[:500]
        assert memory.growth_mb < 200, f"the server grew by {memory.growth_mb:.0f} MB"
        result = json.loads(body)
        assert result["size"] == size and result["sha256"] == digest.hexdigest()
        assert (workspace_root(session.pk) / "data/big.csv").stat().st_size == size
        record = (
            Message.objects.filter(session=session, payload_type="operation_record").latest("seq").envelope["payload"]
        )
        assert record["request"]["body"]["path"] == "data/big.csv"
        assert record["response"]["size"] == size and record["response"]["sha256"] == digest.hexdigest()
        assert log_bytes(session) - log_before < 10_000
    finally:
        server.stop()


def test_a_chunked_upload_without_content_length_is_stored_and_one_past_the_limit_refused(small_server):
    """Transfer-Encoding: chunked, as curl -T - sends a pipe: no length is declared."""
    owner = make_user("olga")
    session = make_session(owner=owner)
    headers = browser_headers(small_server, owner, **{"Content-Type": "application/octet-stream"})
    rows = b"region,amount\nnorth,1\n"

    def chunked(size):
        yield rows
        yield from generated(size)

    status, _, body = request(
        small_server, "POST", f"/api/sessions/{session.pk}/files/?path=piped.csv", body=chunked(MB), headers=headers
    )
    assert status == 201, body[:500]
    stored = workspace_root(session.pk) / "piped.csv"
    assert json.loads(body)["size"] == stored.stat().st_size == len(rows) + MB
    status, _, body = request(
        small_server,
        "POST",
        f"/api/sessions/{session.pk}/files/?path=huge.csv",
        body=chunked(int(1.5 * SMALL_LIMIT_MB * MB)),
        headers=headers,
    )
    assert status == 413 and json.loads(body)["error"]["code"] == "LIMIT_EXCEEDED"
    assert not (workspace_root(session.pk) / "huge.csv").exists()
