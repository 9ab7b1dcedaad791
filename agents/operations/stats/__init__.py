"""stats.* operations: pandas and SciPy over one session's tables.

``frame`` reads a table through the dataset store, ``engine`` computes (``timeline`` over time),
``charts`` draws each answer as a Vega-Lite spec, ``handlers`` answer each call with figures and
chart, and ``operations`` declares the SAP operations over them.
"""
