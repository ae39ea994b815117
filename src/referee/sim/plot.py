"""Charts of whole-encounter odds (matplotlib, Agg backend): who wins, and how long it lasts.

:func:`chart` draws from the JSON of an answer (:meth:`SimulationReport.to_json`, optionally
with the exact answer beside it), so the command line and the documentation draw the same
chart from the same numbers.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["chart"]


def chart(answer: dict[str, Any], path: Path, *, title: str = "") -> None:
    """Write a PNG: each winner's chance with its 95% interval (and the exact chance where
    known, as a black tick), and how many rounds the encounters lasted."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sim = answer["simulation"]
    exact = answer.get("exact") or {}
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.4), dpi=100)
    names = list(sim["win_rates"])
    values = [sim["win_rates"][n]["value"] for n in names]
    lows = [v - sim["win_rates"][n]["low"] for n, v in zip(names, values, strict=True)]
    highs = [sim["win_rates"][n]["high"] - v for n, v in zip(names, values, strict=True)]
    left.bar(names, values, yerr=[lows, highs], capsize=4, color="#7a9cc6", label="simulated")
    exact_wins = {k: v["value"] for k, v in (exact.get("wins") or {}).items()}
    if exact.get("both_out", {}).get("value"):
        exact_wins["none"] = exact["both_out"]["value"]
    for i, name in enumerate(names):
        if name in exact_wins:
            left.hlines(exact_wins[name], i - 0.4, i + 0.4, colors="black", linewidth=2)
    left.set_ylim(0, 1)
    left.set_ylabel("chance to win")
    left.set_title("who wins (bars: 95% interval; black: exact)", fontsize=9)
    seen = {int(k): v for k, v in sim["rounds_seen"].items()}
    runs = max(1, sim["runs"])
    xs = sorted(seen)
    right.bar(xs, [seen[x] / runs for x in xs], color="#c69a7a", label="simulated")
    by_round = [p["value"] for p in exact.get("by_round", [])]
    if by_round:
        right.plot(range(1, len(by_round) + 1), by_round, "k.-", label="exact")
        right.legend(fontsize=8)
    right.set_xlabel("rounds")
    right.set_ylabel("share of encounters")
    right.set_title("how long it lasts", fontsize=9)
    fig.suptitle(title or f"{sim['system']}: {sim['conflict']} ({sim['runs']:,} runs)", fontsize=10)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
