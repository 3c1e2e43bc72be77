"""A party's name and address read from its block: a heading that names the side, then "Name: ..." and
"Anschrift: ..." under it, or the name and the address lines themselves.

Many invoices print each party as a small block under a heading::

    Verkäufer                      Käufer/Leistungsempfänger
    Nummer: 549910                 Nummer: GE2020211
    Name: Lieferant GmbH           Name: Kunden AG Mitte
    Anschrift: Lieferantenstraße 20
               DE 80333 München

The heading says whose block it is (a seller's or a buyer's word, :data:`SIDE_WORDS`); the line that starts with a
name key (:data:`NAME_KEYS`) in the block gives the name, the one with an address key (:data:`ADDRESS_KEYS`) the
address with its continuation lines in the value column. A block without those keys is read as an address
label is written::

    Verkäufer:                     Käufer/Leistungsempfänger:
    Lieferant GmbH                 Kunden AG Mitte
    Lieferantenstraße 20           Hans Muster
    DE 80333 München               Kundenstraße 15
    Steuernummer : 201/113/40209   DE 69876 Frankfurt

its first line the name, the lines after it down to the postcode line (:func:`is_postcode_line`) the address;
without a postcode line within :data:`MAX_ADDRESS_LINES` lines nothing is read from it. A block runs down its
heading's column for at most :data:`MAX_BLOCK_LINES` lines and ends at the next heading. :func:`party_fields` is
one more rule of :mod:`docextract.extraction.key_values`.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Iterator, Sequence

from docextract.document import Box, Document, Line, WordRef
from docextract.extraction.field_keywords import closing_keys, is_legal_form, key_form, key_tokens
from docextract.extraction.key_context import (AMOUNT_END, OCR_TEXT_HEIGHT_OF_INK, cell_break, first_cell, is_separator,
                                              is_title_word, line_of, line_right_of, row_keys, whole_key)
from docextract.extraction.per_document import per_document

SHIPPING_SIDE = "shipping_name"  # not an output field: the side of a shipping block, whose address is read
# The words of a heading, per side: every token of the heading is one of its side's (after "/" and "-" split it).
SIDE_WORDS = {
    "vendor_name": frozenset({
        "seller", "supplier", "vendor", "from", "issuer", "verkaufer", "lieferant", "rechnungssteller", "rechnungsersteller",
        "leistungserbringer", "auftragnehmer", "fournisseur", "vendeur", "emetteur", "leverancier", "verkoper",
        "fornitore", "venditore", "cedente", "proveedor", "vendedor", "emisor", "provider", "prestataire",
        "datos", "del",  # "Datos del proveedor"
        "sold", "by",  # a marketplace's "Sold by" block beside the buyer's addresses
        "vendu", "par", "venduto", "vendido", "por", "verkauft",  # "Vendu par", "Venduto da", "Verkauft von"
        "da", "van",  # an office template's "DA" over the seller beside "A" over the buyer; Dutch "Van" beside "Aan"
        "leverantor", "saljare", "leverandør", "sælger", "selger", "myyja", "toimittaja", "fornecedor", "emitente",
        "sprzedawca", "dostawca", "wystawca", "dodavatel", "prodavajici",
        "landlord", "vermieter", "bailleur", "verhuurder", "arrendador", "locatore"}),  # a rent invoice's landlord
    "customer_name": frozenset({
        "buyer", "customer", "client", "bill", "billed", "to", "invoice", "invoiced", "recipient", "kaufer", "kunde",
        "guest", "gast",
        "eleve",  # a driving school's pupil (not a practice's "Patient", whose heading shares a row with "Behandlung")
        "tenant", "mieter", "locataire", "huurder", "arrendatario", "inquilino", "conduttore",  # a rent invoice's tenant
        "leistungsempfanger", "rechnungsempfanger", "empfanger", "auftraggeber", "acheteur", "destinataire",
        "koper", "klant", "afnemer", "acquirente", "committente", "cessionario", "comprador", "cliente",
        "destinatario", "receptor",  # a Spanish factura's "Emisor" beside "Receptor"
        # the address the invoice goes to: "Billing address", "Invoice address", "Adresse de facturation",
        # "Rechnungsadresse" ("Address" or "Adresse" alone names the delivery's too: no side)
        "billing", "address", "adresse", "de", "facturation", "rechnungsadresse", "rechnungsanschrift",
        "factuuradres",
        "adressee", "facture", "a", "facturer",  # "Adressée à", "Facturé à", Quebec's "Facturer à" ("Facture" alone is the title)
        "factureren", "gefactureerd", "aan", "facturar", "facturado", "fatturare", "fatturato",  # "Factureren aan", "Facturar a"
        "datos", "del", "facturacion",  # "Datos del cliente", "Datos de facturación"
        "kund", "kopare", "køber", "kjøper", "mottagare", "modtager", "mottaker", "fakturaadress", "fakturaadresse",
        "faktureringsadress", "faktureringsadresse", "asiakas", "ostaja", "vastaanottaja", "laskutusosoite",
        "adquirente", "nabywca", "platnik", "odberatel", "kupujici"}),
    # where the goods go: a block of its own, read for its address only (the output has no shipping name)
    SHIPPING_SIDE: frozenset({
        "ship", "shipping", "deliver", "delivery", "address", "to", "warenempfanger", "abweichender", "lieferanschrift",
        "lieferadresse", "lieferung", "an", "livraison", "adresse", "de", "livrer", "a", "expedier", "afleveradres", "leveradres",
        "consegna", "destinazione", "merce", "indirizzo", "di", "envio", "entrega", "direccion", "leveransadress",
        "leveringsadresse", "toimitusosoite", "morada", "local", "odbiorca", "adres", "dostawy", "dodaci", "adresa",
        "misto", "dodani",
        # a connection's place (a telecom's or utility's bill): "Adresse d'installation", "Installatieadres"
        "installation", "d", "raccordement", "installatieadres", "aansluitadres", "installationsadresse",
        "anschlussadresse"}),
}
# (stop 73) the parties' headings of Central, Eastern and Southern Europe ("Eladó | Vevő", "Furnizor | Cumpărător",
# "Prodavatelj | Kupac", "Доставчик | Получател"), folded as key_tokens folds them
for _side_name, _words in (("vendor_name", ("eladó", "szállító", "furnizor", "prodavatelj", "dobavljač", "izdajatelj",
                                             "prodajalec", "πωλητής", "εκδότης", "доставчик", "продавач", "pardavėjas",
                                             "tiekėjas", "piegādātājs", "sniedzējs", "müüja", "satıcı", "dodávateľ")),
                           ("customer_name", ("vevő", "cumpărător", "beneficiar", "kupac", "kupec", "prejemnik",
                                              "naročnik", "αγοραστής", "πελάτης", "получател", "купувач", "pirkėjas",
                                              "maksātājs", "saņēmējs", "ostja", "maksja", "alıcı", "odberateľ"))):
    SIDE_WORDS[_side_name] = SIDE_WORDS[_side_name] | frozenset(t for w in _words for t in key_tokens(w))
SIDE_WORDS_ANY = frozenset().union(*SIDE_WORDS.values())
_HEADING_WORDS = sorted(SIDE_WORDS_ANY)
# A heading read by OCR: a word of at least MIN_OCR_HEADING_WORD letters that is the first half or more of one heading
# word only, or this similar (difflib's ratio) to one, is that word ("Verkau", "Kéufer", "Warenempfinger",
# "Rechnungserseler"); the first half of two heading words of different sides is the one of the side the line's other
# words name ("Käufer/Leistungs": "Leistungsempfänger", not "Leistungserbringer"); a shorter last word may be cut
# short ("Käufer/Le": the rest of the line broken off), and is the one heading word it starts, if it has at least
# MIN_OCR_CUT_LAST_WORD letters ("Abweichender Ware"); letters read apart are one word ("K a ufer:"), and so are
# two pieces of a word a space broke ("Leis tungsempfänger")
OCR_HEADING_SIMILARITY = 0.83  # ("Verkaufsset" 0.80, "Zahlungsempfänger" to "Rechnungsempfänger" 0.80)
MIN_OCR_HEADING_WORD = 5
MIN_OCR_CUT_LAST_WORD = 4
MIN_JOINED_HEADING_WORD = 8
# Words that qualify a side's word in a heading and name no side alone ("Service Provider"; a line "Service" is a
# table's column head)
# Headings whose words name a side only together: WHMCS's "Pay To" beside "Invoiced To" (the payee), "Remit To",
# and the US "Sold To" beside "Ship To" (the buyer, though a marketplace's "Sold by" is the seller); a template's
# "Issued to" and "Billed by" beside "Billed to"; the German "Rechnung an" (the invoice to: Stripe's "Bill to")
PHRASE_SIDES = {("pay", "to"): "vendor_name", ("remit", "to"): "vendor_name", ("payee",): "vendor_name",
                ("sold", "to"): "customer_name", ("issued", "to"): "customer_name", ("billed", "by"): "vendor_name",
                ("rechnung", "an"): "customer_name",
                ("verkocht", "door"): "vendor_name",  # a marketplace's invoice in the seller's name: its seller
                # the debtor's block of a Swiss QR-bill's receipt and payment part, in its four languages
                ("zahlbar", "durch"): "customer_name", ("payable", "par"): "customer_name",
                ("pagabile", "da"): "customer_name", ("payable", "by"): "customer_name",
                ("titular", "del", "contrato"): "customer_name",  # a Spanish utility's contract holder
                # the Italian invoice's holder: "Intestatario fattura" (the buyer)
                ("intestatario",): "customer_name", ("intestatario", "fattura"): "customer_name",
                # an export invoice's parties (stop 74): "Exporter" | "Consignee / Importer of record"
                ("exporter",): "vendor_name", ("shipper", "exporter"): "vendor_name",
                ("importer",): "customer_name", ("importer", "of", "record"): "customer_name",
                ("consignee", "importer", "of", "record"): "customer_name", ("consignee", "importer"): "customer_name"}
_PHRASE_WORDS = frozenset(word for phrase in PHRASE_SIDES for word in phrase)  # read as printed, never as a closer
# A payee's heading ("Remit to", "Pay to", "Payee", "Betaal aan / Remit to") names whom to pay, and under it an agency
# or a consultancy prints the bank that holds its account ("Barclays Bank UK PLC" | "1 Churchill Place" | "Sort
# code ..."): a block whose first line names a bank (one of BANK_NAME_WORDS, or a word ending in "bank": "Rabobank",
# "Commerzbank") is the bank's: its first line names neither the seller nor its address (a name key in it still does)
PAYEE_WORDS = frozenset({"remit", "pay", "payee"})
BANK_NAME_WORDS = frozenset({"bank", "banque", "banca", "banco", "sparkasse", "bankas", "banka", "bankverbindung"})
# heading word by OCR's correction: "Issued" is no misread "Issuer"
# "Guest Details", Latvian "Preču piegādātājs / pakalpojumu sniedzējs" (of goods | of services): the side its other
# words name
HEADING_QUALIFIERS = frozenset({"service", "details", "information", "precu", "pakalpojumu"})
# A letter's "From:" and "To:" in the six languages: alone on their line, headings of the two parties
LETTER_SIDES = {**dict.fromkeys(("from", "von", "van", "de", "da"), "vendor_name"),
                **dict.fromkeys(("to", "an", "aan", "a", "para"), "customer_name")}
# A shipping heading names the goods' destination with one of these ("Ship to", "Abweichender Warenempfänger",
# "Adresse de livraison"); its other words ("to", "address", "an") alone are no heading
_SHIPPING_NAMES = frozenset({"ship", "shipping", "deliver", "delivery", "warenempfanger", "lieferanschrift",
                             "lieferadresse", "lieferung", "livraison", "livrer", "afleveradres", "leveradres",
                             "consegna", "merce", "envio", "entrega", "leveransadress", "leveringsadresse",
                             "toimitusosoite", "expedier", "odbiorca", "dostawy", "dodaci", "dodani",
                             "installation", "raccordement", "installatieadres", "aansluitadres",
                             "installationsadresse", "anschlussadresse"})
_SHIPPING_HEADINGS = frozenset({"warenempfanger", "lieferanschrift", "lieferadresse", "afleveradres", "leveradres",
                                "installatieadres", "aansluitadres", "installationsadresse", "anschlussadresse"})
NAME_KEYS = frozenset({("name",), ("firma",), ("company",), ("company", "name"), ("nom",), ("raison", "sociale"),
                       ("naam",), ("bedrijfsnaam",), ("nome",), ("ragione", "sociale"), ("denominazione",), ("nombre",),
                       ("razon", "social"),
                       # the payee's account under "Pay to:", its bank's name the line over it
                       ("account", "name"), ("account", "holder"), ("kontoinhaber",),
                       # Central, Eastern and Southern Europe's (stop 74): Latvian, Lithuanian, Bulgarian, Greek,
                       # Croatian/Slovenian/Serbian, Romanian, Hungarian, Turkish, Czech, Estonian
                       ("nosaukums",), ("pavadinimas",), ("име", "на", "фирма"), ("фирма",), ("наименование",),
                       ("επωνυμια",), ("naziv",), ("naziv", "firme"), ("denumire",), ("denumirea",), ("cegnev",),
                       ("nev",), ("unvan",), ("unvani",), ("nazev",), ("obchodni", "firma"), ("obchodne", "meno"),
                       ("nimi",)})
ADDRESS_KEYS = frozenset({("anschrift",), ("adresse",), ("address",), ("adres",), ("indirizzo",), ("direccion",),
                          ("domicilio",), ("postanschrift",),
                          ("adresas",), ("adrese",), ("juridiska", "adrese"), ("aadress",), ("adresa",), ("adresi",),
                          ("naslov",), ("sediu",), ("sediul",), ("cim",), ("szekhely",), ("sidlo",), ("адрес",),
                          ("διευθυνση",)})
ADDRESS_OF_SIDE = {"vendor_name": "vendor_address", "customer_name": "billing_address", SHIPPING_SIDE: "shipping_address"}
MAX_ADDRESS_LINES = 4
MAX_HEADING_TOKENS = 4
MAX_BLOCK_LINES = 8
COLUMN_TOLERANCE_OF_HEIGHT = 2.0  # a block's lines start within this many text heights of its heading's left edge
BLOCK_BESIDE_GAP_OF_HEIGHT = 5.0  # a block right of its heading ("Bill To:" | name) starts within this many heights
MAX_KEYED_LINES_BEFORE_NAME = 3  # "Nummer: ...", "Globale Nummer: ..." lines a label may start under
# How a line naming whom a letter is for starts (German, English, French, Dutch, Scandinavian)
ATTENTION_STARTS = frozenset({("z", "hd"), ("zhd",), ("z", "h"), ("attn",), ("attention",), ("fao",), ("t", "a", "v"),
                              ("tav",), ("a", "l", "attention"), ("att",)})
COLUMN_GAP_OF_HEIGHT = 1.5  # a keyed value's next line in its column ("Anschrift: Musterstraße 3" | "DE 12345 Berlin")
TITLE_QUALIFIERS = frozenset({"tax", "vat", "gst"})  # words a title may add to its title word ("TAX INVOICE")
STACKED_GAP_OF_HEIGHT = 1.3  # the lines of an address label follow each other closer than 1.3 line heights
NAME_GAP_OF_HEIGHT = 2.0  # ... but its address may stand a blank line under its name ("MUSTERLIEFERANT GMBH" | | street)
# On a scan a line's height is known from its ink alone, which varies with its letters ("Herrn" 6.2 points high, "Max
# Mustermann" 6.4, "Verkehrsbetriebe GmbH" 8.4 on one 8-pt block), and a blank line inside an address (12.6 points
# under a text layer's line, 1.3 heights 13.0) broke it on scans. Read by OCR, two lines are stacked too where they
# stand within this many of the block's own line pitches top to top (its single steps, :func:`_line_pitch`): one blank
# line between an address's lines (2 pitches, and Tesseract's boxes move a line's top by a point or so), a little more
# under its name
MIN_TAX_ID_DIGITS = 7  # a tax id under a party's name: mostly digits ("51234560J", "B87654307", "DE123456789")
MAX_TAX_ID_LETTERS = 3
OCR_STACKED_PITCHES = 2.5
OCR_NAME_PITCHES = 2.8
# A line that only greets whom the letter is for (German, English, French, Dutch, Italian, Spanish); "Firma" over a
# company's name, and the Italian "Spett.le" (spettabile: to the esteemed), say only that it is one: no part of it
# (a Portuguese letter's "Exmo(s). Sr(s)." or "Exmo(s). Senhor(es)" over a company: "Dear Sir(s)", no part of its name;
# "Ter attentie van" / "For the attention of" alone on the line over it likewise)
COMPANY_SALUTATIONS = frozenset({("firma",), ("spett", "le"), ("spettabile",), ("exmo", "s", "sr", "s"), ("exmos", "srs"),
                                 ("exmo", "s", "senhor", "es"), ("exmos", "senhores"), ("ter", "attentie", "van"),
                                 ("for", "the", "attention", "of")})
SALUTATIONS = COMPANY_SALUTATIONS | frozenset({
    ("herrn",), ("herr",), ("frau",), ("mr",), ("mrs",), ("ms",), ("monsieur",), ("madame",), ("mme",), ("dhr",),
    ("mevr",), ("mevrouw",), ("meneer",), ("de", "heer"), ("sig",), ("sig", "ra"), ("signor",), ("signora",), ("sr",),
    ("sra",), ("senor",), ("senora",), ("miss",), ("mlle",), ("m", "et", "mme"), ("fam",), ("familie",), ("famille",), ("famiglia",), ("familia",),
    ("exmo",), ("exmos",), ("exma",), ("exmo", "sr"), ("exmo", "senhor"), ("exma", "senhora"), ("pan",), ("pani",),
    # a couple: "Herrn und Frau" over "Markus und Sabine Lehmeier"
    ("herrn", "und", "frau"), ("herr", "und", "frau"), ("frau", "und", "herrn"), ("frau", "und", "herr"),
    ("mr", "and", "mrs"), ("monsieur", "et", "madame"), ("de", "heer", "en", "mevrouw")})
SENDER_SEPARATORS = frozenset({"·", "•", "|", "∙", "–", "—"})  # between the parts of a one-line return address
# The same dots as Tesseract reads them on a scan: alone ("+", "-", "»"), stuck to a part's end ("St-", "A»") or to
# the next part's start ("-789"). Not a colon, which it reads for one too ("Street:"): keys end in it ("INVOICE NO :
# 179509" on a receipt is no return address)
OCR_SENDER_SEPARATORS = SENDER_SEPARATORS | {"+", "-", "»", "«", "*", "°", "="}
# A return address is printed small, so on a scan Tesseract often breaks it into pieces a little above and below each
# other: the pieces whose centres stand within this many of its heights of a line's centre, and each within a few
# heights of the next left or right (not a column further right), are read as one line
RETURN_LINE_BAND_OF_HEIGHT = 0.8
RETURN_LINE_GAP_OF_HEIGHT = 3.0
ENVELOPE_TOP_SHARE = 0.4  # a return address stands in the top of the first page
# An envelope window's recipient starts 40-100 mm under the top of an A4 page (DIN 5008 forms A and B: 27-72 and
# 45-90 mm; DIN 676, isodoc and US #10 windows about 50-90 mm), on a portrait A4 or Letter page
WINDOW_BAND_OF_HEIGHT = (40 / 297, 100 / 297)
# French and Swiss letters (NF Z 11-001, SN 010130) put the recipient at the right; a page printed for such an
# envelope, or an ERP's report that sets the invoice address at the right under the company's header (Tryton), starts
# it from the highest window a standard places (DIN 5008 form A: 27 mm)
RIGHT_WINDOW_BAND_OF_HEIGHT = (27 / 297, 100 / 297)
BLOCK_GAP_OF_HEIGHT = 3.0  # a gap of more line heights than this ends a headed block's extent
SAME_SIZE_OF_HEIGHT = 0.2  # lines of one block are set in one size: their heights within this share of each other
MIN_LETTER_RATIO, MAX_LETTER_RATIO = 1.25, 1.5
# the recipient's block starts within this many line heights under it (DIN 5008 leaves up to five lines of notes,
# "Einschreiben", between the return address and the recipient), its left edge within ENVELOPE_COLUMN_OF_HEIGHT
ENVELOPE_GAP_OF_HEIGHT = 5.0
ENVELOPE_COLUMN_OF_HEIGHT = 4.0
SMALL_PRINT_OF_BODY = 0.85  # a return address is printed smaller than the page's median line (8 pt under 12 pt)
MAX_POSTCODE_LINE_WORDS = 6  # "AT 1234 Muster Ort", "EC1A 1BB London": a postcode line is short
# words that open a street line where no house number does ("Unit 30, 20 Albert Road"), as key_form reads them
STREET_OPENINGS = frozenset({"unit", "suite", "flat", "apartment", "apt", "building", "floor", "c o"})
# The start of a postcode + city line: an optional country code ("DE", "GB", "D-"), then a postcode of 4-6 digits
# ("80333", "654321"), or a British/Irish outward + inward code ("M1 1AA", "GB SW1B 3BN", "D02 XA00"); then the city.
# (Swedish, Czech, Slovak and Greek postcodes are printed in two groups: "111 43 Stockholm"; Polish and Portuguese ones
# with a dash: "00-514 Warszawa", "1200-195 Lisboa")
_POSTCODE_START = re.compile(r"(?:[A-Z]{2} )?(?:(?:[A-Z]{1,2}-)?\d{4,6}|\d{3} \d{2}|\d{2,4}-\d{3}"
                             r"|[A-Z]{1,2}\d[A-Z\d]? (?:\d[A-Z]{2}|[A-Z\d]{4}))"
                             r" [^\W\d]")
# Or the street, a comma and the postcode and town on one line: "Lidická 8, 602 00 Brno", "ul. Karmelicka 40/3, 31-128
# Kraków" (Czech, Slovak and Polish senders' one-line addresses)
_STREET_THEN_POSTCODE = re.compile(r"[^\W\d][^,]* \d+[a-zA-Z]?(?:/\d+[a-zA-Z]?)?, ?(?:\d{3} \d{2}|\d{2}-\d{3}|\d{4,5})"
                                   r" [^\W\d][^,\d]*(?: \d{1,2})?")
# Or the city first and the postcode last: a US/Canadian state and ZIP or postal code ("Nashville, TN 37203",
# "Toronto, ON M5V 2T6", "Montréal (Québec) H3A 1H6"), a British postcode ("London SW1A 1AA"), a postcode after a comma ("Köln, 50667",
# "Vilnius, LT-01100": web templates that print "{city}, {zip}")
_POSTCODE_END = re.compile(r"[^\W\d][^,\d]*(?:, ?[A-Z]{2} (?:\d{5}(?:-\d{4})?|[A-Z]\d[A-Z] \d[A-Z]\d)"
                           r"|, ?[A-Z][a-z]+(?: [A-Z][a-z]+)? \d{5}(?:-\d{4})?"  # the state spelled out: "California 94104"
                           r"|,? [A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}|, ?(?:[A-Z]{1,2}-)?\d{4,6}"
                           # an Indian PIN code with its state: "Bengaluru 560038, Karnataka", "Bengaluru, Karnataka
                           # 560038" (a bare "City 560038" or "City - 560038" would be any key and number)
                           r"|,? \d{6}, ?[A-Z][a-z]+(?: [A-Z][a-z]+)?|, ?[A-Z][a-z]+(?: [A-Z][a-z]+)? \d{6}"
                           # Quebec's province in brackets before the postal code: "Montréal (Québec) H3A 1H6"
                           r"| \([^\W\d]+\) [A-Z]\d[A-Z] \d[A-Z]\d"
                           # an Australian state and postcode after the suburb: "Bondi NSW 2026"
                           r"| (?:NSW|VIC|QLD|SA|WA|TAS|ACT|NT) \d{4})")
# A New Zealand postcode after the city ("Auckland 1010"), not a post box's or a unit's number ("PO Box 5521")
_CITY_THEN_FOUR_DIGITS = re.compile(r"(?!(?:Box|Suite|Unit|Level|Floor|Room)\b)[A-Z][a-z]+(?: [A-Z][a-z]+)? \d{4}")
# A British postcode on a line of its own under the town's ("Bath" | "BA1 1HE": Xero's and Sage's addresses), or
# after the town and its county
_BRITISH_POSTCODE = re.compile(r"(?:[^\W\d][^\d]*,? )?[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}")  # "Norwich, Norfolk, NR2 4AB" too
# An Irish Eircode likewise, on its own line under the town and county ("Co. Westmeath" | "N37 H2X4")
_EIRCODE = re.compile(r"(?:[^\W\d][^\d]*,? )?(?:[AC-FHKNPRTV-Y]\d{2}|D6W) [0-9AC-FHKNPRTV-Y]{4}")
# On a scan Tesseract reads a speck beside a country code or a postcode as a sign: "DE. 80333 München", "DE: 99199",
# "DE 31157. SARSTEDT" (the e-invoices' 150-dpi scans); a postcode line is recognised without it
_OCR_SPECK = re.compile(r"^([A-Z]{2}|\d{4,6})[.:,;]$")


def line_height(doc: Document, p: int, line: Line) -> float:
    """A line's height for the gap rules: its box's, and for a line read by OCR that box scaled to the font's size
    (:data:`~docextract.extraction.key_context.OCR_TEXT_HEIGHT_OF_INK`): Tesseract boxes the ink, a text layer the
    font's whole height."""
    scale = OCR_TEXT_HEIGHT_OF_INK if doc.pages[p].text_source == "ocr" else 1.0
    return max(line.box.height * scale, 1e-6)


