"""SAP streaming parser throughput against two baselines measured in the same run.

    python bench/sap_parser.py [--mb 10] [--repeat 3]

Baselines over the same text: a one-shot extraction (re.finditer + json.loads of each body)
and a do-nothing parser whose feed method only appends the same chunks to a list. Targets (issue #3):
>= 0.7x one-shot at 4,096-character chunks, >= 0.4x at 64, >= 0.3x the do-nothing feed at 7,
and 4x the input in at most 4.4x the time at every chunk size.
"""

import argparse
import json
import random
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agents.sap.blocks import format_block
from agents.sap.parser import StreamParser

WORDS = (
    "the", "analyst", "asked", "for", "quarterly", "revenue", "by", "region", "and", "agent",
    "checked", "its", "sources", "before", "answering", "数据", "报告",
)  # fmt: skip
BLOCK_RE = re.compile(r"^@@(\w+):([a-z0-9.-]+)(?:#(\S+))?[ \t]*\r?\n(.*?)^@@end[ \t]*\r?$", re.M | re.S)


def make_stream(size: int, seed: int = 7) -> str:
    """Half prose, half blocks with bodies of 200 to 2,000 bytes."""
    rng = random.Random(seed)
    parts, prose_size, block_size = [], 0, 0
    while prose_size + block_size < size:
        if prose_size <= block_size:
            line = " ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 25))) + "\n"
            parts.append(line)
            prose_size += len(line)
        else:
            target = rng.randint(200, 2000)
            body = {"path": f"reports/q{rng.randint(1, 4)}.md", "rows": []}
            while len(json.dumps(body, indent=2)) < target:
                body["rows"].append({"region": rng.choice(WORDS), "value": rng.randint(0, 10**6)})
            block = format_block(rng.choice(["query", "action"]), "dataset.insert", body, f"r{len(parts)}")
            parts.append(block)
            block_size += len(block)
    return "".join(parts)


def one_shot(text: str) -> int:
    return sum(1 for match in BLOCK_RE.finditer(text) if isinstance(json.loads(match.group(4) or "{}"), dict))


class DoNothingParser:
    """The floor of any streaming parser in Python: a feed method that only keeps the chunk."""

    def __init__(self):
        self.chunks: list[str] = []

    def feed(self, chunk: str) -> tuple:
        self.chunks.append(chunk)
        return ()

    def close(self) -> list:
        return []


def drive(parser_class, chunks: list[str]) -> int:
    """Feed every chunk and consume what each call returns, as a caller streaming LLM output would."""
    parser = parser_class()
    feed = parser.feed
    count = 0
    for chunk in chunks:
        for _item in feed(chunk):
            count += 1
    return count + len(parser.close())


def best_of(repeat: int, fn, *args) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        fn(*args)
        best = min(best, time.perf_counter() - started)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=10.0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    big = make_stream(int(args.mb * 1_000_000))
    small = big[: len(big) // 4]
    mb = len(big.encode()) / 1e6
    blocks = one_shot(big)
    print(f"stream: {mb:.1f} MB, {blocks} blocks; best of {args.repeat}")
    base_one_shot = best_of(args.repeat, one_shot, big)
    print(f"baseline one-shot re+json: {mb / base_one_shot:7.1f} MB/s")
    ok = True
    for size, target, against in ((4096, 0.7, "one-shot"), (64, 0.4, "one-shot"), (7, 0.3, "do-nothing")):
        chunks = [big[i : i + size] for i in range(0, len(big), size)]
        small_chunks = [small[i : i + size] for i in range(0, len(small), size)]
        floor = best_of(args.repeat, drive, DoNothingParser, chunks)
        t_big = best_of(args.repeat, drive, StreamParser, chunks)
        t_small = best_of(args.repeat, drive, StreamParser, small_chunks)
        baseline = base_one_shot if against == "one-shot" else floor
        ratio = baseline / t_big
        growth = t_big / t_small
        verdict = ratio >= target and growth <= 4.4
        ok &= verdict
        print(
            f"chunks of {size:>4}: parser {mb / t_big:7.1f} MB/s | do-nothing feed {mb / floor:7.1f} MB/s | "
            f"{ratio:.2f}x {against} (target >= {target}) | 4x input: {growth:.2f}x time (<= 4.4) "
            f"{'OK' if verdict else 'MISSED'}"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
