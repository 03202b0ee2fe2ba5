"""Game values, as ``zermelo cgt`` gives them: Conway values of short partizan games in
CGSuite's notation, loopy games (stoppers in simplest form, each player's result with draws),
thermographs and atomic weights.

>>> from zermelo import cgt
>>> g = cgt.show("^ + *")
>>> g.value, g.outcome, g.mean, g.temperature
('^*', 'N', Fraction(0, 1), Fraction(0, 1))
>>> cgt.show("on + *").value, cgt.holds("over >= 0")
('on', True)
>>> cgt.show("on + off").value
'dud'
>>> t = cgt.thermograph("{2||1|0}")
>>> t.mean, t.temperature, t.left_wall
(Fraction(5, 4), Fraction(3, 4), ((Fraction(-1, 1), Fraction(3, 1)), (Fraction(3, 4), Fraction(5, 4))))
>>> cgt.atomic_weight("^^*")
'2'

Left is player 0 of a two-player file (:func:`value`). A malformed value is a
``ValueError`` naming the column; a value past the work limit a :class:`zermelo.TooBig`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Optional, Sequence, Tuple, Union

from ._native import cgt_atomic_weight as _atomic_weight
from ._native import cgt_show as _show
from ._native import cgt_thermograph as _thermograph
from ._native import cgt_value as _value

__all__ = ["Value", "Thermograph", "show", "holds", "value", "thermograph", "atomic_weight", "NOTATION_WORK"]

#: The default work limit of a value written in notation (sums and comparisons of games).
NOTATION_WORK = 10_000_000

_Point = Tuple[Fraction, Fraction]


@dataclass(frozen=True)
class Value:
    """What a game is worth.

    ``value`` is its canonical form: a stopper's simplest form for a loopy game, its sides
    ``"S & T"`` for a loopy game that is not a stopper (``"dud"`` for ``on & off``; ``onside``
    and ``offside`` then hold ``S`` and ``T``, else ``None``), ``None`` where the sides are not
    found (``note`` says why: a game past the size searched, or sides that are not stoppers);
    ``left_first`` and ``right_first`` are
    Left's result (``"win"``, ``"loss"`` or ``"draw"``) when Left and when Right moves first;
    ``outcome`` is ``"L"``, ``"R"``, ``"N"`` or ``"P"``, ``None`` when one of them is a draw;
    ``mean`` and ``temperature`` are given for short games.
    """

    value: Optional[str]
    outcome: Optional[str]
    left_first: str
    right_first: str
    mean: Optional[Fraction]
    temperature: Optional[Fraction]
    note: Optional[str] = None
    onside: Optional[str] = None
    offside: Optional[str] = None


@dataclass(frozen=True)
class Thermograph:
    """The thermograph of a short game: mean, temperature and the walls as ``(t, value)``
    breakpoints from ``t = -1`` (the mast stands vertically above the last point)."""

    value: str
    mean: Fraction
    temperature: Fraction
    left_wall: Tuple[_Point, ...]
    right_wall: Tuple[_Point, ...]
    svg: str = field(repr=False)


def _fraction(text: Optional[str]) -> Optional[Fraction]:
    return None if text is None else Fraction(text)


def _answer(d: dict[str, Any]) -> Value:
    return Value(
        value=d["value"],
        outcome=d["outcome"],
        left_first=d["left_first"],
        right_first=d["right_first"],
        mean=_fraction(d["mean"]),
        temperature=_fraction(d["temperature"]),
        note=d["note"],
        onside=d["onside"],
        offside=d["offside"],
    )


def show(text: str, *, max_work: int = NOTATION_WORK) -> Value:
    """Evaluates a value written in CGSuite's notation, short (``"{3||2|0}"``, ``"^ + *"``) or
    loopy (``"on"``, ``"{pass|3/2}"``, ``"a:{0||a|*}"``, sums of them)."""
    d = _show(text, max_work)
    if "holds" in d:
        raise ValueError(f"{text!r} is a comparison: use zermelo.cgt.holds")
    return _answer(d)


def holds(text: str, *, max_work: int = NOTATION_WORK) -> bool:
    """Whether a comparison of stoppers holds: ``"over >= 0"``, ``"on + * == on"`` (``>=``,
    ``<=``, ``==``, ``>``, ``<``)."""
    d = _show(text, max_work)
    if "holds" not in d:
        raise ValueError(f"{text!r} is not a comparison (write G >= H, G == H, ...)")
    return bool(d["holds"])


def value(
    path: Union[str, "os.PathLike[str]"],
    at: Union[int, Sequence[int]],
    *,
    max_memory: Optional[int] = None,
) -> Value:
    """The value of position ``at`` of a two-player file (``n m0 m1``, player 0 = Left), or of
    the sum of the positions ``at``; loopy positions get their results with draws.

    The header is checked first, as by ``zermelo cgt value``: a file declaring more positions
    and moves than fit in ``max_memory`` bytes (default: the memory available) raises
    ``zermelo.TooBig`` before anything is allocated."""
    positions = [at] if isinstance(at, int) else list(at)
    return _answer(_value(path, positions, max_memory))


def thermograph(text: str, *, max_work: int = NOTATION_WORK) -> Thermograph:
    """The thermograph of a short value written in notation."""
    d = _thermograph(text, max_work)

    def wall(points: Sequence[Tuple[str, str]]) -> Tuple[_Point, ...]:
        return tuple((Fraction(t), Fraction(v)) for t, v in points)

    return Thermograph(
        value=d["value"],
        mean=Fraction(d["mean"]),
        temperature=Fraction(d["temperature"]),
        left_wall=wall(d["left_wall"]),
        right_wall=wall(d["right_wall"]),
        svg=d["svg"],
    )


def atomic_weight(text: str, *, max_work: int = NOTATION_WORK) -> str:
    """The atomic weight of an all-small value (a ``ValueError`` for other games)."""
    return _atomic_weight(text, max_work)
