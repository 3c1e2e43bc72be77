"""The Ray engine against the local engine on one machine, and the numbers a multi-node plan needs (docs/ray.md).

Folders are generated (deterministic, as benchmarks/batch_throughput.py does): digital one-page invoices (text layer)
and scans of them (grey PNGs, read by Tesseract). Sections:

* ``product``: ``docextract.pipeline:extract_file`` with ``--model`` (default: the shipped invoice model), files/s of
  ``local`` (2 isolated workers), ``ray`` (2 worker actors, whole files) and ``ray-split`` (1 read/OCR actor + 1 model
  actor) on a Ray instance started once by this script, so a run is what a job on a running cluster costs (actors and
  their worker processes start inside it, the model loads inside it); configurations alternate within each repeat,
  medians reported. Ray's overhead = (ray wall time - local wall time) / local wall time (target: under 20 %), and
  the same once running: a 2-file folder measures what starting costs (workers, actors, the model), and the steady
  rate is (files - 2) / (wall time - the 2-file wall time).
  ``ray_start_s``: what ``ray.init`` costs once when no cluster runs (a driver without --address pays it).
* ``light``: ``docextract.batch.engine:read_summary`` on many tiny PDFs (~10 ms of work a file): the engines' own cost
  per file, i.e. the most files/s one driver can hand out.
* ``stages``: in one process, one thread: seconds per file of the read/OCR half and of the model half of
  extract_file, and the bytes of the document (what split mode moves between actors) and of the output.
* ``real_stages``: the same on real documents (the first 10 e-invoices and 10 FUNSD scans of ../shared/data).
* ``driver_write``: the driver's cost per finished file (the atomic output write and the fsynced manifest line) on
  this machine's disk.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/ray_throughput.py [--digital 400] [--scans 40] [--light 1500] [--repeats 3]

Writes benchmarks/results/ray_throughput.json.
"""

from __future__ import annotations

import argparse
import datetime
import json
import logging
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
sys.path.insert(0, str(REPO / "benchmarks"))
from batch_throughput import make_folders, make_invoice  # noqa: E402  (the same generated invoices)

RESULTS = REPO / "benchmarks" / "results" / "ray_throughput.json"
CPUS = 2
START_FILES = 2
SECTIONS = ("stages", "real", "product", "light")
PRODUCT = "docextract.pipeline:extract_file"
LIGHT = "docextract.batch.engine:read_summary"
CONFIGS = {"local": {"engine": "local", "workers": CPUS},
           "ray": {"engine": "ray", "workers": CPUS},
           "ray-split": {"engine": "ray", "workers": 1, "model_workers": 1}}


def run_one(folder: Path, out: Path, process: str, options: dict, config: dict, address: str | None) -> dict:
    """One batch in a fresh interpreter (the driver); returns its summary.json."""
    extra = dict(config, **({"address": address} if config["engine"] == "ray" else {}))
    code = ("import json; from docextract.batch.engine import run_batch; "
            f"s = run_batch({str(folder)!r}, {str(out)!r}, process={process!r}, options={options!r}, progress=False, "
            f"overwrite=True, **{extra!r}); print(json.dumps(s.to_dict()))")
    env = {**os.environ, "PYTHONPATH": os.environ.get("PYTHONPATH", str(REPO))}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=str(folder))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 4):
        raise SystemExit(f"batch failed ({done.returncode}): {done.stderr[-2000:]}")
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    # CPU of the driver process and its children: for Ray the driver alone (actors are the raylet's children), for
    # the local engine the driver and its worker processes
    summary["driver_cpu_s"] = round(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, 3)
    records = [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]
    summary["worker_peak_rss_mb_max"] = max((r["worker_peak_rss_mb"] or 0) for r in records)
    return summary


def same_outputs(out: Path, reference: Path) -> bool:
    names = sorted(path.name for path in reference.iterdir() if path.suffix == ".json" and path.name != "summary.json")
    return names == sorted(path.name for path in out.iterdir() if path.suffix == ".json" and path.name != "summary.json") \
        and all((out / name).read_bytes() == (reference / name).read_bytes() for name in names)


