"""Real run_agents processes on PostgreSQL: a killed worker's task is finished by another, once."""

import pytest

from agents.models import Task, TaskState
from agents.scheduling.acts import task_create
from sessions.access import caller_for_user
from sessions.membership import agent_join
from sessions.models import Message
from tests.factories import make_agent, make_session, make_user
from tests.live import WorkerProcess, requires_scale, wait_for

pytestmark = [requires_scale, pytest.mark.processes, pytest.mark.django_db(transaction=True)]
BEHAVIOURS = "slow=tests.agents.behaviours.slow,quick=tests.agents.behaviours.quick"


@pytest.fixture
def workers():
    started = []

    def start(name):
        started.append(WorkerProcess(name, lease_s=2, CHAP_BEHAVIOURS=BEHAVIOURS).start())
        return started[-1]

    yield start
    for worker in started:
        worker.stop()


def tasks_for(behaviour, count, *, concurrency=1):
    owner = make_user()
    session = make_session(owner=owner)
    agent = make_agent(f"{behaviour}-agent", kind="builtin", behaviour=behaviour, concurrency_limit=concurrency)
    agent_join(session=session, agent=agent)
    caller = caller_for_user(owner)
    made = [task_create(session_id=session.pk, caller=caller, title=f"t{n}", agent=agent.name) for n in range(count)]
    return session, made


def test_a_task_whose_worker_was_killed_is_finished_by_another_without_duplicates(workers):
    session, [task] = tasks_for("slow", 1)
    a, b = workers("worker-a"), workers("worker-b")
    holder = wait_for(
        lambda: Task.objects.filter(pk=task.pk, state=TaskState.RUNNING).values_list("lease_owner", flat=True).first(),
        what="a worker to take the task",
    )
    wait_for(lambda: Message.objects.filter(session=session, message_id=f"task{task.pk}-part1").exists(), what="part 1")
    (a if holder == "worker-a" else b).kill()
    done = wait_for(
        lambda: Task.objects.filter(pk=task.pk, state=TaskState.DONE).first(), what="the other worker to finish"
    )
    assert done.attempts == 2 and done.lease_owner != holder, (a.log_text(), b.log_text())
    ids = list(Message.objects.filter(session=session).values_list("message_id", flat=True))
    for key in ("part1", "part2", "result"):
        assert ids.count(f"task{task.pk}-{key}") == 1
    assert done.result_message_id == f"task{task.pk}-result"


def test_two_workers_share_the_queue_and_never_run_a_task_twice(workers):
    session, made = tasks_for("quick", 30, concurrency=10)
    workers("worker-a"), workers("worker-b")
    wait_for(
        lambda: not Task.objects.filter(session=session).exclude(state=TaskState.DONE).exists(),
        what="every task to be done",
    )
    rows = list(Task.objects.filter(session=session).values_list("attempts", "lease_owner"))
    assert {attempts for attempts, _ in rows} == {1}
    assert {owner for _, owner in rows} == {"worker-a", "worker-b"}
    results = Message.objects.filter(session=session, message_id__endswith="-result").count()
    assert results == len(made)
