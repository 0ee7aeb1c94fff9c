"""ISO 20022 camt.053 (bank-to-customer statement) XML: each booked entry a statement line.

Read with defusedxml (no entity expansion, no external references). Versions 001.02 to 001.13
share the elements read here; a line's position is its entry's position in the file.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from xml.etree.ElementTree import Element, ParseError, SubElement, tostring

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

from puzzlecomp.formats.bank.statements import StatementLine, statement_error

_NAMESPACE_PREFIX = "urn:iso:std:iso:20022:tech:xsd:camt.053."


def read_camt053(content: bytes, *, source: str) -> list[StatementLine]:
    """Every entry of every statement in the file, in the file's order."""
    try:
        root = fromstring(content)
    except (ParseError, DefusedXmlException, ValueError) as error:
        raise statement_error(source, None, "", f"not readable XML ({error})") from error
    namespace = root.tag[1:].split("}", 1)[0] if root.tag.startswith("{") else ""
    if not namespace.startswith(_NAMESPACE_PREFIX):
        raise statement_error(source, None, "Document", "not a camt.053 statement (the "
                              f"document's namespace is {namespace or 'missing'})")
    ns = {"c": namespace}
    lines: list[StatementLine] = []
    for statement in root.iterfind("c:BkToCstmrStmt/c:Stmt", ns):
        for entry in statement.iterfind("c:Ntry", ns):
            position = len(lines) + 1
            lines.append(_line(entry, position, ns, source))
    if not lines:
        raise statement_error(source, None, "Ntry", "the statement has no entries")
    return lines


def _line(entry: Element, position: int, ns: dict[str, str],
          source: str) -> StatementLine:
    amount_element = entry.find("c:Amt", ns)
    if amount_element is None or not (amount_element.text or "").strip():
        raise statement_error(source, position, "Amt", "the entry has no amount")
    try:
        amount = Decimal(amount_element.text.strip())  # type: ignore[union-attr]
    except InvalidOperation as error:
        raise statement_error(source, position, "Amt",
                              f"{amount_element.text!r} is not an amount") from error
    if not amount.is_finite() or amount < 0:
        raise statement_error(source, position, "Amt", f"{amount_element.text!r} is not an "
                              "amount")
    direction = _text(entry, "c:CdtDbtInd", ns)
    if direction not in ("CRDT", "DBIT"):
        raise statement_error(source, position, "CdtDbtInd",
                              f"{direction!r} is neither CRDT nor DBIT")
    currency = amount_element.get("Ccy", "").strip().upper()
    if len(currency) != 3:
        raise statement_error(source, position, "Amt/@Ccy", "the amount has no currency")
    details = entry.find("c:NtryDtls/c:TxDtls", ns)
    transaction = (_text(entry, "c:AcctSvcrRef", ns)
                   or (_text(details, "c:Refs/c:AcctSvcrRef", ns) if details is not None else "")
                   or _text(entry, "c:NtryRef", ns))
    if not transaction:
        raise statement_error(source, position, "AcctSvcrRef",
                              "the entry has no transaction id of the bank")
    booked = _text(entry, "c:BookgDt/c:Dt", ns) or _text(entry, "c:BookgDt/c:DtTm", ns)[:10]
    try:
        booked_on = dt.date.fromisoformat(booked) if booked else None
    except ValueError as error:
        raise statement_error(source, position, "BookgDt", f"{booked!r} is not a date") from error
    reference = payer = account = message = ""
    if details is not None:
        reference = (_text(details, "c:RmtInf/c:Strd/c:CdtrRefInf/c:Ref", ns)
                     or _text(details, "c:Refs/c:EndToEndId", ns).removeprefix("NOTPROVIDED"))
        payer = (_text(details, "c:RltdPties/c:Dbtr/c:Nm", ns)
                 or _text(details, "c:RltdPties/c:Dbtr/c:Pty/c:Nm", ns))
        account = _text(details, "c:RltdPties/c:DbtrAcct/c:Id/c:IBAN", ns)
        message = " ".join(part.text.strip() for part in details.iterfind("c:RmtInf/c:Ustrd", ns)
                           if part.text)
    return StatementLine(
        line=position, transaction=transaction, booked_on=booked_on,
        amount=amount if direction == "CRDT" else -amount, currency=currency,
        reference=reference, payer=payer, payer_account=account, message=message)


def _text(element: Element | None, path: str, ns: dict[str, str]) -> str:
    if element is None:
        return ""
    found = element.find(path, ns)
    return (found.text or "").strip() if found is not None else ""


def write_camt053(lines: Sequence[StatementLine], *, iban: str, statement_id: str) -> bytes:
    """A camt.053.001.08 statement of the lines (the demo's and the tests' bank)."""
    namespace = _NAMESPACE_PREFIX + "001.08"
    root = Element("Document", xmlns=namespace)
    statement = SubElement(SubElement(root, "BkToCstmrStmt"), "Stmt")
    SubElement(statement, "Id").text = statement_id
    SubElement(SubElement(SubElement(statement, "Acct"), "Id"), "IBAN").text = iban
    for line in lines:
        entry = SubElement(statement, "Ntry")
        SubElement(entry, "Amt", Ccy=line.currency).text = f"{abs(line.amount):.2f}"
        SubElement(entry, "CdtDbtInd").text = "CRDT" if line.amount >= 0 else "DBIT"
        SubElement(SubElement(entry, "Sts"), "Cd").text = "BOOK"
        if line.booked_on is not None:
            SubElement(SubElement(entry, "BookgDt"), "Dt").text = line.booked_on.isoformat()
        SubElement(entry, "AcctSvcrRef").text = line.transaction
        details = SubElement(SubElement(entry, "NtryDtls"), "TxDtls")
        SubElement(SubElement(details, "Refs"), "EndToEndId").text = "NOTPROVIDED"
        if line.payer:
            parties = SubElement(details, "RltdPties")
            SubElement(SubElement(parties, "Dbtr"), "Nm").text = line.payer
            if line.payer_account:
                SubElement(SubElement(SubElement(parties, "DbtrAcct"), "Id"),
                           "IBAN").text = line.payer_account
        remittance = SubElement(details, "RmtInf")
        if line.message:
            SubElement(remittance, "Ustrd").text = line.message
        if line.reference:
            SubElement(SubElement(SubElement(remittance, "Strd"), "CdtrRefInf"),
                       "Ref").text = line.reference
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + tostring(root, encoding="utf-8")