def is_postcode_line(doc: Document, refs: Sequence[WordRef]) -> bool:
    """Whether the words ``refs`` are a postcode + city line: a postcode first, or last after the city and its
    state (:data:`_POSTCODE_END`), at most :data:`MAX_POSTCODE_LINE_WORDS` words."""
    if not 0 < len(refs) <= MAX_POSTCODE_LINE_WORDS:
        return False
    text = _postcode_line_text(doc, refs)
    return bool(_POSTCODE_START.match(text) or _STREET_THEN_POSTCODE.fullmatch(text)) or ends_with_postcode(doc, refs)


def _place_line_test(doc: Document, lines: Sequence[Sequence[WordRef]]):
    """How an address's place line is told among its ``lines`` (each a line's words): where one prints its postcode
    last (US, UK), only such a line, since a street line "1188 Cedar Lane" would read as postcode-first; else any
    postcode line."""
    return ends_with_postcode if any(ends_with_postcode(doc, words) for words in lines) else is_postcode_line


def ends_with_postcode(doc: Document, refs: Sequence[WordRef]) -> bool:
    """Whether the words ``refs`` are a city line with its postcode last ("Nashville, TN 37203")."""
    if not 0 < len(refs) <= MAX_POSTCODE_LINE_WORDS:
        return False
    text = _postcode_line_text(doc, refs)
    return bool(_POSTCODE_END.fullmatch(text) or _BRITISH_POSTCODE.fullmatch(text) or _EIRCODE.fullmatch(text)
                or _CITY_THEN_FOUR_DIGITS.fullmatch(text))


