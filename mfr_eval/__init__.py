"""The evaluation harness of mfr-tui: QA files, ablations, answer scoring and threshold calibration.

It drives an ``engine.Engine`` from outside: it depends on the engine, and the engine never imports it (an
import-linter contract in ``pyproject.toml``).
"""
