"""A measured run from the command line's options to its stored results: the configuration
the options make, the noise probe, the progress bar, and the run to resume or reuse."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from rich.console import Console

from serbench import datasets, environment, instructions, noise, orchestrate, progress
from serbench.cluster import machine
from serbench.operations import COMPRESSED
from serbench.report.text import stretch_words
from serbench.store import Store
from serbench.timing import PROFILES, RUN_NOISE_PROBE_S


class OptionError(ValueError):
    """Options that make no run: the message says which and what is valid."""


@dataclass
class RunOptions:
    """`serbench run`'s options, as parsed (None: not given)."""

    datasets: list[str] = field(default_factory=list)
    serializers: list[str] = field(default_factory=list)
    runners: list[str] = field(default_factory=list)
    operations: list[str] = field(default_factory=list)  # empty: encode and decode
    codecs: bool = False
    scale: str | None = None
    quick: bool = False
    processes: int | None = None
    profile: str | None = None
    timeout: float | None = None
    budget: float | None = None
    precision: float | None = None
    measure: str = "time"

    def config(self) -> orchestrate.RunConfig:
        """The run's configuration; OptionError for names serbench does not know."""
        if self.quick and self.scale not in (None, "quick"):
            raise OptionError("--quick is --scale quick; give one of them")
        scale = "quick" if self.quick else (self.scale or "standard")
        if scale not in datasets.SCALES:
            raise OptionError(f"unknown scale {scale!r}; valid: {', '.join(datasets.SCALES)}")
        if self.profile not in (None, *PROFILES):
            raise OptionError(f"unknown profile {self.profile!r}; valid: {', '.join(PROFILES)}")
        config = orchestrate.RunConfig.for_scale(scale, self.processes, self.profile)
        config.datasets = list(self.datasets)
        config.serializers = list(self.serializers)
        config.runners = list(self.runners)
        ops = list(self.operations or ["encode", "decode"])
        if self.codecs:
            ops += list(COMPRESSED)
        config.operations = list(dict.fromkeys(ops))
        if self.timeout:
            config.cell_timeout = self.timeout
        config.budget_s = self.budget
        if self.precision:
            config.with_precision(self.precision)
        try:
            instructions.check(self.measure, config.runners)
        except instructions.Refused as exc:
            raise OptionError(str(exc)) from None
        config.measure = self.measure
        return config


def resumable(store: Store, run: int | None) -> tuple[int, orchestrate.RunConfig]:
    """The run to finish (``run``, or the latest) and its configuration."""
    row = store.run(run)
    if row is None:
        raise OptionError("nothing to resume: no such run")
    return int(row["id"]), orchestrate.RunConfig(**json.loads(row["config"]))


def execute(
    config: orchestrate.RunConfig,
    store: Store,
    console: Console,
    run_id: int | None = None,
    cluster: str | None = None,
) -> int:
    """Plan, probe the machine's noise (a new run), measure every cell not stored yet with a
    progress bar on ``console``, and mark the run finished; its id. ``cluster``: a Ray
    address whose nodes measure the cells (serbench.cluster)."""
    if cluster:
        try:
            from serbench.cluster import dispatch  # imports Ray: only for a cluster run
        except ImportError as exc:
            raise OptionError(
                f"--cluster needs Ray ({exc}): pip install 'serbench[cluster]'"
            ) from None
    try:
        the_plan = orchestrate.plan(config)
    except datasets.UnknownName as exc:
        raise OptionError(str(exc)) from None
    for name, reason in the_plan.unavailable.items():
        console.print(f"[yellow]runner {name} unavailable:[/yellow] {reason}")
    done = set()
    if run_id is None:
        env = environment.collect()
        if not cluster:  # a cluster's head measures nothing: its noise says nothing of the nodes'
            with console.status(f"probing this machine's noise ({RUN_NOISE_PROBE_S:.0f} s)"):
                try:
                    watched = noise.measure(seconds=RUN_NOISE_PROBE_S, cost_of=[])
                    cid = machine.class_id(machine.identity(env))
                    env["noise"] = watched.as_dict() | noise.against_record(cid, watched)
                    if env["noise"]["slow_stretch"]:
                        console.print(f"[yellow]{stretch_words(env['noise'])}[/yellow]")
                except noise.ProbeFailed as exc:  # the run learns the slow share itself
                    console.print(f"[yellow]noise probe skipped:[/yellow] {exc}")
        run_id = store.new_run(orchestrate.config_json(config), env)
    else:
        done = store.done_keys(run_id)
    for name, d in the_plan.describes.items():
        store.save_serializers(run_id, name, d)
    todo = {c.key(op) for c in the_plan.cells for op in config.operations} - done
    eta = progress.Eta(len(todo))
    with progress.bar(run_id, eta, console) as bar:
        task = bar.add_task("", total=eta.total)

        def advance(description: str, n: int, more: int = 0) -> None:
            eta.advance(n, more)  # more: tie-break processes, decided as the run goes
            bar.update(task, completed=eta.finished, total=eta.total, description=description)

        probe = (store.run(run_id) or {}).get("environment")
        slow = noise.prior_share(json.loads(probe).get("noise") or {}) if probe else None
        if cluster:
            say = bar.console.print
            dispatch.execute(config, the_plan, store, run_id, advance, done, cluster, say)
        else:
            machine.register(store, environment.collect())
            orchestrate.execute(config, the_plan, store, run_id, advance, done, slow)
        bar.update(task, completed=eta.total, description="done")
    store.finish_run(run_id)
    return run_id


def covering(store: Store, wanted: list[str], full: bool, console: Console) -> int:
    """The latest stored run with results for every wanted dataset, else a new quick (or
    full-scale) run of them."""
    for r in reversed(store.runs()):
        have = {row["dataset"] for row in store.results(r["id"])}
        if set(wanted) <= have:
            return int(r["id"])
    console.print(f"no stored run covers {', '.join(wanted)}; measuring it now")
    config = orchestrate.RunConfig.for_scale("full" if full else "quick")
    config.datasets = list(wanted)
    return execute(config, store, console)
