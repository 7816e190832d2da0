"""What `serbench conformance` and `serbench robustness` do, behind the CLI's parsing."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from serbench.paths import state_dir
from serbench.report import untrusted as report
from serbench.store import Store
from serbench.untrusted import avro_interop, resume, run, suites
from serbench.untrusted.targets import find


def _inputs(paths: list[Path]) -> list[Path]:
    files: list[Path] = []
    for p in paths:
        files += sorted(f for f in p.rglob("*") if f.is_file()) if p.is_dir() else [p]
    return files


def _report_path(json_out: Path | None, session: str) -> Path:
    return json_out or state_dir() / "untrusted" / f"{session}.json"


def _recorder(store: Store | None, command: str, resuming: bool, err: Console) -> run.Recorder:
    """A new session, or with `--resume` the latest one of this command and its outcomes."""
    latest = resume.latest_session(store, command) if resuming and store is not None else None
    if resuming and latest is None:
        err.print(f"[yellow]no stored {command} session to resume: starting a new one[/yellow]")
    if latest is None:
        return run.Recorder(store, run.session_name(command), command)
    done = resume.stored(store, latest)
    n = sum(len(v) for v in done.values())
    err.print(f"resuming {latest}: {n} stored outcomes are not fed again")
    return run.Recorder(store, latest, command, done)


def conformance(
    store: Store | None,
    console: Console,
    err: Console,
    runners: list[str] | None,
    serializers: list[str] | None,
    case: str | None,
    json_out: Path | None,
    resuming: bool = False,
) -> int:
    targets, unavailable = find((*suites.FORMATS, "avro"), runners, serializers)
    for name, why in unavailable.items():
        err.print(f"[yellow]runner {name} unavailable:[/yellow] {why}")
    recorder = _recorder(store, "conformance", resuming, err)
    session = recorder.session
    readers = [t for t in targets if t.fmt == "avro"]
    with err.status("conformance") as status:
        only_interop = case is not None and avro_interop.wanted(case)
        suite_targets = [] if only_interop else [t for t in targets if t.fmt != "avro"]
        results = run.conformance(suite_targets, recorder, case, progress=status.update)
        if readers and avro_interop.wanted(case):
            # every Avro row writes, whichever readers were asked for
            writers = find(("avro",))[0] if runners or serializers else readers
            results += avro_interop.run(readers, writers, recorder, case, progress=status.update)
    rows = [r.as_dict() for r in results]
    report.print_conformance(rows, console)
    path = _report_path(json_out, session)
    report.write_json(path, "conformance", session, rows)
    err.print(f"JSON report: {path}; outcomes stored as session {session}")
    return 0


def robustness(
    store: Store | None,
    console: Console,
    err: Console,
    runners: list[str] | None,
    serializers: list[str] | None,
    datasets: list[str] | None,
    quick: bool,
    inputs: list[Path] | None,
    count: int | None,
    json_out: Path | None,
    resuming: bool = False,
) -> int:
    profile = run.QUICK if quick else run.STANDARD
    if count:
        profile = run.Profile(profile.name, count, profile.datasets, profile.deadline_s)
    formats = None if not inputs or datasets else suites.FORMATS
    targets, unavailable = find(formats, runners, serializers)
    for name, why in unavailable.items():
        err.print(f"[yellow]runner {name} unavailable:[/yellow] {why}")
    files = _inputs(inputs) if inputs else None
    recorder = _recorder(store, "robustness", resuming, err)
    session = recorder.session
    with err.status("robustness") as status:
        results = run.robustness(targets, recorder, profile, datasets, files, status.update)
    rows = [r.as_dict() for r in results]
    report.print_robustness(rows, console)
    path = _report_path(json_out, session)
    report.write_json(path, "robustness", session, rows)
    err.print(f"JSON report: {path}; outcomes stored as session {session}")
    return 0
