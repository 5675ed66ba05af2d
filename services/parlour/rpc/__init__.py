"""What every parlour server shares: errors as google.rpc.Status, serving, logs, metrics."""
