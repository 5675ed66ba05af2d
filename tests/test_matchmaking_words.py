"""Issue 45: every refusal a player meets while matchmaking reads as one sentence, the same
in the terminal (refusals.py) and the web page (errors.ts), never as "REASON: …"."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from parlour.client.refusals import SENTENCES, refusal_text
from parlour.rpc.reasons import PLATFORM_REASONS

#: What a player can meet from FindMatch, CancelTicket and a matched seat.
MATCHMAKING = ("BAD_TICKET", "TICKET_NOT_FOUND", "TICKET_ALREADY_MATCHED", "PARTY_TOO_BIG",
               "SEATING_FAILED", "NOT_INVITED", "NOT_YOUR_TICKET",
               "BAD_PARTY")
WEB = Path(__file__).resolve().parent.parent / "clients/web/src/errors.ts"


@pytest.mark.parametrize("reason", MATCHMAKING)
def test_matchmaking_refusals_have_a_sentence(reason):
    web = dict(re.findall(r'^  ([A-Z_]+): "(.*)",$', WEB.read_text(), re.MULTILINE))
    assert reason in PLATFORM_REASONS
    assert reason in SENTENCES and web.get(reason) == SENTENCES[reason]
    told = refusal_text("", f"{reason}: the server's words")
    assert told == SENTENCES[reason] and reason not in told
