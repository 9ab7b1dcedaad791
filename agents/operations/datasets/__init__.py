"""dataset.* operations: tables that belong to one session.

``store`` keeps each session's tables behind the database's own wall, ``wall`` says what SQL may
name and call there, ``rows`` checks the values going in and says them as JSON coming out,
``compiler`` turns structured queries into SQL and checks raw SQL for a friendly error first,
``csv_io`` moves workspace files in and out, and ``operations`` declares the SAP operations over them.
"""