def _postcode_line_text(doc: Document, refs: Sequence[WordRef]) -> str:
    """The words ``refs`` as one line of text; read by OCR, without a speck read as a sign after a country code or
    a postcode (:data:`_OCR_SPECK`)."""
    texts = [doc.word(r).text for r in refs]
    if refs and doc.pages[refs[0].page_index].text_source == "ocr":
        texts = [_OCR_SPECK.sub(r"\1", text) for text in texts]
    return " ".join(texts)


def _side(tokens: Sequence[str]) -> str | None:
    if not tokens or len(tokens) > MAX_HEADING_TOKENS:
        return None
    if tuple(tokens) in PHRASE_SIDES:
        return PHRASE_SIDES[tuple(tokens)]
    named = [token for token in tokens if token not in HEADING_QUALIFIERS]
    if len(named) < len(tokens):  # "Service Provider", "Service Recipient": the side its other words name
        return _side(named) if named and not (len(named) == 1 and named[0] in LETTER_SIDES) else None
    if len(tokens) == 1 and tokens[0] in LETTER_SIDES:  # "From:", "To", "Aan:" alone on a line head a party's label
        return LETTER_SIDES[tokens[0]]  # (read only where a name and an address with its postcode follow)
    sides = [side for side, words in SIDE_WORDS.items() if set(tokens) <= words]
    # "invoice" and "to" alone are no heading, nor "Adresse", "Lieferung", "Address" alone (a key or a title);
    # a heading names one side only
    if len(sides) != 1 or set(tokens) <= {"invoice", "bill", "billing", "sold", "by", "facture", "par", "por"} and len(tokens) == 1:
        return None
    if sides[0] == SHIPPING_SIDE and (not set(tokens) & _SHIPPING_NAMES
                                      or len(tokens) == 1 and tokens[0] not in _SHIPPING_HEADINGS):
        return None  # "Lieferung" or "Delivery" alone is a column's title more often than a block's
    return sides[0]


def _tokens(doc: Document, refs: Sequence[WordRef]) -> list[str]:
    return [t for r in refs for t in key_tokens(doc.word(r).text.replace("/", " ").replace("-", " "))]


def _as_read_by_ocr(tokens: list[str]) -> list[str]:
    """A line's tokens with the misread words of a heading as the words they are (see
    :data:`OCR_HEADING_SIMILARITY`): one cut short ("Verkau") or this similar to a heading's word, one cut short that
    starts words of two sides as the word of the side the other words name, a short last word cut short ("Käufer/Le")
    left out or, when long enough, the one word it starts; single letters read apart joined ("K a ufer")."""
    tokens = _pieces_joined(_letters_joined(tokens))
    out: list[str] = []
    ambiguous: dict[int, list[str]] = {}
    for n, token in enumerate(tokens):
        if token in SIDE_WORDS_ANY or token in _PHRASE_WORDS:
            out.append(token)
        elif len(token) < MIN_OCR_HEADING_WORD:
            starts = [word for word in _HEADING_WORDS if word.startswith(token)]
            if not (n and n == len(tokens) - 1 and starts):
                out.append(token)
            elif len(token) >= MIN_OCR_CUT_LAST_WORD and len(starts) == 1:
                out.append(starts[0])
        else:
            cut = [word for word in _HEADING_WORDS if word.startswith(token) and 2 * len(token) >= len(word)]
            if len(cut) > 1:
                ambiguous[len(out)] = cut
            out.append(cut[0] if len(cut) == 1 else (
                difflib.get_close_matches(token, _HEADING_WORDS, n=1, cutoff=OCR_HEADING_SIMILARITY) or [token])[0])
    for i, cut in ambiguous.items():
        others = set(out[:i] + out[i + 1:])
        fits = [word for word in cut if any(others | {word} <= words for words in SIDE_WORDS.values())]
        if others and len(fits) == 1:
            out[i] = fits[0]
    return out


def _pieces_joined(tokens: list[str]) -> list[str]:
    """``tokens`` with two neighbours that are no heading words joined where together they are one, or this similar
    to one (:data:`OCR_HEADING_SIMILARITY`, at least :data:`MIN_JOINED_HEADING_WORD` letters): a space OCR read
    inside a word ("Leis tungsempfänger", "Warenempfän er")."""
    out: list[str] = []
    i = 0
    while i < len(tokens):
        word = _joined_heading_word(tokens[i], tokens[i + 1]) if i + 1 < len(tokens) else None
        out.append(word or tokens[i])
        i += 2 if word else 1
    return out


def _joined_heading_word(left: str, right: str) -> str | None:
    """The heading word two neighbouring tokens make together (:func:`_pieces_joined`), or None."""
    if {left, right} & SIDE_WORDS_ANY:
        return None
    joined = left + right
    if joined in SIDE_WORDS_ANY:
        return joined
    if len(joined) < MIN_JOINED_HEADING_WORD:
        return None
    close = difflib.get_close_matches(joined, _HEADING_WORDS, n=1, cutoff=OCR_HEADING_SIMILARITY)
    return close[0] if close else None


def _letters_joined(tokens: list[str]) -> list[str]:
    """``tokens`` with each run of single letters joined to the token after it where that makes a heading word of at
    least :data:`MIN_OCR_HEADING_WORD` letters ("k", "a", "ufer": "kaufer"), or to each other where they alone make
    one (not "t", "o": specks read as letters)."""
    out: list[str] = []
    i = 0
    while i < len(tokens):
        end = i
        while end < len(tokens) and len(tokens[end]) == 1:
            end += 1
        joined = next((j for j in (end + 1, end) if j - i >= 2 and j <= len(tokens)
                       and len("".join(tokens[i:j])) >= MIN_OCR_HEADING_WORD
                       and "".join(tokens[i:j]) in SIDE_WORDS_ANY), None) if end > i else None
        if joined is None:
            out.append(tokens[i])
            i += 1
        else:
            out.append("".join(tokens[i:joined]))
            i = joined
    return out


def _headings(doc: Document) -> Iterator[tuple[str, int, Line]]:
    for p, page in enumerate(doc.pages):
        for line in page.lines:
            refs = [WordRef(p, w) for w in line.word_indices]
            tokens = _tokens(doc, refs)
            side = _side(_as_read_by_ocr(tokens) if page.text_source == "ocr" and tokens else tokens)
            if side is None:
                side = _bilingual_side(doc, refs, page.text_source == "ocr")
            if side is not None and not (_a_code_letter(doc, refs) and not _beside_a_from(doc, p, line)) and (
                    not _in_a_key_row(doc, p, line) or (side == "customer_name" and _over_an_address(doc, p, line))):
                yield side, p, line


def _beside_a_from(doc: Document, p: int, line: Line) -> bool:
    """Whether the line's row holds a letter's "from" alone ("DA" beside "A", an Italian template's seller and buyer)."""
    page = doc.pages[p]
    return any(other is not line and other.box.vertical_overlap(line.box) > 0.5 * min(other.box.height, line.box.height)
               and LETTER_SIDES.get(" ".join(_tokens(doc, [WordRef(p, w) for w in other.word_indices]))) == "vendor_name"
               for other in page.lines)


def _a_code_letter(doc: Document, refs: Sequence[WordRef]) -> bool:
    """Whether a line is one capital letter alone, without a colon: a table's code ("A" of a VAT code column), not
    the French or Spanish "A :" / "À" of a letter's recipient."""
    return len(refs) == 1 and len(text := doc.word(refs[0]).text) == 1 and text.isascii() and text.isupper()


# The keys of a grid's header row ("Orderbevestiging | Afleverdatum | Afleveradres | Verkoper" over one row of values):
# a party's word among them names a person of the order (its salesperson), no block of a party
GRID_ROW_LABELS = frozenset({"invoice_date", "due_date", "other_date", "invoice_number", "other_number",
                             "purchase_order"})
MIN_GRID_ROW_KEYS = 2


def _in_a_key_row(doc: Document, p: int, line: Line) -> bool:
    """Whether ``line``'s row is a header row whose cells key at least :data:`MIN_GRID_ROW_KEYS` of a document's dates
    and numbers (key_context.row_keys)."""
    return len(row_keys(doc, p, line) & GRID_ROW_LABELS) >= MIN_GRID_ROW_KEYS


def _over_an_address(doc: Document, p: int, heading: Line) -> bool:
    """Whether a postcode line stands in a heading's column within :data:`MAX_ADDRESS_LINES` lines under it: the
    buyer's address label under a header row's "CLIENTE" (a grid's "Verkoper" names the seller's salesperson, whatever
    stands under it)."""
    lines = _block_lines(doc, p, heading, ())[:MAX_ADDRESS_LINES + 1]
    return any(is_postcode_line(doc, first_cell(doc, p, line)) for line in lines)


def _bilingual_side(doc: Document, refs: Sequence[WordRef], ocr: bool = False) -> str | None:
    """The side a heading printed in two languages names in one of them ("Seller / Pardavėjas:", "Käufer / Buyer"):
    the one side a part between slashes names (each part a heading of its own, read as OCR misreads headings where
    ``ocr``), None otherwise."""
    text = " ".join(doc.word(r).text for r in refs)
    parts = [key_tokens(part.replace("-", " ")) for part in text.split("/")]
    if ocr:
        parts = [_as_read_by_ocr(part) if part else part for part in parts]
    if len(parts) != 2 or not all(parts) or any(len(part) > MAX_HEADING_TOKENS for part in parts):
        return None
    sides = {_side(part) for part in parts if len(part) > 1 or part[0] not in LETTER_SIDES} - {None}
    return sides.pop() if len(sides) == 1 else None


def _block_lines(doc: Document, p: int, heading: Line, headings) -> list[Line]:
    """The lines of ``heading``'s block in its column (its left edge, or flush right with it): below it, until the
    next heading, at most :data:`MAX_BLOCK_LINES`."""
    page = doc.pages[p]
    height = line_height(doc, p, heading)
    tolerance = COLUMN_TOLERANCE_OF_HEIGHT * height

    def in_column(line: Line) -> bool:
        # left-aligned under its heading, or, in the page's right half, right-aligned with it (a "Buyer" block
        # set flush right: its lines start wherever their length puts them)
        return abs(line.box.x0 - heading.box.x0) <= tolerance or (
            min(line.box.x0, heading.box.x0) >= page.width / 2 and abs(line.box.x1 - heading.box.x1) <= tolerance)

    beside = _first_line_beside(doc, p, heading, headings)
    if beside is not None:  # "Bill To:" in a narrow column left of its block: the block's column is its first line's
        column = beside.box.x0
        below = sorted((line for line in page.lines if line.box.top >= beside.box.top - height / 2
                        and abs(line.box.x0 - column) <= tolerance), key=lambda line: line.box.top)
    else:
        below = sorted((line for line in page.lines if line.box.top >= heading.box.bottom - height / 2
                        and in_column(line) and line is not heading), key=lambda line: line.box.top)
    out = []
    for line in below[:MAX_BLOCK_LINES]:
        if any(other is line for _, q, other in headings if q == p):
            break  # the next block
        out.append(line)
    return out


