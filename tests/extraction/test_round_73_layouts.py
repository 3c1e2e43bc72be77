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