def compare(folders: dict[str, Path], scratch: Path, process: str, options: dict, configs: dict, repeats: int,
            address: str) -> dict:
    results = {}
    for set_name, folder in folders.items():
        files = len(list(folder.iterdir()))
        runs: dict[str, list[dict]] = {name: [] for name in configs}
        reference = scratch / f"out-{set_name}-local-0"
        for repeat in range(repeats):
            for name, config in configs.items():  # alternating: the machine's other load hits every configuration
                out = scratch / f"out-{set_name}-{name}-{repeat}"
                summary = run_one(folder, out, process, options, config, address)
                assert summary["by_status"] == {"ok": files}, summary["by_status"]
                runs[name].append(summary)
                print(f"{set_name:8s} {name:9s} run {repeat}: {files} files {summary['elapsed_s']:7.2f} s "
                      f"({files / summary['elapsed_s']:.2f} files/s)", flush=True)
                if (name, repeat) != ("local", 0):  # the reference every other run must equal, byte for byte
                    assert same_outputs(out, reference), f"{name} wrote other bytes than the local engine"
                    shutil.rmtree(out)
        rows = {}
        for name, summaries in runs.items():
            wall = statistics.median(s["elapsed_s"] for s in summaries)
            rows[name] = {"wall_s_median": round(wall, 3), "wall_s_runs": [s["elapsed_s"] for s in summaries],
                          "files_per_s": round(files / wall, 3),
                          "driver_peak_rss_mb": max(s["parent_peak_rss_mb"] for s in summaries),
                          "worker_peak_rss_mb_max": max(s["worker_peak_rss_mb_max"] for s in summaries),
                          "driver_cpu_ms_per_file_median": round(
                              1000 * statistics.median(s["driver_cpu_s"] for s in summaries) / files, 2)}
        base = rows["local"]["wall_s_median"]
        for name in rows:
            rows[name]["overhead_vs_local"] = round((rows[name]["wall_s_median"] - base) / base, 4)
        results[set_name] = {"files": files, "configs": rows}
        shutil.rmtree(reference, ignore_errors=True)
        print("  ".join(f"{set_name} {name}: {row['files_per_s']:.2f} files/s ({100 * row['overhead_vs_local']:+.1f} %)"
                        for name, row in rows.items()), flush=True)
    return results


def steady_rates(sets: dict) -> dict:
    """Add each configuration's steady rate: files/s once running, from the wall time less the 2-file run's."""
    start = sets["start"]["configs"]
    for set_name, data in sets.items():
        if set_name == "start":
            continue
        for name, row in data["configs"].items():
            running = row["wall_s_median"] - start[name]["wall_s_median"]
            row["steady_files_per_s"] = round((data["files"] - START_FILES) / running, 3) if running > 0 else None
        base = data["configs"]["local"]["steady_files_per_s"]
        for name, row in data["configs"].items():
            if base and row["steady_files_per_s"]:
                row["steady_overhead_vs_local"] = round(base / row["steady_files_per_s"] - 1, 4)
        print("  ".join(f"{set_name} {name}: steady {row['steady_files_per_s']} files/s "
                        f"({100 * row.get('steady_overhead_vs_local', 0):+.1f} % time)"
                        for name, row in data["configs"].items()), flush=True)
    return sets


