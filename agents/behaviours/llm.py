"""The LLM agent: any OpenAI-compatible chat-completions server, speaking CHAP and SAP.

One task is a bounded loop. Each turn streams the model's answer; the SAP streaming parser reads it
as it arrives and every request block runs at once with the agent's permissions. When a turn asked
for operations, their response blocks go back to the model as the next message. A turn without
requests is the final answer: a JSON object ``{"payload_type": …, "payload": {…}}`` that must pass
the CHAP validator; an invalid one gets one repair round with the validator's error, then the task
fails with a structured error. Steps, wall time and tokens are limited, and every agent_status says
how much of each is used.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TypedDict

import httpx
from django.conf import settings

from agents.operations.registry import workbench_registry
from agents.runtime import TaskFailure, TaskRun
from agents.sap import Block, ParseError, StreamParser, format_block
from agents.sap.dispatcher import parse_error_block
from agents.sap.parser import Item
from protocol.errors import ProtocolError
from sessions.chap.schemas import payload_types_of, validate_payload

ANSWER_TYPES = payload_types_of("agent")
CHAP_RULES = f"""You are {{name}}, an AI agent in a CHAP session: a limited-responsibility colleague of the humans.
- Work only through SAP blocks; each block is answered before your next turn:
  @@query:domain.action#id / a JSON object / @@end (also @@action: and @@describe:).
- Say what you assumed, how sure you are (confidence_score 0..1) and why; ask instead of guessing.
- Nothing you write decides anything: humans approve.
- When you are done, answer with one JSON object and nothing else:
  {{{{"payload_type": one of {", ".join(ANSWER_TYPES)}, "payload": {{{{…}}}}}}}}
  A collaborative_response needs content.body (markdown) and confidence_score; add sections with their
  own confidence, supporting_materials with sources, assumptions_made, uncertainties and
  open_questions_for_human."""


class Endpoint(TypedDict):
    """Where the agent's model answers, as ``chat_stream`` takes it."""

    base_url: str
    model: str
    api_key: str | None


@dataclass(frozen=True)
class Limits:
    steps: int
    seconds: float
    tokens: int

    @classmethod
    def from_settings(cls) -> Limits:
        return cls(settings.CHAP_LLM_MAX_STEPS, float(settings.CHAP_LLM_MAX_SECONDS), settings.CHAP_LLM_MAX_TOKENS)


class LlmFailure(TaskFailure):
    """The model could not produce a valid answer within the limits."""

    def __init__(self, code: str, message: str, **details: Any) -> None:
        super().__init__(ProtocolError(code, message, details=details))


def chat_stream(
    *, base_url: str, model: str, api_key: str | None, messages: list[dict[str, Any]], timeout_s: float
) -> Iterator[tuple[str, dict[str, Any] | None]]:
    """The deltas of one streamed chat completion: ``(text, usage or None)``."""
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    body = {"model": model, "messages": messages, "stream": True, "stream_options": {"include_usage": True}}
    try:
        with httpx.stream(
            "POST", f"{base_url.rstrip('/')}/chat/completions", json=body, headers=headers, timeout=timeout_s
        ) as response:
            if response.status_code != 200:
                raise LlmFailure(
                    "UPSTREAM_ERROR",
                    f"the model server answered HTTP {response.status_code}",
                    status=response.status_code,
                    body=response.read().decode("utf-8", "replace")[:500],
                )
            for line in response.iter_lines():
                if not line.startswith("data:"):
                    continue
                data = line[5:].strip()
                if data == "[DONE]":
                    return
                chunk = json.loads(data)
                choices = chunk.get("choices") or [{}]
                yield (choices[0].get("delta") or {}).get("content") or "", chunk.get("usage")
    except httpx.TimeoutException:
        raise LlmFailure("TIMEOUT", f"the model server sent nothing for {timeout_s:g} s", limit_s=timeout_s) from None
    except (httpx.HTTPError, ValueError) as exc:
        raise LlmFailure("UPSTREAM_ERROR", f"the model server could not be read: {exc}") from None


def system_prompt(run: TaskRun) -> str:
    context = run.context(budget=3000)
    return "\n\n".join(
        [
            CHAP_RULES.format(name=run.agent.name),
            workbench_registry().prompt_listing(),
            f"THE SESSION SO FAR:\n{context['text'] or '(nothing yet)'}",
        ]
    )


