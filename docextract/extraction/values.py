"""Mentions -> document-level values: what a long contract says once, however often it says it.

A token-classification model tags every mention of a value (a contract names its parties dozens of
times, its governing law once or twice). :func:`document_values` turns those entities into values per
key under a :data:`ValuePolicy` (key -> :class:`ValueRule`):

1. each entity's text is normalised by its key's rule (mentions that do not normalise are dropped);
2. mentions whose normalised values are equal in the metric's comparison form (upper-cased, spaces as
   underscores: "NIKE, Inc." and "Nike Inc." are one party) merge into one :class:`DocumentValue`;
   its ``value`` and ``text`` are those of its most confident mention. Where the rule says
   ``merge_contained`` (parties), a value whose words run inside a longer value's is a short mention of
   it ("Clovis" of "Clovis Oncology, Inc."; contracts define parties by such short names) and merges into
   the longer one, which keeps its own value and text;
3. a value's confidence is the **maximum** of its mentions' confidences. Not noisy-or: mentions of one
   value are not independent evidence (the model repeats its mistakes with the name wherever it
   recurs), and noisy-or would push any name repeated a dozen times towards 1, so no threshold could
   separate the parties from other companies a contract keeps naming;
4. a ``single`` key keeps its most confident value (ties: more mentions, then earlier), a ``multi`` key
   every value at or above its rule's ``min_confidence``, most confident first, at most ``max_values`` of
   them and only those mentioned on the first ``within_pages`` pages where the rule says so (parties).

Values are in the policy's normalised form; for Kleister-NDA that is expected.tsv's form with spaces
for underscores ("3 years", "New York", "2017-02-10"), compared by :func:`kleister_form`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Mapping, Sequence

from docextract.document import Box, Document, WordRef
from docextract.extraction.contract_values import (
    kleister_form,
    normalize_effective_date,
    normalize_jurisdiction,
    normalize_party,
    normalize_term,
    TERM_LOOKBACK_TOKENS,
)
from docextract.extraction.entities import Entity, same_line

SINGLE, MULTI = "single", "multi"
# A party is kept when its best mention's tag confidence is at least this. 0.5: the model's tag for the
# mention beat all others put together.
PARTY_MIN_CONFIDENCE = 0.5
# An NDA has two parties (40 of the 50 validation contracts; 7 have one) and names them in its opening lines,
# but the tagger also marks signatories, affiliates and companies the contract mentions (its hidden-set precision
# was 0.40). So at most the two most confident parties are kept, among names that appear on the first two pages.
# Chosen by 5-fold cross-validation over validation contracts (each fold's rule picked on the other four):
# all-key F1 69.1 -> 77.7, party F1 58.4 -> 72.4 (benchmarks/nda_party_rules.py).
PARTY_MAX_VALUES = 2
PARTY_WITHIN_PAGES = 2
# "three (3)" tagged, "years" after it: the words a term's number and its unit may lie apart ("three (3) full
# calendar years"), as normalize_term's own look-back (TERM_LOOKBACK_TOKENS)
TERM_CONTEXT_WORDS = TERM_LOOKBACK_TOKENS
# Words of one name sit a space apart (a quarter of their height); a gap of this many word heights on one line
# is a column's (the side-by-side signature blocks of the validation contracts: 55-306 pt at 10-12 pt type)
COLUMN_GAP_HEIGHTS = 3.0


@dataclass(frozen=True)
class ValueRule:
    cardinality: str  # SINGLE (keep the best value) or MULTI (keep every value >= min_confidence)
    normalize: Callable[[str], str | None]  # mention text -> normalised value, None when it holds none
    min_confidence: float = 0.0  # 0..1; values below are dropped
    # MULTI keys: a value whose words are a run inside another value's ("Clovis" in "Clovis Oncology Inc.",
    # "H. Kesser" in "Peter H. Kesser") is a short mention of that one and merges into it
    merge_contained: bool = False
    max_values: int | None = None  # MULTI keys: keep at most this many (the most confident)
    within_pages: int | None = None  # keep only values mentioned somewhere on the first N pages
    # A mention that does not normalise is read again with up to this many words after it, then before it, in
    # reading order: the tagger marks "three (3)" of "three (3) years" or "years" alone, and the value needs both
    context_words: int = 0
    # A mention whose words jump a column's gap on one line is one mention per column: a signature block prints
    # the two parties side by side ("IXIA <300 pt> Catapult Communications Corporation") and the tagger reads
    # the line as one name
    split_columns: bool = False


ValuePolicy = Mapping[str, ValueRule]

KLEISTER_NDA_POLICY: ValuePolicy = {
    "effective_date": ValueRule(SINGLE, normalize_effective_date),
    "jurisdiction": ValueRule(SINGLE, normalize_jurisdiction),
    "party": ValueRule(MULTI, normalize_party, PARTY_MIN_CONFIDENCE, merge_contained=True, split_columns=True,
                       max_values=PARTY_MAX_VALUES, within_pages=PARTY_WITHIN_PAGES),
    "term": ValueRule(SINGLE, normalize_term, context_words=TERM_CONTEXT_WORDS),
}
VALUE_POLICIES: tuple[ValuePolicy, ...] = (KLEISTER_NDA_POLICY,)


@dataclass(frozen=True)
class Mention:
    text: str  # as printed
    page: int  # 1-based
    bbox: tuple[float, float, float, float]  # 0..1 of the page, top-left origin (the output's form)
    confidence: float


@dataclass(frozen=True)
class DocumentValue:
    key: str
    value: str  # normalised (the policy's form)
    text: str  # the most confident mention as printed
    confidence: float  # 0..1, the maximum over its mentions
    pages: tuple[int, ...]  # 1-based, sorted, each once
    evidence: tuple[Mention, ...]  # every mention, in reading order

    def to_dict(self, calibration: Callable[[float], float] | None = None) -> dict:
        """The output's form; ``calibration`` maps the confidences (value and evidence) when given."""
        mapped = (lambda c: c) if calibration is None else calibration  # noqa: E731
        return {
            "value": self.value, "text": self.text, "confidence": round(mapped(self.confidence), 4),
            "pages": list(self.pages),
            "evidence": [{"text": m.text, "page": m.page, "bbox": [round(v, 4) for v in m.bbox],
                          "confidence": round(mapped(m.confidence), 4)} for m in self.evidence],
        }


