"""A large bank statement is imported in the background (R3.3): the request stores it and
answers 202 at once; the job matches it with the same rules as a small one, its progress
readable by the organiser; a job delivered twice, or cut short and run again, adds nothing."""

from __future__ import annotations

from typing import Any

import boto3
import pytest

from tavla import clock
from tavla.services import statements
from tavla.store import bank as bank_store
from tests.service.conftest import STATEMENTS_BUCKET, Api
from tests.service.helpers import ORGANISER, create_player, create_tournament, register
from tests.service.payment_helpers import MAPPING, ledger_of

STATEMENTS = "/tournaments/{tournament_id}/bank-statements"


def _statement(codes: list[str], others: int) -> str:
    """Each code's entry fee, then `others` transfers that pay nothing here."""
    rows = ["Date;Amount;Description;Payer"]
    rows += [f"01/11/2026;20,00;Entry fee {code};Player {i}" for i, code in enumerate(codes)]
    rows += [f"02/11/2026;{5 + i},00;club dues {i};Member {i}" for i in range(others)]
    return "\n".join(rows)


def _field(api: Api, count: int) -> tuple[str, list[str], list[str]]:
    tid = create_tournament(api, capacity=8)
    ids, codes = [], []
    for i in range(count):
        ids.append(create_player(api, f"big-{i}"))
        codes.append(register(api, tid, f"big-{i}").body["checkin_code"])
    return tid, ids, codes


def _upload(api: Api, tid: str, content: str) -> Any:
    body = {"format": "csv", "content": content, "mapping": MAPPING}
    return api.call("POST", STATEMENTS, params={"tournament_id": tid}, user=ORGANISER, body=body)


def _progress(api: Api, tid: str, statement_id: str) -> Any:
    return api.call(
        "GET",
        STATEMENTS + "/{statement_id}",
        params={"tournament_id": tid, "statement_id": statement_id},
        user=ORGANISER,
    )


def _stored() -> list[str]:
    listed = boto3.client("s3").list_objects_v2(Bucket=STATEMENTS_BUCKET)
    return [o["Key"] for o in listed.get("Contents", [])]


def test_a_large_statement_is_queued_then_imported_by_the_job_with_its_progress(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R3.3: past the request's share the statement is stored and queued (202, nothing matched
    yet); the job imports it, progress written as it goes; delivered again it adds nothing."""
    monkeypatch.setattr(statements, "SYNC_LINES", 5)
    monkeypatch.setattr(statements, "CHUNK", 4)  # several batches of unmatched lines
    monkeypatch.setattr(statements, "WRITERS", 1)  # moto answers one call at a time
    monkeypatch.setattr(statements, "PROGRESS_EVERY", 3)
    tid, ids, codes = _field(api, 2)
    content = _statement(codes, 9)
    reply = _upload(api, tid, content)
    assert reply.status == 202, reply.body
    statement_id = reply.body["statement_id"]
    assert (reply.body["state"], reply.body["total"], reply.body["done"], reply.body["lines"]) == (
        "queued",
        11,
        0,
        [],
    )
    assert len(_stored()) == 1
    assert ledger_of(api, tid, ids[0], ORGANISER)["paid"]["amount"] == 0
    seen: list[int] = []
    real = bank_store.progress

    def watched(*args: Any, **kwargs: Any) -> None:
        seen.append(args[3])
        real(*args, **kwargs)

    monkeypatch.setattr(bank_store, "progress", watched)
    outcome = statements.run_import(tid, statement_id, clock.now())
    assert outcome["counts"] == {"matched": 2, "unmatched": 9}
    assert seen == [0, 3, 6, 9, 11]  # running from 0, every three lines, then done
    done = _progress(api, tid, statement_id)
    assert done.status == 200, done.body
    assert (done.body["state"], done.body["done"], done.body["total"]) == ("done", 11, 11)
    assert done.body["counts"] == {"matched": 2, "unmatched": 9}
    assert [ledger_of(api, tid, t, ORGANISER)["paid"]["amount"] for t in ids] == [2000, 2000]
    assert _stored() == []  # the upload goes once imported
    assert statements.run_import(tid, statement_id, clock.now()) == {"outcome": "ignored"}
    assert [ledger_of(api, tid, t, ORGANISER)["paid"]["amount"] for t in ids] == [2000, 2000]


def test_a_job_cut_short_goes_on_from_its_progress_and_counts_each_line_once(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R3.3: a job that stored lines past its last progress and stopped is run again: the
    lines it stored count as they were stored (not as duplicates), each payment once."""
    monkeypatch.setattr(statements, "SYNC_LINES", 2)
    monkeypatch.setattr(statements, "PROGRESS_EVERY", 100)  # no progress written before the cut
    monkeypatch.setattr(statements, "WRITERS", 1)
    tid, ids, codes = _field(api, 2)
    reply = _upload(api, tid, _statement(codes, 3))
    statement_id = reply.body["statement_id"]
    real = bank_store.add_unmatched

    def cut(*args: Any, **kwargs: Any) -> Any:
        real(*args, **kwargs)
        raise TimeoutError("the function's time ran out")

    monkeypatch.setattr(bank_store, "add_unmatched", cut)
    with pytest.raises(TimeoutError):
        statements.run_import(tid, statement_id, clock.now())
    assert _progress(api, tid, statement_id).body["state"] == "running"
    monkeypatch.setattr(bank_store, "add_unmatched", real)
    outcome = statements.run_import(tid, statement_id, clock.now())
    assert outcome["counts"] == {"matched": 2, "unmatched": 3}
    assert [ledger_of(api, tid, t, ORGANISER)["paid"]["amount"] for t in ids] == [2000, 2000]


def test_a_bad_large_statement_is_refused_at_once_and_an_unknown_import_is_404(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R3.3: a statement that cannot be read is a 422 in the request, nothing stored or queued;
    another tournament's organiser cannot read an import's progress."""
    monkeypatch.setattr(statements, "SYNC_LINES", 1)
    tid, _, codes = _field(api, 1)
    bad = _statement(codes, 3).replace("02/11/2026", "2026-13-45")
    reply = _upload(api, tid, bad)
    assert reply.status == 422, reply.body
    assert _stored() == []
    missing = _progress(api, tid, "nope")
    assert (missing.status, missing.error) == (404, "statement_not_found")
    create_player(api, "stranger")
    stranger = api.call(
        "GET",
        STATEMENTS + "/{statement_id}",
        params={"tournament_id": tid, "statement_id": "nope"},
        user="stranger",
    )
    assert stranger.status == 403
