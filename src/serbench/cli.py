"""The `serbench` command line."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from serbench import (
    baseline,
    builds,
    calibrate,
    compare,
    crosscheck,
    datasets,
    noise,
    reference,
    report,
    runners,
    runs,
    transport,
    userdata,
)
from serbench.cluster import ClusterError, machine
from serbench.paths import default_db
from serbench.report import compare as compare_report
from serbench.report import formats, interop, listings, reference_view
from serbench.runners import RunnerSpec
from serbench.store import Store, StoreError
from serbench.timing import (
    CALIBRATE_ROUNDS,
    CALIBRATE_SAMPLE_NS,
    CALIBRATE_SAMPLES,
    NOISE_PROBE_S,
    TRANSPORT_REPETITIONS,
)
from serbench.userdata.register import is_current, stem_name

app = typer.Typer(
    help="serbench: serializer benchmarks that check the data first.",
    no_args_is_help=True,
    add_completion=False,
)
# Wide tables stay readable when piped into a file or a CI log.
console = Console() if sys.stdout.isatty() else Console(width=180)
err = Console(stderr=True)

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        help="results database: a SQLite file or postgresql://user@host/db "
        "(default $SERBENCH_DB or .serbench/results.sqlite)",
    ),
]
PoolOption = Annotated[
    bool,
    typer.Option(
        "--pool-machines",
        help="pool results measured on different machine classes (refused by default)",
    ),
]


def _positive(value: float | None) -> float | None:
    """An option's check that it is > 0, when parsed (typer's min= is a closed bound)."""
    if value is not None and value <= 0:
        raise typer.BadParameter("Input should be greater than 0")
    return value


_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|m|h)?\s*$")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600}


def _duration(value: str | None) -> float | None:
    """--budget: 90s, 10m, 1.5h or plain seconds, > 0."""
    if value is None:
        return None
    match = _DURATION.match(value)
    if not match or float(match[1]) <= 0:
        raise typer.BadParameter(f"{value!r} is not a time: give e.g. 90s, 10m or 1.5h")
    return float(match[1]) * _UNIT_SECONDS[match[2] or "s"]


def _fraction(value: str | None) -> float | None:
    """--precision: 2% or 0.02, between 0 and 50%."""
    if value is None:
        return None
    text = value.strip()
    try:
        number = float(text.rstrip("%")) / (100 if text.endswith("%") else 1)
    except ValueError:
        number = -1.0
    if not 0 < number <= 0.5:
        raise typer.BadParameter(f"{value!r} is not a precision: give e.g. 2% or 0.02")
    return number


def _store(db: str | None) -> Store:
    try:
        return Store(db or default_db())
    except StoreError as exc:
        _fail(str(exc))


def _fail(message: str) -> None:
    err.print(f"[red]error:[/red] {message}")
    raise typer.Exit(2)


def _register(
    name: str,
    file: Path,
    as_: str | None,
    types: Path | None,
    sample: int | None,
    runner: list[str] | None = None,
) -> None:
    """Register the file, then rebuild the runners whose typed models cover user datasets
    (only the named ones, when named)."""
    with err.status(f"registering {file}"):
        try:
            entry = userdata.add(name, file, as_=as_, types_file=types, sample=sample)
        except (userdata.UserDataError, ValueError, OSError) as exc:
            _fail(str(exc))
    listings.print_registration(entry, err)
    try:
        specs = builds.typed_model(runner)
    except datasets.UnknownName as exc:
        _fail(str(exc))
    _build(specs, err, dataset=name)


def _build(specs: list[RunnerSpec], out: Console, dataset: str | None = None) -> bool:
    """Build the runners (builds.AT_ONCE at a time), printing how long each took as it
    finishes; whether every build succeeded."""
    ok, left = True, [s.name for s in specs]
    with out.status(f"building {', '.join(left)}") as status:
        for built in builds.build_all(specs):
            listings.print_build(built, out, dataset)
            ok = ok and built.error is None
            left.remove(built.runner)
            status.update(f"building {', '.join(left)}")
    return ok


datasets_app = typer.Typer(
    help="Built-in and user datasets: list (default), add, remove.",
    invoke_without_command=True,
)
app.add_typer(datasets_app, name="datasets")


@datasets_app.callback()
def datasets_cmd(
    ctx: typer.Context,
    scale: Annotated[str, typer.Option(help="quick, standard or full")] = "full",
    write: Annotated[bool, typer.Option(help="also write the canonical files")] = False,
) -> None:
    """The datasets: messages, records, canonical size and sha256 (user ones marked)."""
    if ctx.invoked_subcommand is not None:
        return
    if scale not in datasets.SCALES:
        _fail(f"unknown scale {scale!r}; valid: {', '.join(datasets.SCALES)}")
    listings.print_datasets(scale, write, console)


AsOption = Annotated[
    str | None,
    typer.Option(
        "--as",
        help="document (one message; .json default) or stream (one message "
        "per record; .jsonl and .csv default)",
    ),
]
TypesOption = Annotated[
    Path | None, typer.Option("--types", help="a types.json to use instead of inferring one")
]
SampleOption = Annotated[
    int | None,
    typer.Option("--sample", min=1, help="keep N records (evenly spaced, deterministic)"),
]


@datasets_app.command("add")
def datasets_add(
    name: Annotated[str, typer.Argument(help="the dataset's name for -d")],
    file: Annotated[Path, typer.Argument(help=".json, .jsonl/.ndjson or .csv")],
    as_: AsOption = None,
    types: TypesOption = None,
    sample: SampleOption = None,
    runner: Annotated[
        list[str] | None,
        typer.Option("--runner", "-r", help="rebuild only these runners' typed models"),
    ] = None,
) -> None:
    """Register FILE as dataset NAME: canonical file, inferred types and schemas; then rebuild
    the runners whose typed models cover user datasets (runner.json "typed_model")."""
    _register(name, file, as_, types, sample, runner)


@datasets_app.command("remove")
def datasets_remove(name: Annotated[str, typer.Argument()]) -> None:
    """Delete a user dataset (its canonical file, types and schemas)."""
    try:
        userdata.remove(name)
    except userdata.UnknownUserDataset as exc:
        _fail(str(exc))
    console.print(f"removed user dataset {name}")


def _data_option(
    file: Path, as_: str | None, types: Path | None, sample: int | None, runner: list[str]
) -> str:
    """`run --data FILE`: registered under the file's stem, again only if it (or serbench's
    schema generator) changed; only the run's runners (`-r`) rebuild their typed models."""
    name = stem_name(file)
    if is_current(name, file, as_, types, sample):
        err.print(f"user dataset {name} is up to date with {file}")
    else:
        _register(name, file, as_, types, sample, runner)
    return name