def stage_costs(folders: dict[str, Path], model: str | None, per_set: int) -> dict:
    """Seconds per file of each half of extract_file, in this process (torch on one thread, as in a worker)."""
    import torch

    torch.set_num_threads(1)
    from docextract.files import json_bytes
    from docextract.pipeline import RunOptions, extract_document, load_model, read_and_analyze

    options = RunOptions(model=model)
    if model:
        load_model(model)  # loaded once per worker: not a per-file cost
    costs = {}
    for set_name, folder in folders.items():
        read_s, model_s, document_bytes, output_bytes, pages = [], [], [], [], 0
        first = sorted(folder.iterdir())[0]
        extract_document(str(first), *read_and_analyze(str(first), options), options)  # warm-up, untimed
        for path in sorted(folder.iterdir())[:per_set]:
            started = time.perf_counter()
            doc, timings = read_and_analyze(str(path), options)
            read_s.append(time.perf_counter() - started)
            started = time.perf_counter()
            output = extract_document(str(path), doc, timings, options)
            model_s.append(time.perf_counter() - started)
            document_bytes.append(len(json_bytes({"document": doc.to_dict(), "timings_ms": timings})))
            output_bytes.append(len(json_bytes(output)))
            pages += len(doc.pages)
        costs[set_name] = {"files": len(read_s), "pages": pages,
                           "read_s_per_file": round(statistics.median(read_s), 4),
                           "model_s_per_file": round(statistics.median(model_s), 4),
                           "read_s_per_page": round(sum(read_s) / pages, 4),
                           "model_s_per_page": round(sum(model_s) / pages, 4),
                           "document_kb_per_file": round(statistics.median(document_bytes) / 1024, 1),
                           "output_kb_per_file": round(statistics.median(output_bytes) / 1024, 1)}
        print(f"{set_name:8s} stages: {costs[set_name]}", flush=True)
    return costs


def results_command(args) -> str:
    return " ".join(["benchmarks/ray_throughput.py", *sys.argv[1:]])


def real_folders(root: Path) -> dict[str, Path]:
    """Links to real documents (read in place): the first e-invoices (digital, 1-6 pages) and FUNSD scans (OCR)."""
    shared = Path(os.environ.get("DOCEXTRACT_SHARED_DATA", REPO.parent / "shared" / "data"))
    sources = {"real_einvoices": sorted((shared / "einvoices").rglob("*.pdf"))[:10],
               "real_funsd_scans": sorted((shared / "funsd" / "testing_data" / "images").glob("*.png"))[:10]}
    if not all(sources.values()):
        raise SystemExit(f"the real section needs {shared} (einvoices/, funsd/); run without it: --sections ...")
    folders = {}
    for name, paths in sources.items():
        folders[name] = root / name
        folders[name].mkdir(parents=True)
        for index, path in enumerate(paths):
            os.symlink(path, folders[name] / f"{index:02d}-{path.name}")
    return folders


def stage_memory(folder: Path, scratch: Path, options: dict) -> dict:
    """Peak resident MB of one isolated worker running the read/OCR stage alone and the whole file (with the model)."""
    from docextract.batch.engine import run_batch

    peaks = {}
    for name, process in (("read_stage", "docextract.batch.stages:read_stage"), ("whole_file", PRODUCT)):
        out = scratch / f"memory-{name}"
        run_batch(folder, out, process=process, options=options, workers=1, progress=False)
        records = [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]
        peaks[f"{name}_worker_peak_rss_mb"] = max(record["worker_peak_rss_mb"] for record in records)
        shutil.rmtree(out)
    return peaks


