"""One rendered document end to end: content, renderer, PDF, the words read back, labels or a drop reason.

Synthetic content is deterministic in ``(seed, renderer, index)``: each renderer prints its own invoices
(``group`` ``synth-SEED-RENDERER-INDEX``). A real e-invoice's values, printed by every renderer, keep the group
``convert einvoice`` gives the original, so a fold that holds that invoice out drops all of its renderings.
"""

from __future__ import annotations

import hashlib
import random
import tempfile
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from docextract.data.rendered import label_rendered, read_rendered, record_with_rows
from docextract.files import write_bytes_atomic
from docextract.synth.content import ContentProfile, choose_locale, decimal_text, price_text, sample_invoice
from docextract.synth.render.base import Renderer, Rendering
from docextract.synth.render.content import RenderInvoice, from_synthetic

DOCUMENT_FIELDS = (
    "invoice_number", "invoice_date", "due_date", "purchase_order", "vendor_name", "vendor_address", "vendor_tax_id",
    "customer_name", "billing_address", "shipping_address", "subtotal", "total_tax", "total", "amount_due", "currency",
    "payment_terms", "iban",
)


# The matcher attributes amounts and dates by key words it knows in these languages (extraction/locate.py); in
# the others a keyed value it cannot attribute is left out of the label set (masked) instead of dropping the page.
MATCHER_LANGUAGES = ("de", "en", "fr")
KEYED_FIELDS = ("invoice_date", "due_date", "subtotal", "total_tax", "total", "amount_due")


def content_rng(seed: int, index: int, purpose: str) -> random.Random:
    return random.Random(f"docextract-render:{seed}:{index}:{purpose}")


def item_count(rng: random.Random, most: int) -> int:
    """Mostly a short invoice, sometimes a long one (two or three pages in most layouts)."""
    draw = rng.random()
    count = rng.randint(1, 6) if draw < 0.6 else rng.randint(7, 16) if draw < 0.85 else rng.randint(17, 40)
    return max(1, min(count, most))


def synthetic_invoice(renderer: Renderer, seed: int, index: int) -> RenderInvoice:
    """Document ``index``'s synthetic content for ``renderer``: its own content, shared with no other renderer
    (group ``synth-SEED-RENDERER-INDEX``), so that holding one renderer out of training never takes the other
    renderers' synthetic documents with it (a fold drops every training record of a held-out group)."""
    rng = content_rng(seed, index, f"plan:{renderer.name}")
    locale = choose_locale(rng, renderer.locales) if renderer.locales else choose_locale(rng)
    count = item_count(rng, renderer.max_items)
    profile = ContentProfile(credit_note=0.04 if renderer.credit_notes else 0.0, adjustments=0.0,
                             multi_rate=0.22 if renderer.tax_rates > 1 else 0.0)
    content = sample_invoice(content_rng(seed, index, f"content:{renderer.name}:{locale}"), locale, n_items=count,
                             profile=profile)
    return from_synthetic(content, group=f"synth-{seed}-{renderer.name}-{index:06d}")


@dataclass
class Tally:
    """What a run produced per renderer: written and dropped documents, and per field how often located."""

    written: int = 0
    dropped: Counter = field(default_factory=Counter)  # reason -> documents
    expected: Counter = field(default_factory=Counter)  # field -> documents whose page prints it
    located: Counter = field(default_factory=Counter)  # field -> of those, located
    line_items: Counter = field(default_factory=Counter)  # "labelled" | "not found" | "none"
    pages: Counter = field(default_factory=Counter)
    origins: Counter = field(default_factory=Counter)  # written documents per content origin
    attempted: int = 0  # synthetic contents tried

    def to_dict(self) -> dict[str, Any]:
        return {"written": self.written, "synthetic_attempted": self.attempted, "dropped": sum(self.dropped.values()),
                "dropped_reasons": dict(self.dropped.most_common()),
                "located": {name: f"{self.located[name]}/{self.expected[name]}" for name in DOCUMENT_FIELDS
                            if self.expected[name]},
                "line_items": dict(self.line_items), "pages": {str(k): v for k, v in sorted(self.pages.items())},
                "origins": dict(self.origins)}


def normalized_items(invoice: RenderInvoice) -> list[dict[str, str]]:
    return [{"description": item.description, "quantity": decimal_text(item.quantity),
             "unit_price": price_text(item.unit_price), "amount": decimal_text(item.amount, 2)}
            for item in invoice.items]