@app.command("runners")
def runners_cmd(
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="list serializers")] = True,
) -> None:
    """Runners found, their runtimes and serializers (format, library, version, labels)."""
    for name, spec in runners.discover().items():
        try:
            d = runners.describe(spec)
        except runners.RunnerUnavailable as exc:
            console.print(f"[bold]{name}[/bold] [red]unavailable[/red]: {exc}")
            continue
        listings.print_runner(name, spec.language, d, verbose, console)


app.command("list", help="Alias of `runners`.")(runners_cmd)


@app.command("build")
def build_cmd(
    runner: Annotated[list[str] | None, typer.Option("--runner", "-r")] = None,
) -> None:
    """Build the runners (each with its own toolchain); a failed build is reported, not fatal."""
    try:
        specs = builds.selected(list(runner or []))
    except datasets.UnknownName as exc:
        _fail(str(exc))
    if not _build(specs, console):
        raise typer.Exit(1)


@app.command("run")
def run_cmd(
    dataset: Annotated[list[str] | None, typer.Option("--dataset", "-d")] = None,
    serializer: Annotated[
        list[str] | None,
        typer.Option("--serializer", "-s", help="name or runner/name, globs allowed"),
    ] = None,
    runner: Annotated[list[str] | None, typer.Option("--runner", "-r")] = None,
    operation: Annotated[
        list[str] | None,
        typer.Option(
            "--operation", "-o", help="encode, decode, encode+zlib, zlib+decode, ... (zstd, lz4)"
        ),
    ] = None,
    codecs: Annotated[
        bool, typer.Option(help="add encode+c / c+decode for zlib, zstd, lz4")
    ] = False,
    scale: Annotated[
        str | None,
        typer.Option(help="dataset sizes: quick, standard (default) or full (the seeds' sizes)"),
    ] = None,
    quick: Annotated[
        bool,
        typer.Option(
            help="small datasets, short sampling, two processes per runner x dataset"
            " (a third where they disagree)"
        ),
    ] = False,
    processes: Annotated[
        int | None,
        typer.Option(min=1, help="fresh processes (rounds) per cell; default: quick 2, standard 3"),
    ] = None,
    profile: Annotated[
        str | None,
        typer.Option(help="timing profile, quick or standard; default: the scale's own"),
    ] = None,
    timeout: Annotated[
        float | None, typer.Option(callback=_positive, help="seconds a cell may go silent")
    ] = None,
    resume: Annotated[bool, typer.Option(help="finish the latest (or --run) run")] = False,
    run: Annotated[int | None, typer.Option("--run", min=1, help="run id for --resume")] = None,
    report_path: Annotated[
        Path | None, typer.Option("--report", help="write a Markdown report")
    ] = None,
    data: Annotated[
        Path | None,
        typer.Option(
            "--data", help="register FILE (.json, .jsonl, .csv) under its stem and run it"
        ),
    ] = None,
    as_: AsOption = None,
    types: TypesOption = None,
    sample: SampleOption = None,
    budget: Annotated[
        float | None,
        typer.Option(
            parser=_duration,
            metavar="TIME",
            help="fit the run into TIME (90s, 10m, 1.5h): each block measures for its share "
            "of the time left; what every cell reached is in the summary",
        ),
    ] = None,
    precision: Annotated[
        float | None,
        typer.Option(
            parser=_fraction,
            metavar="PCT",
            help="sample every cell until its headline's 95% interval is within PCT (2% or "
            "0.02) of it, within 4x the profile's slices and time",
        ),
    ] = None,
    measure: Annotated[
        str,
        typer.Option(
            help="time, or instructions per operation counted under valgrind's callgrind "
            "(C++, Rust, Go, Python; steady on a shared CI machine; see docs/method.md)"
        ),
    ] = "time",
    cluster: Annotated[
        str | None,
        typer.Option(
            help="measure on a Ray cluster's nodes: ray://HOST:PORT, HOST:PORT or auto "
            "(needs serbench[cluster]; see the README, running across machines)"
        ),
    ] = None,
    db: DbOption = None,
) -> None:
    """Run the matrix; every finished cell is stored at once."""
    if data is not None:
        dataset = [*(dataset or []), _data_option(data, as_, types, sample, runner or [])]
    options = runs.RunOptions(
        datasets=list(dataset or []),
        serializers=list(serializer or []),
        runners=list(runner or []),
        operations=list(operation or []),
        codecs=codecs,
        scale=scale,
        quick=quick,
        processes=processes,
        profile=profile,
        timeout=timeout,
        budget=budget,
        precision=precision,
        measure=measure,
    )
    try:
        config = None if resume else options.config()
        store = _store(db)
        run_id = None
        if config is None:
            run_id, config = runs.resumable(store, run)
            console.print(f"resuming run {run_id}")
        run_id = runs.execute(config, store, err, run_id, cluster)
    except (runs.OptionError, ClusterError) as exc:
        _fail(str(exc))
    rep = report.build(store, run_id)
    report.print_summary(rep, console)
    if report_path:
        report_path.write_text(report.markdown(rep))
        console.print(f"report written to {report_path}")


