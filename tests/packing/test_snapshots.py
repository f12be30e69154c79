"""Every cut of the test corpus equals its committed snapshot (see snapshots.py).

A failure shows which chunks moved; if the change is intended, refresh with
`./dev snapshots` and review the printed diff and `git diff tests/snapshots`.
"""
from __future__ import annotations

import pytest

from snapshots import SNAPSHOTS, _read, explain, render, runs

RUNS = list(runs())


def test_every_snapshot_belongs_to_a_run():
    expected = {name for name, _, _ in RUNS}
    on_disk = {str(p.relative_to(SNAPSHOTS)) for p in SNAPSHOTS.rglob("*.tsv")}
    assert on_disk == expected, f"stale: {sorted(on_disk - expected)[:5]}, missing: {sorted(expected - on_disk)[:5]}"


@pytest.mark.parametrize("name, doc, settings", RUNS, ids=[name for name, _, _ in RUNS])
def test_cuts_equal_the_snapshot(name, doc, settings):
    text = _read(doc)
    expected = (SNAPSHOTS / name).read_text(encoding="utf-8")
    got = render(text, settings)
    assert got == expected, "cuts moved (refresh with ./dev snapshots if intended):\n" + "\n".join(
        explain(name, text, expected, got)[:40]
    )


@pytest.mark.parametrize("name, doc, settings", RUNS[::7], ids=[name for name, _, _ in RUNS[::7]])
def test_the_pure_backend_gives_the_same_snapshot(name, doc, settings, monkeypatch):
    # A spread of every seventh run, since the pure backend is several times slower.
    monkeypatch.setenv("CHUNKWISE_BACKEND", "pure")
    assert render(_read(doc), settings) == (SNAPSHOTS / name).read_text(encoding="utf-8")
