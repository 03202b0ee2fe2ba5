"""zermelo.cgt gives the command line's answers (`zermelo cgt show|value|sum|thermograph
--format json`): short and loopy notation, random two-player files with and without cycles,
thermographs, atomic weights; errors as Python exceptions."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path
from typing import Any, Dict, List

import pytest

import zermelo
from zermelo import cgt

from conftest import run


def cli_json(cli: Path, *args: str) -> Dict[str, Any]:
    out: Dict[str, Any] = json.loads(run(cli, "cgt", *args, "--format", "json").stdout)
    return out


def same(v: cgt.Value, d: Dict[str, Any]) -> None:
    assert v.value == d["value"]
    assert (v.onside, v.offside) == (d.get("onside"), d.get("offside"))
    assert v.outcome == d["outcome"]
    if "left_first" in d:  # loopy answers
        assert (v.left_first, v.right_first) == (d["left_first"], d["right_first"])
    else:  # short answers: the results follow from the outcome class
        assert v.mean == Fraction(d["mean"]) and v.temperature == Fraction(d["temperature"])
        assert (v.left_first == "win") == (d["outcome"] in ("L", "N"))
        assert (v.right_first == "win") == (d["outcome"] in ("L", "P"))


@pytest.mark.parametrize(
    "text", ["0", "^ + *", "{3||2|0}", "+-1 + {4|2}", "on + *", "{pass|3/2}", "a:{0||0|a}", "on + off"]
)
def test_show_matches_cli(cli: Path, text: str) -> None:
    same(cgt.show(text), cli_json(cli, "show", text))


def test_comparisons_thermographs_and_atomic_weights(cli: Path) -> None:
    assert cgt.holds("over >= 0") and not cgt.holds("over > 1/64")
    assert cgt.holds("on + * == on")
    assert not cgt.holds("over <= ^")
    for text in ["{2||1|0}", "{{3|2}|{-1|-3}}", "3/8", "^*"]:
        t, d = cgt.thermograph(text), cli_json(cli, "thermograph", text)
        assert (t.value, t.mean, t.temperature) == (d["value"], Fraction(d["mean"]), Fraction(d["temperature"]))
        assert t.left_wall == tuple((Fraction(a), Fraction(b)) for a, b in d["left_wall"])
        assert t.right_wall == tuple((Fraction(a), Fraction(b)) for a, b in d["right_wall"])
        assert t.svg.startswith("<svg ")
    assert cgt.atomic_weight("^^*") == "2"
    assert cgt.atomic_weight("{^4|v4}") == "+-2"


def random_file(rng: random.Random, n: int, loopy: bool) -> str:
    moves: List[List[str]] = [[], []]
    for u in range(n):
        for side in moves:
            for _ in range(rng.randrange(3)):
                v = rng.randrange(n) if loopy else (rng.randrange(u) if u else None)
                if v is not None:
                    side.append(f"{u} {v}")
    return f"{n} {len(moves[0])} {len(moves[1])}\n" + "".join(m + "\n" for m in moves[0] + moves[1])


def test_values_of_random_files_match_cli(cli: Path, tmp_path: Path) -> None:
    rng = random.Random(44)
    for case in range(40):
        n = 2 + rng.randrange(5)
        path = tmp_path / f"g{case}.txt"
        path.write_text(random_file(rng, n, loopy=case % 2 == 1))
        p = rng.randrange(n)
        same(cgt.value(path, p), cli_json(cli, "value", str(path), "--from", str(p)))
        at = [rng.randrange(n) for _ in range(2)]
        same(cgt.value(path, at), cli_json(cli, "sum", str(path), "--at", ",".join(map(str, at))))


def test_errors() -> None:
    with pytest.raises(ValueError, match="column 4"):
        cgt.show("{1|")
    with pytest.raises(ValueError, match="unknown name"):
        cgt.show("a:{0|b}")
    with pytest.raises(ValueError, match="all-small"):
        cgt.atomic_weight("1/2")
    with pytest.raises(zermelo.TooBig):
        cgt.show("2*30+-30*30", max_work=1000)
    with pytest.raises(ValueError, match="comparison"):
        cgt.show("over >= 0")


def test_value_checks_the_header_before_allocating(tmp_path: Path) -> None:
    """Issue 44: a two-player file of 15 bytes declaring 30 million positions is refused from
    its header (about 3.86 GiB), as `zermelo cgt value` refuses it, before anything is
    allocated; within the limit the same kind of file is valued."""
    import resource
    import time

    huge = tmp_path / "m30.txt"
    huge.write_text("30000000 1 0\n0 0\n")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.monotonic()
    with pytest.raises(zermelo.TooBig, match=r"m30\.txt: .*GiB.*but only 200 MiB is allowed by max_memory"):
        cgt.value(huge, 0, max_memory=200 << 20)
    assert time.monotonic() - started < 2
    # ru_maxrss is in KiB on Linux: the peak grew by less than 100 MiB.
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 100 << 10
    small = tmp_path / "m1.txt"
    small.write_text("1000 1 1\n0 1\n0 1\n")
    assert cgt.value(small, 0, max_memory=1 << 30).value == "*"
    assert cgt.value(small, 1).value == "0"