@app.command("report")
def report_cmd(
    run: Annotated[int | None, typer.Argument(min=1, help="run id (default: the latest)")] = None,
    fmt: Annotated[
        str,
        typer.Option("--format", "-f", help="table, md, html, json, bencher or benchstat"),
    ] = "table",
    output: Annotated[Path | None, typer.Option("--output", "-o")] = None,
    pool_machines: PoolOption = False,
    db: DbOption = None,
) -> None:
    """Per dataset: times with 95% CI and minimum, bytes, compressed bytes, allocations, check."""
    if fmt not in formats.FORMATS:
        _fail(f"unknown format {fmt!r}; valid: {', '.join(formats.FORMATS)}")
    try:
        store = _store(db)
        machine.check(store, [run], pool_machines)
        rep = report.build(store, run)
    except (LookupError, machine.MixedMachines) as exc:
        _fail(str(exc))
    if fmt == "table" and output is None:
        report.print_tables(rep, console)
        return
    text = formats.WRITTEN[fmt](rep)
    if output:
        output.write_text(text)
        console.print(f"written to {output}")
    else:
        sys.stdout.write(text + "\n")


@app.command("compare")
def compare_cmd(
    a: Annotated[str, typer.Argument(help="A, the reference: run id, baseline name or latest")],
    b: Annotated[str, typer.Argument(help="B: run id, baseline name or latest")] = "latest",
    fail_above: Annotated[
        float | None,
        typer.Option(
            min=0, help="exit 1 if a cell of B is significantly slower by more than PCT %"
        ),
    ] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help="table, md or json")] = "table",
    versions: Annotated[
        bool,
        typer.Option(
            "--versions", help="within run A: each NAME@VERSION row against today's row NAME"
        ),
    ] = False,
    pool_machines: PoolOption = False,
    db: DbOption = None,
) -> None:
    """Per cell operation: B / A with its 95% interval, p and a verdict (docs/method.md)."""
    try:
        store = _store(db)
        refs = [a] if versions else [a, b]
        machine.check(store, [baseline.resolve(r, store.location) for r in refs], pool_machines)
        if versions:
            result = compare.load_versions(store, a, store.location)
        else:
            result = compare.load(store, a, b, store.location)  # no password in baselines
        compare_report.show(result, fmt, console)
    except (LookupError, ValueError) as exc:
        _fail(str(exc))
    if fail_above is not None and compare_report.gate(result, fail_above, err):
        raise typer.Exit(1)


