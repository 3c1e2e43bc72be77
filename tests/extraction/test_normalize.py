from datetime import date
from decimal import Decimal

import pytest

from docextract.extraction.locales import guess_locale
from docextract.extraction.normalize import (
    Money,
    currencies_in,
    parse_amount,
    parse_currency,
    parse_date,
    parse_number,
)


@pytest.mark.parametrize(
    "text, locale, expected",
    [
        ("03/04/2024", "en_US", date(2024, 3, 4)),
        ("03/04/2024", "en_GB", date(2024, 4, 3)),
        ("15.03.2024", "de_DE", date(2024, 3, 15)),
        ("15. März 2024", "de_DE", date(2024, 3, 15)),
        ("15 mars 2024", "fr_FR", date(2024, 3, 15)),
        ("1er août 2023", "fr_FR", date(2023, 8, 1)),
        ("March 15, 2024", "en_US", date(2024, 3, 15)),
        ("2024-03-15", "de_DE", date(2024, 3, 15)),
        ("15-Mar-2024", "en_GB", date(2024, 3, 15)),
        # English month names a German one is the start of ("Januar", "Februar") stay English
        ("February 17, 2026", "en_US", date(2026, 2, 17)),
        ("22 January 2025", "en_GB", date(2025, 1, 22)),
        ("24. Januar 2013", "de_DE", date(2013, 1, 24)),
        ("5 maart 2024", "nl_NL", date(2024, 3, 5)),
        ("05-03-2024", "nl_NL", date(2024, 3, 5)),
        ("5 marzo 2024", "it_IT", date(2024, 3, 5)),
        ("05/03/2024", "it_IT", date(2024, 3, 5)),
        ("5 de marzo de 2024", "es_ES", date(2024, 3, 5)),
        ("TOTAL", "en_US", None),
        ("2.6", "de_DE", None),  # a version number the model tagged as a date
        ("12/24", "en_US", None),
        ("20240315", "de_DE", date(2024, 3, 15)),
        ("", "en_US", None),
    ],
)
def test_parse_date_respects_locale(text, locale, expected):
    assert parse_date(text, locale) == expected


@pytest.mark.parametrize(
    "text, locale, expected",
    [
        ("1,234.56", "en_US", "1234.56"),
        ("1.234,56", "de_DE", "1234.56"),
        ("1 234,56", "fr_FR", "1234.56"),
        ("1\u202f234,56", "fr_FR", "1234.56"),
        ("1,234", "en_US", "1234"),
        ("1.234", "de_DE", "1234"),
        ("1,5", "de_DE", "1.5"),
        ("12.00", "de_DE", "12.00"),
        ("(45.00)", "en_US", "-45.00"),
        ("1.234.567", "de_DE", "1234567"),
        ("1.234", "nl_NL", "1234"),
        ("7,90-", "de_DE", "-7.90"),
        # three decimals after digits that can be no group of thousands: a decimal point in any locale
        ("€52612.250", "de_DE", "52612.250"),
        ("0.250", "fr_FR", "0.250"),
        ("12345,678", "en_US", "12345.678"),
        ("abc", "en_US", None),
    ],
)
def test_parse_number(text, locale, expected):
    value = parse_number(text, locale)
    assert (str(value) if value is not None else None) == expected


def test_parse_amount_keeps_currency():
    assert parse_amount("1.190,00 €", "de_DE") == Money("1190.00", "EUR")
    assert parse_amount("USD 99.5", "en_US") == Money("99.50", "USD")
    assert parse_amount("£12", "en_GB") == Money("12.00", "GBP")
    assert parse_amount("12.00", "en_US", default_currency="CHF") == Money("12.00", "CHF")
    assert parse_currency("no money here") is None


def test_parse_number_refuses_what_is_not_grouped_in_thousands():
    assert parse_number("15.12.2024", "de_DE") is None  # a date the model tagged as an amount
    assert parse_number("2.4.0", "de_DE") is None  # a version
    assert parse_number("8.550", "de_DE") == Decimal("8550")
    assert parse_number("1,23,456.00", "en_US") == Decimal("123456.00")  # India groups lakhs


