"""SAP, the text protocol agents use to act on the workbench. Plain Python: no Django here."""

from agents.sap.blocks import Block, ParseError, Text, format_block
from agents.sap.dispatcher import Call, Dispatcher, Outcome
from agents.sap.parser import StreamParser, parse
from agents.sap.registry import ErrorDoc, Example, Operation, Registry
from agents.sap.system import CORE_OPERATIONS
from protocol.params import Param

__all__ = [
    "CORE_OPERATIONS",
    "Block",
    "Call",
    "Dispatcher",
    "ErrorDoc",
    "Example",
    "Operation",
    "Outcome",
    "Param",
    "ParseError",
    "Registry",
    "StreamParser",
    "Text",
    "format_block",
    "parse",
]