def _final_answer(text: str) -> dict[str, Any]:
    """The JSON object the turn ends with (fences allowed around it)."""
    match = re.search(r"\{.*\}", text, re.S)
    if not match:
        raise ValueError("no JSON object in the answer")
    answer: dict[str, Any] = json.loads(match.group(0))
    return answer


def _checked(answer: object) -> tuple[str, dict[str, Any]]:
    """``(payload_type, payload)`` as the CHAP validator accepts it; ProtocolError or ValueError says why not."""
    if not isinstance(answer, dict) or answer.get("payload_type") not in ANSWER_TYPES:
        raise ValueError(f"the answer must be {{'payload_type': one of {list(ANSWER_TYPES)}, 'payload': {{…}}}}")
    return answer["payload_type"], validate_payload(answer["payload_type"], answer.get("payload"))


class LlmAgent:
    def __init__(self, run: TaskRun, limits: Limits | None = None):
        self.run, self.limits = run, limits or Limits.from_settings()
        agent = run.agent
        self.endpoint: Endpoint = {
            "base_url": agent.llm_base_url,
            "model": agent.llm_model,
            "api_key": os.environ.get(agent.llm_api_key_env) if agent.llm_api_key_env else None,
        }
        self.deadline = time.monotonic() + self.limits.seconds

    def __call__(self) -> str:
        if not self.endpoint["base_url"] or not self.endpoint["model"]:
            raise LlmFailure("VALIDATION_FAILED", "the agent has no LLM endpoint (base URL and model) set")
        task = self.run.task
        messages = [
            {"role": "system", "content": system_prompt(self.run)},
            {"role": "user", "content": f"YOUR TASK: {task.title}\n{task.instructions}".strip()},
        ]
        repaired = False
        for step in range(1, self.limits.steps + 1):
            self._report(f"thinking (step {step} of {self.limits.steps})", step)
            text, responses = self._turn(messages)
            messages.append({"role": "assistant", "content": text})
            if responses:
                messages.append({"role": "user", "content": "SAP RESPONSES:\n" + "".join(responses)})
                continue
            try:
                payload_type, payload = _checked(_final_answer(text))
            except (ProtocolError, ValueError) as invalid:
                why = invalid.message if isinstance(invalid, ProtocolError) else str(invalid)
                if repaired:
                    raise LlmFailure("INVALID_MESSAGE", f"the answer was invalid after a repair round: {why}") from None
                repaired = True
                messages.append({"role": "user", "content": f"That answer is not valid: {why}. Send it again, fixed."})
                continue
            return self.run.post("answer", payload_type, payload)
        raise LlmFailure("LIMIT_EXCEEDED", f"no answer within {self.limits.steps} steps", limit_steps=self.limits.steps)

    def _turn(self, messages: list[dict[str, Any]]) -> tuple[str, list[str]]:
        """One streamed answer; SAP requests in it run as soon as each block is complete."""
        parser, text, responses = StreamParser(), [], []
        for delta, usage in chat_stream(**self.endpoint, messages=messages, timeout_s=self._left()):
            self._left()
            text.append(delta)
            if usage:
                self.run.llm_tokens += int(usage.get("total_tokens") or 0)
            else:
                self.run.llm_tokens += max(1, len(delta) // 4) if delta else 0
            if self.run.llm_tokens > self.limits.tokens:
                raise LlmFailure(
                    "LIMIT_EXCEEDED",
                    f"the task used more than {self.limits.tokens} tokens",
                    limit_tokens=self.limits.tokens,
                )
            responses += self._run_blocks(parser.feed(delta))
        responses += self._run_blocks(parser.close())
        return "".join(text), responses

    def _run_blocks(self, items: Iterable[Item]) -> list[str]:
        out: list[str] = []
        for item in items:
            if isinstance(item, Block) and item.is_request:
                out += [format_block(b.type, b.name, b.body, b.id) for b in self.run.sap(item)]
            elif isinstance(item, ParseError):
                answer = parse_error_block(item)
                out.append(format_block(answer.type, answer.name, answer.body, answer.id))
        return out

    def _left(self) -> float:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise LlmFailure("TIMEOUT", f"the task ran past {self.limits.seconds:g} s", limit_s=self.limits.seconds)
        return left

    def _report(self, activity: str, step: int) -> None:
        limits = {"steps": self.limits.steps, "seconds": self.limits.seconds, "tokens": self.limits.tokens}
        self.run.status(activity, done=step - 1, total=self.limits.steps, limits=limits)


def llm_behaviour(run: TaskRun) -> str:
    return LlmAgent(run)()
