"""The ``referee`` entry point: usage errors are one line and status 2, like all bad input."""

from __future__ import annotations

import pytest

from referee.cli import main


def run_main(monkeypatch: pytest.MonkeyPatch, *args: str) -> int:
    monkeypatch.setattr("sys.argv", ["referee", *args])
    try:
        main()
    except SystemExit as exit_:
        return int(exit_.code or 0)
    return 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["roll"], "roll: Missing argument 'expression'."),
        (
            ["roll", "3d6", "--seed", "x"],
            "roll: Invalid value for '--seed': 'x' is not a valid int.",
        ),
        (["nosuch"], "No such command 'nosuch'."),
        (["kingdoms", "odds", "--nope"], "kingdoms odds: No such option: --nope"),
    ],
)
def test_usage_errors_are_one_line_and_status_two(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    message: str,
) -> None:
    assert run_main(monkeypatch, *args) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("referee: error: ") and message in lines[0]


def test_no_arguments_shows_the_help(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_main(monkeypatch) == 0
    assert "roll" in capsys.readouterr().out


def test_a_command_runs_and_its_status_is_kept(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_main(monkeypatch, "roll", "3d6", "--seed", "2") == 0
    assert capsys.readouterr().out.strip().endswith("= 13")
    assert run_main(monkeypatch, "roll", "3d") == 2


def test_the_plain_roll_skips_typer_and_prints_what_the_typer_command_prints() -> None:
    """``referee roll EXPR [--seed N] [--json]`` starts without Typer (issue 11's start-up
    goal); any other spelling goes through Typer — and both print the same roll."""
    import subprocess
    import sys

    def run(*args: str) -> tuple[str, str]:
        code = (
            "import sys; from referee.cli import main; sys.argv = ['referee', *sys.argv[1:]]\n"
            "try:\n    main()\nfinally:\n"
            "    print('typer' in sys.modules, file=sys.stderr)"
        )
        done = subprocess.run(
            [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=60
        )
        return done.stdout, done.stderr.strip().splitlines()[-1]

    quick, typer_loaded = run("roll", "4d6kh3", "--seed", "5")
    assert typer_loaded == "False" and quick.startswith("4d6kh3 (")
    slow, typer_loaded = run("roll", "--seed=5", "4d6kh3")
    assert typer_loaded == "True" and slow == quick
    quick_json, _ = run("roll", "--json", "2d6", "--seed", "1")
    slow_json, _ = run("roll", "2d6", "--json", "--seed=1")
    assert quick_json == slow_json and quick_json.startswith('{"expression": "2d6"')
    bad, typer_loaded = run("roll", "3d")
    assert typer_loaded == "False" and bad == ""


def test_the_top_level_help_shown_without_loading_the_commands_is_the_apps_own() -> None:
    """``referee --help`` piped prints :data:`TOP_HELP` without importing every command's
    module; it must be word for word what the whole app prints (a command added, renamed or
    re-described makes this fail until TOP_HELP is brought up to date)."""
    import os
    import subprocess
    import sys

    from referee.cli import TOP_HELP

    env = {**os.environ, "TYPER_USE_RICH": "0"}
    code = (
        "import sys; from referee.cli import build_app\n"
        "sys.argv = ['referee', '--help']\n"
        "build_app()(prog_name='referee')"
    )
    whole = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60
    )
    assert whole.stdout == TOP_HELP
    quick = subprocess.run(
        [sys.executable, "-c", "from referee.cli import main; main()", "--help"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert quick.stdout == TOP_HELP


def test_a_games_command_loads_that_game_alone_and_a_roll_loads_none() -> None:
    """The command line finds a game's commands through the registry (``System.commands``)
    and imports a game only when one of its commands is run."""
    import subprocess
    import sys

    code = (
        "import sys; from referee.cli import main; sys.argv = ['referee', *sys.argv[1:]]\n"
        "try:\n    main()\nfinally:\n"
        "    games = sorted({m.split('.')[2] for m in sys.modules"
        " if m.startswith('referee.systems.')})\n"
        "    print('games:', ','.join(games) or 'none', file=sys.stderr)"
    )

    def loaded(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=60
        )
        return done.stderr.strip().splitlines()[-1]

    assert loaded("kingdoms", "matrix", "strike", "feint") == "games: kingdoms"
    assert loaded("kingdoms", "--help") == "games: kingdoms"
    assert loaded("roll", "3d6") == "games: none"
    assert loaded("table", "--help") == "games: none"


def test_a_game_without_commands_of_its_own_is_no_command(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from referee.core import registry

    quiet = registry.System("quiet", "A game with no commands", registry.get_system("kingdoms"))
    monkeypatch.setitem(registry._REGISTERED, "quiet", quiet)
    assert run_main(monkeypatch, "quiet", "odds") == 2
    assert "No such command 'quiet'." in capsys.readouterr().err
