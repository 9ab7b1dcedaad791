"""SAP from the command line.

``python -m agents.sap parse [--chunk N]`` reads a SAP stream on stdin and prints one JSON item per line;
``python -m agents.sap errors`` prints the error catalogue (docs/errors.md).
"""

import argparse
import json
import sys
from collections.abc import Iterable

from agents.sap.parser import Item, StreamParser
from protocol.errors import catalogue_markdown


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m agents.sap", description="SAP from the command line.")
    commands = parser.add_subparsers(dest="command", required=True)
    parse_cmd = commands.add_parser("parse", help="parse stdin into text, blocks and errors")
    parse_cmd.add_argument("--chunk", type=int, default=0, help="feed N characters at a time (default: all at once)")
    commands.add_parser("errors", help="print the error catalogue as Markdown")
    args = parser.parse_args(argv)
    if args.command == "errors":
        sys.stdout.write(catalogue_markdown())
        return 0
    if args.chunk < 0:
        parser.error("--chunk must be 0 (all at once) or a positive number")

    text = sys.stdin.read()
    stream = StreamParser()
    size = args.chunk or max(len(text), 1)
    for start in range(0, len(text), size):
        _emit(stream.feed(text[start : start + size]))
    _emit(stream.close())
    return 0


def _emit(items: Iterable[Item]) -> None:
    for item in items:
        sys.stdout.write(json.dumps(item.as_dict(), ensure_ascii=False) + "\n")


if __name__ == "__main__":
    sys.exit(main())
