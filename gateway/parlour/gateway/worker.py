"""One worker of `parlour serve-gateway --workers N` (parlour.gateway.workers starts it as
`python -m parlour.gateway.worker INDEX`): a gateway on the shared port."""

from __future__ import annotations

import sys

from parlour.gateway.config import GatewayConfig
from parlour.gateway.server import serve
from parlour.gateway.workers import worker_config
from parlour.rpc import logs, serving

if __name__ == "__main__":
    base = GatewayConfig.from_env()
    logs.configure("parlour.gateway", base.log_level)
    serving.run(serve(worker_config(base, int(sys.argv[1]))))
