"""SAP, the text protocol agents use to act on the workbench. Plain Python: no Django here."""

from agents.sap.blocks import Block, ParseError, Text, format_block
from agents.sap.dispatcher import Call, Dispatcher, Outcome
from agents.sap.parser import StreamParser, parse
from agents.sap.registry import ErrorDoc, Example, Operation, Registry
from agents.sap.system import CORE_OPERATIONS
from workbench.protocol.errors import CATALOGUE, Category, SapError
from workbench.protocol.params import Param

__all__ = [
    "CATALOGUE",
    "CORE_OPERATIONS",
    "Block",
    "Call",
    "Category",
    "Dispatcher",
    "ErrorDoc",
    "Example",
    "Operation",
    "Outcome",
    "Param",
    "ParseError",
    "Registry",
    "SapError",
    "StreamParser",
    "Text",
    "format_block",
    "parse",
]