def driver_write_cost(scratch: Path, output_kb: float, count: int = 300) -> dict:
    """Per finished file: the atomic output write (the local engine's driver does it; Ray's actors do it) and the
    fsynced manifest line (always the driver's)."""
    from docextract.batch.manifest import ManifestWriter
    from docextract.files import write_bytes_atomic

    folder = scratch / "driver-write"
    folder.mkdir()
    payload = b"x" * int(output_kb * 1024)
    record = {"input": "a/b/invoice-0000.pdf", "status": "ok", "sha256": "0" * 64, "output_sha256": "0" * 64,
              "bytes": 12345, "mtime_ns": 1, "elapsed_s": 1.0, "worker_s": 1.0, "error": None}
    started = time.perf_counter()
    for index in range(count):
        write_bytes_atomic(folder / f"out-{index:05d}.json", payload)
    output_s = (time.perf_counter() - started) / count
    writer = ManifestWriter(folder / "manifest.jsonl")
    started = time.perf_counter()
    for index in range(count):
        writer.append(record)
    manifest_s = (time.perf_counter() - started) / count
    writer.close()
    return {"files": count, "output_kb": output_kb, "output_write_ms": round(1000 * output_s, 3),
            "manifest_append_ms": round(1000 * manifest_s, 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--digital", type=int, default=400, help="digital invoices for the product section")
    parser.add_argument("--scans", type=int, default=40, help="scanned invoices (PNG, OCR) for the product section")
    parser.add_argument("--light", type=int, default=1500, help="tiny PDFs for the light section")
    parser.add_argument("--repeats", type=int, default=3, help="runs per configuration (median reported)")
    parser.add_argument("--model", default="invoice", help="model of the product section ('none': no model)")
    parser.add_argument("--sections", default=",".join(SECTIONS),
                        help="which to measure; a subset updates those keys of the existing results file")
    args = parser.parse_args()
    model = None if args.model == "none" else args.model

    import ray

    results: dict = {"repeats": args.repeats,
                     "model": model, "ray_version": ray.__version__,
                     "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                                 "platform": platform.platform()},
                     "date": datetime.date.today().isoformat()}
    sections = set(args.sections.split(","))
    if sections != set(SECTIONS) and RESULTS.exists():  # a part re-measured: keep the rest of the results file
        results = {**json.loads(RESULTS.read_text()), **{key: results[key] for key in ("machine", "ray_version")}}
    previous_command = results.pop("command", None)  # a file from before --sections: one command for all
    results.setdefault("commands", {}).update({section: previous_command for section in SECTIONS if previous_command})
    results["commands"].update({section: results_command(args) for section in sections})
    started = time.perf_counter()
    ray.init(num_cpus=CPUS, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    results["ray_start_s"] = round(time.perf_counter() - started, 2)
    address = ray.get_runtime_context().gcs_address
    print(f"ray.init: {results['ray_start_s']} s ({address})", flush=True)
    try:
        with tempfile.TemporaryDirectory(prefix="docextract-ray-bench-") as scratch_name:
            scratch = Path(scratch_name)
            folders = make_folders(scratch / "product", args.digital, args.scans)
            options = {"model": model}
            if "stages" in sections:
                results["stages"] = stage_costs(folders, model, per_set=min(10, args.digital, args.scans))
                output_kb = results["stages"]["digital"]["output_kb_per_file"]
                results["driver_write"] = driver_write_cost(scratch, output_kb)
                print(f"driver write: {results['driver_write']}", flush=True)
                results["stage_memory"] = stage_memory(folders["scans"], scratch, options)
                print(f"stage memory: {results['stage_memory']}", flush=True)
            if "real" in sections:
                results["real_stages"] = stage_costs(real_folders(scratch / "real"), model, per_set=10)
            if "product" in sections:
                start = scratch / "product" / "start"  # two files: what starting the workers and the model costs
                start.mkdir()
                for source in sorted(folders["digital"].iterdir())[:START_FILES]:
                    shutil.copy(source, start / source.name)
                product = compare({**folders, "start": start}, scratch, PRODUCT, options, CONFIGS, args.repeats,
                                  address)
                results["product"] = steady_rates(product)
            if "light" in sections:
                light = scratch / "light"
                light.mkdir()
                for index in range(args.light):
                    (light / f"tiny-{index:04d}.pdf").write_bytes(make_invoice(index))
                light_start = scratch / "light-start"
                light_start.mkdir()
                for source in sorted(light.iterdir())[:START_FILES]:
                    shutil.copy(source, light_start / source.name)
                light_configs = {name: CONFIGS[name] for name in ("local", "ray")}
                results["light"] = steady_rates(compare({"light": light, "start": light_start}, scratch, LIGHT,
                                                        {"ocr": "never"}, light_configs, args.repeats, address))
    finally:
        ray.shutdown()
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n")
    print(f"wrote {RESULTS.relative_to(REPO)}")


if __name__ == "__main__":
    main()
