"""Soak: a fixed-rate mixed load for minutes, every response recorded, memory sampled
(python -m bench.soak; docs/reliability.md)."""