def _first_line_beside(doc: Document, p: int, heading: Line, headings) -> Line | None:
    """The line that starts a heading's block right of it on its row, where the heading ends in a colon (on a text
    layer) and nothing stands under it for the block's first lines (pyinvoicer: "Bill To:" | "Foster PLLC" over
    "601 Sunset Boulevard"); None otherwise."""
    page = doc.pages[p]
    # a scan's small colon is often lost ("Bill To"): there the heading stands without it
    if page.text_source != "ocr" and not doc.word(WordRef(p, heading.word_indices[-1])).text.endswith(":"):
        return None
    height = line_height(doc, p, heading)
    beside = [line for line in page.lines if line is not heading and line.box.vertical_overlap(heading.box) > 0
              and 0 <= line.box.x0 - heading.box.x1 <= BLOCK_BESIDE_GAP_OF_HEIGHT * height
              and not any(other is line for _, q, other in headings if q == p)]
    under = [line for line in page.lines if 0 < line.box.top - heading.box.bottom <= NAME_GAP_OF_HEIGHT * height
             and abs(line.box.x0 - heading.box.x0) <= COLUMN_TOLERANCE_OF_HEIGHT * height]
    return min(beside, key=lambda line: line.box.x0) if beside and not under else None


@dataclass(frozen=True)
class BlockExtent:
    """Where a headed party block stands on its page: from its heading down to its last line, from the heading's
    left edge to the next heading or key on its row (or the page's right edge)."""

    side: str
    page_index: int
    x0: float
    x1: float
    top: float
    bottom: float


@per_document  # the key rule and the candidate scorer each ask (the list is never changed)
def block_extents(doc: Document) -> list[BlockExtent]:
    """The extent of every block under a heading naming a side (:func:`_block_lines`), and, where no heading names
    the customer, of the recipient's label in an envelope window (:func:`window_recipient`): "TVA: BE0403170701"
    under the window's address is the buyer's VAT id, as it is under a "Client" heading."""
    headings = list(_headings(doc))
    out = []
    if not any(side == "customer_name" for side, _, _ in headings) and (recipient := _recipient_extent(doc)):
        out.append(recipient)
    for side, p, heading in headings:
        lines = _block_lines(doc, p, heading, headings)
        if not lines:
            continue
        height = line_height(doc, p, heading)
        # up to the next column on the heading's row: another heading, or a key ("Invoice Number:" right of "Invoice
        # To:", or a whole key without its colon: "Invoice Date" of a key table beside "Sold To:") whose values below
        # are not this party's; a value beside the heading ("Kunde:" | "ACME AG") is its own
        right = [line.box.x0 for line in doc.pages[p].lines if line.box.x0 > heading.box.x1
                 and line.box.vertical_overlap(heading.box) > 0 and (
                     any(line is h for _, q, h in headings if q == p)
                     or doc.word(WordRef(p, line.word_indices[-1])).text.endswith(":") or _whole_key_line(doc, p, line))]
        # down to the first wide gap: the column under a heading runs on into the line items and the footer
        # ("Invoice to" over the buyer's label, the seller's "VAT registration number" at the foot); a blank line
        # inside a block (FeRD's visualisation: the street, a blank line, the postcode line) is no such gap
        # (gaps measured over every line across the extent: a key column's rows stand apart where the values beside
        # them run over several lines)
        x0, x1 = heading.box.x0 - COLUMN_TOLERANCE_OF_HEIGHT * height, min(right, default=doc.pages[p].width)
        end = max(l.box.bottom for l in lines)
        bottom = heading.box.bottom
        for line in sorted(doc.pages[p].lines, key=lambda line: line.box.top):
            if line.box.top < heading.box.bottom or not x0 <= line.box.x0 < x1:
                continue
            if line.box.top > end or line.box.top - bottom > BLOCK_GAP_OF_HEIGHT * height:
                break
            bottom = max(bottom, line.box.bottom)
        out.append(BlockExtent(side, p, x0, x1, heading.box.top, bottom))
    return out


def _whole_key_line(doc: Document, p: int, line: Line) -> bool:
    """Whether a line is one whole key of some field and nothing else ("Invoice Date")."""
    words = [WordRef(p, w) for w in line.word_indices]
    hit = whole_key(doc, words)
    return hit is not None and hit.words[0] == words[0]


def _recipient_extent(doc: Document) -> BlockExtent | None:
    """The window recipient's label, from its name line down to the last line stacked under it in its column (the
    country, the buyer's VAT id), as wide as its widest line."""
    name = window_recipient(doc).get("customer_name")
    if not name:
        return None
    p = name[0].page_index
    line = line_of(doc, name[0])
    column = _column_from(doc, p, line)
    stacked = _stacked(doc, p, column)
    if len(column) > len(stacked) and _tax_id_line(doc, p, after := column[len(stacked)]) and (
            after.box.top - stacked[-1].box.bottom <= NAME_GAP_OF_HEIGHT * line_height(doc, p, stacked[-1])):
        stacked.append(after)  # the buyer's VAT id a blank line under the label ("N° TVA intracom. : FR69...")
    tolerance = COLUMN_TOLERANCE_OF_HEIGHT * line_height(doc, p, line)
    return BlockExtent("customer_name", p, line.box.x0 - tolerance, max(l.box.x1 for l in stacked) + tolerance,
                       line.box.top, max(l.box.bottom for l in stacked))


def _tax_id_line(doc: Document, p: int, line: Line) -> bool:
    """Whether a line starts with a key of a tax id only ("N° TVA intracom. :", "USt-IdNr.", not a lone "TVA")."""
    tokens: list[str] = []
    for w in line.word_indices:
        text = doc.word(WordRef(p, w)).text
        if any(ch.isdigit() for ch in text):
            break
        tokens += key_tokens(text)
    keys, length = closing_keys(tokens)
    return keys == {"vendor_tax_id"} and length == len(tokens)


def side_at(extents: Sequence[BlockExtent], doc: Document, ref: WordRef) -> str | None:
    """The side of the block a word stands in (the nearest heading's when blocks nest), None outside every block."""
    box = doc.word(ref).box
    inside = [e for e in extents if e.page_index == ref.page_index and e.x0 <= box.x0 < e.x1
              and e.top <= box.top < e.bottom]
    return max(inside, key=lambda e: e.top).side if inside else None


def _key_length(doc: Document, refs: Sequence[WordRef], keys: frozenset) -> int:
    """How many words at the start of ``refs`` are one of ``keys`` and its separators ("Name:"), 0 when none."""
    tokens: list[str] = []
    for n, ref in enumerate(refs[:3], 1):
        tokens += key_tokens(doc.word(ref).text)
        if tuple(tokens) in keys:
            while n < len(refs) and is_separator(doc.word(refs[n]).text):
                n += 1
            return n
    return 0


# Lower-case words that carry a key on ("Adresse du chantier", "Address of the site", "Anschrift der Baustelle")
KEY_PARTICLES = frozenset({"du", "de", "des", "d'", "of", "the", "der", "des", "van", "het", "della", "del", "di"})


def _value_after_key(doc: Document, p: int, line: Line, keys: frozenset) -> tuple[tuple[WordRef, ...], Line | None]:
    """The words after a key of ``keys`` that starts ``line``, and the line they stand on when it is the next
    column's ("Name:" | "Kunden AG Mitte"); ``((), None)`` when the line starts with no such key."""
    refs = [WordRef(p, w) for w in line.word_indices]
    length = _key_length(doc, refs, keys)
    if not length:
        return (), None
    if refs[length:]:
        if doc.word(refs[length]).text in KEY_PARTICLES:
            return (), None  # the key runs on: "Adresse du chantier" heads the site's address, no value of "Adresse"
        return tuple(refs[length:]), line
    lines = doc.pages[p].lines
    value_line = line_right_of(lines, line)
    if value_line is None:
        return (), None
    value = [WordRef(p, w) for w in value_line.word_indices]
    if doc.pages[p].text_source == "ocr":  # Tesseract's line of a name may end early: "Lieferant" | "GmbH & Co. KG"
        piece = value_line
        while (piece := line_right_of(lines, piece)) is not None and not cell_break(
                doc, value[-1], WordRef(p, piece.word_indices[0]), value_line.box.height):
            value += [WordRef(p, w) for w in piece.word_indices]
    return tuple(value), value_line


MAX_KEY_WORDS_OF_A_ROW = 3  # a key that opens a row ("A. s.:", "Bank:", "Konta Nr.:") ends within its first words


def _column_lines(doc: Document, p: int, value_line: Line, key_column: Sequence[Line], direction: int) -> list[WordRef]:
    """The lines that continue a value in its column, below (``direction`` 1) or above (-1) it: next to each other,
    at its left edge, on rows where the key column prints no key of its own ("Anschrift: Lieferantenstraße 20" /
    "DE 80333 München"; a name in two lines beside a key centred on them)."""
    page = doc.pages[p]
    out: list[WordRef] = []
    current = value_line
    for _ in range(MAX_ADDRESS_LINES - 1):
        height = line_height(doc, p, current)
        gap = (lambda line: line.box.top - current.box.bottom) if direction > 0 else (
            lambda line: current.box.top - line.box.bottom)
        nxt = [line for line in page.lines if line is not current and 0 <= gap(line) <= COLUMN_GAP_OF_HEIGHT * height
               and abs(line.box.x0 - value_line.box.x0) <= height]
        if not nxt:
            break
        line = min(nxt, key=gap)
        if any(k.box.vertical_overlap(line.box) > 0 and k is not line for k in key_column):
            break  # a row of another key of the block
        words = [WordRef(p, w) for w in line.word_indices]
        if direction < 0 and _number_line(doc, words):
            break  # "0001231000000 (GLN)" over "Lieferant GmbH & Co. KG": the value of a key OCR set apart
        if any(doc.word(r).text.endswith(":") for r in words[:MAX_KEY_WORDS_OF_A_ROW]):
            break  # a row of another key glued to its value: "Adresas: ..." / "LT-47174 Kaunas" / "A. s.: LT98 ..."
        out = out + words if direction > 0 else words + out
        current = line
    return out


def party_fields(doc: Document, labels: Sequence[str]) -> dict[str, tuple[WordRef, ...]]:
    """Of ``labels``, the party names (vendor_name, customer_name) and addresses (vendor_address, billing_address)
    that blocks under a heading naming the side print: "Name: ..." and "Anschrift: ...", or, in a block without
    those keys, its first line and the address lines down to the postcode; first block first."""
    headings = list(_headings(doc))
    found: dict[str, tuple[WordRef, ...]] = {}
    for side, p, heading in headings:
        address = ADDRESS_OF_SIDE[side]
        lines = _block_lines(doc, p, heading, headings)
        # (a payee's bank names no seller, but may key it: "Account Name: Avery Davis Design" under "Borcelle Bank")
        payees_bank = side == "vendor_name" and bool(lines) and _a_payees_bank(doc, p, heading, lines[0])
        for line in lines:
            for label, keys, lines_below in ((side, NAME_KEYS, False), (address, ADDRESS_KEYS, True)):
                if label not in labels or label in found:
                    continue
                value, value_line = _value_after_key(doc, p, line, keys)
                if not value:
                    continue
                if value_line is not line:  # in the value column: its lines above on no key's row belong to it
                    value = tuple(_column_lines(doc, p, value_line, lines, -1)) + value
                if lines_below:
                    value += tuple(_column_lines(doc, p, value_line, lines, 1))
                elif value_line is not None:
                    value += _name_wrapped(doc, p, value_line)
                found[label] = value
                if label == address and side in labels and side not in found and not payees_bank:
                    found.update(_unkeyed_name_over(doc, p, lines, line, side))
                break
        if side not in found and address not in found and not payees_bank and not _has_block_keys(doc, p, lines):
            block = _address_label(doc, p, lines, side) or (_one_line_label(doc, p, lines[0], side) if lines else {})
            if not block and lines and lines[0].box.top >= heading.box.bottom - line_height(doc, p, heading) / 2 and (
                    _name_continues(doc, first_cell(doc, p, lines[0])) or not any(
                    has_digit(doc, [WordRef(p, w) for w in line.word_indices]) for line in _stacked(doc, p, lines))):
                # (under its heading, not the line beside it; a block without an address: where one follows without
                # a postcode line, where it ends is unknown and nothing is read, but a company's name with its legal
                # form, "Gulf Star Hospitality FZ-LLC" over "Dubai Media City, Dubai", is read alone)
                block = _name_line_label(doc, p, lines[0], side)
            found.update({label: words for label, words in block.items() if label in labels})
    return found


def _unkeyed_name_over(doc: Document, p: int, lines: Sequence[Line], address_key_line: Line,
                       side: str) -> dict[str, tuple[WordRef, ...]]:
    """A keyed block's name that has no key of its own: the block's first line, over its address's key, where it
    reads as a name (Lithuanian "Pardavėjas" over "UAB „Nemuno medis“", "Įmonės kodas: ...", "Adresas: ...")."""
    first = lines[0]
    if first is address_key_line or first.box.top >= address_key_line.box.top:
        return {}
    return _name_line_label(doc, p, first, side)


