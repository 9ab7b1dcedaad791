"""stats.* operations: pandas and SciPy over one session's tables.

``frame`` reads a table through the dataset store, ``engine`` computes, ``charts`` draws each answer
as a Vega-Lite spec, and ``operations`` declares the SAP operations over them.
"""
