"""Tasks: who does what in a session, in which order, and what a worker may take.

- ``acts``: people's acts on tasks (create, reassign, reprioritise, pause, resume, cancel, retry,
  approve, forward), each a ``task_event`` message in the session's log;
- ``plans``: an agent's proposed plan approved or rejected, its steps made tasks;
- ``matching``: which agent of a session takes a role;
- ``leases``: the workers' lease protocol (claim, renew, finish, fail).
"""