def produce(renderer: Renderer, invoice: RenderInvoice, doc_id: str, rng: random.Random, out_dir: Path,
            tally: Tally) -> dict[str, Any] | None:
    """Render ``invoice``, write the PDF under ``out_dir/RENDERER/``, label it; the JSONL record, or None
    (counted in ``tally``) when the renderer failed or a value its page prints was not located."""
    with tempfile.TemporaryDirectory(prefix="docextract-render-") as scratch:
        try:
            rendering: Rendering = renderer.render(invoice, rng, Path(scratch))
        except Exception as error:  # noqa: BLE001 - a renderer is other people's code: one failure drops one document
            tally.dropped[f"{invoice.origin}: renderer failed: {type(error).__name__}: {str(error)[:80]}"] += 1
            return None
    relative = Path(renderer.name) / f"{doc_id}.pdf"
    pdf_path = out_dir / relative
    pdf_path.parent.mkdir(parents=True, exist_ok=True)
    write_bytes_atomic(pdf_path, rendering.pdf)
    document = read_rendered(pdf_path).replace(source=relative.as_posix(),
                                               sha256=hashlib.sha256(rendering.pdf).hexdigest())
    printed = rendering.invoice
    values = printed.field_values(rendering.printed | rendering.optional)
    page_language = rendering.language or printed.language
    required = sorted(name for name in values if name in rendering.printed and (
        page_language in MATCHER_LANGUAGES or name not in KEYED_FIELDS) and not (
        printed.origin == "einvoice" and name == "payment_terms"))  # an XML's terms hold lines no page prints
    items = []
    if rendering.line_items:
        items = [{"description": item.description, **{cell: getattr(item, cell) if cell in rendering.item_cells else None
                                                      for cell in ("quantity", "unit_price", "amount")}}
                 for item in printed.items]
    amounts = {abs(v) for item in printed.items for v in (item.amount, item.unit_price)}
    labels = label_rendered(doc_id, document, values, required, items, sorted(amounts))
    for name in values:
        tally.expected[name] += 1
        tally.located[name] += bool(labels.located.get(name))
    if labels.document is None:
        name, reason = sorted(labels.missing.items())[0]
        tally.dropped[f"{invoice.origin}: {name}: {reason}"] += 1
        pdf_path.unlink(missing_ok=True)
        return None
    tally.written += 1
    tally.line_items[labels.line_items] += 1
    tally.pages[len(document.pages)] += 1
    tally.origins[printed.origin] += 1
    labelled = replace(labels.document, group=printed.group, producer=renderer.name)
    return record_with_rows(replace(labels, document=labelled), {
        "line_items": normalized_items(printed) if labels.line_items == "labelled" else [],
        "render": {"renderer": renderer.name, "version": renderer.version(), "origin": printed.origin,
                   "locale": printed.locale, "document_type": printed.document_type,
                   "pages": len(document.pages), "options": rendering.options}})


ATTEMPTS_PER_DOCUMENT = 3  # synthetic contents tried per document asked for, at most (drops are replaced)


def render_renderer(renderer: Renderer, seed: int, count: int, einvoices: list[RenderInvoice], out_dir: Path,
                    advance=lambda: None) -> Tally:
    """``count`` synthetic documents (contents index 0, 1, ... until ``count`` are written or
    ATTEMPTS_PER_DOCUMENT x ``count`` were tried) plus one rendering of each real e-invoice's content, into
    ``out_dir/RENDERER.jsonl`` (written atomically) and the PDFs under ``out_dir/RENDERER/``."""
    import json

    from docextract.files import atomic_writer

    tally = Tally()
    with atomic_writer(out_dir / f"{renderer.name}.jsonl") as sink:
        def keep(record: dict[str, Any] | None) -> None:
            if record is not None:
                sink.write((json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8"))

        index = 0
        while tally.origins["synthetic"] < count and index < ATTEMPTS_PER_DOCUMENT * count:
            invoice = synthetic_invoice(renderer, seed, index)
            before = tally.written
            keep(produce(renderer, invoice, f"{renderer.name}-{seed}-{index:06d}",
                         content_rng(seed, index, f"layout:{renderer.name}"), out_dir, tally))
            if tally.written > before:
                advance()
            index += 1
        tally.attempted = index
        if renderer.einvoices:
            for number, invoice in enumerate(einvoices):
                keep(produce(renderer, invoice, f"{renderer.name}-einvoice-{number:03d}",
                             content_rng(seed, number, f"einvoice-layout:{renderer.name}"), out_dir, tally))
                advance()
    return tally
