"""Bank statements (R3.3, R12): CSV by a saved mapping, MT940, camt.053; references normalised;
lines matched / unmatched / duplicate / underpaid / overpaid; imported twice adds nothing;
matching by hand; the payer's name kept only while a line is unmatched."""

from __future__ import annotations

from typing import Any

from tests.service.conftest import Api
from tests.service.helpers import ORGANISER, create_player, create_tournament, register
from tests.service.payment_helpers import ledger_of

STATEMENTS = "/tournaments/{tournament_id}/bank-statements"
MAPPING = {
    "value_date": "Date",
    "amount": "Amount",
    "reference": "Description",
    "payer": "Payer",
    "decimal_comma": True,
    "date_format": "%d/%m/%Y",
    "delimiter": ";",
}


def _field(api: Api, count: int = 4) -> tuple[str, dict[str, tuple[str, str]]]:
    """A tournament (fee 20.00) with `count` players: user -> (Tavla ID, check-in code)."""
    tid = create_tournament(api, capacity=8)
    players = {}
    for i in range(count):
        user = f"bank-{i}"
        tavla_id = create_player(api, user)
        players[user] = (tavla_id, register(api, tid, user).body["checkin_code"])
    return tid, players


def _upload(api: Api, tid: str, **body: Any) -> Any:
    return api.call("POST", STATEMENTS, params={"tournament_id": tid}, body=body, user=ORGANISER)


def _csv(players: dict[str, tuple[str, str]]) -> str:
    code = [c for _, c in players.values()]
    dashed = f"{code[1][:4].lower()}-{code[1][4:].lower()}"
    return "\n".join(
        [
            "Date;Amount;Description;Payer",
            f"01/11/2026;20,00;Entry fee {code[0]};Giorgos Papadopoulos",
            f"02/11/2026;15,00;ref {dashed} athens;Maria Ioannou",  # dashes, lower case: found
            f"02/11/2026;25,00;{code[2][:4]} {code[2][4:]};Nikos K",  # spaces: found
            "03/11/2026;20,00;birthday present;Eleni Unknown",
            "03/11/2026;-5,00;bank charges;",  # a debit: not an entry fee
        ]
    )


def test_a_statement_with_every_kind_of_line_imported_twice_gives_the_same_ledger(api: Api) -> None:
    """R3.3: matched, underpaid, overpaid, unmatched; the second import: all duplicates, nothing added."""
    tid, players = _field(api)
    first = _upload(api, tid, format="csv", content=_csv(players), mapping=MAPPING)
    assert first.status == 200, first.body
    assert [line["status"] for line in first.body["lines"]] == [
        "matched",
        "underpaid",
        "overpaid",
        "unmatched",
    ]
    ids = [t for t, _ in players.values()]
    assert [line["tavla_id"] for line in first.body["lines"]] == [ids[0], ids[1], ids[2], None]
    unmatched = first.body["lines"][3]
    assert (unmatched["payer"], unmatched["reference"]) == ("Eleni Unknown", "birthday present")
    assert all(line["payer"] is None for line in first.body["lines"][:3])  # R12: no name once matched
    before = [ledger_of(api, tid, t, ORGANISER) for t in ids]
    assert [lg["paid"]["amount"] for lg in before] == [2000, 1500, 2500, 0]
    assert [lg["balance"] for lg in before] == [0, -500, 500, -2000]
    again = _upload(api, tid, format="csv", content=_csv(players))  # the saved mapping
    assert again.status == 200, again.body
    assert again.body["counts"] == {"duplicate": 4}
    assert [ledger_of(api, tid, t, ORGANISER) for t in ids] == before


