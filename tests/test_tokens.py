"""Seat tokens as a player handles them (gateway/parlour/gateway/tokens.py)."""

from __future__ import annotations

from parlour.gateway.tokens import PREFIX, new_token, token_hash


def test_tokens_never_look_like_a_command_line_option():
    """A token starting with "-" broke `parlour replay --token TOKEN` (argparse read it as an
    option, 1 token in 64); every token now starts with the same short prefix."""
    tokens = {new_token() for _ in range(2000)}
    assert len(tokens) == 2000
    assert all(t.startswith(PREFIX) and not t.startswith("-") for t in tokens)
    assert len({token_hash(t) for t in tokens}) == 2000
