"""The product's field vocabulary: the names of the fields an invoice has, which the invoice model tags, the
readers' e-invoices fill, the converters label, extraction types and checks, and ``docextract synth`` writes.

Also each language's invoice words (:data:`LANGUAGE_WORDS`), which the locale guess (``extraction.locales``) and the
OCR reader's choice of language (``readers.ocr.page_language``) both count.

On the ground floor (it imports nothing of docextract), so that each of those packages reads the one list instead of
keeping a copy of it. A model folder's own labels (``id2label``) may be any subset or other names; this is the product's set.
"""

from __future__ import annotations

import re
import unicodedata

# Document-level fields: one value each per invoice.
DOCUMENT_LABELS = (
    "invoice_number", "invoice_date", "due_date", "purchase_order",
    "vendor_name", "vendor_address", "vendor_tax_id",
    "customer_name", "billing_address", "shipping_address",
    "subtotal", "total_tax", "total", "amount_due", "currency", "payment_terms", "iban",
)
# The cells of a line-item row: several values per invoice, grouped into rows.
LINE_ITEM_LABELS = (
    "line_item_description", "line_item_quantity", "line_item_unit_price", "line_item_amount",
)
INVOICE_LABELS = DOCUMENT_LABELS + LINE_ITEM_LABELS


def split_tag(tag: str) -> tuple[str, str | None]:
    """A tag (BIO or BIESO) to its prefix and label: ``"B-total"`` -> ``("B", "total")``; ``"O"`` -> ``("O", None)``."""
    if tag == "O" or "-" not in tag:
        return "O", None
    prefix, label = tag.split("-", 1)
    return prefix, label


