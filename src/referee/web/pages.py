"""The pages and helpers of the web table (see the package's doc)."""

from __future__ import annotations

import html
import io
from importlib import resources
from typing import Any

from fastapi import Body, FastAPI, Path
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from referee.core.errors import ScenarioError
from referee.core.loader import parse_text

__all__ = ["games_with", "mount", "page", "qr_svg", "read_setup"]

#: The most values a pasted setup may hold once its aliases are expanded: a table of a
#: hundred characters is a few thousand; a few hundred bytes of aliases asking for more is
#: refused before it is expanded (``referee.core.loader``).
SETUP_VALUES = 100_000

#: Only this origin, for everything a page loads or connects to.
CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)

#: The view library the table page is drawn with (``static/vendor/README.md``): Preact, its
#: hooks and htm, vendored, no build step.
VIEW_SCRIPTS = ("vendor/preact.umd.js", "vendor/hooks.umd.js", "vendor/htm.umd.js")

#: The table page's own scripts, after the view library and the games' shared helpers
#: (``games/base.js``): its forms, its cards and panels, the page, the simulator's section.
TABLE_SCRIPTS = ("games/base.js", "table-forms.js", "table-cards.js", "table.js", "simulate.js")


def games_with(suffix: str) -> tuple[str, ...]:
    """The games that have a file ``static/games/<system><suffix>``, found from the files
    present (``base.js``, the helpers every game shares, is none).

    >>> "kingdoms" in games_with(".js") and "base" not in games_with(".js")
    True
    """
    folder = resources.files("referee.web") / "static" / "games"
    found = (f.name.removesuffix(suffix) for f in folder.iterdir() if f.name.endswith(suffix))
    return tuple(sorted(name for name in found if name != "base"))


#: The games with screens of their own (``static/games/<system>.js``): the table page lists them
#: (``data-game-scripts``) and loads its own game's only, once the seat's game is known
#: (``table.js``); a game with none is drawn with the generic panel.
GAME_SCRIPTS = games_with(".js")

#: The games with styles of their own (``static/games/<system>.css``): the table page lists them
#: (``data-game-styles``) and loads its own game's only, right after ``app.css``.
GAME_STYLES = games_with(".css")

TableId = Path(pattern=r"^[A-Za-z0-9_-]{1,64}$")


def page(
    title: str,
    body: str,
    *scripts: str,
    data: dict[str, str] | None = None,
    styles: tuple[str, ...] = (),
) -> str:
    """A whole page: the shell every page shares, ``body`` inside ``<main>``.

    >>> "<title>Home · Referee</title>" in page("Home", "<p>hi</p>", "home.js")
    True
    """
    attrs = "".join(
        f' data-{html.escape(k)}="{html.escape(v, quote=True)}"' for k, v in (data or {}).items()
    )
    links = "".join(f'\n<link rel="stylesheet" href="/static/{name}">' for name in styles)
    tags = "\n".join(f'<script src="/static/{name}" defer></script>' for name in scripts)
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>{html.escape(title)} · Referee</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/static/app.css">{links}
<script src="/static/theme.js"></script>
<script src="/static/common.js" defer></script>
{tags}
</head>
<body{attrs}>
<a class="skip" href="#main">Skip to content</a>
<header class="bar">
  <a class="brand" href="/">Referee</a>
  <button type="button" id="theme" class="ghost" aria-pressed="false">Dark theme</button>
</header>
<main id="main" tabindex="-1">
{body}
</main>
</body>
</html>
"""


HOME = """
<h1>Your tables</h1>
<section aria-labelledby="joined-h">
  <h2 id="joined-h">Joined in this browser</h2>
  <ul id="joined" class="cards"><li>Loading…</li></ul>
</section>
<section aria-labelledby="create-h">
  <h2 id="create-h">Create a table</h2>
  <form id="create" class="stack">
    <label for="c-system">Game</label>
    <select id="c-system" name="system" required></select>
    <label for="c-name">Name of the table</label>
    <input id="c-name" name="name" required maxlength="120" value="Tonight">
    <div id="c-setup" class="schema-form"></div>
    <p class="muted">…or give a setup file instead (the form above is then left aside).</p>
    <label for="c-file">Setup file (YAML: a setup, or a scenario with its setup and players)</label>
    <input id="c-file" name="file" type="file" accept=".yaml,.yml,.json,text/yaml">
    <label for="c-yaml">…or paste it</label>
    <textarea id="c-yaml" name="yaml" rows="8" spellcheck="false"></textarea>
    <button type="submit">Create the table</button>
  </form>
  <div id="create-error" class="error" role="alert"></div>
  <div id="created"></div>
