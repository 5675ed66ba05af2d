"""Shared fixtures: the embedded Redis server and the playout count."""

from __future__ import annotations

import os

PLAYOUTS = int(os.environ.get("PARLOUR_PLAYOUTS", "1000"))
