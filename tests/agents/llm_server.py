"""A local OpenAI-compatible chat-completions server that streams scripted answers over real HTTP
(server-sent events), for testing the LLM agent without a model."""

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class ScriptedModel:
    """Answers each POST /v1/chat/completions with the next scripted turn: a text streamed in small
    chunks, ``{"status": 500}`` for a server error, or ``{"stall_s": N}`` to send nothing for N s."""

    def __init__(self, turns: list):
        self.turns = list(turns)
        self.requests: list[dict] = []
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()

    def _handler(self):
        model = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                model.requests.append({"path": self.path, "auth": self.headers.get("Authorization"), **body})
                turn = model.turns.pop(0) if model.turns else {"status": 500}
                if isinstance(turn, dict) and "status" in turn:
                    self.send_response(turn["status"])
                    self.send_header("Content-Type", "application/json")
                    self.end_headers()
                    self.wfile.write(b'{"error": {"message": "scripted failure"}}')
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                if isinstance(turn, dict) and "stall_s" in turn:
                    time.sleep(turn["stall_s"])
                    return
                for start in range(0, len(turn), 7):
                    chunk = {"choices": [{"delta": {"content": turn[start : start + 7]}}]}
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                    self.wfile.flush()
                usage = {"choices": [], "usage": {"total_tokens": len(turn) // 4 + 50}}
                self.wfile.write(f"data: {json.dumps(usage)}\n\ndata: [DONE]\n\n".encode())

        return Handler