def test_an_unmatched_line_is_matched_by_hand_and_forgets_the_payer(api: Api) -> None:
    """R3.3, R12: the organiser names the player; the line pays them; the payer's name is gone."""
    tid, players = _field(api)
    first = _upload(api, tid, format="csv", content=_csv(players), mapping=MAPPING)
    line = first.body["lines"][3]
    tavla_id = players["bank-3"][0]
    reply = api.call(
        "POST",
        STATEMENTS + "/lines/{checksum}/match",
        params={"tournament_id": tid, "checksum": line["checksum"]},
        body={"tavla_id": tavla_id},
        user=ORGANISER,
    )
    assert reply.status == 200, reply.body
    assert (reply.body["paid"]["amount"], reply.body["balance"]) == (2000, 0)
    listed = api.call("GET", STATEMENTS + "/lines", params={"tournament_id": tid}, user=ORGANISER).body
    assert "Eleni" not in str(listed) and listed["counts"].get("unmatched", 0) == 0
    twice = api.call(
        "POST",
        STATEMENTS + "/lines/{checksum}/match",
        params={"tournament_id": tid, "checksum": line["checksum"]},
        body={"tavla_id": tavla_id},
        user=ORGANISER,
    )
    assert (twice.status, twice.error) == (404, "payment_not_found")
    assert ledger_of(api, tid, tavla_id, ORGANISER)["paid"]["amount"] == 2000


def test_mt940_lines_are_matched(api: Api) -> None:
    """R3.3: an MT940 statement (the `mt-940` package): the code in the :86: text is found."""
    tid, players = _field(api, 2)
    code = players["bank-0"][1]
    statement = "\n".join(
        [
            ":20:STARTUMSE",
            ":25:GR1601101250000000012300695",
            ":28C:00001/001",
            ":60F:C261101EUR0,00",
            ":61:2611010111CR20,00NTRFNONREF//B1",
            f":86:Entry fee {code[:4].lower()}-{code[4:]} Athens Open",
            ":61:2611020102CR15,50NTRFNONREF",
            ":86:PAPADOPOULOS GIORGOS no code",
            ":62F:C261102EUR35,50",
        ]
    )
    reply = _upload(api, tid, format="mt940", content=statement)
    assert reply.status == 200, reply.body
    assert [
        (line["status"], line["amount"]["amount"], line["value_date"]) for line in reply.body["lines"]
    ] == [
        ("matched", 2000, "2026-11-01"),
        ("unmatched", 1550, "2026-11-02"),
    ]


CAMT = """<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt>
<Ntry><Amt Ccy="EUR">20.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><ValDt><Dt>2026-11-03</Dt></ValDt>
<NtryDtls><TxDtls><RltdPties><Dbtr><Nm>Kostas Payer</Nm></Dbtr></RltdPties>
<RmtInf><Ustrd>Tavla {code}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>
<Ntry><Amt Ccy="EUR">3.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><ValDt><Dt>2026-11-03</Dt></ValDt></Ntry>
</Stmt></BkToCstmrStmt></Document>"""


def test_camt053_lines_are_matched(api: Api) -> None:
    """R3.3: a camt.053 statement: credits read, debits skipped, the code in the remittance text."""
    tid, players = _field(api, 1)
    reply = _upload(api, tid, format="camt053", content=CAMT.format(code=players["bank-0"][1]))
    assert reply.status == 200, reply.body
    [line] = reply.body["lines"]
    assert (line["status"], line["amount"]["amount"], line["payer"]) == ("matched", 2000, None)


def test_an_xml_bomb_is_refused_and_changes_nothing(api: Api) -> None:
    """camt.053 is parsed safely: entity expansion is a 422, not a hang, and nothing is stored."""
    tid, _ = _field(api, 1)
    bomb = (
        '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>'
        "<Document>&b;</Document>"
    )
    reply = _upload(api, tid, format="camt053", content=bomb)
    assert (reply.status, reply.error) == (422, "validation_error")
    assert (
        api.call("GET", STATEMENTS + "/lines", params={"tournament_id": tid}, user=ORGANISER).body["lines"]
        == []
    )


def test_a_csv_without_a_mapping_or_with_a_bad_amount_is_refused(api: Api) -> None:
    """A CSV needs its mapping the first time; '20,005' is no amount in cents: 422, nothing stored."""
    tid, players = _field(api, 3)
    assert _upload(api, tid, format="csv", content=_csv(players)).status == 422
    bad = "Date;Amount;Description;Payer\n01/11/2026;20,005;x;y"
    assert _upload(api, tid, format="csv", content=bad, mapping=MAPPING).status == 422
    assert (
        api.call("GET", STATEMENTS + "/lines", params={"tournament_id": tid}, user=ORGANISER).body["lines"]
        == []
    )
