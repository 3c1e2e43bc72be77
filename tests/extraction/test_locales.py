"""The document's locale from evidence that cannot collide, and what follows from it."""

import pytest

from docextract.extraction.entities import normalize_value
from docextract.extraction.locales import document_year, guess_locale, locale_evidence

US_INVOICE = """INVOICE  Invoice No. INV-2024-0042
Customer: Anna Reed, 1403 Maple Avenue, Columbus, OH 43215
Invoice Date: August 3, 2024   Due Date: 03/04/2024
Subtotal 1,234.50  Total $1,234.50  Please make sure the adjustment is paid"""

GERMAN_INVOICE = """RECHNUNG  Rechnungsnummer RE-2024-0042
Rechnungsdatum: 03.04.2024   Kunde: Anna Reed, Musterstraße 1, 70188 Stuttgart
Nettobetrag 1.037,39  zzgl. MwSt. 19 %  Gesamtbetrag 1.234,50 €  USt-IdNr. DE136695976"""


def test_us_invoice_with_customer_and_august_is_en_us_and_reads_month_first():
    # "Customer", "August", "must", "adjustment" contain the German "ust" as substrings: never evidence
    locale = guess_locale(US_INVOICE)
    assert locale == "en_US"
    assert normalize_value("due_date", "03/04/2024", locale)[1] == "2024-03-04"
    assert normalize_value("total", "1,234.50", locale)[1] == {"amount": "1234.50", "currency": None}
    assert normalize_value("line_item_quantity", "1,234", locale)[1] == "1234"


def test_german_invoice_is_de_de_and_reads_day_first_with_decimal_comma():
    locale = guess_locale(GERMAN_INVOICE)
    assert locale == "de_DE"
    assert normalize_value("invoice_date", "03.04.2024", locale)[1] == "2024-04-03"
    assert normalize_value("total", "1.234,50 €", locale)[1] == {"amount": "1234.50", "currency": "EUR"}


@pytest.mark.parametrize("text, locale", [
    ("Rechnung Nr. 42 Gesamtbetrag 1.190,00 €", "de_DE"),
    ("Facture n° 42 Montant TTC 1 190,00 € TVA 20 %", "fr_FR"),
    ("Factuur 42 Factuurdatum 03-04-2024 BTW 21 % Totaal € 1.190,00", "nl_NL"),
    ("Fattura n. 42 Importo IVA 22 % Totale 1.190,00 €", "it_IT"),
    ("Factura n.º 42 Fecha 03/04/2024 IVA 21 % Importe 1.190,00 €", "es_ES"),
    ("Invoice 42 Total $1,190.00", "en_US"),
    ("Invoice 42 VAT £1,190.00", "en_GB"),
    ("TAX INVOICE  KEDAI SDN BHD  GST  Date 25/12/2018  Total RM 12.50  Cash 20.00", "en_MY"),
    ("Invoice 42 Date 25/12/2018 Total 12.50", "en_GB"),  # a day above 12: day first
    ("Invoice 42 Date 12/25/2018 Total 12.50", "en_US"),  # a second part above 12: month first
    ("Faktura Fakturanummer 42 Fakturadatum 2024-04-03 Förfallodatum 2024-05-03 Moms 25 % Att betala SEK 1 190,00",
     "sv_SE"),
    ("Faktura Fakturanr. 42 Fakturadato 15.04.2024 Forfallsdato 29.04.2024 MVA 25 % Beløp å betale NOK 1 190,00",
     "nb_NO"),
    ("Faktura Fakturanr. 42 Fakturadato 15.04.2024 Forfaldsdato 29.04.2024 Moms 25 % Beløb i alt DKK 1.190,00", "da_DK"),
    ("Lasku Laskun numero 42 Eräpäivä 22.04.2024 Veroton yhteensä 1 000,00 ALV 24 % Yhteensä 1 240,00", "fi_FI"),
    ("TAX INVOICE Lion City Tech Pte. Ltd. UEN: 201912340C Singapore Total Payable (S$) 1,569.60", "en_SG"),
    ("TAX INVOICE Desert Rose Trading L.L.C. Dubai TRN: 100234567800003 Grand Total AED 9,450.00", "en_AE"),
    ("FACTURA CUIT: 30-71234560-4 Ingresos Brutos CABA Importe Total: $ 181.500,00 Fecha 22/03/2024", "es_AR"),
    ("TAX INVOICE Kiwi Plumbing Ltd Auckland NEW ZEALAND GST Number 123-456-703 TOTAL NZD 402.50", "en_NZ"),
    ("Fatura n.º 42 Data de vencimento 05-05-2024 Total Ilíquido 1.000,00 IVA 23 % Total a pagar 1.230,00 €", "pt_PT"),
    ("FACTURE No de facture : 10457 Montréal (Québec) H3A 1H6 Sous-total 1 000,00 $ TPS (5 %) 50,00 $ TVQ (9,975 %) "
     "99,75 $ Total 1 149,75 $", "fr_CA"),
    # a bare "$" is a dollar of any dollar country: the region's words and Canadian postal codes decide
    ("INVOICE Invoice # NR-2024-118 Date April 15, 2024 Hamilton, ON L8P 1A1 HST Reg. No. 872345616 RT0001 "
     "Subtotal $2,200.00 HST 13% $286.00 Total $2,486.00", "en_CA"),
    ("INVOICE Invoice # 118 Date April 15, 2024 Austin, TX 78701 Subtotal $2,200.00 Sales tax $181.50", "en_US"),
    ("FACTURA RFC: TDE2012108Q0 Fecha de emisión: 2024-04-16 Subtotal $10,000.00 IVA 16% $1,600.00 "
     "Total $11,600.00 ONCE MIL SEISCIENTOS PESOS 00/100 M.N.", "es_MX"),
    ("Faktura VAT nr FV/2024/04/015 Data wystawienia: 2024-04-22 Sprzedawca Nabywca NIP: 527-123-45-63 Razem "
     "2 000,00 23% 460,00 2 460,00 Do zapłaty: 2 460,00 PLN", "pl_PL"),
    ("FAKTURA - DAŇOVÝ DOKLAD č. 2024041 Dodavatel: Odběratel: Datum splatnosti: 06.05.2024 Základ daně 21 % "
     "10 000,00 DPH 21 % 2 100,00 Celkem k úhradě 12 100,00 Kč", "cs_CZ"),
    ("TAX INVOICE Karoo Solar (Pty) Ltd VAT No. 4123456789 Cape Town, 8001 Date: 2024/03/11 Subtotal R 34 500,00 "
     "VAT 15% R 5 175,00 Total R 39 675,00", "en_ZA"),
    ("", "en_US"),
])
def test_guess_locale_by_language(text, locale):
    assert guess_locale(text) == locale