baseline_app = typer.Typer(help="Named baselines for `serbench compare`.")
app.add_typer(baseline_app, name="baseline")


@baseline_app.command("save")
def baseline_save(
    name: Annotated[str, typer.Argument(help="the baseline's name, e.g. main")],
    run: Annotated[int | None, typer.Argument(min=1, help="run id (default: the latest)")] = None,
    db: DbOption = None,
) -> None:
    """Name a stored run, to compare later runs against it: `serbench compare NAME`."""
    try:
        store = _store(db)
        run_id = baseline.save(store, store.location, name, run)
    except (LookupError, ValueError) as exc:
        _fail(str(exc))
    console.print(f"baseline {name} = run {run_id}")


@baseline_app.command("list")
def baseline_list() -> None:
    """The saved baselines: name, run id, database."""
    for name, where in baseline.saved().items():
        console.print(f"{name}: run {where['run']} of {where['db']}")


@app.command("reference")
def reference_cmd(
    scenario: Annotated[str, typer.Argument(help="S1, S2, S3, S4 or S5")],
    run: Annotated[int | None, typer.Option("--run", min=1, help="use this run's results")] = None,
    full: Annotated[
        bool, typer.Option(help="measure at the seeds' sizes when a run is needed")
    ] = False,
    pool_machines: PoolOption = False,
    db: DbOption = None,
) -> None:
    """The seed's published table beside this machine's numbers, each claim checked."""
    key = scenario.upper()
    if key not in reference.SCENARIOS:
        _fail(f"unknown scenario {scenario!r}; valid: {', '.join(reference.SCENARIOS)}")
    store = _store(db)
    try:
        run_id = run or runs.covering(store, reference.SCENARIOS[key].datasets, full, err)
        machine.check(store, [run_id], pool_machines)
    except (runs.OptionError, machine.MixedMachines) as exc:
        _fail(str(exc))
    reference_view.print_reference(key, report.build(store, run_id), console)
    if key == "S3":
        listings.print_stored_transfers(store.transfers("one-mb-dict"), console)


@app.command("transport")
def transport_cmd(
    dataset: Annotated[str, typer.Option("--dataset", "-d")] = "one-mb-dict",
    pair: Annotated[
        list[str] | None,
        typer.Option(
            "--pair",
            help="SENDER:RECEIVER as runner/serializer; default: every "
            "serializer of every runner with the transport capability, to itself",
        ),
    ] = None,
    repetitions: Annotated[
        int, typer.Option(min=1, help="timed frames (the seed used 5)")
    ] = TRANSPORT_REPETITIONS,
    scale: Annotated[str, typer.Option(help="dataset scale")] = "standard",
    db: DbOption = None,
) -> None:
    """S3's real transport: encode, send over loopback TCP, receive, decode, check."""
    try:
        transfers = transport.run(_store(db), dataset, list(pair or []), scale, repetitions)
    except (datasets.UnknownName, transport.BadPair) as exc:
        _fail(str(exc))
    title = f"{dataset} over loopback TCP, {repetitions} frames"
    listings.print_transfers(transfers, title, console)


@app.command("crosscheck")
def crosscheck_cmd(
    dataset: Annotated[list[str] | None, typer.Option("--dataset", "-d")] = None,
    scale: Annotated[str, typer.Option(help="dataset scale")] = "quick",
    json_out: Annotated[Path | None, typer.Option("--json", help="JSON report path")] = None,
) -> None:
    """Bytes written by each runner's libraries, read back by the other runners' libraries,
    grouped by the wire conventions the libraries declare."""
    try:
        with console.status("writing and reading back"):
            outcomes, unavailable = crosscheck.check(list(dataset or []), scale)
    except datasets.UnknownName as exc:
        _fail(str(exc))
    for name, reason in unavailable.items():
        err.print(f"[yellow]runner {name} unavailable:[/yellow] {reason}")
    path = crosscheck.write_json(outcomes, json_out)
    interop.print_crosscheck(json.loads(path.read_text()), console)
    err.print(f"JSON report: {path}")


