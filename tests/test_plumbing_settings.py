"""Settings in one place (issue 27 item 4): every PARLOUR_* variable is read through the
pydantic-settings models of parlour.settings, which also read a child process's env."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from parlour.settings import (
    BadSetting,
    ChannelSettings,
    HostSettings,
    InternalTlsSettings,
    RulesSettings,
    load,
)
from parlour.store.retention import Retention

ROOT = Path(__file__).resolve().parent.parent
#: A direct read of a PARLOUR_ variable from the process environment.
DIRECT = re.compile(r"""(environ(\.get\(|\[)|getenv\()\s*["']PARLOUR_""")


def test_no_module_but_the_settings_reads_parlour_variables():
    """No source file outside parlour.settings reads a PARLOUR_* variable itself."""
    readers = {
        str(path.relative_to(ROOT))
        for folder in ("services", "gateway", "clients")
        for path in (ROOT / folder).rglob("*.py")
        if "tests" not in path.parts and DIRECT.search(path.read_text())
    }
    assert not readers, readers


def test_a_given_environment_is_read_instead_of_the_process_one(monkeypatch):
    """load(kind, environ) takes each value from `environ` only (a child's environment),
    defaults for the rest, even when the process environment says otherwise."""
    monkeypatch.setenv("PARLOUR_KEEPALIVE_SECONDS", "7")
    assert load(ChannelSettings).keepalive_seconds == 7
    assert load(ChannelSettings, {}).keepalive_seconds == 20
    assert load(ChannelSettings, {"PARLOUR_KEEPALIVE_SECONDS": "3"}).keepalive_seconds == 3
    monkeypatch.setenv("PARLOUR_FINISHED_RETENTION_SECONDS", "60")
    assert Retention.from_env() == Retention(60, 604_800)
    assert Retention.from_env({}) == Retention(86_400, 604_800)


def test_a_bad_given_value_names_its_variable(tmp_path):
    """A bad value in a given environment stops with the variable's name, as at start."""
    ca = tmp_path / "ca.crt"
    ca.write_text("")
    with pytest.raises(BadSetting, match="PARLOUR_INTERNAL_TLS_CERT and PARLOUR_INTERNAL_TLS_KEY"):
        load(InternalTlsSettings, {"PARLOUR_INTERNAL_TLS_CA": str(ca)})
    with pytest.raises(BadSetting, match="PARLOUR_INTERNAL_TLS_CA: .*file"):
        load(InternalTlsSettings, {"PARLOUR_INTERNAL_TLS_CA": str(tmp_path)})
    with pytest.raises(BadSetting, match="PARLOUR_INTERNAL_TLS_SERVER_NAME: .*pattern"):
        load(HostSettings, {"PARLOUR_INTERNAL_TLS_SERVER_NAME": "Rules Service"})
    with pytest.raises(BadSetting, match="PARLOUR_KEEPALIVE_SECONDS: .*number"):
        load(RulesSettings, {"PARLOUR_REDIS_URL": "redis://x", "PARLOUR_KEEPALIVE_SECONDS": "x"})
