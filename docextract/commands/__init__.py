"""One module per group of CLI commands; `docextract/cli.py` registers them on the Typer app."""