def _a_payees_bank(doc: Document, p: int, heading: Line, first: Line) -> bool:
    """Whether a payee's heading (:data:`PAYEE_WORDS`) heads a block whose first line names a bank
    (:data:`BANK_NAME_WORDS`): the payee's bank, not the payee."""
    if not PAYEE_WORDS & set(_tokens(doc, [WordRef(p, w) for w in heading.word_indices])):
        return False
    names = _tokens(doc, [WordRef(p, w) for w in first.word_indices])
    return any(token in BANK_NAME_WORDS or token.endswith("bank") for token in names)


def _one_line_label(doc: Document, p: int, line: Line, side: str) -> dict[str, tuple[WordRef, ...]]:
    """A block's first line that runs the name into the address ("Anna Spencer 407 Sunset Boulevard, Austin, TX
    73301": a template that prints the client's name and its address in one paragraph): the name up to the street's
    house number (or "Unit", "Suite", ...), the address from there when it ends in a postcode line after a comma."""
    words = [WordRef(p, w) for w in line.word_indices]
    texts = [doc.word(r).text for r in words]
    start = next((i for i, text in enumerate(texts) if i and (
        text[:1].isdigit() or key_form(text) in STREET_OPENINGS)), None)
    if start is None or has_digit(doc, words[:start]):
        return {}
    ends = [i + 1 for i in range(start, len(words) - 1) if texts[i].endswith(",")]  # where a comma starts a part
    if not any(is_postcode_line(doc, words[end:]) for end in ends):
        return {}
    return {side: tuple(words[:start]), ADDRESS_OF_SIDE[side]: tuple(words[start:])}


MAX_NAME_LINE_WORDS = 6  # a name alone on a block's first line is short
# a contact's key alone on its line, whose value OCR lost or set apart: "E-Mail", "Telefon", "Fax"
_CONTACT_WORDS = frozenset({"e", "mail", "email", "telefon", "tel", "phone", "telephone", "fax", "web", "website",
                            "internet", "www", "mobile", "mobil", "handy", "telefoon"})


def _name_wrapped(doc: Document, p: int, value_line: Line) -> tuple[WordRef, ...]:
    """The line right under a keyed name's that carries it on: only its legal form wherever the box's edge set it,
    or name words flush right with it in a box whose lines are set flush right ("Name: Keller Dachdeckerei" over
    "e.V.", "Name: Hausmeisterservice" over "Thomas Möller" in gen-invoice's "Pay to:" box). () where none does."""
    height = line_height(doc, p, value_line)
    under = [line for line in doc.pages[p].lines if 0 <= line.box.top - value_line.box.bottom <= height
             and line.box.x0 >= value_line.box.x0 - height and line.box.horizontal_overlap(value_line.box) > 0]
    if not under:
        return ()
    line = min(under, key=lambda line: line.box.top)
    words = tuple(WordRef(p, w) for w in line.word_indices)
    texts = [doc.word(r).text for r in words]
    if all(is_legal_form(text) or text == "&" for text in texts):
        return words
    flush_right = abs(line.box.x1 - value_line.box.x1) <= height / 2 and line.box.x0 > value_line.box.x0 + height
    names = not has_digit(doc, words) and not any(text.endswith(":") for text in texts)
    return words if flush_right and names else ()


def _name_line_label(doc: Document, p: int, line: Line, side: str) -> dict[str, tuple[WordRef, ...]]:
    """A headed block's first line as the party's name where the block prints no address but the line reads as a
    name: a travel site's "Guest Details" over "Mr. Arjun Mehta" and an e-mail address. No digit, no key, no
    salutation alone, an initial capital."""
    words = _name_cell(doc, p, line)
    if not words or _number_key(doc, p, line) or set(_tokens(doc, words)) <= _CONTACT_WORDS:
        return {}
    right = line_right_of(doc.pages[p].lines, line)
    if right is not None and (doc.word(WordRef(p, right.word_indices[0])).text.startswith((":", ";"))
                              or line_right_of(doc.pages[p].lines, right) is not None):
        return {}  # "Nummer" | ": 549910": a key's row; "Omschrijving" | "Periode" | "Bedrag": a table's header
    return {side: tuple(words)}


# "Laura Evans trading as: Pixel Studio", "J. Smith t/a Smith Plumbing": the business a person trades as
TRADING_AS = ((("trading",), ("as",)), (("t", "a"),))  # each word's key_tokens: "t/a" is one word


def trading_as_fields(doc: Document) -> dict[str, tuple[WordRef, ...]]:
    """The business a sole trader's page names after "trading as" (or "t/a"): its vendor_name, the words after the
    phrase on its line or, where the phrase ends its line, the next line; and its vendor_address, the lines stacked
    under the name down to the first postcode line (centred lines too: a page's foot). {} without the phrase."""
    for p, page in enumerate(doc.pages):
        lines = sorted(page.lines, key=lambda line: line.box.top)
        for n, line in enumerate(lines):
            refs = [WordRef(p, w) for w in line.word_indices]
            tokens = [tuple(key_tokens(doc.word(r).text)) for r in refs]
            end = next((i + len(phrase) - 1 for i in range(len(tokens)) for phrase in TRADING_AS
                        if tuple(tokens[i:i + len(phrase)]) == phrase), None)  # the phrase's last word
            if end is None:
                continue
            # (up to the line's next part: "Jessica Harlow t/a Wattle & Bloom · ABN 51 824 753 556")
            after = refs[end + 1:]
            after = after[:next((i for i, r in enumerate(after) if i and doc.word(r).text in SENDER_SEPARATORS),
                                len(after))]
            name = [r for r in after if not is_separator(doc.word(r).text)]
            below = lines[n + 1:]
            if not name and below and under(doc, p, line, below[0], NAME_GAP_OF_HEIGHT):
                name, below = [WordRef(p, w) for w in below[0].word_indices], below[1:]
            if not name:
                return {}
            stacked: list[list[WordRef]] = []
            previous = line_of(doc, name[0])
            for other in below[:MAX_ADDRESS_LINES]:
                if previous is None or not under(doc, p, previous, other, STACKED_GAP_OF_HEIGHT):
                    break
                stacked.append([WordRef(p, w) for w in other.word_indices])
                previous = other
            ends = _place_line_test(doc, stacked)
            end = next((n for n, words in enumerate(stacked) if ends(doc, words)), None)
            found = {"vendor_name": tuple(name)}
            if end is not None:
                found["vendor_address"] = tuple(r for words in stacked[:end + 1] for r in words)
            return found
    return {}


def under(doc: Document, p: int, line: Line, other: Line, gap: float) -> bool:
    """Whether ``other`` stands right under ``line`` (within ``gap`` line heights) and overlaps it horizontally."""
    return (0 <= other.box.top - line.box.bottom <= gap * line_height(doc, p, line)
            and min(line.box.x1, other.box.x1) > max(line.box.x0, other.box.x0))


def named_block_address(doc: Document, name: Sequence[WordRef], side: str) -> tuple[WordRef, ...]:
    """The address of a block without a heading that starts with the party's ``name`` printed again: a line that is
    the name alone, elsewhere than ``name``'s words, over stacked lines down to a postcode line in its column
    (pyinvoicer prints the vendor's name large at the top and again over its address, right of the "Bill To:"
    block); () when the name stands nowhere else so."""
    wanted = compact_words(doc, name)
    for p, page in enumerate(doc.pages):
        for line in page.lines:
            refs = [WordRef(p, w) for w in line.word_indices]
            if not wanted or set(refs) & set(name) or compact_words(doc, refs) != wanted:
                continue
            found = _address_label(doc, p, _column_from(doc, p, line), side)
            if found.get(side) == tuple(refs) and ADDRESS_OF_SIDE[side] in found:
                return found[ADDRESS_OF_SIDE[side]]
    return ()


@per_document  # the key rule asks, and block_extents for the buyer's label (the answer is never changed)
def window_recipient(doc: Document) -> dict[str, tuple[WordRef, ...]]:
    """A letter's recipient in its envelope window where no heading and no return line names it: the first address
    label (a name over stacked lines down to a postcode line, :func:`_address_label`) whose name starts in the
    window's band of a portrait A4 or Letter first page (:data:`WINDOW_BAND_OF_HEIGHT` in the left half), else in the
    right half (:data:`RIGHT_WINDOW_BAND_OF_HEIGHT`: a sender's block stands there beside a left window more often than
    a recipient does); its customer_name and billing_address. isodoc's letters under a company letterhead without a
    return line, Tryton's invoice address at the right under the company's header."""
    page = doc.pages[0]
    if not MIN_LETTER_RATIO <= page.height / max(page.width, 1e-6) <= MAX_LETTER_RATIO:
        return {}  # a receipt, a landscape page
    lines = sorted(page.lines, key=lambda line: line.box.top)
    keyed = _label_after_its_key(doc, lines)
    if keyed:
        return keyed
    for right, (top, bottom) in ((False, WINDOW_BAND_OF_HEIGHT), (True, RIGHT_WINDOW_BAND_OF_HEIGHT)):
        for line in lines:
            if (line.box.x0 > page.width / 2) != right or line.box.top < top * page.height:
                continue
            if line.box.top > bottom * page.height:
                break
            line = _name_line_over(doc, lines, line)
            line = _salutation_over(doc, lines, line) or line  # "Herrn" set over the band, "Max Mustermann" in it
            if _share_capital_line(doc, line):  # "SELARL au capital de 30 000 €" in the band, its name set over it
                line = _name_over_the_band(doc, lines, line) or line
            # (from the block's first line where the band cuts into a block set higher and only a town over its
            # postcode, the postcode line, or an attention line stand in the band: Xero's buyer under the title,
            # "Bath" | "BA1 1HE"; "69120 Heidelberg" under a label set 32 mm down; "Jansen Webbureau" over "t.a.v.
            # Pieter Jansen")
            column = _column_from(doc, 0, line)
            starts = [line]
            place = [first_cell(doc, 0, column[1])] if len(column) > 1 else []
            if _attention_line(doc, first_cell(doc, 0, line)) or is_postcode_line(doc, first_cell(doc, 0, line)) or (
                    place and _place_line_test(doc, place)(doc, place[0])):
                starts.insert(0, _block_start(doc, lines, line, RIGHT_WINDOW_BAND_OF_HEIGHT[0] * page.height))
            over = _first_page_line_over(lines, line, line_height(doc, 0, line))
            if over is not None and not has_digit(doc, [WordRef(0, w) for w in over.word_indices]) and is_legal_form(
                    doc.word(WordRef(0, over.word_indices[-1])).text.rstrip(",.")):
                starts.insert(0, over)  # a company set over the band, its department in it ("Service Comptabilité")
            for start in dict.fromkeys(starts):
                found = _address_label(doc, 0, _column_from(doc, 0, start), "customer_name")
                if (found.get("customer_name", (None,))[0] == WordRef(0, start.word_indices[0])
                        and not _centred(doc, found) and not _rows_of_amounts(doc, found)):
                    return found
    return {}


def _label_after_its_key(doc: Document, lines: Sequence[Line]) -> dict[str, tuple[WordRef, ...]]:
    """A recipient's label whose name follows "To:" on its line, its address stacked under the name rather than under
    the key (a word processor's "To: Harrow & Finch Publishing Ltd" over "FAO Tom Okafor" and its street): read from
    the name. {} where the first page prints no such label."""
    for line in lines:
        words = [WordRef(0, w) for w in line.word_indices]
        first = doc.word(words[0]).text
        if len(words) < 2 or not first.endswith(":") or LETTER_SIDES.get(first.rstrip(":").lower()) != "customer_name":
            continue
        name = Line(tuple(r.word_index for r in words[1:]), Box.enclosing([doc.word(r).box for r in words[1:]]))
        column = [name, *(other for other in _column_from(doc, 0, name) if other.box.top > name.box.top)]
        found = _address_label(doc, 0, column[:MAX_BLOCK_LINES], "customer_name")
        if found.get("customer_name", (None,))[0] == words[1]:
            return found
    return {}


def _block_start(doc: Document, lines: Sequence[Line], line: Line, top: float, p: int = 0) -> Line:
    """The first line of the block ``line`` stands in (of page ``p``'s ``lines``): up the lines stacked over it in its
    column in type of its size (a return line's small print over a window is no part of the recipient's block), none
    starting above ``top``, up to the first line without a digit over one with a digit (a name over its street: a
    heading over the name, "Guest" over "Ms Laura Bennett", is not the block's)."""
    for _ in range(MAX_ADDRESS_LINES):
        street = has_digit(doc, [WordRef(p, w) for w in line.word_indices])
        over = _line_stacked_over(doc, p, lines, line, top, same_size=True)
        if over is None:
            break
        line = over
        if street and not has_digit(doc, [WordRef(p, w) for w in line.word_indices]):
            break
    return line


