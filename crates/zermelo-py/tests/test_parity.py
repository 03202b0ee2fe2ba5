"""zermelo.parity: arrays and PGSolver files, both solvers, the verifier, the same answers as
`zermelo parity`."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import zermelo
from zermelo import parity

from conftest import run


def test_small_game_by_hand() -> None:
    # Even owns 0 (priority 2); 1 and 2 are Odd's (priorities 1, 3). Even avoids 3 by choosing 1.
    a = parity.Arena([[0, 1], [0, 2], [1, 0], [2, 0]], owner=[0, 1, 1], priority=[2, 1, 3])
    assert (a.vertex_count, a.edge_count, len(a)) == (3, 4, 3)
    assert a.owner.tolist() == [0, 1, 1] and a.priority.tolist() == [2, 1, 3]
    assert repr(a) == "Arena(vertices=3, edges=4, max_priority=3)"
    for solver in ("pp", "zielonka"):
        s = parity.solve(a, solver=solver)
        assert s.winner.tolist() == [0, 0, 0] and s.strategy.tolist() == [1, -1, -1]
        assert s.counts == (3, 0)
        s.verify()
    from_arrays = parity.solve(np.array([[0, 1], [0, 2], [1, 0], [2, 0]]), [0, 1, 1], [2, 1, 3])
    assert from_arrays.winner.tolist() == [0, 0, 0] and "vertices=3" in repr(from_arrays)
    with pytest.raises(TypeError, match="both"):
        parity.solve([[0, 0]], owner=[0])
    parity.verify(a, [0, 0, 0], [1, -1, -1])
    with pytest.raises(zermelo.VerifyError):
        parity.verify(a, [0, 0, 0], [2, -1, -1])
    with pytest.raises(zermelo.VerifyError):
        parity.verify(a, [1, 1, 1], [-1, 0, 0])
    with pytest.raises(ValueError, match="solver"):
        parity.solve(a, solver="magic")


def test_arena_errors() -> None:
    with pytest.raises(zermelo.GraphError, match="no successor"):
        parity.Arena([[0, 1]], owner=[0, 1], priority=[0, 0])
    with pytest.raises(ValueError, match="owner"):
        parity.Arena([[0, 0]], owner=[2], priority=[0])
    with pytest.raises(zermelo.GraphError):
        parity.Arena([[0, 0]], owner=[0, 1], priority=[0])
    with pytest.raises(TypeError):
        parity.Arena([[0, 0]], owner=[0.5], priority=[0])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        parity.solve(42)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", range(4))
def test_random_games_match_cli(cli: Path, tmp_path: Path, seed: int) -> None:
    game = tmp_path / "g.pg"
    run(cli, "gen", "parity", "random", "--vertices", str(200 + 300 * seed), "--seed", str(seed), "-o", str(game), "-q")
    for solver in parity.SOLVERS:
        want = json.loads(run(cli, "parity", str(game), "--solver", solver, "--format", "json", "-q").stdout)
        s = parity.solve(game, solver=solver)
        assert s.winner.tolist() == want["winner"]
        assert s.strategy.tolist() == [-1 if m is None else m for m in want["strategy"]]
        parity.verify(game, s.winner, s.strategy)
        assert parity.solve(parity.load(game), solver=solver, scc=True).winner.tolist() == want["winner"]


def test_every_cli_solver_has_a_python_name(cli: Path, tmp_path: Path) -> None:
    """The command line's --solver choices (its error message lists them) and its default are
    the Python package's, both read from the library's registry: a solver added to one and not
    the other fails here."""
    game = tmp_path / "g.pg"
    game.write_text("parity 0;\n0 0 0 0;\n")
    refused = run(cli, "parity", str(game), "--solver", "no-such-solver", check=False)
    assert refused.returncode == 2
    listed = refused.stderr.split("expected one of ", 1)[1].splitlines()[0]
    assert tuple(name.strip() for name in listed.split(",")) == parity.SOLVERS
    help_text = run(cli, "parity", "--help").stdout
    assert f"[default: {parity.DEFAULT_SOLVER}]" in help_text
    # The default is what the Python package runs when no solver is named.
    a = parity.Arena([[0, 0]], owner=[0], priority=[0])
    assert repr(parity.solve(a)) == repr(parity.solve(a, solver=parity.DEFAULT_SOLVER))
    with pytest.raises(ValueError, match="expected one of " + ", ".join(parity.SOLVERS)):
        parity.solve(a, solver="no-such-solver")


def test_load_reads_extended_hoa_as_the_cli_does(cli: Path, tmp_path: Path) -> None:
    # The controller copies the input to the output: realizable, the start is won by Even.
    spec = tmp_path / "copy.ehoa"
    spec.write_text(
        'HOA: v1\nStates: 1\nStart: 0\nAP: 2 "i" "o"\ncontrollable-AP: 1\n'
        "acc-name: parity max even 2\nAcceptance: 2 Fin(1) & Inf(0)\n--BODY--\nState: 0\n"
        "[0&1 | !0&!1] 0 {0}\n[0&!1 | !0&1] 0 {1}\n--END--\n"
    )
    want = json.loads(run(cli, "parity", str(spec), "--format", "json", "-q").stdout)
    game = parity.load(spec)
    assert game.start is not None
    s = parity.solve(spec)
    assert s.winner.tolist() == want["winner"] and s.winner[game.start] == 0
    with pytest.raises(zermelo.ParseError, match="bad.ehoa"):
        bad = tmp_path / "bad.ehoa"
        bad.write_text(spec.read_text().replace("] 0 {1}", "] 3 {1}"))
        parity.load(bad)


def test_bad_pgsolver_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pg"
    bad.write_text("parity 1;\n0 2 0 0 \"x\";\nnonsense\n")
    with pytest.raises(zermelo.ParseError) as e:
        parity.load(bad)
    assert e.value.line is not None
    with pytest.raises(zermelo.ReadError):
        parity.solve(tmp_path / "missing.pg")
