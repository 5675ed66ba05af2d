"""Shared fixtures: a real Redis server per test worker, a store, in-process gRPC servers."""

from __future__ import annotations

import os
import uuid

import pytest
from identity_helpers import Provider

from parlour.store.matchstore import MatchStore
from parlour.store.server import EmbeddedRedis


@pytest.fixture(scope="session")
def redis_url():
    """PARLOUR_REDIS_URL if set, else a real server started for this test worker."""
    configured = os.environ.get("PARLOUR_REDIS_URL")
    if configured:
        yield configured
        return
    with EmbeddedRedis() as server:
        yield server.url


@pytest.fixture
async def store(redis_url):
    """A MatchStore on the test Redis."""
    store = MatchStore.from_url(redis_url)
    yield store
    await store.close()


@pytest.fixture
def match_id():
    """A fresh match id."""
    return uuid.uuid4().hex


@pytest.fixture
def provider():
    """A test identity provider (identity_helpers.Provider), closed after the test."""
    idp = Provider()
    yield idp
    idp.close()