def _line_stacked_over(doc: Document, p: int, lines: Sequence[Line], line: Line, top: float = 0.0,
                       same_size: bool = False) -> Line | None:
    """The nearest of ``lines`` stacked right over ``line`` in its column (within :data:`STACKED_GAP_OF_HEIGHT` of
    ``line``'s height, its left edge within :data:`COLUMN_TOLERANCE_OF_HEIGHT`), none starting above ``top``; where
    ``same_size``, only one set in type of its size. None where none is."""
    height = line_height(doc, p, line)
    over = [other for other in lines if other.box.bottom <= line.box.top + 0.3 * height
            and line.box.top - other.box.bottom <= STACKED_GAP_OF_HEIGHT * height and other.box.top >= top
            and abs(other.box.x0 - line.box.x0) <= COLUMN_TOLERANCE_OF_HEIGHT * height
            and (not same_size or abs(line_height(doc, p, other) - height) <= SAME_SIZE_OF_HEIGHT * height)]
    return max(over, key=lambda other: other.box.bottom, default=None)


def headed_by(doc: Document, ref: WordRef, names: set[str]) -> bool:
    """Whether a word's line stands in a block headed by one of ``names`` (compact words, :func:`compact_words`): up
    the lines stacked over it in its column, at most :data:`MAX_ADDRESS_LINES` + 3, one starts with such a name (the
    vendor's letterhead over its specialities, its vets "Dr. Lien Vandamme · Dr. Pieter Goethals" and its address)."""
    p = ref.page_index
    lines = doc.pages[p].lines
    line = line_of(doc, ref)
    wanted = {name for name in names if len(name) >= MIN_HEADING_NAME_CHARACTERS}
    for _ in range(MAX_ADDRESS_LINES + 3):
        line = _line_stacked_over(doc, p, lines, line) if line is not None else None
        if line is None:
            return False
        if any(compact_words(doc, [WordRef(p, w) for w in line.word_indices]).startswith(name) for name in wanted):
            return True
    return False


MIN_HEADING_NAME_CHARACTERS = 4  # a name shorter than this heads nothing (a logo's initials)


def name_over(doc: Document, ref: WordRef) -> tuple[WordRef, ...]:
    """The name that heads the block a word stands in (:func:`_block_start`) where its first line reads as a name
    (:func:`_name_line_label`): the hotel's "Hotel Lakeview Residency" over its street and "GSTIN: 29AABCT1332L1ZA".
    () where the word's own line starts the block or no name heads it."""
    p = ref.page_index
    lines = doc.pages[p].lines
    line = line_of(doc, ref)
    if line is None:
        return ()
    start = _block_start(doc, lines, line, 0.0, p)
    if has_digit(doc, [WordRef(p, w) for w in start.word_indices]):
        # a letterhead's name printed larger right over its address line ("Hôtel Les Remparts" | "Rue des Remparts 8
        # - 5000 Namur" | "TVA BE0412345614"): the block's first line is its street
        start = _line_stacked_over(doc, p, lines, start) or start
    if start is line:
        return ()
    return _name_line_label(doc, p, start, "vendor_name").get("vendor_name", ())


def _name_cell(doc: Document, p: int, line: Line) -> tuple[WordRef, ...]:
    """A line's first cell where it reads as a name: at most :data:`MAX_NAME_LINE_WORDS` words, no digit, an initial
    capital, no salutation alone, no key, colon or e-mail address; () otherwise."""
    words = first_cell(doc, p, line)
    texts = [doc.word(r).text for r in words]
    if not 0 < len(words) <= MAX_NAME_LINE_WORDS or has_digit(doc, words) or not texts[0][:1].isupper() or (
            is_salutation(doc, words) or any(text.endswith(":") or "@" in text or closing_keys(key_tokens(text))[0]
                                             for text in texts)):
        return ()
    return tuple(words)


def company_over(doc: Document, ref: WordRef) -> tuple[WordRef, ...]:
    """The company name on the line stacked right over a word's line, its first cell ("Brookside Manufacturing Co."
    over "Attn: Ellen Marsh", :func:`_name_cell`); () where that line is none such."""
    p = ref.page_index
    line = line_of(doc, ref)
    over = _line_stacked_over(doc, p, doc.pages[p].lines, line) if line is not None else None
    return _name_cell(doc, p, over) if over is not None else ()


SHARE_CAPITAL_WORDS = frozenset({"capital", "stammkapital", "kapital", "capitale", "kapitaal"})


def _share_capital_line(doc: Document, line: Line) -> bool:
    """Whether a line states a company's legal form and share capital ("SELARL au capital de 30 000 €"): the line under
    its name, never a name."""
    tokens = [t for w in line.word_indices for t in key_tokens(doc.pages[0].words[w].text)]
    return bool(tokens) and is_legal_form(doc.pages[0].words[line.word_indices[0]].text) and bool(
        set(tokens[1:4]) & SHARE_CAPITAL_WORDS)


def _name_line_over(doc: Document, lines: Sequence[Line], line: Line) -> Line:
    """The line stacked right over ``line`` in its column where ``line`` starts with a street (a house number on it)
    and that line has no digit (a name: "Mevr. J. Jansen" over "Dorpsstraat 45", set a line above the window's band);
    else ``line``."""
    words = [WordRef(0, w) for w in line.word_indices]
    if not has_digit(doc, words):
        return line
    name = _name_over_the_band(doc, lines, line)
    return line if name is None or has_digit(doc, [WordRef(0, w) for w in name.word_indices]) else name


def _name_over_the_band(doc: Document, lines: Sequence[Line], line: Line) -> Line | None:
    """The line right over ``line`` in its column within :data:`NAME_GAP_OF_HEIGHT` of ``line``'s heights, top to
    top: a window label's name set over the band in larger print or at the body's pitch ("Corrib Physio Clinic" a 12
    pt line over "Unit 4, Westside Enterprise Park" in 9 pt)."""
    return _first_page_line_over(lines, line, NAME_GAP_OF_HEIGHT / STACKED_GAP_OF_HEIGHT * line_height(doc, 0, line))


def _first_page_line_over(lines: Sequence[Line], line: Line, height: float) -> Line | None:
    """The nearest of the first page's ``lines`` right over ``line`` in its column, its top within
    :data:`STACKED_GAP_OF_HEIGHT` of ``line``'s (top to top: OCR boxes hug the ink); None where none is."""
    over = [other for other in lines if other.box.bottom <= line.box.top + 0.3 * height
            and line.box.top - other.box.top <= STACKED_GAP_OF_HEIGHT * height
            and abs(other.box.x0 - line.box.x0) <= COLUMN_TOLERANCE_OF_HEIGHT * height]
    return max(over, key=lambda other: other.box.bottom, default=None)


def _salutation_over(doc: Document, lines: Sequence[Line], line: Line) -> Line | None:
    """The line stacked right over ``line`` in its column where it is a person's salutation alone ("Herrn" over "Max
    Mustermann"); None otherwise."""
    nearest = _first_page_salutation_over(doc, lines, line)
    # (a company's "Firma" or "Spett.le" over its name is no part of it: the label starts at the name)
    return nearest if nearest is not None and not is_salutation(
        doc, [WordRef(0, w) for w in nearest.word_indices], COMPANY_SALUTATIONS) else None


def _first_page_salutation_over(doc: Document, lines: Sequence[Line], line: Line) -> Line | None:
    """The first page's line right over ``line`` in its column where it is a salutation alone, a person's or a
    company's; None otherwise."""
    nearest = _first_page_line_over(lines, line, line_height(doc, 0, line))
    words = [WordRef(0, w) for w in nearest.word_indices] if nearest is not None else []
    return nearest if words and is_salutation(doc, words) else None


def heads_its_block(doc: Document, name: Sequence[WordRef]) -> bool:
    """Whether no line stands stacked right over the line a name starts but a salutation alone: the label starts
    there ("Spett.le" over "Studio Ferri & Associati"), not inside a block ("Frau Anna Schmidt" under "Beispiel GmbH",
    a scan's window band cutting between them)."""
    p = name[0].page_index
    line = line_of(doc, name[0])
    return line is not None and (_line_stacked_over(doc, p, doc.pages[p].lines, line) is None
                                 or _salutation_line_over(doc, name))


def _salutation_line_over(doc: Document, name: Sequence[WordRef]) -> bool:
    """Whether the first page's line right over a name's first line is a salutation alone, a company's too ("Spett.le",
    "Firma" over the name: the name is addressed)."""
    line = line_of(doc, name[0]) if name and name[0].page_index == 0 else None
    return line is not None and _first_page_salutation_over(doc, doc.pages[0].lines, line) is not None


def labels_side_by_side(doc: Document, vendor: Sequence[WordRef]) -> dict[str, tuple[WordRef, ...]]:
    """Two address labels side by side without headings ("From | To" boxes, as @rimiti/invoice-it prints them) on a
    letter's page: where the model's ``vendor`` name stands in an address label's name line (a name over stacked
    lines down to a postcode line), or, found elsewhere, starts one printed again, that label gives the vendor's name
    and address, and the label whose name line starts on the same row in another column the customer's name and
    billing address. {} unless both are such labels, neither centred."""
    if not vendor:
        return {}
    p, own_line = vendor[0].page_index, line_of(doc, vendor[0])
    page = doc.pages[p]
    if own_line is None or not MIN_LETTER_RATIO <= page.height / max(page.width, 1e-6) <= MAX_LETTER_RATIO:
        return {}  # a receipt, whose pieces of one centred line stand side by side
    own = _address_label(doc, p, _column_from(doc, p, own_line), "vendor_name")
    if vendor[0] not in own.get("vendor_name", ()) or "vendor_address" not in own:
        # the model found the vendor's name elsewhere (its legal footer): the label that starts with it printed again
        own_line, own = next(_labels_named(doc, p, vendor), (None, {}))
        if own_line is None:
            return {}
    height = line_height(doc, p, own_line)
    column = [line.box for line in _column_from(doc, p, own_line)]
    left, right = min(box.x0 for box in column), max(box.x1 for box in column)
    for line in sorted(doc.pages[p].lines, key=lambda line: line.box.x0):
        if abs(line.box.top - own_line.box.top) > height or left - height < line.box.x0 < right + height:
            continue  # not on the vendor's name row, or in the vendor's column
        other = _address_label(doc, p, _column_from(doc, p, line), "customer_name")
        if (other.get("customer_name", (None,))[0] == WordRef(p, line.word_indices[0]) and "billing_address" in other
                and not _centred(doc, own) and not _centred(doc, other)):
            if (printed_again(doc, other["customer_name"]) and not printed_again(doc, own["vendor_name"])
                    or _under_page_title(doc, p, own_line) and not _under_page_title(doc, p, line)):
                # the issuer's name stands again in its legal footer ("Rheinpoint SNC - SIRET: ..."), the
                # customer's does not; or the model's vendor is the label the page's title heads, the addressee's
                # place ("TAX INVOICE" over the buyer's label, the seller's at the right, as Xero prints it): the
                # model took one side for the other
                own, other = ({"vendor_name": other["customer_name"], "vendor_address": other["billing_address"]},
                              {"customer_name": own["vendor_name"], "billing_address": own["vendor_address"]})
            return {**own, **other}
    return {}


def _under_page_title(doc: Document, p: int, line: Line) -> bool:
    """Whether the nearest line over ``line`` in its column is the page's first line and only the document's title
    ("TAX INVOICE" over a label's name line); the gap between them measured in the title's height, its type larger."""
    lines = doc.pages[p].lines
    height = line_height(doc, p, line)
    over = [other for other in lines if other.box.bottom <= line.box.top + 0.3 * height
            and abs(other.box.x0 - line.box.x0) <= COLUMN_TOLERANCE_OF_HEIGHT * height]
    title = max(over, key=lambda other: other.box.bottom, default=None)
    if title is None or not only_title(doc, [WordRef(p, w) for w in title.word_indices]):
        return False
    title_height = line_height(doc, p, title)
    return (line.box.top - title.box.bottom <= STACKED_GAP_OF_HEIGHT * title_height
            and all(other.box.top >= title.box.top - 0.5 * title_height for other in lines))


def _labels_named(doc: Document, p: int, name: Sequence[WordRef]) -> Iterator[tuple[Line, dict]]:
    """The address labels on page ``p`` whose name line starts with ``name`` printed again elsewhere."""
    for q, line in _lines_starting_with(doc, name):
        label = _address_label(doc, p, _column_from(doc, p, line), "vendor_name") if q == p else {}
        if label.get("vendor_name", (None,))[0] == WordRef(p, line.word_indices[0]) and "vendor_address" in label:
            yield line, label


def printed_again(doc: Document, name: Sequence[WordRef]) -> bool:
    """Whether a party's name starts another line of the document too."""
    return next(_lines_starting_with(doc, name), None) is not None


def _lines_starting_with(doc: Document, name: Sequence[WordRef]) -> Iterator[tuple[int, Line]]:
    """(page index, line) of every line, other than ``name``'s own words, that starts with ``name`` printed again."""
    wanted = compact_words(doc, name)
    for p, page in enumerate(doc.pages):
        for line in page.lines:
            refs = [WordRef(p, w) for w in line.word_indices]
            if not set(refs) & set(name) and compact_words(doc, refs[:len(name)]) == wanted:
                yield p, line