def test_partial_date_takes_the_documents_year_never_todays():
    assert parse_date("July 31", "en_US", default_year=2023) == date(2023, 7, 31)
    assert parse_date("31. Juli", "de_DE", default_year=2021) == date(2021, 7, 31)
    assert parse_date("July 31", "en_US") is None  # no year known: unparsable, not this year
    assert parse_date("July 31, 2022", "en_US", default_year=2023) == date(2022, 7, 31)  # a printed year wins
    assert parse_date("July 2024", "en_US") == date(2024, 7, 1)  # no day: the first, never today's


def test_a_number_away_from_the_month_is_no_part_of_the_date():
    """A stray number before a weekday was read as the day and the real day as the year (2013-01-10)."""
    assert parse_date("10 Tuesday, January 13, 2009", "en_US") == date(2009, 1, 13)
    assert parse_date("10 Tuesday, January 13, 2009", "de_DE") == date(2009, 1, 13)
    assert parse_date("Tuesday 13 January 2009, 10", "en_GB") == date(2009, 1, 13)
    assert parse_date("Jan. 13, 2009 10:30", "en_US") == date(2009, 1, 13)
    assert parse_date("10 January 13 2009", "en_US") is None  # three numbers at the month: no guess


def test_a_weekday_before_the_date_in_any_of_the_six_languages():
    assert parse_date("Dienstag, 3. Dezember 2024", "de_DE") == date(2024, 12, 3)
    assert parse_date("mardi 3 décembre 2024", "fr_FR") == date(2024, 12, 3)
    assert parse_date("dinsdag 3 december 2024", "nl_NL") == date(2024, 12, 3)
    assert parse_date("martes, 3 de diciembre de 2024", "es_ES") == date(2024, 12, 3)
    assert parse_date("Mardi, 03/12/2024", "fr_FR") == date(2024, 12, 3)
    assert parse_date("Sonntag", "de_DE") is None


def test_a_whole_amount_printed_with_a_dash_for_its_cents_is_not_negative():
    assert parse_number("€ 25,-", "nl_NL") == Decimal("25")
    assert parse_number("1.234,--", "de_DE") == Decimal("1234")
    assert parse_number("25,00-", "de_DE") == Decimal("-25.00")  # a minus after the cents is one
    assert parse_number("-25,-", "de_DE") == Decimal("-25")


def test_swiss_amounts_group_thousands_with_an_apostrophe():
    # typed as "'" or typeset as "’" (U+2019), which NFKC keeps
    assert parse_number("13’116.89", "de_CH") == Decimal("13116.89")
    assert parse_number("1'062.47", "de_CH") == Decimal("1062.47")
    assert parse_number("CHF 49’172.40", "en_US") == Decimal("49172.40")
    assert parse_number("1’06.47", "de_CH") is None  # groups that are no thousands


def test_opening_hours_are_no_date():
    # "Mo.-Fr. 08.30 - 12.30 Uhr" on an insurer's letter: dateutil read 8 December
    assert parse_date("08.30 - 12.30", "de_DE", default_year=2014) is None
    assert parse_date("08:30-12:30", "en_GB", default_year=2014) is None
    assert parse_date("15/01/2019 11:05:16", "en_GB") == date(2019, 1, 15)


@pytest.mark.parametrize("text, expected", [
    ("Total: US$ 12.00", "USD"), ("RM 12.50", "MYR"), ("12,50 €", "EUR"), ("CHF 40.00", "CHF"),
    ("eur", "EUR"),  # a currency field's own text, any case
    ("US", None), ("Germany", None), ("FORM 3", None), ("Ukraine", None),  # countries and words are no currency
])
def test_parse_currency_reads_codes_and_symbols_as_tokens(text, expected):
    assert parse_currency(text) == expected


def test_currencies_anywhere_on_a_document():
    assert currencies_in("Invoice 12 · amounts in EUR · total 1.190,00 € · ref US-42") == ["EUR", "EUR"]
    assert currencies_in("Sold to: US customer, Total 5.00 usd") == []  # lower case is a word in running text


