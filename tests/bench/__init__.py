"""Benchmarks: figures printed by `make bench`, never asserted in tests."""
