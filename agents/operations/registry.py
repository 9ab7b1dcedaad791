"""The workbench's SAP registry: the core operations, the workflow and every domain's operations.

Built here rather than in the package's __init__, so importing one plain-Python module of a domain
does not import the Django-backed ones."""

from functools import cache

from agents.operations import file_operations, system
from agents.operations.datasets import join_operation, unpivot
from agents.operations.datasets import operations as datasets
from agents.operations.stats import operations as stats
from agents.sap import CORE_OPERATIONS, Registry
from agents.sap.workflow import WORKFLOW


@cache
def workbench_registry() -> Registry:
    return Registry(
        [
            *CORE_OPERATIONS,
            WORKFLOW,
            *system.OPERATIONS,
            *file_operations.OPERATIONS,
            *datasets.OPERATIONS,
            join_operation.OPERATION,
            unpivot.OPERATION,
            *stats.OPERATIONS,
        ]
    )
