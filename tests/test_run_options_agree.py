"""`run`'s options are declared in three places (pipeline.RunOptions, the `run` and `inspect` commands' Typer
parameters, and `serve`'s form fields); where they declare the same option, they agree on its default and range."""

from __future__ import annotations

import dataclasses
import inspect
from enum import Enum

import pytest

from docextract.commands import calibrate_cmd, inspect_cmd, run_cmd
from docextract.extraction.review import DEFAULT_PRECISION
from docextract.pipeline import RunOptions

# RunOptions field -> `run`'s parameter where the names differ
RUN_NAMES = {"include_timings": "timings"}
# fields `run` does not take as such, and why
NOT_RUN_OPTIONS = {"stride", "max_tokens", "cross_pages"}  # the model's own (inspect and evaluate take them)
# fields `serve` does not take: the model is the server's; the rest change the output's shape or where it runs
NOT_SERVE_OPTIONS = {"model", "include_timings", "stride", "max_tokens", "cross_pages", "device", "fields_only"}


def _plain(value):
    return value.value if isinstance(value, Enum) else value


def typer_options(command) -> dict[str, dict]:
    """Parameter -> {default, min, max} of a Typer command function."""
    found = {}
    for name, parameter in inspect.signature(command).parameters.items():
        info = parameter.default
        found[name] = {"default": _plain(info.default), "min": getattr(info, "min", None), "max": getattr(info, "max", None)}
    return found


def serve_options() -> dict[str, dict]:
    """Form field -> {default, min, max} of serve's POST /extract."""
    pytest.importorskip("fastapi")
    from docextract.serve.app import ServeConfig, create_app

    app = create_app(ServeConfig(), dispatcher=object())  # the workers start with the server, which is not started
    endpoint = next(route.endpoint for route in app.routes if getattr(route, "path", None) == "/extract")
    found = {}
    for name, parameter in inspect.signature(endpoint).parameters.items():
        info = parameter.default
        bounds = {type(m).__name__: m for m in getattr(info, "metadata", [])}
        found[name] = {"default": getattr(info, "default", None),
                       "min": getattr(bounds.get("Ge"), "ge", None), "max": getattr(bounds.get("Le"), "le", None)}
    return found


def run_option_defaults() -> dict[str, object]:
    return {f.name: f.default for f in dataclasses.fields(RunOptions)}


def test_run_declares_every_run_option_with_the_same_default():
    run = typer_options(run_cmd.run)
    for name, default in run_option_defaults().items():
        if name in NOT_RUN_OPTIONS:
            continue
        parameter = run[RUN_NAMES.get(name, name)]
        assert parameter["default"] == default, (name, parameter["default"], default)


def test_serve_declares_the_run_options_it_takes_with_the_same_defaults_and_ranges():
    run, serve = typer_options(run_cmd.run), serve_options()
    defaults = run_option_defaults()
    taken = set(defaults) - NOT_SERVE_OPTIONS
    assert taken <= set(serve), taken - set(serve)
    for name in taken:
        assert serve[name]["default"] == defaults[name], (name, serve[name]["default"], defaults[name])
        assert (serve[name]["min"], serve[name]["max"]) == (run[name]["min"], run[name]["max"]), name


def test_inspect_reads_documents_as_run_does():
    run, inspected = typer_options(run_cmd.run), typer_options(inspect_cmd.inspect)
    for name in ("ocr", "lang", "dpi", "password", "pdf_text"):
        assert inspected[name] == run[name], name


def test_the_review_precision_default_is_the_one_constant():
    assert typer_options(calibrate_cmd.calibrate)["precision"]["default"] == DEFAULT_PRECISION
    assert RunOptions().precision is None  # None: the model's own policy, fitted at DEFAULT_PRECISION