def policy_for_labels(labels: Sequence[str]) -> ValuePolicy | None:
    """The value policy whose keys cover every label (``O`` and BIO prefixes aside), else None."""
    names = {label for label in labels if label and label != "O"}
    for policy in VALUE_POLICIES:
        if names and names <= set(policy):
            return policy
    return None


def _mention(doc: Document, entity: Entity) -> Mention:
    first_page = entity.words[0].page_index
    page = doc.pages[first_page]
    box = Box.enclosing([doc.word(r).box for r in entity.words if r.page_index == first_page])
    return Mention(entity.text(doc), page.number, box.normalized(page.width, page.height), entity.confidence)


def document_values(doc: Document, entities: Sequence[Entity], policy: ValuePolicy) -> dict[str, list[DocumentValue]]:
    """Key -> its values (see the module docstring); keys without a value are absent."""
    groups: dict[tuple[str, str], list[tuple[str, Mention, int]]] = {}  # (key, comparison form) -> mentions
    reading: list[WordRef] = []  # the document's words in reading order, listed once when first needed
    mentions = [(part, policy[entity.label]) for entity in entities if entity.label in policy
                for part in (_column_parts(doc, entity) if policy[entity.label].split_columns else [entity])]
    for order, (entity, rule) in enumerate(mentions):
        mention = _mention(doc, entity)
        value = rule.normalize(mention.text)
        if value is None and rule.context_words:
            reading = reading or doc.ordered_words()
            value = _normalized_with_context(doc, reading, entity, rule)
        if value is None:
            continue
        groups.setdefault((entity.label, kleister_form(value)), []).append((value, mention, order))
    for key, rule in policy.items():
        if rule.merge_contained:
            _merge_contained(groups, key)
    by_key: dict[str, list[tuple[DocumentValue, int]]] = {}
    for (key, form), members in groups.items():
        members = sorted(members, key=lambda m: m[2])  # reading order
        own = [m for m in members if kleister_form(m[0]) == form]  # not the short mentions merged in
        value, best, _ = max(own, key=lambda m: (m[1].confidence, -m[2]))
        merged = DocumentValue(
            key=key, value=value, text=best.text, confidence=max(m.confidence for _, m, _ in members),
            pages=tuple(sorted({m.page for _, m, _ in members})), evidence=tuple(m for _, m, _ in members),
        )
        by_key.setdefault(key, []).append((merged, members[0][2]))
    out: dict[str, list[DocumentValue]] = {}
    for key, candidates in sorted(by_key.items()):
        rule = policy[key]
        ranked = [v for v, _ in sorted(candidates, key=lambda c: (-c[0].confidence, -len(c[0].evidence), c[1]))
                  if v.confidence >= rule.min_confidence
                  and (rule.within_pages is None or v.pages[0] <= rule.within_pages)]
        if ranked:
            out[key] = ranked[:1] if rule.cardinality == SINGLE else ranked[:rule.max_values]
    return out