@app.command("noise")
def noise_cmd(
    seconds: Annotated[
        float, typer.Option(callback=_positive, help="how long to watch the machine")
    ] = NOISE_PROBE_S,
) -> None:
    """This machine's noise now: fast and slow phases, their length, each runtime's cost of a
    timed sample, and the precision a standard run can expect."""
    try:
        with console.status(f"timing a fixed workload for {seconds:.0f} s"):
            n = noise.measure(seconds)
    except noise.ProbeFailed as exc:
        _fail(str(exc))
        return
    report.print_noise(n.as_dict(), console)


@app.command("calibrate")
def calibrate_cmd(
    runner: Annotated[str, typer.Option("--runner", "-r")],
    serializer: Annotated[str | None, typer.Option("--serializer", "-s")] = None,
    dataset: Annotated[str | None, typer.Option("--dataset", "-d")] = None,
    operation: Annotated[str | None, typer.Option("--operation", "-o")] = None,
    rounds: Annotated[int, typer.Option(min=1, help="rounds of both tools")] = CALIBRATE_ROUNDS,
    samples: Annotated[
        int, typer.Option(min=1, help="samples per tool, cell and round")
    ] = CALIBRATE_SAMPLES,
    sample_ms: Annotated[
        float, typer.Option(callback=_positive, help="length of one sample")
    ] = CALIBRATE_SAMPLE_NS / 1e6,
    scale: Annotated[str, typer.Option(help="dataset scale")] = "quick",
    fmt: Annotated[str, typer.Option("--format", "-f", help="table or json")] = "table",
) -> None:
    """serbench's timing against the runner's native harness (runner.json native_harness):
    small, medium and large cells timed by both alternately, the same estimators from both
    tools' raw samples, and their ratios serbench / native per round and pooled. Accurate:
    the headline estimator's pooled ratio within ±5% on every cell (minimum and median
    shown, not judged)."""
    if fmt not in ("table", "json"):
        _fail(f"unknown format {fmt!r}; valid: table, json")
    if operation not in (None, "encode", "decode"):
        _fail(f"unknown operation {operation!r}; valid: encode, decode")
    try:
        with err.status("calibrating") as status:
            result = calibrate.run(
                runner,
                serializer,
                dataset,
                operation,
                scale,
                rounds,
                samples,
                int(sample_ms * 1e6),
                lambda line: status.update(line),
            )
    except (calibrate.CalibrateError, datasets.UnknownName) as exc:
        _fail(str(exc))
    if fmt == "json":
        print(calibrate.write_json(result, None))
    else:
        calibrate.print_calibration(result, console)


@app.command("runs")
def runs_cmd(db: DbOption = None) -> None:
    """The runs in the database."""
    listings.print_runs(_store(db).runs(), console)


RESUME_HELP = (
    "continue the latest session of this command (same options): inputs it stored an outcome "
    "for are not fed again"
)


@app.command("conformance")
def conformance_cmd(
    runner: Annotated[list[str] | None, typer.Option("--runner", "-r")] = None,
    serializer: Annotated[list[str] | None, typer.Option("--serializer", "-s")] = None,
    case: Annotated[str | None, typer.Option(help="only this case (as a failure names it)")] = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="JSON report path")] = None,
    resume: Annotated[bool, typer.Option(help=RESUME_HELP)] = False,
    db: DbOption = None,
) -> None:
    """Every JSON, MessagePack and CBOR decoder against its format's public suites; every
    Avro library's container files read by every other (Avro's interop test)."""
    from serbench.untrusted import commands

    commands.conformance(_store(db), console, err, runner, serializer, case, json_out, resume)


@app.command("robustness")
def robustness_cmd(
    runner: Annotated[list[str] | None, typer.Option("--runner", "-r")] = None,
    serializer: Annotated[list[str] | None, typer.Option("--serializer", "-s")] = None,
    dataset: Annotated[list[str] | None, typer.Option("--dataset", "-d")] = None,
    quick: Annotated[bool, typer.Option(help="the small CI profile")] = False,
    inputs: Annotated[
        list[Path] | None, typer.Option(help="your own input files or folders, instead")
    ] = None,
    count: Annotated[
        int | None, typer.Option(help="corrupted inputs per decoder and dataset")
    ] = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="JSON report path")] = None,
    resume: Annotated[bool, typer.Option(help=RESUME_HELP)] = False,
    db: DbOption = None,
) -> None:
    """Seeded corruptions of each decoder's own encoding, each outcome classified."""
    from serbench.untrusted import commands

    commands.robustness(
        _store(db),
        console,
        err,
        runner,
        serializer,
        dataset,
        quick,
        inputs,
        count,
        json_out,
        resume,
    )


def main() -> None:  # pragma: no cover
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