MIN_ROWS_OF_AMOUNTS = 2


def _rows_of_amounts(doc: Document, fields: dict[str, tuple[WordRef, ...]]) -> bool:
    """Whether :data:`MIN_ROWS_OF_AMOUNTS` lines of a label found in a window band print an amount further right on
    their row: an item table's rows, whose article codes read as postcodes ("Código Descripción" over "41207 Silicona
    neutra ... | 24 | 3,95 | 94,80": held out, the header read as the buyer), not an address."""
    page = doc.pages[0]
    return sum(any(other.box.x0 > line.box.x1 and other.box.vertical_overlap(line.box) > 0 and AMOUNT_END.search(
        page.words[other.word_indices[-1]].text) for other in page.lines)
               for line in _label_lines(doc, fields)) >= MIN_ROWS_OF_AMOUNTS


def _label_lines(doc: Document, fields: dict[str, tuple[WordRef, ...]]) -> list[Line]:
    """The first page's lines that hold words of a label's fields."""
    words = {ref.word_index for refs in fields.values() for ref in refs}
    return [line for line in doc.pages[0].lines if words.intersection(line.word_indices)]


def _centred(doc: Document, fields: dict[str, tuple[WordRef, ...]]) -> bool:
    """Whether the lines of a label found in a window band are centred on one axis rather than flush left: their middles
    agree better than their left edges. A window's address is set flush left; a receipt's centred header lines,
    photographed off the middle, can stand in a band with their left edges within a column's tolerance."""
    boxes = [line.box for line in _label_lines(doc, fields)]
    if len(boxes) < 2:
        return False
    lefts, middles = [box.x0 for box in boxes], [box.center[0] for box in boxes]
    return max(middles) - min(middles) < max(lefts) - min(lefts)


def _column_from(doc: Document, p: int, line: Line) -> list[Line]:
    """``line`` and the lines under it that start at its left edge (:data:`COLUMN_TOLERANCE_OF_HEIGHT`), top down, at
    most :data:`MAX_BLOCK_LINES`: a block without a heading, read as an address label."""
    tolerance = COLUMN_TOLERANCE_OF_HEIGHT * line_height(doc, p, line)
    return sorted((other for other in doc.pages[p].lines if other.box.top >= line.box.top
                   and abs(other.box.x0 - line.box.x0) <= tolerance), key=lambda other: other.box.top)[:MAX_BLOCK_LINES]


def compact_words(doc: Document, refs: Sequence[WordRef]) -> str:
    """Words as one comparable string, spaces and case gone: a party's name printed twice compares equal."""
    return "".join(doc.word(r).text for r in refs).casefold()


def _parts(doc: Document, refs: Sequence[WordRef], ocr: bool = False, small: bool = False) -> list[list[WordRef]]:
    """``refs`` split at separator words ("·", "|", "•"); a word ending in one closes its part. Read by OCR: at
    :data:`OCR_SENDER_SEPARATORS`, and a word starting with one opens a part. Printed ``small`` (a return address
    under the body's size), a hyphen alone separates too ("Hetzner Online GmbH - Industriestr. 25 - 91710
    Gunzenhausen"), and a line without separators or keys is split at its commas ("Hayes Labs Ltd, 156 Riverside
    Estate, Leeds LS1 4DY"); at the body's size such a line is a receipt's address ("NO. 53, JALAN BESAR, 45600 ...")."""
    separators = OCR_SENDER_SEPARATORS if ocr else SENDER_SEPARATORS
    parts: list[list[WordRef]] = [[]]
    for ref in refs:
        text = doc.word(ref).text.strip()
        if text in separators or small and text == "-":
            parts.append([])
            continue
        if ocr and text[:1] in separators:
            parts.append([])
        parts[-1].append(ref)
        if text[-1:] in separators:
            parts.append([])
    parts = [part for part in parts if part]
    if small and len(parts) == 1 and not any(doc.word(ref).text.endswith(":") for ref in refs):
        parts = [[]]
        for ref in refs:
            parts[-1].append(ref)
            if doc.word(ref).text.endswith(","):
                parts.append([])
        parts = [part for part in parts if part]
    return parts


def _pieces_beside(line: Line, lines: Sequence[Line]) -> list[Line]:
    """``line`` and the lines that continue it left and right at about its height (an OCR line in pieces)."""
    reach = RETURN_LINE_BAND_OF_HEIGHT * line.box.height
    gap = RETURN_LINE_GAP_OF_HEIGHT * line.box.height
    band = sorted((other for other in lines if abs(other.box.center[1] - line.box.center[1]) <= reach),
                  key=lambda other: other.box.x0)
    start = end = band.index(line)
    left = line.box.x0
    while start > 0 and left - band[start - 1].box.x1 <= gap:
        start -= 1
        left = min(left, band[start].box.x0)
    right = max(other.box.x1 for other in band[start:end + 1])
    while end + 1 < len(band) and band[end + 1].box.x0 - right <= gap:
        end += 1
        right = max(right, band[end].box.x1)
    return band[start:end + 1]


def _return_lines(doc: Document) -> Iterator[tuple[Line, list[WordRef], Box]]:
    """The first page's lines in the top :data:`ENVELOPE_TOP_SHARE`, top to bottom, as (line, words, box); on a page
    read by OCR the words and box those of its band's pieces (:data:`RETURN_LINE_BAND_OF_HEIGHT`), left to right."""
    page = doc.pages[0]
    lines = sorted(page.lines, key=lambda line: line.box.top)
    for line in lines:
        if line.box.top > ENVELOPE_TOP_SHARE * page.height:
            return
        band = [line]
        if page.text_source == "ocr":
            band = _pieces_beside(line, lines)
        indices = sorted((w for other in band for w in other.word_indices), key=lambda w: page.words[w].box.x0)
        yield line, [WordRef(0, w) for w in indices], Box.enclosing([other.box for other in band])


