"""Calling SAP as an agent would: POST a stream of blocks to the session's SAP endpoint, read the replies."""

import json

from rest_framework.test import APIClient

from agents.sap import parse


def sap(world, text, *, token=None, user=None, headers=None):
    client = APIClient(headers=headers)
    if user is not None:
        client.force_login(user)
    else:
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {token or world['token']}")
    response = client.post(f"/api/sessions/{world['session'].pk}/sap/", text, content_type="text/plain")
    if response.status_code != 200:
        return response
    body = b"".join(response.streaming_content).decode()
    assert response["Content-Type"].startswith("text/plain")
    return [item for item in parse(body)]


def block(kind, name, body="{}", block_id="1"):
    return f"@@{kind}:{name}#{block_id}\n{body}\n@@end\n"


SALES = "region,amount,paid,day\nEU,10.5,true,2024-01-01\nEU,20,false,2024-01-02\nUS,7,true,2024-01-03\nUS,,yes,\nbroken,line\n"


def one(world, kind, name, body, block_id="1", **kwargs):
    responses = sap(world, block(kind, name, json.dumps(body), block_id), **kwargs)
    return responses[-1]


def load_sales(world):
    one(world, "action", "file.write", {"path": "sales.csv", "content": SALES})
    return one(world, "action", "dataset.import-csv", {"path": "sales.csv", "table": "sales"})


def statistician_world():
    """A session with an agent that may run dataset.*, stats.* and file.*: the stats tests' caller."""
    from tests.people import session_of, with_agent

    return with_agent(session_of(), "statistician", allowed_operations=["dataset.*", "stats.*", "file.*"])


def call(world, kind, name, body):
    """One SAP block of ``kind`` with a JSON body; the last block answered."""
    return sap(world, block(kind, name, json.dumps(body), "1"))[-1]


def stats_on(table, content):
    """A statistician's session holding ``content`` (a CSV) as ``table``: a caller of stats.* on it."""
    world = statistician_world()
    call(world, "action", "file.write", {"path": f"{table}.csv", "content": content})
    call(world, "action", "dataset.import-csv", {"path": f"{table}.csv", "table": table})
    return lambda name, body: call(world, "query", name, {"table": table, **body}).body


def iris_csv() -> str:
    from sklearn.datasets import load_iris

    iris = load_iris()
    lines = ["sepal_length,sepal_width,petal_length,petal_width,species"]
    for row, target in zip(iris.data, iris.target, strict=True):
        lines.append(",".join(f"{v:g}" for v in row) + f",{iris.target_names[target]}")
    return "\n".join(lines) + "\n"


def iris_world():
    """A statistician agent's session with scikit-learn's iris imported as the table ``iris``."""
    world = statistician_world()
    call(world, "action", "file.write", {"path": "iris.csv", "content": iris_csv()})
    call(world, "action", "dataset.import-csv", {"path": "iris.csv", "table": "iris"})
    return world
