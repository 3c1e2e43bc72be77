"""Which printed amounts stand in a VAT relation to other printed amounts: a tax, its base, their sum.

An invoice's tax is a VAT rate's share of its base, and its total the two added: 37,62 is 19% of 198,00, and
235,62 is 198,00 + 37,62. Whatever the layout, and whether or not a key stands beside them ("Steuerbasisbetrag USt.
19% 198,00 37,62" keys the base, not the tax), these relations among the amounts a page prints point at the
subtotal, the tax and the total. :func:`vat_shares` finds them for the candidate scorer
(:mod:`docextract.extraction.candidates`), which weighs them per field like any other feature.

With some thirty rates, a share of one amount matches another printed amount by chance now and then (a unit price
twenty times over is 5% of the line), so a relation is graded: **1.0** when base, tax and their sum are all printed
(the chance triple is rare), **0.5** when only two of them are. Amounts are compared by absolute value (a credit
note prints both signs) in whole cents, a computed share matching the printed cents on either side of it (a tax
rounded half-up, half-even, or summed from rounded lines).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Iterable, Mapping

from docextract.extraction.evidence import VAT_RATES

# The rates in hundredths of a percent, so that shares are integer arithmetic on cents; 0% would make every amount
# the base of a printed "0,00"
RATE_BASIS_POINTS = tuple(round(rate * 100) for rate in VAT_RATES if rate)
TRIPLE, PAIR = 1.0, 0.5  # the grades of a relation (module docstring)


@dataclass(frozen=True)
class VatShares:
    """Per absolute amount (Decimal) of a document, the grade of its best relation as a tax of another printed
    amount, as the base of one, and as the sum of a base and its tax (absent: none)."""

    tax: Mapping[Decimal, float]
    base: Mapping[Decimal, float]
    gross: Mapping[Decimal, float]


def _near_cents(cents_times_basis_points: int) -> tuple[int, int]:
    """The whole cents within one cent of a share computed in cents x basis points (strictly): floor and ceiling."""
    return cents_times_basis_points // 10000, -(-cents_times_basis_points // 10000)


def vat_shares(amounts: Iterable[Decimal]) -> VatShares:
    """The VAT relations among ``amounts`` (any signs; zero amounts take part in none)."""
    by_cents = {int((abs(a) * 100).to_integral_value()): abs(a) for a in amounts if a}
    tax: dict[Decimal, float] = {}
    base: dict[Decimal, float] = {}
    gross: dict[Decimal, float] = {}

    def grade(found: dict[Decimal, float], amount: Decimal, value: float) -> None:
        found[amount] = max(found.get(amount, 0.0), value)

    for base_cents, amount in by_cents.items():
        for rate in RATE_BASIS_POINTS:
            share = base_cents * rate
            low, high = _near_cents(share)
            taxes = [c for c in (low, high) if c in by_cents and c < base_cents] if low in by_cents or high in by_cents else ()
            low, high = _near_cents(base_cents * 10000 + share)
            grosses = [c for c in (low, high) if c in by_cents and c > base_cents] if low in by_cents or high in by_cents else ()
            if not taxes and not grosses:
                continue
            value = TRIPLE if any(abs(t + base_cents - g) <= 1 for t in taxes for g in grosses) else PAIR
            grade(base, amount, value)
            for c in taxes:
                grade(tax, by_cents[c], value)
            for c in grosses:
                grade(gross, by_cents[c], value)
    return VatShares(tax, base, gross)