# Invoice words per language, lower case. "stem*" matches words that start with the stem ("rechnung*":
# Rechnungsdatum, Rechnungsbetrag), "*stem" words that end with it (Schlussrechnung); stems are long
# enough to mean one language. A word may belong to several languages (it then decides between none of
# them), so shared words ("total", "date") are listed where they are common.
LANGUAGE_WORDS: dict[str, tuple[str, ...]] = {
    "en": ("invoice", "invoices", "invoiced", "bill", "billed", "billing", "customer", "subtotal", "amount",
           "due", "balance", "payment", "paid", "pay", "quantity", "qty", "price", "unit", "order", "terms",
           "receipt", "total", "tax", "vat", "description", "item", "items", "delivery", "shipping", "ship",
           "discount", "cash", "change", "number", "date", "thank", "remit", "account", "sales", "supplier",
           "vendor", "seller", "purchase", "rate", "net", "gross", "regards", "please",
           "january", "february", "march", "june", "july", "october", "december"),
    "de": ("rechnung*", "*rechnung", "rechnungsdatum", "lieferdatum", "belegdatum", "leistungsdatum",
           "fälligkeitsdatum", "betrag", "*betrag", "summe", "*summe", "ust", "mwst", "umsatzsteuer", "steuer*",
           "idnr", "gesamt", "gesamt*", "zahlbar", "zahlung*", "menge", "einzelpreis", "preis", "bezeichnung",
           "beschreibung", "kunde", "kunden*", "bestell*", "lieferung", "lieferant", "anschrift",
           "bankverbindung", "konto", "seite", "und", "mit", "für", "bitte", "vielen", "dank", "anzahl",
           "einheit", "fällig", "währung", "empfänger", "absender", "leistung*", "gmbh", "straße",
           "januar", "februar", "märz", "mai", "juni", "juli", "oktober", "dezember"),
    "fr": ("facture", "factur*", "montant*", "tva", "ttc", "ht", "échéance", "règlement", "quantité", "qté",
           "prix", "unitaire", "désignation", "libellé", "livraison", "livré", "commande", "numéro", "date",
           "total", "taxe", "taxes", "paiement", "payer", "net", "remise", "devise", "émission", "émetteur",
           "fournisseur", "vendeur", "coordonnées", "bancaires", "banque", "téléphone", "tél", "acompte",
           "solde", "reste", "hors", "sarl", "période", "valeur", "ajoutée", "produit", "merci",
           "janvier", "février", "mars", "avril", "juin", "juillet", "août", "septembre", "octobre",
           "novembre", "décembre"),
    "nl": ("factuur*", "*factuur", "btw", "bedrag", "totaal", "subtotaal", "vervaldatum", "factuurdatum",
           "betaling*", "betaal*", "klant*", "aantal", "prijs", "omschrijving", "korting", "levering",
           "leverdatum", "bestelling", "rekening*", "bankrekening", "kvk", "graag", "bedankt",
           "januari", "februari", "maart", "mei", "augustus"),
    "it": ("fattura*", "iva", "importo", "totale", "imponibile", "quantità", "qtà", "prezzo", "scadenza",
           "pagamento", "cliente", "descrizione", "aliquota", "sconto", "consegna", "ordine", "numero",
           "partita", "fiscale", "codice", "spett", "srl", "grazie",
           "gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre",
           "ottobre", "dicembre"),
    "es": ("factura*", "iva", "importe", "total", "imponible", "fecha", "vencimiento", "cantidad", "precio",
           "descripción", "cliente", "pago", "descuento", "entrega", "pedido", "número", "nif", "cif",
           "gracias", "unitario", "impuesto*",
           "enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
           "noviembre", "diciembre"),
    "sv": ("fakturanummer", "fakturadatum", "förfallodatum", "förfallodag", "moms", "momsreg*", "summa", "belopp",
           "betala", "kund", "kundnummer", "antal", "benämning", "leverans*", "totalt", "organisationsnummer",
           "bankgiro", "plusgiro", "referens", "betalningsvillkor", "dröjsmålsränta", "exkl", "inkl", "och", "tack",
           "att", "avgift", "styck", "augusti"),
    "da": ("fakturadato", "forfaldsdato", "betalingsdato", "moms", "beløb", "betale", "betaling*", "antal", "pris",
           "beskrivelse", "levering*", "cvr", "betalingsbetingelser", "ekskl", "inkl", "tak", "og", "kunde*",
           "ordre*", "marts", "maj"),
    "nb": ("fakturadato", "forfallsdato", "betalingsfrist", "mva", "beløp", "betale", "betaling*", "antall", "pris",
           "beskrivelse", "levering*", "kid", "foretaksregisteret", "eks", "inkl", "totalt", "takk", "og", "kunde*",
           "ordre*", "desember"),
    "fi": ("lasku*", "laskun", "eräpäivä", "päivämäärä", "viitenumero", "alv", "yhteensä", "veroton", "määrä",
           "hinta", "tuote", "asiakas*", "maksu*", "toimitus*", "tunnus", "kiitos", "pvm", "kpl", "viivästyskorko",
           "tammikuu*", "helmikuu*", "maaliskuu*", "huhtikuu*", "toukokuu*", "kesäkuu*", "heinäkuu*", "elokuu*",
           "syyskuu*", "lokakuu*", "marraskuu*", "joulukuu*"),
    "pt": ("fatura*", "iva", "nif", "contribuinte", "vencimento", "pagar", "quantidade", "qtd", "preço", "descrição",
           "pagamento", "desconto", "encomenda", "morada", "taxa", "incidência", "obrigado", "emissão", "artigo",
           "janeiro", "fevereiro", "março", "maio", "junho", "julho", "setembro", "outubro", "novembro", "dezembro"),
    "pl": ("faktura", "sprzedawca", "nabywca", "nip", "wystawienia", "sprzedaży", "płatności", "zapłaty", "netto",
           "brutto", "wartość", "kwota", "razem", "słownie", "ilość", "cena", "stawka", "przelew", "sposób", "termin",
           "usługi", "usługa", "szt", "konta", "rachunek", "złotych", "zł", "upoważniona", "stycznia", "lutego",
           "marca", "kwietnia", "maja", "czerwca", "lipca", "sierpnia", "września", "października", "listopada",
           "grudnia"),
    "cs": ("faktura", "daňový", "doklad", "dodavatel", "odběratel", "datum", "vystavení", "splatnosti", "dph",
           "základ", "daně", "celkem", "úhradě", "úhrady", "variabilní", "symbol", "účet", "účtu", "bankovní", "množství",
           "cena", "plátce", "plnění", "zdanitelného", "služeb", "vyúčtování", "převodem", "kč", "ledna", "února",
           "března", "dubna", "května", "června", "července", "srpna", "září", "října", "listopadu", "prosince"),
}

_WORD = re.compile(r"[^\W\d_]+")


def has_word(key: str, vocabulary: set[str], padded: str) -> bool:
    """Whether ``key`` (a word, a word pair, "stem*" or "*stem") is among ``vocabulary`` (a text's lower-case words;
    ``padded``: them joined by spaces, with a space at each end)."""
    if " " in key:
        return f" {key} " in padded
    if key.endswith("*"):
        return any(word.startswith(key[:-1]) for word in vocabulary)
    if key.startswith("*"):
        return any(word.endswith(key[1:]) and word != key[1:] for word in vocabulary)
    return key in vocabulary


def text_words(text: str) -> tuple[set[str], str]:
    """The lower-case words of ``text`` (NFKC), and them joined by spaces with a space at each end: what
    :func:`has_word` looks keys up in."""
    words = _WORD.findall(unicodedata.normalize("NFKC", text).lower())
    return set(words), f" {' '.join(words)} "


def word_counts(keys: dict[str, tuple[str, ...]], vocabulary: set[str], padded: str) -> dict[str, int]:
    """For each group of ``keys`` (a language's, a region's), how many of its keys the text's words hold."""
    return {group: sum(has_word(key, vocabulary, padded) for key in group_keys) for group, group_keys in keys.items()}


def language_word_counts(text: str) -> dict[str, int]:
    """How many distinct invoice words of each language (:data:`LANGUAGE_WORDS`) ``text`` holds, as whole words."""
    return word_counts(LANGUAGE_WORDS, *text_words(text))
