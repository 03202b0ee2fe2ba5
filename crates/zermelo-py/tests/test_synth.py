"""zermelo.synth: the CLI's answers, controllers that pass the closed-loop check, and circuits
that py-aiger (an outside AIGER reader) parses and simulates to the specified behaviour."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import pytest

import zermelo

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
DELAY = EXAMPLES / "delay.ehoa"


def test_synth_answers_as_the_cli_does(cli: Path, tmp_path: Path) -> None:
    s = zermelo.synth(DELAY)
    assert s.realizable and s.circuit is not None
    assert (s.ands, s.latches) == (0, 1)
    run = subprocess.run([str(cli), "-q", "synth", str(DELAY)], capture_output=True, text=True)
    assert run.returncode == 10
    assert run.stdout == "REALIZABLE\n" + s.circuit.replace("zermelo.synth", f"zermelo synth {DELAY} (solver auto)")
    assert repr(zermelo.synth(DELAY, realizability=True)) == "Synthesis(realizable=True)"
    hopeless = tmp_path / "hopeless.ehoa"
    hopeless.write_text(DELAY.read_text().replace("{0}", "{1}"))
    s = zermelo.synth(hopeless, solver="zielonka")
    assert not s.realizable and s.circuit is None and s.ands is None
    circuit = tmp_path / "c.aag"
    circuit.write_text(zermelo.synth(DELAY).circuit or "")
    assert zermelo.synth_verify(DELAY, circuit) is None
    broken = tmp_path / "broken.aag"
    broken.write_text("aag 1 1 0 1 0\n2\n2\ni0 req\no0 ack\n")
    assert "rejected run" in (zermelo.synth_verify(DELAY, broken) or "")


def test_bad_specifications_raise(tmp_path: Path) -> None:
    bad = tmp_path / "bad.ehoa"
    bad.write_text(DELAY.read_text().replace("controllable-AP: 1\n", ""))
    with pytest.raises(zermelo.ParseError, match="no controllable propositions"):
        zermelo.synth(bad)
    with pytest.raises(ValueError, match="unknown solver"):
        zermelo.synth(DELAY, solver="nope")
    with pytest.raises(zermelo.ReadError):
        zermelo.synth(tmp_path / "missing.ehoa")


def test_py_aiger_simulates_the_controller() -> None:
    aiger = pytest.importorskip("aiger")
    s = zermelo.synth(DELAY)
    circuit = aiger.parse(s.circuit)
    assert set(circuit.inputs) == {"req"} and set(circuit.outputs) == {"ack"}
    rng = random.Random(45)
    reqs = [rng.random() < 0.5 for _ in range(200)]
    steps = circuit.simulate([{"req": r} for r in reqs])
    acks = [outputs["ack"] for outputs, _ in steps]
    # The specification: ack repeats req one step late (0 at the start).
    assert acks == [False] + reqs[:-1]
