"""The SAP operations the workbench executes, one module per domain; ``registry`` holds them all.

Nothing here imports Django, so a plain-Python module below (stats/charts.py) imports on its own."""