def test_guess_locale():
    assert guess_locale("Rechnung Nr. 42 Gesamtbetrag 1.190,00 €") == "de_DE"
    assert guess_locale("Facture n° 42 Montant TTC 1 190,00 €") == "fr_FR"
    assert guess_locale("Invoice 42 Total $1,190.00") == "en_US"
    assert guess_locale("Invoice 42 VAT £1,190.00") == "en_GB"
    assert guess_locale("Factuur 42 Totaal te betalen € 1.190,00") == "nl_NL"
    assert guess_locale("Fattura n. 42 Totale imponibile 1.000,00 Aliquota 22%") == "it_IT"
    assert guess_locale("Factura n.º 42 Base imponible 1.000,00 Importe total") == "es_ES"


def test_a_speck_read_as_an_opening_quote_is_not_part_of_a_scanned_name_or_address():
    from docextract.extraction.entities import normalize_value

    assert normalize_value("vendor_name", "‘Apex Solutions Ltd.", "en_GB")[1] == "Apex Solutions Ltd."
    assert normalize_value("billing_address", "Bahnhof Strasse 1\n‘AT 1234 Muster Ort", "de_AT")[1] == \
        "Bahnhof Strasse 1 AT 1234 Muster Ort"
    # a quote the line closes, and the apostrophe of a Dutch place name, are printed
    assert normalize_value("vendor_name", "‘Best Coffee’ Ltd", "en_GB")[1] == "‘Best Coffee’ Ltd"
    assert normalize_value("vendor_address", "‘s-Hertogenbosch", "nl_NL")[1] == "‘s-Hertogenbosch"
    # a framed box's left border read as a bar before its lines
    assert normalize_value("customer_name", "| Lefèvre Laboratoires S.A.R.L.", "fr_FR")[1] == \
        "Lefèvre Laboratoires S.A.R.L."
    assert normalize_value("billing_address", "| 24 allée des Tilleuls\n44000 Nantes", "fr_FR")[1] == \
        "24 allée des Tilleuls 44000 Nantes"
    assert normalize_value("payment_terms", "A | B", "en_GB")[1] == "A | B"  # inside a line: printed


def test_a_country_code_ocr_glued_to_its_postcode_is_parted_again():
    from docextract.extraction.entities import normalize_value

    assert normalize_value("vendor_address", "Lieferantenstraße 20\nDE80333 München", "de_DE")[1] == \
        "Lieferantenstraße 20 DE 80333 München"
    assert normalize_value("vendor_address", "153 Victoria Street\nSW1B 3BN London", "en_GB")[1] == \
        "153 Victoria Street SW1B 3BN London"  # a British postcode is no country code and postcode


def test_a_speck_ocr_read_after_a_postcode_lines_country_code_or_postcode_is_dropped():
    from docextract.extraction.entities import normalize_value

    for scanned in ("Lieferantenstraße 20\nDE. 80333 München", "Lieferantenstraße 20\nDE: 80333 München",
                    "Lieferantenstraße 20\nDE 80333. München"):
        assert normalize_value("vendor_address", scanned, "de_DE")[1] == "Lieferantenstraße 20 DE 80333 München"
    assert normalize_value("billing_address", "NO: 2820 JALAN BUNGA", "en_MY")[1] == "NO: 2820 JALAN BUNGA"  # a key
    assert normalize_value("vendor_name", "DE. 80333 München", "de_DE")[1] == "DE. 80333 München"  # addresses only


def test_a_colon_or_comma_ocr_read_inside_a_scanned_address_is_dropped_or_read_as_its_dot():
    from docextract.extraction.entities import normalize_value

    assert normalize_value("vendor_address", "123 Seller St» Suite 100 Building A: 12345 Seller City", "en_US")[1] == \
        "123 Seller St Suite 100 Building A 12345 Seller City"
    assert normalize_value("vendor_address", "789 Commerce Street:\nM1 1AA Manchester", "en_GB")[1] == \
        "789 Commerce Street M1 1AA Manchester"
    assert normalize_value("vendor_address", "Marktstr, 153\nDE 38226 Salzgitter", "de_DE")[1] == \
        "Marktstr. 153 DE 38226 Salzgitter"
    # a house number's key, and a colon before anything but the place's line, stay
    assert normalize_value("billing_address", "NO: 2820 JALAN BUNGA", "en_MY")[1] == "NO: 2820 JALAN BUNGA"
    assert normalize_value("billing_address", "Attn: 12 Main Street", "en_US")[1] == "Attn: 12 Main Street"