def test_words_count_only_whole():
    evidence = locale_evidence("Customer must make an adjustment in August; private")
    assert evidence.words["de"] == 0 and evidence.region_words["en_GB"] == 0


def test_english_words_beside_a_french_invoice_do_not_make_it_english():
    # factur-x-kit's French design keeps English boilerplate ("Thank you for your purchase! ... invoice")
    text = ("Numéro de facture: INV-1 Date de la facture: 1 octobre 2023 Date de livraison: 5 octobre 2023 "
            "Période de facturation: 01/01/24 - 31/01/24 Numéro TVA du client: IE9876543W Facture "
            "Thank you for your purchase! We hereby invoice the following services/products. "
            "Art. Produit Quantité Prix unitaire Taxe Prix total 20,00 € Montant total net 135,00 € "
            "Please pay the given amount within 30 days from invoice date. Kind regards, Your Service Team")
    assert guess_locale(text) == "fr_FR"


def test_document_year_is_the_year_its_dates_print():
    assert document_year("Invoice date: July 31  Issued 31.07.2023  Due 15 August 2023  2024-01-02") == 2023
    assert document_year("no dates at all, 1,234.50") is None


def test_an_australian_tax_invoice_reads_as_australian_and_its_abn_is_checked():
    from docextract.extraction.identifiers import check_tax_id

    text = "HARBOURSIDE HARDWARE 12 Wharf St, Hobart TAS 7000 ABN 51 824 753 556 TAX INVOICE Date 14/03/2024 " \
           "Customer: Bay Builders Pty Ltd TOTAL $100.00 GST included in total $9.09"
    assert guess_locale(text) == "en_AU"
    assert (check_tax_id("51 824 753 556", "AU").valid, check_tax_id("51 824 753 557", "AU").valid) == (True, False)
    # a British invoice's "Ltd" alone stays British
    assert guess_locale("Harcourt Joinery Ltd VAT No. 123 4567 82 Tax Point: 15/03/2024 Total £5,100.00") == "en_GB"


def test_nordic_finnish_and_portuguese_month_names_are_read():
    assert normalize_value("invoice_date", "3 maj 2024", "sv_SE")[1] == "2024-05-03"
    assert normalize_value("invoice_date", "1. desember 2024", "nb_NO")[1] == "2024-12-01"
    assert normalize_value("invoice_date", "8. huhtikuuta 2024", "fi_FI")[1] == "2024-04-08"
    assert normalize_value("invoice_date", "5 de março de 2024", "pt_PT")[1] == "2024-03-05"
    assert normalize_value("total", "49 000,00", "sv_SE")[1]["amount"] == "49000.00"
