"""Stop 73's layouts: each test a mechanism read off a page `run` had read wrong, on a small page laid out as `run`
lays one out."""

from docextract.extraction.party_blocks import party_fields
from tests.layout_helpers import laid_out_page as _page


def _party_texts(doc, labels=("vendor_name", "vendor_address", "customer_name", "billing_address")):
    return {label: " ".join(doc.word(r).text for r in words) for label, words in party_fields(doc, labels).items()}


def test_a_payees_block_that_names_a_bank_names_no_seller():
    # an agency's "Remit to" over its bank's name, address and sort code beside "Invoice to" over the buyer (a vendor
    # page: "Barclays Bank UK PLC" read as the vendor); a Belgian "Betaal aan / Remit to" over "Belfius Bank NV"
    for heading, bank in (("Remit to", "Barclays Bank UK PLC"), ("Betaal aan / Remit to", "Belfius Bank NV"),
                          ("Pay to", "Rabobank")):
        doc = _page([[(heading, 40), ("Invoice to", 300)],
                     [(bank, 40), ("Marlowe & Finch Distillers Ltd", 300)],
                     [("1 Churchill Place, London E14 5HP", 40), ("90 Wallis Road", 300)],
                     [("Sort code 20-00-00 Account 73184926", 40), ("London E9 5LN", 300)]], line_spacing=11)
        parties = _party_texts(doc)
        assert "vendor_name" not in parties and "vendor_address" not in parties, (heading, parties)
        assert parties["customer_name"] == "Marlowe & Finch Distillers Ltd"


def test_a_payees_block_that_names_the_seller_is_read():
    # the same block naming the firm paid (a US wholesaler's "Remit to" with its lockbox) is the seller's
    doc = _page([[("Remit to", 40), ("Invoice to", 300)],
                 [("Acme Supply Co.", 40), ("Marlowe & Finch Distillers Ltd", 300)],
                 [("PO Box 630781", 40), ("90 Wallis Road", 300)],
                 [("Cincinnati, OH 45263-0781", 40), ("London E9 5LN", 300)]], line_spacing=11)
    assert _party_texts(doc)["vendor_name"] == "Acme Supply Co."


def test_a_bill_titled_otherwise_that_says_it_is_an_invoice_is_one():
    # a French insurer's "AVIS D'ÉCHÉANCE" over "valant facture" (held out: typed other, every field left for review)
    from docextract.extraction.doctype import document_type

    rows = [[("AVIS D'ÉCHÉANCE", 40)], [("valant facture", 40)], [("Date d'émission :", 40), ("03/06/2024", 140)],
            [("Montant à payer", 300), ("427,61 €", 480)],
            [("IBAN FR64 3000 4008 1960 2735 7063 652", 40)]]
    kind = document_type(_page(rows, line_spacing=14))
    assert kind.type == "invoice" and "says it is an invoice: valant facture" in kind.reasons, kind.reasons
    # the same notice that says it is none stays other
    rows[1] = [("ne vaut pas facture", 40)]
    assert document_type(_page(rows, line_spacing=14)).type == "other"


def _keyed(rows, locale, labels=("amount_due", "total", "due_date", "vendor_tax_id", "purchase_order")):
    from docextract.extraction.key_values import key_value_entities

    doc = _page(rows, line_spacing=14)
    return {e.label: e.text(doc) for e in key_value_entities(doc, [], labels, {}, locale, 2024)}


def test_an_amounts_key_and_the_day_it_is_to_be_paid_by_key_the_amount_and_the_due_date():
    # "Montant à payer avant le 01/07/2024 | 427,61 €" (held out: the annual premium 465,11 € taken as the amount due),
    # "Amount due by 15 July 2024", "Zu zahlen bis zum 01.07.2024"
    for key, date, amount, locale in (("Montant à payer avant le", "01/07/2024", "427,61 €", "fr_FR"),
                                      ("Amount due by", "15 July 2024", "427.61", "en_GB"),
                                      ("Zu zahlen bis zum", "01.07.2024", "427,61", "de_DE")):
        found = _keyed([[("INVOICE", 40)], [(f"{key} {date}", 40), (amount, 480)]], locale)
        assert found.get("amount_due") == amount and found.get("due_date") == date, (key, found)
    # an invoice date's key before a date keys no due date
    assert "due_date" not in _keyed([[("INVOICE", 40)], [("Invoice date 15/07/2024", 40)]], "en_GB")


def test_keys_of_an_energy_bill_a_us_firms_tax_id_and_an_italian_order():
    found = _keyed([[("Total charges for this period", 40), ("£221.19", 260)], [("Amount to pay", 40), ("£50.85", 260)],
                    [("Federal Tax ID: 94-3318270", 40)], [("Rif. vs. ordine: ODA 2024/117 del 12/03/2024", 40)]],
                   "en_US")
    assert found == {"total": "£221.19", "amount_due": "£50.85", "vendor_tax_id": "94-3318270",
                     "purchase_order": "ODA 2024/117"}


def test_a_vat_number_in_digit_groups_may_end_a_sentence():
    # a UK energy supplier's footer: "... Bristol BS1 6DZ. VAT registration number 896 6178 57." (held out: missed)
    from docextract.extraction.identifiers import check_tax_id

    found = _keyed([[("Registered office: 4 Temple Quay, Bristol BS1 6DZ. VAT registration number 896 6178 57.", 40)]],
                   "en_GB")
    assert found["vendor_tax_id"] == "896 6178 57."
    assert check_tax_id("896 6178 57.", "GB").normalized == "896617857"  # the full stop is the sentence's


def test_a_marketplaces_invoice_names_the_seller_in_its_sold_by_block():
    # the marketplace's name and VAT number in the letterhead, the seller's under "Verkocht door" (held out: the
    # marketplace's read as the vendor's, its VAT number chosen at 0.97 against the seller's 0.05)
    from docextract.extraction.candidate_scorer import CandidateScorer, FieldModel, choose_fields
    from docextract.extraction.candidates import FEATURES

    rows = [[("Koopjeshal NV", 360)], [("Btw BE 0156.501.184", 360)], [("Factuur", 40)],
            [("Verkocht door", 40), ("Gefactureerd aan", 300)],
            [("Fietsatelier De Smet BV", 40), ("Verstraete Architectuur CommV", 300)],
            [("Brugsesteenweg 318", 40), ("Kerkstraat 9", 300)], [("9000 Gent", 40), ("8500 Kortrijk", 300)],
            [("Btw BE 0189.658.457", 40)]]
    doc = _page(rows, line_spacing=11)
    assert _party_texts(doc)["vendor_name"] == "Fietsatelier De Smet BV"
    weights = [0.0] * len(FEATURES)
    weights[FEATURES.index("y")] = -30.0  # a scorer that ranks the letterhead's number first
    scorer = CandidateScorer(FEATURES, {"vendor_tax_id": FieldModel((0.0,) * len(FEATURES), (1.0,) * len(FEATURES),
                                                                    tuple(weights), 3.0)})
    chosen = [e.text(doc) for e in choose_fields(doc, [], {}, scorer, "nl_BE", 2024)
              if e.assigned and e.label == "vendor_tax_id"]
    assert chosen == ["BE 0189.658.457"]
