"""Which decoders take part: every serializer of the formats asked for, in every runner;
one whose runner lacks the `untrusted` capability is listed with that reason, not run."""

from __future__ import annotations

from dataclasses import dataclass, field

from serbench import datasets, runners
from serbench.runners import RunnerSpec

CAPABILITY = "untrusted"
NOT_YET = "not supported by this runner yet (no `untrusted` capability)"


@dataclass
class Target:
    runner: str
    serializer: str
    fmt: str
    spec: RunnerSpec | None
    datasets: list[str] = field(default_factory=list)  # built-in datasets it carries
    skipped: str | None = None  # why it is not run
    labels: list[str] = field(default_factory=list)
    capabilities: list[str] = field(default_factory=list)  # its runner's, from describe

    @property
    def key(self) -> str:
        return f"{self.runner}/{self.serializer}"


def find(
    formats: tuple[str, ...] | None,
    only_runners: list[str] | None = None,
    only_serializers: list[str] | None = None,
) -> tuple[list[Target], dict[str, str]]:
    """The targets, and each runner that could not be asked, with why."""
    specs = runners.discover()
    if only_runners:
        specs = {n: s for n, s in specs.items() if n in only_runners}
    describes, unavailable = runners.describe_all(specs)
    out = []
    for name, desc in describes.items():
        capable = CAPABILITY in desc.get("capabilities", [])
        for s in desc["serializers"]:
            if formats is not None and s["format"] not in formats:
                continue
            if only_serializers and s["name"] not in only_serializers:
                continue
            if "baseline" in s.get("labels", []):
                continue
            # a name serbench does not know (a runner built from another checkout) is not fed
            carried = [
                d
                for d, a in s.get("datasets", {}).items()
                if a.get("applicable") and d in datasets.DATASETS
            ]
            out.append(
                Target(
                    name,
                    s["name"],
                    s["format"],
                    specs[name],
                    carried,
                    None if capable else NOT_YET,
                    list(s.get("labels", [])),
                    list(desc.get("capabilities", [])),
                )
            )
    return out, unavailable
