"""docextract against the peer it should replace: invoice2data (regex templates over pdftotext), on the same folders.

Whole commands from the shell, cold start included (interpreter, imports, model load, worker start-up), each
timed as wall clock; docextract and invoice2data alternate run by run so that both see the same machine load,
and the median of ``--repeats`` is reported with the ratio docextract / invoice2data (lower is better; issue
31's bar: a folder at most 8x, one invoice at most 5x).

* ``digital``: synthetic digital invoices (``docextract synth``, all layout families, 1-3 pages, seed 16) up to
  ``--digital-pages`` pages (100: the issue's batch): ``docextract run DIR --out OUT`` (default workers, with the
  default ``--pdf-text pdfplumber`` and with ``--pdf-text auto``) and ``invoice2data -i pdftotext -f json FILE...``.
* ``real``: the real e-invoices of ``--real`` (default: the shared einvoices-more folder), same commands.
Each docextract set also runs with ``DOCEXTRACT_COMPUTE=float32``: the default model in torch float32, as it ran
before its config named ONNX Runtime int8 (issue 31), so one run gives the gain.

* ``one``: a single one-page invoice: ``docextract run FILE`` (stdout) and ``invoice2data FILE``.
* ``scans``: scan-like invoice images (``docextract synth --scan-fraction 1``, 150 dpi): ``docextract run DIR``,
  ``invoice2data -i tesseract`` and Tesseract alone (``tesseract IMAGE stdout`` per image, one shell loop): the
  issue's bar for scans is within 15% of Tesseract alone at the same resolution.

invoice2data is a benchmark dependency, never a product one: ``pip install 'docextract[bench]'`` (it needs the
``pdftotext`` binary: apt-get install poppler-utils). Pages are counted with pypdfium2 (images: 1 page).

    PYTHONPATH=$PWD .venv/bin/python benchmarks/peer_speed.py [--digital-pages 100] [--scans 6] [--repeats 3] \
        [--sets digital,real,one,scans] [--model invoice-fast]

Writes benchmarks/results/peer_speed.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

RESULTS = REPO / "benchmarks" / "results" / "peer_speed.json"
REAL_DEFAULT = REPO.parent / "shared" / "data" / "einvoices-more"
SEED = 16
BIN = Path(sys.executable).parent


def generate(out: Path, pages_wanted: int, scan: bool, count: int | None = None) -> list[Path]:
    """Synthetic invoices until ``pages_wanted`` pages (or ``count`` invoices), digital PDFs or scan-like images."""
    from docextract.synth.generate import SynthOptions, generate_invoice
    from docextract.synth.layouts import FAMILY_NAMES

    out.mkdir(parents=True, exist_ok=True)
    options = SynthOptions(families=tuple(FAMILY_NAMES), pages_max=1 if scan else 3, scan_fraction=1.0 if scan else 0.0)
    files, pages, index = [], 0, 0
    while (count is None and pages < pages_wanted) or (count is not None and len(files) < count):
        record = generate_invoice(SEED + int(scan), index, options, out)
        index += 1
        path = out / record["source"]
        files.append(path)
        pages += count_pages(path)
    for extra in out.iterdir():  # the scans' region files and the like: not inputs
        if extra not in files:
            extra.unlink()
    return files


def count_pages(path: Path) -> int:
    if path.suffix.lower() != ".pdf":
        return 1
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(path))
    try:
        return len(document)
    finally:
        document.close()


def timed(command: list[str] | str, env: dict | None = None) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system of the command and all its processes)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    # every command is an installed entry point: without PYTHONPATH, so a --baseline install runs its own code
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    # and from a neutral folder: `python -m docextract.batch.isolation` (a batch worker) puts the working
    # directory first on sys.path, so a worker started inside a checkout imports that checkout's code
    result = subprocess.run(command, shell=isinstance(command, str), stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, env={**environment, **(env or {})}, cwd=tempfile.gettempdir())
    seconds = time.perf_counter() - start
    if result.returncode != 0:  # every input here is readable: any failure would make the time meaningless
        raise SystemExit(f"{command} failed ({result.returncode}): {result.stderr.decode()[-2000:]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return seconds, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def compare(commands: dict[str, list[str] | str], repeats: int, pages: int, before=None) -> dict:
    """Each command ``repeats`` times, alternating; median wall seconds, pages/s, ratio to invoice2data."""
    walls: dict[str, list[float]] = {name: [] for name in commands}
    cpus: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(repeats):
        for name, command in commands.items():
            if before is not None:
                before()
            wall, cpu = timed(*command) if isinstance(command, tuple) else timed(command)  # tuple: (command, env)
            walls[name].append(wall)
            cpus[name].append(cpu)
    result = {"pages": pages, "repeats": repeats, "commands": {n: _shown(c) for n, c in commands.items()}}
    for name, values in walls.items():
        median = statistics.median(values)
        result[name] = {"wall_seconds": [round(v, 3) for v in values], "median_seconds": round(median, 3),
                        "pages_per_second": round(pages / median, 2),
                        # on a shared machine wall time depends on what else runs; CPU seconds much less
                        "cpu_seconds": [round(v, 3) for v in cpus[name]],
                        "median_cpu_seconds": round(statistics.median(cpus[name]), 3)}
    peer = result.get("invoice2data")
    if peer:
        for name in walls:
            if name != "invoice2data":
                result[name]["ratio_to_invoice2data"] = round(result[name]["median_seconds"] / peer["median_seconds"], 2)
    return result


def _shown(command) -> str:
    if isinstance(command, tuple):
        command, env = command
        return " ".join(f"{k}={v}" for k, v in env.items()) + " " + _shown(command)
    return command if isinstance(command, str) else " ".join(command)


# The default model runs in ONNX Runtime int8 (config.json docextract_compute: onnx-int8, issue 31); this runs it in
# torch float32 as before, in the same session, so the gain is read from one run
TORCH = {"DOCEXTRACT_COMPUTE": "float32"}


def docextract_folder(folder: Path, out: Path, pdf_text: str | None, workers: int | None,
                      bin_dir: Path = BIN) -> list[str]:
    """``run FOLDER``; ``workers`` None: the default (one per processor, at most 8)."""
    return [str(bin_dir / "docextract"), "run", str(folder), "--out", str(out), "--overwrite"] + (
        ["--workers", str(workers)] if workers else []) + (["--pdf-text", pdf_text] if pdf_text else [])


def with_other_runs(commands: dict, baseline: list[str] | None, other_model: str | None = None) -> dict:
    """``commands`` with the other install's run first (``baseline``) and ``docextract``'s run with ``--model
    OTHER_MODEL`` after it (e.g. a student of the default model), where given."""
    if other_model is not None:
        commands = {**commands, f"docextract --model {other_model}": [*commands["docextract"], "--model", other_model]}
    return commands if baseline is None else {"docextract baseline": baseline, **commands}


def invoice2data(files: list[Path], out: Path, reader: str) -> list[str]:
    return [str(BIN / "invoice2data"), "-i", reader, "-f", "json", "-o", str(out)] + [str(f) for f in files]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--digital-pages", type=int, default=100)
    parser.add_argument("--scans", type=int, default=6)
    parser.add_argument("--real", type=Path, default=REAL_DEFAULT)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--workers", type=int, default=None, help="docextract's --workers (default: its own default)")
    parser.add_argument("--sets", default="digital,real,one,scans")
    parser.add_argument("--baseline", type=Path, default=None, metavar="BIN",
                        help="the bin folder of another docextract install (e.g. the previous release's venv): its "
                             "`docextract run` joins the digital, real and one sets as 'docextract baseline'")
    parser.add_argument("--model", default=None, metavar="MODEL",
                        help="also time `docextract run ... --model MODEL` in the digital, real and one sets (e.g. "
                             "invoice-fast, the default model's student)")
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args()
    if shutil.which("pdftotext") is None or not (BIN / "invoice2data").exists():
        raise SystemExit("needs invoice2data (pip install 'docextract[bench]') and pdftotext (apt-get install poppler-utils)")
    sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    report = {"command": "PYTHONPATH=$PWD .venv/bin/python benchmarks/peer_speed.py " + " ".join(sys.argv[1:]),
              "machine": {"cpus": len(os.sched_getaffinity(0)), "load_average_before": os.getloadavg(),
                          "python": platform.python_version(), "platform": platform.platform()},
              "sets": {}}
    # the default model's ONNX graph is built once per machine (modeling/onnx_runtime.py): not a cost to time
    timed([str(BIN / "docextract"), "run", str(REPO / "examples" / "invoice.pdf")])
    if args.model:
        timed([str(BIN / "docextract"), "run", str(REPO / "examples" / "invoice.pdf"), "--model", args.model])
    with tempfile.TemporaryDirectory(prefix="peer_speed_") as tmp:
        tmp = Path(tmp)
        out = tmp / "out"
        clear = lambda: shutil.rmtree(out, ignore_errors=True)  # noqa: E731 - every run writes afresh
        if "digital" in sets or "one" in sets:
            digital = generate(tmp / "digital", args.digital_pages, scan=False)
        if "digital" in sets:
            pages = sum(count_pages(f) for f in digital)
            report["sets"]["digital"] = compare(with_other_runs({
                "docextract": docextract_folder(tmp / "digital", out, "pdfplumber", args.workers),
                "docextract --pdf-text auto": docextract_folder(tmp / "digital", out, "auto", args.workers),
                "docextract, torch float32": (docextract_folder(tmp / "digital", out, "pdfplumber", args.workers), TORCH),
                "invoice2data": invoice2data(digital, tmp / "i2d", "pdftotext"),
            }, args.baseline and docextract_folder(tmp / "digital", out, None, args.workers, args.baseline), args.model),
                args.repeats, pages, before=clear)
            report["sets"]["digital"]["files"] = len(digital)
            print("digital", json.dumps(report["sets"]["digital"]), flush=True)
        if "real" in sets:
            real = sorted(args.real.rglob("*.pdf"))
            folder = tmp / "real"
            folder.mkdir()
            for index, path in enumerate(real):  # flat, as invoice2data takes them; read in place by symlink
                (folder / f"{index:03d}_{path.name}").symlink_to(path)
            pages = sum(count_pages(f) for f in real)
            command = docextract_folder(folder, out, "pdfplumber", args.workers) + ["--follow-symlinks"]
            report["sets"]["real"] = compare(with_other_runs({
                "docextract": command,
                "docextract --pdf-text auto": docextract_folder(folder, out, "auto", args.workers) + ["--follow-symlinks"],
                "docextract, torch float32": (
                    docextract_folder(folder, out, "pdfplumber", args.workers) + ["--follow-symlinks"], TORCH),
                "invoice2data": invoice2data(real, tmp / "i2d", "pdftotext"),
            }, args.baseline and docextract_folder(folder, out, None, args.workers, args.baseline) + ["--follow-symlinks"],
                args.model),
                args.repeats, pages, before=clear)
            report["sets"]["real"].update(files=len(real), source=str(args.real))
            print("real", json.dumps(report["sets"]["real"]), flush=True)
        if "one" in sets:
            one = next(f for f in digital if count_pages(f) == 1)
            report["sets"]["one"] = compare(with_other_runs({
                "docextract": [str(BIN / "docextract"), "run", str(one)],
                "docextract --pdf-text auto": [str(BIN / "docextract"), "run", str(one), "--pdf-text", "auto"],
                "docextract, torch float32": ([str(BIN / "docextract"), "run", str(one)], TORCH),
                "invoice2data": [str(BIN / "invoice2data"), "-i", "pdftotext", "-f", "json", "-o", str(tmp / "i2d"),
                                 str(one)],
            }, args.baseline and [str(args.baseline / "docextract"), "run", str(one)], args.model), max(args.repeats, 5), 1)
            print("one", json.dumps(report["sets"]["one"]), flush=True)
        if "scans" in sets:
            scans = generate(tmp / "scans", 0, scan=True, count=args.scans)
            loop = "for f in " + " ".join(f"'{s}'" for s in scans) + "; do tesseract \"$f\" stdout >/dev/null 2>&1; done"
            report["sets"]["scans"] = compare({
                "docextract": docextract_folder(tmp / "scans", out, "pdfplumber", args.workers),
                "invoice2data": invoice2data(scans, tmp / "i2d", "tesseract"),
                "tesseract alone": loop,
            }, max(1, args.repeats - 1), len(scans), before=clear)
            scans_result = report["sets"]["scans"]
            scans_result["docextract"]["ratio_to_tesseract_alone"] = round(
                scans_result["docextract"]["median_seconds"] / scans_result["tesseract alone"]["median_seconds"], 2)
            print("scans", json.dumps(scans_result), flush=True)
    report["machine"]["load_average_after"] = os.getloadavg()
    args.output.parent.mkdir(parents=True, exist_ok=True)
    # paths as seen from the repository (.venv/bin/docextract, ../shared/data), not this machine's absolute ones
    text = json.dumps(report, indent=2).replace(str(REPO) + "/", "").replace(str(REPO.parent) + "/", "../")
    args.output.write_text(text + "\n")
    print(f"written: {args.output}")


if __name__ == "__main__":
    main()