</section>
"""

JOIN = """
<h1>Joining the table…</h1>
<p id="join-status" role="status">Taking your seat.</p>
"""

TABLE = """
<div id="table-app">
  <h1 id="title">Table</h1>
  <p class="muted">Loading the table…</p>
  <noscript><p>The table page needs JavaScript (served by this server, nothing else).</p></noscript>
</div>
"""


def read_setup(text: str) -> dict[str, Any]:
    """A setup file's text → ``{"system"?, "setup", "players"?}``: a scenario file gives its
    game, setup and players; anything else is the setup itself.

    >>> read_setup("system: toy\\nsetup: {a: 1}\\nplayers: {ann: [a]}\\nactions: []")
    {'system': 'toy', 'setup': {'a': 1}, 'players': {'ann': ['a']}}
    >>> read_setup("a: 1")
    {'setup': {'a': 1}}
    """
    data = parse_text(text, "setup file", max_nodes=SETUP_VALUES)
    if not isinstance(data, dict):
        raise ValueError("a setup is a mapping of names to values")
    if "setup" in data and isinstance(data["setup"], dict):
        out: dict[str, Any] = {"setup": data["setup"]}
        if "system" in data:
            out = {"system": data["system"], **out}
        if data.get("players"):
            out["players"] = data["players"]
        return out
    return {"setup": data}


def qr_svg(text: str) -> str:
    """A QR code of ``text`` as an SVG element (segno), sized by its ``viewBox``.

    >>> qr_svg("http://127.0.0.1:8000/join/x#y").startswith("<svg")
    True
    """
    import segno

    out = io.BytesIO()
    segno.make(text, error="m").save(
        out, kind="svg", xmldecl=False, svgns=True, scale=1, border=2, omitsize=True
    )
    svg = out.getvalue().decode()
    return svg.replace("<svg ", '<svg role="img" aria-label="QR code of the join link" ', 1)


def _html(text: str) -> HTMLResponse:
    return HTMLResponse(text, headers={"Content-Security-Policy": CSP, "Cache-Control": "no-store"})


def mount(app: FastAPI) -> None:
    """Add the web table's pages, helpers and static files to the server's ``app``."""
    static = resources.files("referee.web") / "static"
    app.mount("/static", StaticFiles(directory=str(static)), name="static")

    @app.get("/", include_in_schema=False)
    def home() -> HTMLResponse:
        return _html(page("Home", HOME, "schema-form.js", "home.js"))

    @app.get("/join/{table_id}", include_in_schema=False)
    def join(table_id: str = TableId) -> HTMLResponse:
        return _html(page("Joining", JOIN, "join.js", data={"table": table_id}))

    @app.get("/table/{table_id}", include_in_schema=False)
    def table(table_id: str = TableId) -> HTMLResponse:
        scripts = ("seal.js", *VIEW_SCRIPTS, *TABLE_SCRIPTS)
        data = {
            "table": table_id,
            "game-scripts": " ".join(GAME_SCRIPTS),
            "game-styles": " ".join(GAME_STYLES),
        }
        return _html(page("Table", TABLE, *scripts, data=data))

    @app.post("/web/yaml", include_in_schema=False)
    def parse_yaml(text: str = Body(embed=True, max_length=200_000)) -> JSONResponse:
        try:
            return JSONResponse(read_setup(text))
        except ScenarioError as error:
            message = " ".join(str(error).split())
            return JSONResponse(
                {"error": {"status": 422, "code": "setup", "message": message}},
                status_code=422,
            )
        except ValueError as error:
            message = " ".join(str(error).split())
            return JSONResponse(
                {"error": {"status": 422, "code": "setup", "message": f"setup file: {message}"}},
                status_code=422,
            )

    @app.post("/web/qr", include_in_schema=False)
    def qr(text: str = Body(embed=True, max_length=2000)) -> Response:
        return Response(qr_svg(text), media_type="image/svg+xml")
