"""axe-core (Deque's accessibility engine, vendored under ``vendor/axe-core``) run in a
Playwright page against WCAG 2.1 A and AA, with its violations formatted for an assert message.

Our pages' Content Security Policy allows scripts from their own origin only (``script-src
'self'``), so ``page.add_script_tag(path=...)``, which inlines the file, is refused. The script
is instead served at a path of the page's own origin through ``context.route`` (the request
never reaches the server) and added by URL: the pages are checked under their real policy.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
#: The path axe is served at, on the origin of the page under test (routed, never served).
AXE_PATH = "/__tests__/axe.min.js"
#: WCAG 2.1, levels A and AA (axe's tags).
WCAG21_AA = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa")


def serve_axe(context: Any) -> None:
    """Answer ``AXE_PATH`` on any origin in ``context`` with the vendored axe-core."""
    body = AXE.read_bytes()
    context.route(
        f"**{AXE_PATH}",
        lambda route: route.fulfill(
            status=200, body=body, headers={"Content-Type": "text/javascript"}
        ),
    )


def violations(page: Any) -> list[dict[str, Any]]:
    """axe's WCAG 2.1 A/AA violations on ``page`` now: ``[{id, impact, help, nodes: [{target,
    summary}]}]`` (its context must have had :func:`serve_axe`)."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(url=AXE_PATH)
        page.wait_for_function("() => typeof window.axe === 'object'")
    found: list[dict[str, Any]] = page.evaluate(
        """async (tags) => {
            const result = await axe.run(document, {runOnly: {type: "tag", values: tags}});
            return result.violations.map(v => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map(n => ({target: n.target.join(" "), summary: n.failureSummary})),
            }));
        }""",
        list(WCAG21_AA),
    )
    return found


def report(found: list[dict[str, Any]], where: str = "") -> str:
    """Violations as lines a person reads: the rule, how bad, what it asks, then each node's
    selector and axe's summary of what is wrong there.

    >>> node = {"target": "#x", "summary": "Fix any of the following:\\n  no label"}
    >>> found = [{"id": "label", "impact": "critical", "help": "Label it", "nodes": [node]}]
    >>> print(report(found, "Home"))
    Home: 1 accessibility violation(s)
    - label (critical): Label it
        #x: no label
    """
    if not found:
        return ""
    lines = [f"{where}: {len(found)} accessibility violation(s)" if where else ""]
    for v in found:
        lines.append(f"- {v['id']} ({v['impact']}): {v['help']}")
        for node in v["nodes"][:8]:
            why = " ".join(
                line.strip() for line in str(node["summary"] or "").splitlines()[1:] if line.strip()
            )
            lines.append(f"    {node['target']}: {why}")
        if len(v["nodes"]) > 8:
            lines.append(f"    … and {len(v['nodes']) - 8} more")
    return "\n".join(line for line in lines if line)
