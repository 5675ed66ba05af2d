"""parlour benchmarks (not timed tests): `python -m bench.run` (see bench/README.md)."""