def window_envelope_fields(doc: Document) -> dict[str, tuple[WordRef, ...]]:
    """A letter laid out for a window envelope (DIN 5008 and its kin): in the top of the first page, the sender's
    one-line return address ("Seller Company · 123 Seller St · 12345 Seller City"), the recipient's address block
    right under it. The return address gives the seller's name (its first part) and address (the parts down to the
    postcode); the block the buyer's name (its first line) and address (down to its postcode line). Nothing
    unless the return address has a postcode part; no buyer unless the block below ends in a postcode line."""
    if not doc.pages:
        return {}
    page = doc.pages[0]
    heights = sorted(line.box.height for line in page.lines)
    body = heights[len(heights) // 2] if heights else 0.0
    senders = []  # (line, its box, its parts, where its address ends) of the lines shaped as a return address
    for line, refs, box in _return_lines(doc):
        parts = _parts(doc, refs, ocr=page.text_source == "ocr", small=box.height < SMALL_PRINT_OF_BODY * body)
        if page.text_source == "ocr":
            parts = _split_before_postcode(doc, parts)
        if len(parts) < 3:
            continue
        ends = [i for i, part in enumerate(parts) if i > 0 and is_postcode_line(doc, part)]
        name = " ".join(doc.word(r).text for r in parts[0])
        if not ends or name.endswith(":") or not any(ch.isalpha() for ch in name):
            continue  # a name, not a key ("TEL:", "MON-SUN:") nor a number
        senders.append((line, box, parts, ends[0]))
    fallback: dict[str, tuple[WordRef, ...]] = {}
    for line, box, parts, end in senders:
        if end == 1 and has_digit(doc, parts[0]) and not is_legal_form(doc.word(parts[0][-1]).text):
            # "Industrieweg 17 · 3771 MA Barneveld · 0342 123 456" under a letterhead's name: a street, then its
            # postcode; no name opens it, and the street is the address's
            found = {"vendor_address": tuple(r for part in parts[:end + 1] for r in part)}
        else:
            found = {"vendor_name": tuple(parts[0]),
                     "vendor_address": tuple(r for part in parts[1:end + 1] for r in part)}
        height = line_height(doc, 0, line)
        first = min((other for other in page.lines if other.box.top >= box.bottom
                     and other.box.top - box.bottom <= ENVELOPE_GAP_OF_HEIGHT * height
                     and abs(other.box.x0 - box.x0) <= ENVELOPE_COLUMN_OF_HEIGHT * height),
                    key=lambda other: other.box.top, default=None)
        if first is not None and any(abs(first.box.top - other.top) < 1 and abs(first.box.x0 - other.x0) < 1
                                     for _, other, _, _ in senders):
            continue  # a letterhead's line of parts over the return line: the return line is the one further down
        if first is not None:  # the recipient's block: that line and the lines under it in its column
            block = sorted((other for other in page.lines if other.box.top >= first.box.top
                            and abs(other.box.x0 - first.box.x0) <= COLUMN_TOLERANCE_OF_HEIGHT * height),
                           key=lambda other: other.box.top)
            found.update(_address_label(doc, 0, block, "customer_name"))
            return found
        # no block right under it: a letterhead's line of parts ("Meisterbetrieb · Industriestraße 12 · 28199
        # Bremen" under the company's name), where a return line further down has the recipient under it
        fallback = fallback or found
    return fallback


def _split_before_postcode(doc: Document, parts: list[list[WordRef]]) -> list[list[WordRef]]:
    """A return address's parts with a part that runs on into a postcode split before it: on a scan Tesseract
    drops the dot before the city part or reads it as a colon glued to the word before ("789 Commerce Street: M1 1AA
    Manchester")."""
    out = []
    for part in parts:
        start = next((k for k in range(1, len(part)) if is_postcode_line(doc, part[k:])), None)
        # a street before it, and a city that is no key ("+603-6242 8076 FAX:" of a receipt is no address)
        if (start is None or is_postcode_line(doc, part) or doc.word(part[-1]).text.endswith(":")
                or not any(sum(ch.isalpha() for ch in doc.word(r).text) >= 3 for r in part[:start])):
            out.append(part)
        else:
            out += [part[:start], part[start:]]
    return out


def _has_block_keys(doc: Document, p: int, lines: Sequence[Line]) -> bool:
    """Whether a line of the block starts with a name or address key: a labelled block, read by its keys (not a key
    that runs on, "Adresse du chantier")."""
    for line in lines:
        refs = [WordRef(p, w) for w in line.word_indices]
        for keys in (NAME_KEYS, ADDRESS_KEYS):
            length = _key_length(doc, refs, keys)
            if length and not (length < len(refs) and doc.word(refs[length]).text in KEY_PARTICLES):
                return True
    return False


def only_title(doc: Document, refs: Sequence[WordRef]) -> bool:
    """Whether the words ``refs`` are only a document's title ("Factuur", "LASKU", "TAX INVOICE"): no party's name."""
    tokens = [t for r in refs for t in key_tokens(doc.word(r).text)]
    return any(is_title_word(t) for t in tokens) and all(is_title_word(t) or t in TITLE_QUALIFIERS for t in tokens)


def _attention_line(doc: Document, refs: Sequence[WordRef]) -> bool:
    """A line that names whom a letter is for ("z. Hd. Stefan Kaiser", "Attn: Accounts"), not part of an address."""
    tokens = tuple(key_tokens(" ".join(doc.word(r).text for r in refs[:3])))
    # (Norwegian and Danish "v/ Ole Hansen" under the company, whose "v" alone would key nothing else)
    return any(tokens[:n] in ATTENTION_STARTS for n in (1, 2, 3)) or (
        bool(refs) and doc.word(refs[0]).text.lower().startswith("v/"))


def _address_label(doc: Document, p: int, lines: Sequence[Line], side: str) -> dict[str, tuple[WordRef, ...]]:
    """An unlabelled block read as an address label: after at most :data:`MAX_KEYED_LINES_BEFORE_NAME` keyed lines
    ("Nummer : GE2020211"), the first line the name, the next stacked lines down to the first postcode line the
    address; nothing when a keyed line comes between them or no postcode line follows within
    :data:`MAX_ADDRESS_LINES` lines of the name."""
    def keyed(line: Line) -> bool:  # "Globale Nummer: 4000001987658 (GTIN)"; "Nummer" | ": GE2020211" in two columns
        if any(doc.word(WordRef(p, w)).text.rstrip().endswith((":", ";")) for w in line.word_indices):  # ";": OCR's
            return True
        right = line_right_of(doc.pages[p].lines, line)
        if right is None:
            return False
        first_right = doc.word(WordRef(p, right.word_indices[0])).text
        # OCR reads the colon of a scanned "Nummer : 549910" as another sign, or drops it: a number's key with a
        # value to its right is a keyed row too
        return _colon_first(first_right, doc.pages[p].text_source == "ocr") or (_number_key(doc, p, line) and any(
            ch.isalnum() for w in right.word_indices for ch in doc.word(WordRef(p, w)).text))

    lines = list(lines)
    # a customer number or GLN over the label is not part of it; nor a number's key alone, whose value OCR lost; nor
    # the document's title set right over it (Moneybird's "Factuur" over the buyer's name)
    for _ in range(MAX_KEYED_LINES_BEFORE_NAME):
        if lines and (keyed(lines[0]) or _number_line(doc, first_cell(doc, p, lines[0]))
                      or doc.pages[p].text_source == "ocr" and _number_key(doc, p, lines[0])
                      or only_title(doc, first_cell(doc, p, lines[0]))):
            lines.pop(0)
    stacked = _stacked(doc, p, lines)
    if len(stacked) < 2:
        return {}
    name = first_cell(doc, p, stacked[0])
    if (keyed(stacked[0]) or is_postcode_line(doc, name) or dated(doc, name) or _side(_tokens(doc, name))
            or _attention_line(doc, name)):
        return {}
    rest = stacked[1:]
    if rest and _person_over_company(doc, name, first_cell(doc, p, rest[0])):
        # "Priya Nair" | "Lantern Analytics LLC" under "Bill to": the company billed, its contact over it
        name, rest = first_cell(doc, p, rest[0]), rest[1:]
    elif rest and (is_salutation(doc, name) or _name_continues(doc, first_cell(doc, p, rest[0]))):
        # "MVM Musterhafter" | "Versicherungsverein Musterstadt a.G."; "Herrn" | "Max Mustermann"; but "Firma" over a
        # company's name only says it is one (DIN 5008's address label): no part of the name
        name = (first_cell(doc, p, rest[0]) if is_salutation(doc, name, COMPANY_SALUTATIONS)
                else name + first_cell(doc, p, rest[0]))
        rest = rest[1:]
    address: list[list[WordRef]] = []
    ends_address = _place_line_test(doc, [first_cell(doc, p, line) for line in rest[:MAX_ADDRESS_LINES]])
    for line in rest[:MAX_ADDRESS_LINES]:
        words = first_cell(doc, p, line)
        if dated(doc, words):
            return {}  # "Période facturée" | "du 01/11/2024 au 30/11/2024": a sidebar's key over its value
        # ("DE: 99199 MUSTERHAUSEN": a speck OCR read as a colon; "Attn: Accounts Payable" is whom it is for)
        if keyed(line) and not ends_address(doc, words) and not _attention_line(doc, words):
            if _number_line(doc, words) or doc.pages[p].text_source == "ocr" and _number_read_as_letters(doc, words):
                continue  # "Handelsname: 99999999800010" under the name: the party's registration number
            return {}  # a key's row before any postcode line: not an address label
        if not _attention_line(doc, words):  # "z. Hd. Stefan Kaiser": whom to hand it to, not where
            address.append(words)
        if ends_address(doc, words):
            if side == SHIPPING_SIDE and has_digit(doc, name):
                address.insert(0, name)  # a delivery block without a name: its first line is the street
            return {side: tuple(name), ADDRESS_OF_SIDE[side]: tuple(r for part in _from_street(doc, address) for r in part)}
    return {}


_NUMERIC_DATE = re.compile(r"\d{1,2}[./-]\d{1,2}[./-](?:\d{4}|\d{2})")


def dated(doc: Document, refs: Sequence[WordRef]) -> bool:
    """Whether words hold a numeric date ("01/11/2024"): no line of an address label does."""
    return any(_NUMERIC_DATE.fullmatch(doc.word(r).text.strip(".,;()")) for r in refs)


def _stacked(doc: Document, p: int, lines: Sequence[Line]) -> list[Line]:
    """The first of ``lines`` (a block's, top down) that stand stacked as an address label's: each within
    :data:`STACKED_GAP_OF_HEIGHT` line heights under the one before (:data:`NAME_GAP_OF_HEIGHT` under the first);
    read by OCR, or within :data:`OCR_STACKED_PITCHES` (:data:`OCR_NAME_PITCHES`) of the block's line pitch."""
    pitch = _line_pitch(lines) if doc.pages[p].text_source == "ocr" else None
    stacked: list[Line] = []
    for line in lines:
        if stacked:
            first = len(stacked) == 1
            gap = NAME_GAP_OF_HEIGHT if first else STACKED_GAP_OF_HEIGHT
            pitches = OCR_NAME_PITCHES if first else OCR_STACKED_PITCHES
            if line.box.top - stacked[-1].box.bottom > gap * line_height(doc, p, stacked[-1]) and (
                    pitch is None or line.box.top - stacked[-1].box.top > pitches * pitch):
                break
        stacked.append(line)
    return stacked


def _line_pitch(lines: Sequence[Line]) -> float:
    """The step from one line to the next of a block set in single lines: the median of its steps top to top that
    are shorter than 1.5 times the shortest (0 for a block of one line)."""
    steps = sorted(b.box.top - a.box.top for a, b in zip(lines, lines[1:]) if b.box.top - a.box.top >= a.box.height)
    single = [step for step in steps if step < 1.5 * steps[0]] if steps else []
    return single[len(single) // 2] if single else 0.0


def is_salutation(doc: Document, words: Sequence[WordRef], salutations: frozenset = SALUTATIONS) -> bool:
    """A name line that is only a salutation ("Herrn" | "Max Mustermann"), in one language or two ("Mevrouw –
    Madame", "Mevr./Mme"): the name goes on below it."""
    parts = _BILINGUAL.split(" ".join(doc.word(r).text for r in words))
    return all(tuple(key_tokens(part)) in salutations for part in parts)


_BILINGUAL = re.compile(r"\s*[/–]\s*")  # a Belgian page's two languages side by side: "Mevrouw – Madame"


def addressed(doc: Document, name: Sequence[WordRef]) -> bool:
    """Whether a name opens with a salutation ("Mevrouw S. Jansen", "Herrn Thomas Becker") or stands under one alone
    ("Spett.le" | "Studio Ferri & Associati"): a recipient's, never the sender's."""
    return bool(name) and (any(tuple(key_tokens(" ".join(doc.word(r).text for r in name[:n]))) in SALUTATIONS
                               for n in (1, 2, 3)) or _salutation_line_over(doc, name))


def _person_word(text: str) -> bool:
    """A word of a person's name: in title case ("Nair", "Müller", "O'Neil", "Smith-Jones"), an initial ("J.", "D")."""
    letters = text.replace("-", "").replace("'", "").replace("’", "")
    return (len(text.rstrip(".")) == 1 and text[0].isupper() and text[0].isalpha()) or (
        len(letters) > 1 and letters.isalpha() and (text.istitle() or _capitalised_inside(letters)))


def _capitalised_inside(letters: str) -> bool:
    """A name capitalised inside as well as at its start: "MacLeod", "McDonald", "DeVries" (not "RID", "eBay")."""
    return letters[0].isupper() and letters[1].islower() and any(ch.isupper() for ch in letters[2:])


def _person_over_company(doc: Document, name: Sequence[WordRef], below: Sequence[WordRef]) -> bool:
    """Whether a block's first line is a person's name (two or three words in title case, an initial among them,
    none a legal form) over a company's name of its own (:func:`_name_continues`, and a word before its legal form):
    the contact over the company, not one name wrapped ("MVM Musterhafter" | "Versicherungsverein Musterstadt a.G.").
    A salutation before the person's name is no part of it ("Mevr./Mme Sofie Lindqvist")."""
    texts = [doc.word(r).text for r in _without_salutation(doc, name)]
    if len(texts) >= 3 and texts[-2].endswith(",") and texts[-1].rstrip(".").isupper() and len(texts[-1]) <= 5:
        texts = [*texts[:-2], texts[-2].rstrip(",")]  # a credential after the name: "Rebecca MacLeod, RID"
    if not 2 <= len(texts) <= 3 or not all(_person_word(text) for text in texts) or all(
            text.endswith(".") for text in texts) or any(is_legal_form(text) for text in texts):
        return False
    return _name_continues(doc, below) and not all(_legal_form_part(doc.word(r).text) for r in below)


def _without_salutation(doc: Document, name: Sequence[WordRef]) -> Sequence[WordRef]:
    """A name without the salutation it opens with ("Herrn", "De heer", a bilingual "Mevr./Mme")."""
    for n in (3, 2, 1):
        head = " ".join(doc.word(r).text for r in name[:n])
        if n < len(name) and all(tuple(key_tokens(part)) in SALUTATIONS for part in head.split("/")):
            return name[n:]
    return name


def _legal_form_part(text: str) -> bool:
    return text.strip() in ("&", ",") or is_legal_form(text)


def _name_continues(doc: Document, words: Sequence[WordRef]) -> bool:
    """A line under a party's name that ends it: no digit, no key ("Handelsname: IIIIIIIIEOO OO", a scan's number
    read as letters, whose "OO" reads as the "o.o." of "Sp. z o.o."), and its last word a legal form ("...
    Musterstadt a.G.")."""
    return (bool(words) and not has_digit(doc, words) and not any(doc.word(r).text.endswith(":") for r in words)
            and is_legal_form(doc.word(words[-1]).text))


# A printed colon as Tesseract reads it on a 150-dpi scan: ":", or ";", ">", "+", "»" (seen on the e-invoices' scans)
COLON_READINGS = (":", ";", ">", "+", "»")
_PHONE_START = re.compile(r"\+\d")  # "+3 876 6211196" right of a street: a phone number, no colon


def _colon_first(text: str, ocr: bool) -> bool:
    """Whether ``text`` starts with a colon: ":" on a text layer; read by OCR, any of :data:`COLON_READINGS` but
    the plus of a phone number."""
    if not ocr:
        return text.startswith(":")
    return text.startswith(COLON_READINGS) and not _PHONE_START.match(text)


NUMBER_WORDS = frozenset({"nummer", "number", "no", "id", "gln", "numero"})  # key_tokens reads "Nr.", "N°", "#" as "no"


def _number_key(doc: Document, p: int, line: Line) -> bool:
    """A line that is only the key of a number ("Nummer", "Kunden-Nr.", "Customer ID"): at most three words, no
    digit, its last word a word for number."""
    refs = [WordRef(p, w) for w in line.word_indices]
    tokens = _tokens(doc, refs)
    return 0 < len(refs) <= 3 and not has_digit(doc, refs) and bool(tokens) and tokens[-1] in NUMBER_WORDS


_NUMBER_THEN_KEY = re.compile(r"\d{8,}\s*\([A-Za-z][A-Za-z .-]{0,11}\)")  # "0001231000000 (GLN)"


def _number_line(doc: Document, words: Sequence[WordRef]) -> bool:
    """A key and one long number after it ("Handelsname:99999999800010", "GLN: 4000001987658", "GLN 4304171000002")
    or before it in brackets ("0001231000000 (GLN)"), or a tax id with its letters ("NIF: 51234560J", "CIF:
    B87654307" under a Spanish party's name): an identifier line."""
    text = " ".join(doc.word(r).text for r in words)
    if _NUMBER_THEN_KEY.fullmatch(text):
        return True
    key, _, value = text.rpartition(":") if ":" in text else text.rpartition(" ")
    value = value.strip()
    if not key.strip() or len(key.split()) > 3:
        return False
    digits = sum(ch.isdigit() for ch in value)
    return (value.isdigit() and len(value) >= 8 or value.isalnum() and digits >= MIN_TAX_ID_DIGITS
            and len(value) - digits <= MAX_TAX_ID_LETTERS)


def _number_read_as_letters(doc: Document, words: Sequence[WordRef]) -> bool:
    """A key and, after its colon, capitals and digits only, eight or more: a scan's registration number whose digits
    OCR read as letters ("Handelsname: IIIIIIIIEOO OO")."""
    key, colon, value = " ".join(doc.word(r).text for r in words).partition(":")
    value = "".join(value.split())
    return bool(colon and key.strip() and len(value) >= 8 and re.fullmatch(r"[A-Z0-9]+", value))


def _from_street(doc: Document, lines: list[list[WordRef]]) -> list[list[WordRef]]:
    """An address label's lines from its street on: lines without a digit before the first line with one (a contact
    person or a second name line under the name: "Aoife Kelly" | "10 Tech Park Avenue" | "D02 XA00 Dublin") are whom
    the letter is for, not where; the postcode line itself does not count as the street. A number alone on its line
    ("MUSTER-MARKT" | "8211" | "HAUPTSTRASSE 44": a branch's or customer's number) is no street either, where a line
    with words and a number follows it."""
    with_digit = [i for i, line in enumerate(lines[:-1]) if has_digit(doc, line)]
    streets = [i for i in with_digit if not _number_alone(doc, lines[i])] or with_digit
    return lines[streets[0]:] if streets else lines


def _number_alone(doc: Document, words: Sequence[WordRef]) -> bool:
    return "".join(doc.word(r).text for r in words).isdigit()


def has_digit(doc: Document, words: Sequence[WordRef]) -> bool:
    return any(ch.isdigit() for r in words for ch in doc.word(r).text)