def test_a_sign_alone_between_an_addresss_parts_is_a_separator():
    from docextract.extraction.entities import normalize_value

    # a footer's "Name - street - place" (Tryton's company footer), "Street · Postcode City"
    assert normalize_value("vendor_address", "Mozartstraße 88 - 30159 Hannover", "de_DE")[1] == \
        "Mozartstraße 88, 30159 Hannover"
    assert normalize_value("vendor_address", "1358 Maple Avenue – Portland, OR 97205", "en_US")[1] == \
        "1358 Maple Avenue, Portland, OR 97205"
    assert normalize_value("vendor_address", "Rue du Lac 4 · 1003 Lausanne", "fr_CH")[1] == "Rue du Lac 4, 1003 Lausanne"
    # not a range of house numbers, nor a hyphen that belongs to a word
    assert normalize_value("vendor_address", "Hauptstraße 5 - 7\n10115 Berlin", "de_DE")[1] == \
        "Hauptstraße 5 - 7 10115 Berlin"
    assert normalize_value("billing_address", "LOT 1851 -A JALAN", "en_MY")[1] == "LOT 1851 -A JALAN"
    assert normalize_value("vendor_address", "1 UTAMA SHOPPING CENTRE - PHASE 2 PERSIARAN BANDAR UTAMA", "en_MY")[1] == \
        "1 UTAMA SHOPPING CENTRE - PHASE 2 PERSIARAN BANDAR UTAMA"


def test_a_bare_dollar_is_the_dollar_the_document_names_by_its_code():
    from docextract.extraction.entities import normalize_value
    from docextract.extraction.normalize import bare_sign, named_in_family

    # Wave's Canadian invoice: "Amount Due (CAD): $2,599.00"
    assert named_in_family("Amount Due (CAD): $2,599.00 Total: $2,599.00", "USD") == "CAD"
    assert named_in_family("Total A$ 12.00", "USD") == "AUD"
    assert named_in_family("Total $12.00", "USD") is None
    assert named_in_family("Total 12.00 USD, CAD $16.40", "USD") is None
    assert bare_sign("$2,599.00") == "USD" and bare_sign("US$ 12.00") is None and bare_sign("CAD $12.00") is None
    # the crowns' "kr" likewise: a Danish bill's "5.000,00 kr." is Danish
    assert bare_sign("5.000,00 kr.") == "SEK" and named_in_family("I alt DKK 5.000,00 kr.", "SEK") == "DKK"
    assert normalize_value("total", "5.000,00 kr.", "da_DK", "DKK")[1] == {"amount": "5000.00", "currency": "DKK"}
    assert normalize_value("total", "$2,599.00", "en_US", "CAD")[1] == {"amount": "2599.00", "currency": "CAD"}
    assert normalize_value("currency", "$", "en_US", "CAD")[1] == "CAD"
    assert normalize_value("total", "US$ 12.00", "en_US", "CAD")[1]["currency"] == "USD"
    assert normalize_value("total", "$12.00", "en_US", "EUR")[1]["currency"] == "USD"


def test_the_rands_r_is_a_currency_only_before_an_amount():
    assert parse_currency("R 2 800,00") == "ZAR" and parse_currency("Total R1,234.56") == "ZAR"
    assert parse_currency("R44 Helshoogte Road") is None and parse_currency("R 12") is None
    assert parse_currency("R$ 12,00") != "ZAR"  # the real's sign


def test_polish_and_czech_dates_and_currencies():
    assert parse_date("22 kwietnia 2024", "pl_PL") == date(2024, 4, 22)
    assert parse_date("22. dubna 2024", "cs_CZ") == date(2024, 4, 22)
    assert parse_date("10. 4. 2024", "cs_CZ") == date(2024, 4, 10)  # a Czech date printed in spaced parts
    assert parse_date("1 wrzesnia 2024", "pl_PL") == date(2024, 9, 1)  # as OCR reads it without its mark
    # the złoty's and the koruna's signs, also in a field's own text read in any case
    assert parse_currency("12 100,00 Kč") == "CZK" and parse_currency("2 460,00 zł") == "PLN"
    assert parse_currency("5.000,00 kr.") == "SEK"


