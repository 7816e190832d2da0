"""The seeds' own library versions beside today's in `serbench reference`.

A runner lists an older version of a library as a version row named `name@version`
(`java/kryo@3.0.3`): the code and settings of today's `name`, another version of the
library. S1 published the versions it measured (Kryo 3.0.3, msgpack-java 0.6.12,
protobuf-java 2.6.1); S4 names none, so S1's Kryo stands for its 2014 one. Each claim of
those scenarios is checked once more with the seed's versions standing in for their labels
(the other side keeps today's row: Java serialization and a hand-written writer have no
version of their own), and that verdict is set beside today's: "held in 2016's libraries,
still holds today", "... no longer holds today", and so on.

`reference` calls this module with its own stand-ins and verdicts (it imports nothing of
`reference`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Protocol, TypeVar

from serbench.compare import VERSION_MARK


@dataclass(frozen=True)
class SeedVersions:
    """The library versions one seed measured, by the published label they stand in for."""

    era: str  # how a verdict names them: "held in 2016's libraries"
    versions: dict[str, str]


SEEDS: dict[str, SeedVersions] = {
    "S1": SeedVersions(
        "2016's libraries",
        {"MessagePack": "0.6.12", "Protocol Buffers": "2.6.1", "Kryo": "3.0.3"},
    ),
    "S4": SeedVersions(
        "S1's Kryo 3.0.3",
        {"Kryo": "3.0.3", "Kryo + Deflate": "3.0.3"},
    ),
}


def stand_ins(scenario: str, today: Mapping[str, Sequence[str]]) -> dict[str, list[str]] | None:
    """The stand-ins on the seed's versions: a label with a seed version is stood in for by
    that version of today's stand-ins, in the same order (`kryo` -> `kryo@3.0.3`); other
    labels keep today's. None when the seed measured no versions this module knows."""
    seed = SEEDS.get(scenario)
    if seed is None:
        return None
    out = {label: list(names) for label, names in today.items()}
    for label, version in seed.versions.items():
        out[label] = [f"{name}{VERSION_MARK}{version}" for name in today.get(label, [])]
    return out


class Verdictlike(Protocol):
    __dataclass_fields__: ClassVar[dict[str, Any]]
    claim: str
    runner: str
    verdict: str
    evidence: str


V = TypeVar("V", bound=Verdictlike)


def then_and_now(then: str, now: str | None, era: str) -> str:
    """A verdict on the seed's versions beside today's, in words."""
    if now is None:
        return f"{then} in {era}; today's rows not measured"
    if {then, now} & {"undecided", "not measured"}:
        return f"{then} in {era}, {now} today"
    if then == "holds":
        return f"held in {era}, {'still holds' if now == 'holds' else 'no longer holds'} today"
    if now in ("holds", then):
        return f"did not hold in {era} ({then}), {'holds today' if now == 'holds' else 'nor today'}"
    return f"{then} in {era}, {now} today"


def beside(scenario: str, today: list[V], seed: list[V]) -> list[V]:
    """Today's verdicts, each followed by its verdict on the seed's versions where one of the
    claim's rows is a version row (others repeat today's verdict on the same rows). The seed's
    verdict is labelled with the era in its runner, and its evidence ends with the two
    verdicts in words."""
    era = SEEDS[scenario].era
    now = {(v.claim, v.runner): v for v in today}
    then: dict[tuple[str, str], V] = {}
    for v in seed:
        if VERSION_MARK in v.evidence:
            then[(v.claim, v.runner)] = v

    def labelled(v: V) -> V:
        current = now.get((v.claim, v.runner))
        words = then_and_now(v.verdict, current.verdict if current else None, era)
        return replace(v, runner=f"{v.runner}, {era}", evidence=f"{v.evidence}; {words}")

    out: list[V] = []
    for v in today:
        out.append(v)
        old = then.pop((v.claim, v.runner), None)
        if old is not None:
            out.append(labelled(old))
    return out + [labelled(v) for v in then.values()]
