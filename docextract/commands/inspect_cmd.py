"""`docextract inspect FILE`: show every stage of the document pipeline, page by page.

read (text layer or OCR) -> lines and blocks -> reading order -> model windows. On stdout as
rich tables, as JSON with ``--json``, and as annotated PNGs with ``--png DIR``.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any, Optional, Sequence

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from docextract.commands.common import PDF_TEXT_HELP, OcrMode, PdfText, stderr, user_errors
from docextract.document import Document, Page, Window
from docextract.errors import OutputError
from docextract.layout import DEFAULT_MAX_TOKENS, DEFAULT_STRIDE, analyze_layout, make_windows

PREVIEW_WORDS = 8  # words shown for each block / window in the tables


def inspect(
    path: Path = typer.Argument(..., help="The document to inspect (PDF, image, or words JSON)."),
    ocr: OcrMode = typer.Option(OcrMode.auto, "--ocr", help="auto: OCR pages without a usable text layer; always; never."),
    lang: str = typer.Option("auto", "--lang", help="Tesseract language(s), e.g. eng or deu+eng. auto: read in English, then again in the page's own language when it is German, French, Dutch, Italian, Spanish, Swedish, Danish, Norwegian, Finnish, Portuguese, Polish or Czech."),
    dpi: int = typer.Option(300, "--dpi", min=50, max=1200, help="Resolution for rendering pages to OCR."),
    password: Optional[str] = typer.Option(None, "--password", help="Password of an encrypted PDF."),
    pdf_text: PdfText = typer.Option(PdfText.pdfplumber, "--pdf-text", help=PDF_TEXT_HELP),
    max_tokens: int = typer.Option(DEFAULT_MAX_TOKENS, "--max-tokens", min=1, help="Word tokens per window (a 512 model: 510, leaving [CLS] and [SEP])."),
    stride: int = typer.Option(DEFAULT_STRIDE, "--stride", min=0, help="Most tokens two consecutive windows share as context."),
    png: Optional[Path] = typer.Option(None, "--png", help="Write one annotated PNG per page into this folder."),
    as_json: bool = typer.Option(False, "--json", help="Print the analysed document and its windows as JSON instead of tables."),
) -> None:
    """Show where the text came from, lines, blocks, reading order and model windows, page by page."""
    with user_errors():
        from docextract.modeling.tokenizer import subword_counts
        from docextract.readers import read_document

        doc = analyze_layout(read_document(path, ocr=ocr.value, lang=lang, dpi=dpi, password=password,
                                           pdf_text=pdf_text.value))
        counts = subword_counts([word.text for _, word in doc.iter_words()])
        windows = make_windows(doc, counts, max_tokens=max_tokens, stride=stride)
        if as_json:
            json.dump(inspection_dict(doc, windows), sys.stdout, ensure_ascii=False, indent=1)
            sys.stdout.write("\n")
        else:
            print_inspection(doc, windows, Console())
        if png is not None:
            for written in write_page_pngs(doc, windows, png, password=password):
                stderr.print(Text.assemble("wrote ", (str(written), "bold")), highlight=False)


def inspection_dict(doc: Document, windows: Sequence[Window]) -> dict[str, Any]:
    """``Document.to_dict()`` plus the windows; window words are ``[page_number, word_index]`` pairs."""
    document = doc.to_dict()
    for page, data in zip(doc.pages, document["pages"]):
        if page.text_reader is not None:
            data["text_reader"] = page.text_reader  # which library read the text layer, or OCR's languages
    return {
        "document": document,
        "windows": [
            {
                "index": w.index,
                "pages": [doc.pages[p].number for p in w.pages],
                "token_count": w.token_count,
                "core_start": w.core_start,
                "core_end": len(w.words) if w.core_end < 0 else w.core_end,
                "words": [[doc.pages[r.page_index].number, r.word_index] for r in w.words],
            }
            for w in windows
        ],
    }


def text_source_label(page: Page) -> str:
    if page.text_source == "ocr":
        confidence = page.mean_ocr_confidence
        return ("OCR" + (f" ({page.text_reader})" if page.text_reader else "")
                + (f", mean confidence {confidence:.0%}" if confidence is not None else ""))
    label = {"pdf_text": "PDF text layer", "words_json": "words JSON"}.get(page.text_source, page.text_source)
    return label + (f" (read by {page.text_reader})" if page.text_reader else "")


def _preview(texts: Sequence[str], limit: int = PREVIEW_WORDS) -> str:
    return " ".join(texts[:limit]) + (" …" if len(texts) > limit else "")


def print_inspection(doc: Document, windows: Sequence[Window], console: Console) -> None:
    console.print(Text.assemble(("Document ", "bold"), doc.source, f"  ({doc.mime_type}, {len(doc.pages)} page(s), {doc.word_count} words)"))
    for warning in doc.warnings:
        console.print(Text.assemble(("warning: ", "yellow"), warning))
    for page_index, page in enumerate(doc.pages):
        console.rule(f"Page {page.number}")
        console.print(
            f"text: {text_source_label(page)} · size {page.width:.0f} x {page.height:.0f} pt"
            + (f" · rotated {page.rotation_applied}°" if page.rotation_applied else "")
            + f" · {len(page.words)} words, {len(page.lines)} lines, {len(page.blocks)} blocks",
            highlight=False,
        )
        blocks = Table(title="Blocks in reading order", title_justify="left")
        blocks.add_column("#", justify="right")
        blocks.add_column("box (pt) x0, top, x1, bottom")
        blocks.add_column("lines", justify="right")
        blocks.add_column("first words")
        for rank, b in enumerate(page.block_order):
            block = page.blocks[b]
            words = [page.words[w].text for li in block.line_indices for w in page.lines[li].word_indices]
            box = ", ".join(f"{v:.0f}" for v in block.box.as_list())
            blocks.add_row(str(rank + 1), box, str(len(block.line_indices)), Text(_preview(words)))
        console.print(blocks)
        page_windows = [w for w in windows if page_index in w.pages]
        table = Table(title="Windows", title_justify="left")
        for name, justify in (("#", "right"), ("pages", "left"), ("tokens", "right"), ("words (core)", "right"), ("first words", "left"), ("last words", "left")):
            table.add_column(name, justify=justify)  # type: ignore[arg-type]
        for w in page_windows:
            texts = [doc.word(r).text for r in w.words]
            table.add_row(
                str(w.index), ", ".join(str(doc.pages[p].number) for p in w.pages), str(w.token_count),
                f"{len(w.words)} ({len(w.core)})", Text(_preview(texts)), Text(_tail(texts)),
            )
        console.print(table)


def _tail(texts: Sequence[str], limit: int = PREVIEW_WORDS) -> str:
    return ("… " if len(texts) > limit else "") + " ".join(texts[-limit:])


def write_page_pngs(doc: Document, windows: Sequence[Window], folder: Path, *, password: str | None = None) -> list[Path]:
    """One annotated PNG per page in ``folder`` (created if needed): ``<source stem>-page-<n>.png``, each
    through the atomic writer."""
    from docextract.files import write_bytes_atomic
    from docextract.layout.render import render_page

    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputError(f"cannot create the PNG folder: {error.strerror}", path=str(folder)) from None
    stem = Path(doc.source).stem or "document"
    written = []
    for page_index, page in enumerate(doc.pages):
        path = folder / f"{stem}-page-{page.number}.png"
        png = io.BytesIO()
        render_page(doc, page_index, windows, password=password).save(png, format="PNG")
        write_bytes_atomic(path, png.getvalue())
        written.append(path)
    return written