def test_gulf_and_peso_currencies_and_a_locales_own_dollar():
    from docextract.document import Document, Page, Word, Box
    from docextract.extraction.entities import document_sign_currencies

    assert parse_currency("Grand Total AED 9,450.00") == "AED"
    assert parse_currency("TOTAL PEN 4") is None  # a word in capitals, no currency

    def page(text):
        words = tuple(Word(t, Box(50 + 40 * i, 60, 80 + 40 * i, 70)) for i, t in enumerate(text.split()))
        return Document(source="x.pdf", pages=(Page(number=1, width=595.0, height=842.0, words=words),), sha256="0" * 64)

    # an Argentine factura's "$" is pesos, an Australian tax invoice's Australian dollars; a US invoice's stays
    signs = document_sign_currencies(page("FACTURA CUIT: 30-71234560-4 Ingresos Brutos CABA Importe Total: $ 181.500,00"))
    assert signs == {"USD": "ARS"}
    assert document_sign_currencies(page("TAX INVOICE ABN 51 824 753 556 Pty Ltd Total $100.00 14/03/2024")) == {"USD": "AUD"}
    assert document_sign_currencies(page("INVOICE Total $100.00 Sales tax 03/14/2024")) == {}
    # a Danish bill's "kr." is Danish crowns, a Chilean factura's "$" pesos
    signs = document_sign_currencies(page("Faktura Fakturanr. 7712345 Forfaldsdato 15.04.2024 Moms 25% I alt at betale 5.000,00 kr."))
    assert signs == {"SEK": "DKK"}
    assert document_sign_currencies(page("FACTURA ELECTRÓNICA R.U.T.: 76.123.456-0 S.I.I. Giro: TOTAL $ 119.000")) == {"USD": "CLP"}
    # an Ontario contractor's "$" is Canadian dollars, a Mexican CFDI's pesos
    assert document_sign_currencies(page("INVOICE Hamilton, ON L8P 1A1 HST Reg. No. 872345616 RT0001 Date April 15, 2024 "
                                         "Subtotal $2,200.00 HST 13% $286.00 Total $2,486.00")) == {"USD": "CAD"}
    assert document_sign_currencies(page("FACTURA RFC: TDE2012108Q0 Subtotal $10,000.00 IVA 16% $1,600.00 "
                                         "Total $11,600.00 PESOS 00/100 M.N.")) == {"USD": "MXN"}
    # a Quebec company's "$" is Canadian dollars, a French one's named by its code
    assert document_sign_currencies(page("FACTURE Montréal (Québec) No TPS : 123456782 RT0001 Sous-total 1 000,00 $ "
                                         "TPS (5 %) 50,00 $ TVQ (9,975 %) 99,75 $ Total 1 149,75 $")) == {"USD": "CAD"}


def test_a_date_that_closes_or_opens_a_parenthesis_is_read_without_it():
    # sevDesk's "innerhalb von 14 Tagen (bis zum 22.04.2024)": the date's word ends with the parenthesis
    assert parse_date("22.04.2024)", "de_DE") == date(2024, 4, 22)
    assert parse_date("(12/03/2024", "fr_FR") == date(2024, 3, 12)
    assert parse_date("(2.6)", "de_DE") is None  # a parenthesis around no date is still none


def test_the_rupees_sign_glued_to_an_amount_names_its_currency_and_keeps_it_an_amount():
    from docextract.extraction.evidence import odd_shape

    assert currencies_in("Total Rs.1,19,454.00") == ["INR"]
    assert currencies_in("Rs 500") == ["INR"]
    assert currencies_in("Mrs. Smith") == [] and currencies_in("Rs.") == []  # a word, and the sign with no amount
    assert not odd_shape("total", "amount", "Rs.1,19,454.00")