def _column_parts(doc: Document, entity: Entity) -> list[Entity]:
    """The entity, or one entity per column where its words jump a column's gap on one line; the words of its
    other lines join the column they start nearest to ("CENTRAL EUROPEAN DISTRIBUTION <55 pt> W&L ENTERPRISES
    LTD." over "CORPORATION": the first column's name is "CENTRAL EUROPEAN DISTRIBUTION CORPORATION")."""
    columns: list[list[WordRef]] = [[entity.words[0]]]
    current = 0  # the column the previous word went to
    previous_ref, previous = entity.words[0], doc.word(entity.words[0]).box
    for ref in entity.words[1:]:
        box = doc.word(ref).box
        on_line = same_line(doc, previous_ref, ref)
        if on_line and box.x0 - previous.x1 > COLUMN_GAP_HEIGHTS * max(box.height, previous.height):
            columns.append([])
            current = len(columns) - 1
        elif not on_line and len(columns) > 1:  # a new line of a mention cut into columns
            current = min(range(len(columns)), key=lambda c: abs(doc.word(columns[c][0]).box.x0 - box.x0))
        columns[current].append(ref)
        previous_ref, previous = ref, box
    if len(columns) == 1:
        return [entity]
    return [replace(entity, words=tuple(words)) for words in columns]


def _normalized_with_context(doc: Document, reading: list[WordRef], entity: Entity, rule: ValueRule) -> str | None:
    """The entity's value read with up to ``rule.context_words`` words after it, else before it (one more word
    at a time, so the nearest completion wins)."""
    try:
        first, last = reading.index(entity.words[0]), reading.index(entity.words[-1])
    except ValueError:  # a word the reading order does not hold (never from decode_entities over the whole document)
        return None
    for extra in range(1, rule.context_words + 1):
        for start, end in ((first, min(len(reading), last + 1 + extra)), (max(0, first - extra), last + 1)):
            value = rule.normalize(" ".join(doc.word(r).text for r in reading[start:end]))
            if value is not None:
                return value
    return None


def _merge_contained(groups: dict[tuple[str, str], list], key: str) -> None:
    """Fold each of ``key``'s values whose comparison-form words are a contiguous run inside a longer value's
    into the longest such value (its mentions join that value's; the merged value is the longer name)."""
    forms = sorted((form for k, form in groups if k == key), key=lambda f: -len(f.split("_")))
    for short in reversed(forms):  # shortest first
        words = short.split("_")
        host = next((long for long in forms if long != short and (key, long) in groups
                     and _contains_run(long.split("_"), words)), None)
        if host is not None:
            groups[(key, host)] = groups[(key, host)] + groups.pop((key, short))


def _contains_run(words: list[str], run: list[str]) -> bool:
    return len(run) < len(words) and any(words[i:i + len(run)] == run for i in range(len(words) - len(run) + 1))


def value_pairs(values: Mapping[str, Sequence[DocumentValue]], upper: bool = True) -> list[tuple[str, str]]:
    """(key, value in the metric's comparison form) for every kept value (``upper=False``: the true-case form)."""
    return [(key, kleister_form(v.value, upper)) for key, vs in values.items() for v in vs]
