"""Fields the model left empty are read from the keys the page prints; dates cut short are completed."""

from dataclasses import replace

from docextract.document import Box, Document, Page, Word, WordRef
from docextract.extraction.entities import Entity, TaggedWord, normalize_value
from docextract.layout import analyze_layout
from docextract.extraction.fields import decode_document_entities
from docextract.extraction.key_values import (addresses_without_date_lines, complete_addresses, complete_dates,
                                              complete_ibans, complete_party_names, complete_payment_terms,
                                              key_value_entities)
from docextract.pipeline import RunOptions, read_and_analyze
from docextract.extraction.party_blocks import ends_with_postcode, party_fields
from tests.layout_helpers import laid_out_page as _page

INVOICE_LABELS = ("invoice_number", "invoice_date", "due_date", "purchase_order", "vendor_name", "vendor_tax_id",
                  "subtotal", "total_tax", "total", "amount_due", "iban")


def _texts(doc, entities):
    return {e.label: (e.text(doc), e.method) for e in entities}


def _party_texts(doc, labels):
    """The party fields of ``doc``'s headed blocks (party_blocks.party_fields), each as its words' text."""
    return {label: " ".join(doc.word(r).text for r in words) for label, words in party_fields(doc, labels).items()}


def test_a_field_the_model_missed_is_read_from_its_whole_key():
    doc = _page([
        [("Delivery Date:", 40), ("05.10.2023", 300)],  # "date" keys an invoice date, "delivery date" does not
        [("Invoice Number:", 40), ("RE-2023-0042", 300)],
        [("Rechnungsdatum:", 40), ("1. Oktober 2023", 300)],
        [("IBAN: DE89 3704 0044 0532 0130 00", 40)],
    ])
    found = _texts(doc, key_value_entities(doc, [], INVOICE_LABELS, {}, "de_DE", 2023))
    assert found["invoice_number"] == ("RE-2023-0042", "rule")
    assert found["invoice_date"] == ("1. Oktober 2023", "rule")  # the whole date, not the delivery date
    assert found["iban"] == ("DE89 3704 0044 0532 0130 00", "rule")  # check digits hold
    assert "due_date" not in found
    # an insurer's "Fälligkeitstag" (due day) keys the due date
    doc = _page([[("Rechnungszeitraum: 01.04.2014 - 30.06.2014", 40)], [("Fälligkeitstag: 01.04.2014", 40)]])
    assert _texts(doc, key_value_entities(doc, [], INVOICE_LABELS, {}, "de_DE", 2014))["due_date"] == ("01.04.2014", "rule")


def test_a_field_the_model_tagged_is_never_replaced_and_other_models_labels_are_left_alone():
    doc = _page([[("Invoice No.", 40), ("4711", 300)], [("Order", 40), ("A-99", 300)], [("Total", 40), ("1.190,00", 300)]])
    tagged_number = Entity("invoice_number", (WordRef(0, 4),), 0.9)  # the model's usable (wrong) reading stands
    found = key_value_entities(doc, [tagged_number], INVOICE_LABELS, {}, "de_DE", None)
    assert [e for e in found if e.label == "invoice_number"] == [tagged_number]
    assert _texts(doc, found)["total"] == ("1.190,00", "rule")
    assert key_value_entities(doc, [], ("company", "address"), {}, "de_DE", None) == []  # SROIE's labels: no rule


def test_an_iban_the_model_tagged_as_a_second_vat_id_is_the_iban():
    # a model on a 150-dpi scan tagged both the VAT id and the IBAN beside "IBAN" as vendor_tax_id
    doc = _page([[("USt.-Id.-Nr. :", 40), ("DE136695976", 300)], [("IBAN", 40), (": DE02120300000000202051", 300)]])
    vat = Entity("vendor_tax_id", (WordRef(0, 2),), 0.35)
    iban = Entity("vendor_tax_id", (WordRef(0, 5),), 0.26)
    found = key_value_entities(doc, [vat, iban], INVOICE_LABELS, {}, "de_DE", None)
    assert [(e.label, e.text(doc)) for e in found if e.label in ("vendor_tax_id", "iban")] == [
        ("vendor_tax_id", "DE136695976"), ("iban", "DE02120300000000202051")]
    # a VAT id the model tagged stays its own where it is no IBAN
    assert key_value_entities(doc, [vat], ("vendor_tax_id",), {}, "de_DE", None) == [vat]


def test_a_house_number_the_model_tagged_as_the_vat_id_gives_way_to_its_partys_block():
    # a model on a scan tagged "222" of the seller's street as its VAT id: three digits are no VAT id
    doc = _page([[("Verkäufer", 40)], [("Name:", 40), ("Musterbetrieb AG", 250)],
                 [("Anschrift:", 40), ("August-Spindler-Strasse 222", 250)], [("DE 37079 Göttingen", 250)]])
    number = next(WordRef(0, i) for i, w in enumerate(doc.pages[0].words) if w.text == "222")
    tagged = Entity("vendor_tax_id", (number,), 0.22, assigned=True)
    labels = ("vendor_name", "vendor_address", "vendor_tax_id")
    found = _texts(doc, key_value_entities(doc, [tagged], labels, {}, "de_DE", None))
    assert found["vendor_address"] == ("August-Spindler-Strasse 222\nDE 37079 Göttingen", "block")
    assert "vendor_tax_id" not in found
    # a VAT id of its length stays the model's, and the block reads the name only
    doc = _page([[("Verkäufer", 40)], [("Name:", 40), ("Musterbetrieb AG", 250)],
                 [("Anschrift:", 40), ("DE123456789", 250)]])
    vat = Entity("vendor_tax_id", (WordRef(0, 5),), 0.22, assigned=True)
    assert _texts(doc, key_value_entities(doc, [vat], labels, {}, "de_DE", None))["vendor_tax_id"] == ("DE123456789", "model")


def test_a_street_the_model_read_as_a_line_items_quantity_gives_way_to_its_partys_block():
    doc = _page([[("Verkäufer", 40)], [("Name:", 40), ("Versicherungsverein Musterstadt a.G.", 250)],
                 [("Anschrift:", 40), ("Musterstr. 12", 250)], [("DE 12345 Musterstadt", 250)]])
    number = next(WordRef(0, i) for i, w in enumerate(doc.pages[0].words) if w.text == "12")
    quantity = Entity("line_item_quantity", (number,), 0.4)
    found = key_value_entities(doc, [quantity], ("vendor_name", "vendor_address", "line_item_quantity"), {},
                               "de_DE", None)
    assert _texts(doc, found)["vendor_address"] == ("Musterstr. 12\nDE 12345 Musterstadt", "block")
    assert quantity not in found


def test_two_address_labels_side_by_side_without_headings_are_the_vendor_and_the_customer():
    # @rimiti/invoice-it's "From | To" boxes: the line reader joins the two names of one row, the model reads one
    # vendor name across both boxes and the vendor's address on into the customer's
    rows = [[("Peter Cooper Translations", 100), ("LM & SONS LTD", 311)], [],
            [("Unit 28", 100), ("6 Albert Road", 311)], [("LS1 4DY Leeds", 100), ("CF10 1EP Cardiff", 311)]]
    labels = ("vendor_name", "vendor_address", "customer_name", "billing_address")

    def read(rows, vendor_words, height=None):
        doc = _page(rows, line_spacing=13)
        if height:
            doc = replace(doc, pages=(replace(doc.pages[0], height=height),))
        at = {doc.word(WordRef(0, i)).text: WordRef(0, i) for i in range(len(doc.pages[0].words))}
        vendor = Entity("vendor_name", tuple(at[w] for w in vendor_words), 0.6, assigned=True)
        return {label: text for label, (text, _) in _texts(doc, key_value_entities(doc, [vendor], labels, {}, "en_GB",
                                                                                    None)).items()}

    assert read(rows, ["Peter", "Cooper", "Translations", "LM", "&", "SONS", "LTD"]) == {
        "vendor_name": "Peter Cooper Translations", "vendor_address": "Unit 28\nLS1 4DY Leeds",
        "customer_name": "LM & SONS LTD", "billing_address": "6 Albert Road\nCF10 1EP Cardiff"}
    # the model took the customer's box for the vendor's; the vendor's name stands again in its legal footer
    footer = [[], [], [("Peter Cooper Translations - Registration: 21325856516865", 200)]]
    assert read(rows + footer, ["LM", "&", "SONS", "LTD"])["vendor_name"] == "Peter Cooper Translations"
    # the model found the vendor's name only in that footer (the words below are the footer's): its label is the one
    # that starts with the name printed again
    assert read(rows + footer, ["Peter", "Cooper", "Translations"])["customer_name"] == "LM & SONS LTD"
    # a receipt's page (pieces of its centred lines stand side by side): nothing
    assert "customer_name" not in read(rows, ["Peter", "Cooper", "Translations"], height=2000.0)
    # one label alone (no other box on its row) reads nothing
    assert "customer_name" not in read([[("Peter Cooper Translations", 100)], [], [("Unit 28", 100)],
                                        [("LS1 4DY Leeds", 100)]], ["Peter", "Cooper", "Translations"])


def test_the_label_the_page_title_heads_is_the_customers_where_the_sellers_stands_beside_it():
    # Xero's tax invoice: "TAX INVOICE" over the buyer's label, the keys stacked over their values in a middle column,
    # the seller's label at the right; the model read the buyer's name as the vendor's
    rows = [[("TAX INVOICE", 50)],
            [("Coastal Cafe Pty Ltd", 50), ("Invoice Date", 260), ("Brew Tech Services Pty Ltd", 420)],
            [("22 Beach Rd", 50), ("5 Apr 2024", 260), ("Unit 3, 40 Parramatta Rd", 420)],
            [("Bondi NSW 2026", 50), ("Invoice Number", 260), ("Camperdown NSW 2050", 420)],
            [("INV-0311", 260), ("AUSTRALIA", 420)]]
    labels = ("vendor_name", "vendor_address", "customer_name", "billing_address")

    def read(rows):
        doc = _page(rows, line_spacing=13)
        at = {doc.word(WordRef(0, i)).text: WordRef(0, i) for i in range(len(doc.pages[0].words))}
        vendor = Entity("vendor_name", tuple(at[w] for w in ("Coastal", "Cafe", "Pty")) + (
            WordRef(0, [i for i, w in enumerate(doc.pages[0].words) if w.text == "Ltd"][0]),), 0.9, assigned=True)
        return {label: text for label, (text, _) in _texts(doc, key_value_entities(doc, [vendor], labels, {}, "en_AU",
                                                                                    None)).items()}

    assert read(rows) == {"vendor_name": "Brew Tech Services Pty Ltd",
                          "vendor_address": "Unit 3, 40 Parramatta Rd\nCamperdown NSW 2050",
                          "customer_name": "Coastal Cafe Pty Ltd", "billing_address": "22 Beach Rd\nBondi NSW 2026"}
    # the title at the right, over nothing: the two labels as the model read them
    untitled = [[("TAX INVOICE", 420)], *rows[1:]]
    assert read(untitled)["vendor_name"] == "Coastal Cafe Pty Ltd"
    # a line over the title (a letterhead) makes it no longer the page's first line: the model's reading stands
    assert read([[("Brew Tech Services", 50)], [], *rows])["customer_name"] == "Brew Tech Services Pty Ltd"


def test_australian_and_new_zealand_place_lines_end_an_address():
    doc = _page([[("Bondi NSW 2026", 40)], [("Auckland 1010", 40)], [("PO Box 5521", 40)], [("Suite 1200", 40)]])
    lines = [[WordRef(0, w) for w in line.word_indices] for line in sorted(doc.pages[0].lines, key=lambda l: l.box.top)]
    assert [ends_with_postcode(doc, words) for words in lines] == [True, True, False, False]


def test_an_amount_the_model_read_as_another_decided_field_is_free_for_its_own_key():
    # "Total VAT 5970.38" read as a second subtotal, the subtotal decided elsewhere: the key names the tax
    doc = _page([[("Total exc. VAT", 310), ("40701.72", 466)], [("Total VAT", 310), ("5970.38", 471)],
                 [("Total inc. VAT", 310), ("46672.11", 466)]])
    at = {doc.word(WordRef(0, i)).text: WordRef(0, i) for i in range(len(doc.pages[0].words))}
    subtotal = Entity("subtotal", (at["40701.72"],), 0.9, assigned=True)
    second = Entity("subtotal", (at["5970.38"],), 0.6)
    total = Entity("total", (at["46672.11"],), 0.9, assigned=True)
    found = key_value_entities(doc, [subtotal, second, total], INVOICE_LABELS, {}, "en_GB", None)
    assert _texts(doc, found)["total_tax"] == ("5970.38", "rule")
    # the field's own (assigned) amount stays its own
    alone = Entity("subtotal", (at["5970.38"],), 0.6, assigned=True)
    assert "total_tax" not in _texts(doc, key_value_entities(doc, [alone], INVOICE_LABELS, {}, "en_GB", None))


def test_a_key_without_a_value_of_its_shape_gives_nothing():
    doc = _page([[("Invoice", 40)], [("Thank you", 40)], [("Due date:", 40), ("on receipt", 300)]])
    assert key_value_entities(doc, [], INVOICE_LABELS, {}, "en_US", 2024) == []


def test_a_date_cut_after_its_month_is_completed_from_its_line():
    doc = _page([[("Invoice Date:", 40), ("October 1, 2023 Page", 300)]])
    october = Entity("invoice_date", (WordRef(0, 2),), 0.8)
    (completed,) = complete_dates(doc, [october], "en_US", None)
    assert completed.text(doc) == "October 1, 2023" and completed.confidence == 0.8


def test_an_iban_cut_after_a_group_takes_the_rest_of_its_groups():
    doc = _page([[("IBAN : DE12 1234 4321 9876 00 BIC: WELADED1MST", 40)],
                 [("IBAN DE89 3704 0044 0532 0130 00 12", 40)]])
    words = [WordRef(0, i) for i in range(len(doc.pages[0].words))]
    text = [doc.word(r).text for r in words]
    cut = Entity("iban", tuple(words[text.index("DE12"):text.index("9876") + 1]), 0.9)
    valid = Entity("iban", tuple(words[text.index("DE89"):text.index("00", text.index("DE89")) + 1]), 0.9)
    other = Entity("total", (words[text.index("9876")],), 0.9)
    completed = complete_ibans(doc, [cut, valid, other])
    assert completed[0].text(doc) == "DE12 1234 4321 9876 00"  # the short last group, not the BIC key after it
    assert completed[1:] == [valid, other]  # check digits that hold: complete; another label: untouched
    valid_cut = Entity("iban", tuple(words[text.index("DE89"):text.index("0130") + 1]), 0.9)
    assert complete_ibans(doc, [valid_cut])[0].text(doc) == "DE89 3704 0044 0532 0130 00"


def test_an_iban_on_a_scan_keeps_to_its_own_characters():
    # OCR of 150-dpi scans: the model read on from the IBAN into the bank code on the line under it, or left out the
    # first group, which OCR had glued to the key's colon and read with an I for a 1
    doc = _page([[("IBAN", 40), ("DE08 7009 0100 1234 5678 90", 200)], [("700 901 00", 200)],
                 [("Verkäufer-IBAN", 40), (":DEI2 12344321 9876 00", 200)]])
    words = [WordRef(0, i) for i in range(len(doc.pages[0].words))]
    text = [doc.word(r).text for r in words]
    run_on = Entity("iban", tuple(words[text.index("DE08"):text.index("700") + 3]), 0.9)
    no_country = Entity("iban", tuple(words[text.index("12344321"):]), 0.9)
    completed = complete_ibans(doc, [run_on, no_country])
    assert [e.text(doc) for e in completed] == ["DE08 7009 0100 1234 5678 90", ":DEI2 12344321 9876 00"]
    assert normalize_value("iban", completed[1].text(doc), "de_DE")[1] == "DE1212344321987600"  # the sample's own
    # a run of digits with no group before it that reads as a country and check digits stays as it is
    doc = _page([[("Konto", 40), ("Nr.:", 90), ("1234 4321 9876 00", 200)]])
    digits = Entity("iban", tuple(WordRef(0, i) for i in range(2, 6)), 0.9)
    assert complete_ibans(doc, [digits]) == [digits]


def test_an_iban_read_with_a_letter_in_its_check_digits_or_its_keys_colon_is_read():
    # "DES4..." (S for 5) tagged by the model was dropped as no IBAN; ": :DEO2..." beside its key was not read
    doc = _page([[("IBAN", 40), (": DES467894567876500", 200)]])
    tagged = Entity("iban", (WordRef(0, 2),), 0.3)
    found = key_value_entities(doc, [tagged], INVOICE_LABELS, {}, "de_DE", None)
    assert [e for e in found if e.label == "iban"] == [tagged]
    doc = _page([[("Verkäufer-IBAN", 40), (": :DEO2120300000000202051", 200)]])
    found = _texts(doc, key_value_entities(doc, [], INVOICE_LABELS, {}, "de_DE", None))
    assert found["iban"] == (":DEO2120300000000202051", "rule")


def test_a_name_cut_before_its_legal_form_takes_it():
    doc = _page([[("ELEKTRON Industrieservice GmbH", 40)], [("Metallbau Leipzig GmbH & Co. KG Tel. 0341", 40)],
                 [("Musterbetrieb Kaffee Bohnen Röstung AG", 40)], [("Handwerker GmbH Musterstraße 12", 40)]])
    words = [WordRef(0, i) for i in range(len(doc.pages[0].words))]
    at = {doc.word(r).text: r for r in words}
    cut = [Entity("vendor_name", (at["ELEKTRON"], at["Industrieservice"]), 0.9),
           Entity("customer_name", (at["Metallbau"],), 0.9),
           Entity("vendor_name", (at["Musterbetrieb"],), 0.9),  # three words before the form: not this name's
           Entity("vendor_name", (at["Handwerker"], at["GmbH"]), 0.9),
           Entity("vendor_address", (at["Industrieservice"],), 0.9)]
    completed = [e.text(doc) for e in complete_party_names(doc, cut)]
    assert completed == ["ELEKTRON Industrieservice GmbH", "Metallbau Leipzig GmbH & Co. KG", "Musterbetrieb",
                         "Handwerker GmbH", "Industrieservice"]


def test_a_name_the_model_began_one_word_late_takes_the_name_words_before_it():
    doc = _page([[("MVM Musterhafter", 40)], [("Versicherungsverein Musterstadt a.G.", 40)], [("Verkäufer: Lieferant GmbH", 40)],
                 [("Herrn Max Mustermann", 40)], [("Rechnung Muster AG", 40)], [("ACME", 40), ("Hosting B.V.", 300)]])
    words = doc.pages[0].words

    def named(*texts: str) -> Entity:
        return Entity("vendor_name", tuple(WordRef(0, i) for i, w in enumerate(words) if w.text in texts), 0.6)

    names = [named("Musterhafter", "Versicherungsverein", "Musterstadt", "a.G."), named("Lieferant", "GmbH"),
             named("Max", "Mustermann"), named("Muster", "AG"), named("Hosting", "B.V.")]
    assert [e.text(doc) for e in complete_party_names(doc, names)] == [
        "MVM Musterhafter\nVersicherungsverein Musterstadt a.G.",  # an abbreviation before the name
        "Lieferant GmbH", "Max Mustermann", "Muster AG",  # a key, a salutation, a title: not the name's
        "Hosting B.V."]  # another column


def test_a_name_that_is_only_a_legal_form_takes_the_lower_case_words_before_it():
    # the footer's "bol.com b.v. · Papendorpseweg 100", where a model tagged only "b.v." as the vendor
    doc = _page([[("bol.com b.v. · Papendorpseweg 100", 40)], [("ACME", 40)], [("acme gmbh", 40)]])
    words = doc.pages[0].words
    at = {w.text: WordRef(0, i) for i, w in enumerate(words)}
    names = [Entity("vendor_name", (at["b.v."],), 0.6), Entity("vendor_name", (WordRef(0, len(words) - 1),), 0.6)]
    assert [e.text(doc) for e in complete_party_names(doc, names)] == ["bol.com b.v.", "acme gmbh"]
    # a name with more than its form keeps to capitalised name words before it ("Rechnung" is a title word)
    doc = _page([[("hello Muster GmbH", 40)]])
    name = Entity("vendor_name", (WordRef(0, 1), WordRef(0, 2)), 0.6)
    assert [e.text(doc) for e in complete_party_names(doc, [name])] == ["Muster GmbH"]


def test_a_name_cut_before_the_street_line_its_model_span_ran_into():
    # "Cliente: Maria Fernandes" over "Rua das Flores, 22, 2.º Esq.": the model's span ended at "Flores," before the
    # house number; the street line holds one, so the name stops before it. A name's second line without a number stays.
    doc = _page([[("Maria Fernandes", 40)], [("Rua das Flores, 22, 2.º Esq.", 40)], [("Studio Ferri", 300)],
                 [("& Associati", 300), ("Tel. 0341", 420)]], line_spacing=12)
    at = {w.text: WordRef(0, i) for i, w in enumerate(doc.pages[0].words)}
    names = [Entity("customer_name", (at["Maria"], at["Fernandes"], at["Rua"], at["das"], at["Flores,"]), 0.9),
             Entity("vendor_name", (at["Studio"], at["Ferri"], at["&"], at["Associati"]), 0.9)]
    assert [e.text(doc) for e in complete_party_names(doc, names)] == ["Maria Fernandes", "Studio Ferri\n& Associati"]


def test_a_headed_company_name_is_read_over_an_address_without_a_postcode():
    # a UAE invoice: "Customer:" over the company with its free-zone legal form, an address without a postcode and
    # the customer's TRN; where the block ends is unknown, but the name is its first line
    doc = _page([[("Customer:", 50)], [("Gulf Star Hospitality FZ-LLC", 50)], [("Dubai Media City, Dubai", 50)],
                 [("Customer TRN: 100987654300003", 50)]], line_spacing=11)
    assert _party_texts(doc, ("customer_name", "billing_address")) == {"customer_name": "Gulf Star Hospitality FZ-LLC"}
    # a person's name over such an address stays unread: no legal form says where the name ends
    doc = _page([[("Customer:", 50)], [("Omar Haddad", 50)], [("Dubai Media City, Dubai", 50)],
                 [("Customer TRN: 100987654300003", 50)]], line_spacing=11)
    assert _party_texts(doc, ("customer_name", "billing_address")) == {}


def test_an_invoice_number_read_after_another_numbers_key_gives_way_to_its_own_keys_value():
    doc = _page([[("Account number:", 340), ("4471 2093 8821", 440)], [("Invoice Number:", 340), ("EUINDE24-0883312", 440)]],
                line_spacing=12)
    at = {w.text: WordRef(0, i) for i, w in enumerate(doc.pages[0].words)}
    misread = Entity("invoice_number", (at["4471"], at["2093"]), 0.88)
    assert _texts(doc, key_value_entities(doc, [misread], INVOICE_LABELS, {}, "en_US", 2024))["invoice_number"] == (
        "EUINDE24-0883312", "rule")
    # where no key of its own prints one, it stands
    doc = _page([[("Account number:", 340), ("4471 2093 8821", 440)]])
    misread = Entity("invoice_number", (WordRef(0, 2), WordRef(0, 3)), 0.88)
    assert key_value_entities(doc, [misread], INVOICE_LABELS, {}, "en_US", 2024) == [misread]


def test_a_rent_invoices_landlord_and_tenant_and_a_utilitys_contract_holder_head_their_blocks():
    labels = ("vendor_name", "vendor_address", "customer_name", "billing_address")
    doc = _page([[("Arrendador", 50), ("Arrendatario", 320)], [("Carmen Ruiz Navarro", 50), ("Asesoría Turia, S.L.", 320)],
                 [("C/ Colón 8, 2º", 50), ("C/ Colón 8, bajo", 320)], [("46004 Valencia", 50), ("46004 Valencia", 320)]],
                line_spacing=11)
    assert _party_texts(doc, labels) == {"vendor_name": "Carmen Ruiz Navarro", "vendor_address": "C/ Colón 8, 2º 46004 Valencia",
                                         "customer_name": "Asesoría Turia, S.L.",
                                         "billing_address": "C/ Colón 8, bajo 46004 Valencia"}
    doc = _page([[("Titular del contrato", 50)], [("ANA MARÍA GÓMEZ PÉREZ", 50)], [("C/ Mayor 12, 3º B", 50)],
                 [("46001 Valencia", 50)]], line_spacing=11)
    assert _party_texts(doc, labels)["customer_name"] == "ANA MARÍA GÓMEZ PÉREZ"
    # "Contrato" alone heads nothing
    doc = _page([[("Contrato", 50)], [("ANA MARÍA GÓMEZ PÉREZ", 50)], [("C/ Mayor 12, 3º B", 50)],
                 [("46001 Valencia", 50)]], line_spacing=11)
    assert _party_texts(doc, labels) == {}


def test_an_italian_vat_number_that_is_the_tax_code_too_is_keyed():
    doc = _page([[("CARTOTECNICA ADRIATICA S.P.A.", 50)], [("P.IVA e C.F. 01234560421 - REA AN-123456", 50)]])
    assert _texts(doc, key_value_entities(doc, [], INVOICE_LABELS, {}, "it_IT", 2024))["vendor_tax_id"] == (
        "01234560421", "rule")


def test_a_customer_read_on_an_attention_line_is_the_company_over_it():
    doc = _page([[("Brookside Manufacturing Co.", 50), ("Invoice No.", 360), ("24-03317", 450)],
                 [("Attn: Ellen Marsh, General Counsel", 50)], [("88 Industrial Parkway", 50)],
                 [("Studio Noordlicht", 300)], [("t.a.v. Femke de Graaf", 300)], [("Attn: Joe Bloggs", 50)]],
                line_spacing=11)
    at = {w.text: WordRef(0, i) for i, w in enumerate(doc.pages[0].words)}
    contacts = [Entity("customer_name", (at["Ellen"], at["Marsh,"], at["General"], at["Counsel"]), 0.75),
                Entity("customer_name", (at["Femke"], at["de"], at["Graaf"]), 0.75),
                Entity("customer_name", (at["Joe"], at["Bloggs"]), 0.75),  # a street over it: no company
                Entity("vendor_name", (at["Ellen"], at["Marsh,"]), 0.5)]  # a vendor's contact is left alone
    assert [e.text(doc) for e in complete_party_names(doc, contacts)] == [
        "Brookside Manufacturing Co.", "Studio Noordlicht", "Joe Bloggs", "Ellen Marsh,"]


def test_a_danish_total_to_pay_keys_the_amount_due():
    doc = _page([[("I alt ekskl. moms", 330), ("4.000,00", 480)], [("Moms 25%", 330), ("1.000,00", 480)],
                 [("I alt at betale", 330), ("5.000,00 kr.", 470)]])
    found = _texts(doc, key_value_entities(doc, [], INVOICE_LABELS, {}, "da_DK", 2024))
    assert found["amount_due"] == ("5.000,00 kr.", "rule")


def test_an_address_cut_at_its_line_break_takes_the_postcode_line_below():
    doc = _page([
        [("Lieferantenstraße 20", 40), ("Kundenstraße 15", 300)],
        [("80333 München", 40), ("AT 1234 Muster Ort", 300)],
        [("Tel. 089 1234", 40), ("Musterweg 3", 300)],
        [("Invoice 2024 12", 40), ("Rechnung 17", 300)],
    ])
    line = {" ".join(doc.pages[0].words[w].text for w in l.word_indices): l.word_indices for l in doc.pages[0].lines}
    refs = lambda text, n=None: tuple(WordRef(0, w) for w in line[text][:n])  # noqa: E731
    cut = [
        Entity("vendor_address", refs("Lieferantenstraße 20"), 0.6),
        Entity("billing_address", refs("Kundenstraße 15"), 0.6),
        Entity("billing_address", refs("AT 1234 Muster Ort")[1:2], 0.3),  # "1234" tagged alone: merged whole
        Entity("vendor_name", refs("Tel. 089 1234"), 0.4),
        Entity("shipping_address", refs("Musterweg 3"), 0.5),  # the line below is no postcode line
    ]
    completed = sorted((e.label, e.text(doc)) for e in complete_addresses(doc, cut))
    assert completed == [("billing_address", "Kundenstraße 15\nAT 1234 Muster Ort"),
                         ("shipping_address", "Musterweg 3"),
                         ("vendor_address", "Lieferantenstraße 20\n80333 München"),
                         ("vendor_name", "Tel. 089 1234")]
    # a line below that is another field's value is never taken
    other = [Entity("vendor_address", refs("Lieferantenstraße 20"), 0.6), Entity("vendor_name", refs("80333 München"), 0.4)]
    assert [e.text(doc) for e in complete_addresses(doc, other)] == ["Lieferantenstraße 20", "80333 München"]


def test_an_address_cut_before_its_postal_code_takes_the_rest_of_its_city_line():
    # a Quebec address: the province in brackets, the postal code after it; the model stopped before the code
    doc = _page([[("1250, rue Sherbrooke Ouest", 40)], [("Montréal (Québec) H3A 1H6", 40)], [("514 555-0142", 40)]],
                line_spacing=12)
    words = doc.pages[0].words
    cut = Entity("vendor_address", tuple(WordRef(0, i) for i, w in enumerate(words) if w.text not in ("H3A", "1H6", "514", "555-0142")), 0.6)
    assert cut.text(doc) == "1250, rue Sherbrooke Ouest\nMontréal (Québec)"
    assert [e.text(doc) for e in complete_addresses(doc, [cut])] == ["1250, rue Sherbrooke Ouest\nMontréal (Québec) H3A 1H6"]
    # the rest of a line that is no city and postcode stays out ("Köln Tel. 0221 123")
    doc = _page([[("Hauptstraße 5", 40)], [("50667 Köln Tel. 0221 123", 40)]], line_spacing=12)
    cut = Entity("vendor_address", tuple(WordRef(0, i) for i in range(4)), 0.6)
    assert [e.text(doc) for e in complete_addresses(doc, [cut])] == ["Hauptstraße 5\n50667 Köln"]


def test_a_letterheads_centred_address_takes_its_centred_postcode_line():
    # Tryton's company header: the address lines centred at the top, each a different width
    def centred(text: str, top: float) -> tuple[str, float, float, float]:
        width = sum(6 * len(word) + 4 for word in text.split()) - 4  # _cells_page's text-layer widths
        return text, 300 - width / 2, top, 10

    doc = _cells_page([centred("1358 Maple Avenue, Building 4", 60), centred("Portland, OR 97205", 73)])
    street = tuple(WordRef(0, w) for w in doc.pages[0].lines[0].word_indices)
    completed = complete_addresses(doc, [Entity("vendor_address", street, 0.6)])
    assert [e.text(doc) for e in completed] == ["1358 Maple Avenue, Building 4\nPortland, OR 97205"]


def test_decoding_adds_rule_fields_only_with_label_probabilities():
    doc = _page([[("Invoice Number:", 40), ("INV-7", 300)]])
    probabilities = {"invoice_number": 0.01, "total": 0.001}
    tagged = [TaggedWord(WordRef(0, i), "O", 0.98, probabilities) for i in range(3)]
    (entity,) = decode_document_entities(doc, tagged)
    assert (entity.label, entity.text(doc), entity.method, entity.confidence) == ("invoice_number", "INV-7", "rule", 0.01)
    gold = [TaggedWord(WordRef(0, i), "O", 1.0) for i in range(3)]  # gold tags carry no probabilities: tags only
    assert decode_document_entities(doc, gold) == []


def test_a_real_invoice_of_a_producer_never_trained_on(shared_data):
    """factur-x-kit's English design: the keys stand in a column and the values in the next one."""
    pdf = shared_data("einvoices-more", "factur-x-kit", "PDF_DESIGN_EN.pdf")
    doc, _ = read_and_analyze(pdf, RunOptions())
    found = _texts(doc, key_value_entities(doc, [], INVOICE_LABELS, {}, "en_GB", 2023))
    assert found["invoice_number"][0] == "INV-2023-EASY-001"
    assert found["purchase_order"][0] == "PO-BUYER-7788"
    assert found["invoice_date"][0] == "October 1, 2023"
    assert found["due_date"][0] == "February 1, 2024"


def test_a_value_that_cannot_be_right_gives_way_to_the_keyed_one():
    doc = _page([[("Rechnungsnummer:", 40), ("E2018092011804", 300)], [("IBAN :", 40)],
                 [("DE12 1234 5678 9012 3456 78", 40)], [("Fällig am", 40), ("03.10.2018", 300)],
                 [("Termin", 40), ("-", 300)]])
    letter = Entity("invoice_number", (WordRef(0, 1),), 0.9)  # "E2018092011804" is usable: kept
    dash = Entity("due_date", (WordRef(0, 14),), 0.9)  # "-" is no date: replaced
    found = key_value_entities(doc, [letter, dash], INVOICE_LABELS, {}, "de_DE", 2018)
    assert letter in found and dash not in found
    texts = _texts(doc, found)
    assert texts["iban"] == ("DE12 1234 5678 9012 3456 78", "rule")  # by its key, though its check digits fail
    assert texts["due_date"] == ("03.10.2018", "rule")


def test_a_key_takes_its_value_from_another_label_but_never_an_amount():
    doc = _page([[("IBAN:", 40), ("DE12500105170648489890", 300)], [("Total:", 40), ("1.190,00", 300)]])
    tax_id = Entity("vendor_tax_id", (WordRef(0, 1),), 0.8)  # the model read the IBAN as a VAT id
    due = Entity("amount_due", (WordRef(0, 3),), 0.8)  # one amount, two names: the model's stays
    found = _texts(doc, key_value_entities(doc, [tax_id, due], INVOICE_LABELS, {}, "de_DE", None))
    # (and the total is that amount too: its key names a total, and nothing else gave one)
    assert found == {"iban": ("DE12500105170648489890", "rule"), "amount_due": ("1.190,00", "model"),
                     "total": ("1.190,00", "rule")}


def test_an_amount_the_model_read_as_the_currency_is_the_amount_its_key_names():
    doc = _page([[("Net Total Amount", 40), ("€135.00", 300)], [("Value Added Tax (19.00%)", 40), ("€25.65", 300)]])
    currency = Entity("currency", (WordRef(0, 8),), 0.9)  # "€25.65" tagged as the currency
    found = _texts(doc, key_value_entities(doc, [currency], INVOICE_LABELS, {}, "en_GB", None))
    assert found["total_tax"] == ("€25.65", "rule") and found["subtotal"] == ("€135.00", "rule")


def test_an_amount_that_closes_the_keys_parenthesis_is_not_its_value():
    doc = _page([[("Value Added Tax (19.00% of €121.50)", 40), ("€23.09", 300)]])
    found = _texts(doc, key_value_entities(doc, [], INVOICE_LABELS, {}, "en_GB", None))
    assert found["total_tax"] == ("€23.09", "rule")


def test_a_key_of_this_field_alone_comes_before_one_that_also_keys_another_type():
    # a rate's "19 % VAT" before an allowance's amount, earlier in the reading order than the totals block's
    # "Steuerbetrag" before the tax; "VAT" keys the VAT id too, "Steuerbetrag" the tax alone
    doc = _page([[("Abschlag Sondernachlass", 40), ("19 % VAT", 300), ("-1,00", 450)],
                 [("Rechnungssumme ohne USt.", 250), ("177,49", 450)], [("Steuerbetrag", 250), ("20,16", 450)]])
    found = _texts(doc, key_value_entities(doc, [], INVOICE_LABELS, {}, "de_DE", 2018))
    assert found["total_tax"] == ("20,16", "rule")
    # alone, the shared key still gives its value
    doc = _page([[("Abschlag Sondernachlass", 40), ("19 % VAT", 300), ("-1,00", 450)]])
    assert _texts(doc, key_value_entities(doc, [], INVOICE_LABELS, {}, "de_DE", 2018))["total_tax"] == ("-1,00", "rule")


def test_payment_terms_cut_to_their_number_take_their_sentence():
    doc = _page([
        [("Please pay the given amount within 30 days from invoice date.", 40)],
        [("Payment terms: Payment due in 30 days", 40), ("Total 160,65", 400)],
    ])
    words = {w.text + str(int(w.box.top)): WordRef(0, i) for i, w in enumerate(doc.pages[0].words)}
    cut = [Entity("payment_terms", (words["within60"], words["3060"], words["days60"]), 0.7),
           Entity("payment_terms", (words["3080"],), 0.6), Entity("total", (words["160,6580"],), 0.9)]
    completed = [(e.label, e.text(doc)) for e in complete_payment_terms(doc, cut)]
    # the sentence of its cell, without the terms' key; the total in the next cell stays the total's
    assert completed == [("payment_terms", "Please pay the given amount within 30 days from invoice date."),
                         ("payment_terms", "Payment due in 30 days"), ("total", "160,65")]


def test_payment_terms_after_another_fields_key_and_colon_are_the_sentence_alone():
    doc = _page([[("Balance due: Net 14", 300)], [("Due within 30 days", 300)]])
    words = [WordRef(0, i) for i in range(len(doc.pages[0].words))]
    tagged = [Entity("payment_terms", tuple(words[0:4]), 0.7), Entity("payment_terms", tuple(words[4:8]), 0.7)]
    # gen-invoice's "Balance due:" keys the terms the payer file gives; "Due" without a colon is the terms' own word
    assert [e.text(doc) for e in complete_payment_terms(doc, tagged)] == ["Net 14", "Due within 30 days"]


def test_a_date_alone_on_an_address_line_is_no_part_of_the_address():
    doc = _page([[("2023-12-17", 40), ("Kirchgasse 108", 300)], [("40213 Düsseldorf", 300)], [("17.12.2023", 300)]])
    words = {w.text: WordRef(0, i) for i, w in enumerate(doc.pages[0].words)}
    address = Entity("vendor_address", (words["2023-12-17"], words["Kirchgasse"], words["108"], words["40213"],
                                        words["Düsseldorf"], words["17.12.2023"]), 0.8)
    dates_only = Entity("billing_address", (words["17.12.2023"],), 0.6)
    kept = addresses_without_date_lines(doc, [address, dates_only])
    assert [(e.label, e.text(doc)) for e in kept] == [("vendor_address", "Kirchgasse 108\n40213 Düsseldorf")]


def test_a_key_whose_parenthesis_lists_its_kinds_keys_them():
    from docextract.extraction.key_context import whole_key

    doc = _page([[("Identifier (ABN/VAT number/etc.):", 40)], [("Reference (see below):", 40)],
                 [("Total (incl. VAT):", 40)]])
    lines = [[WordRef(0, i) for i in line.word_indices] for line in doc.pages[0].lines]
    assert whole_key(doc, lines[0]).labels == {"vendor_tax_id"}  # gen-invoice's key of the payee's tax id
    assert whole_key(doc, lines[1]) is None  # "see below" names no field
    assert whole_key(doc, lines[2]).labels == {"total"}  # a key before its parenthesis is the key, as before


def test_a_party_name_the_model_missed_is_read_from_its_labelled_block():
    doc = _page([
        [("Verkäufer", 40)],
        [("Nummer:", 40), ("549910", 250)],
        [("Name:", 40), ("Lieferant GmbH", 250)],  # key and value in two columns
        [("Käufer/Leistungsempfänger", 40)],
        [("Name: Kunden AG Mitte", 40)],  # on one line
    ])
    names = {label: " ".join(doc.word(r).text for r in words) for label, words in party_fields(
        doc, ["vendor_name", "customer_name"]).items()}
    assert names == {"vendor_name": "Lieferant GmbH", "customer_name": "Kunden AG Mitte"}
    # a name in two lines beside its key (the key centred on them), the address with its postcode line
    doc = _page([
        [("Verkäufer", 40)],
        [("Nummer:", 40), ("549910", 250)],
        [("MVM Musterhafter", 250)],
        [("Name:", 40), ("Versicherungsverein a.G.", 250)],
        [("Anschrift:", 40), ("Musterstr. 12", 250)],
        [("DE 12345 Musterstadt", 250)],
        [("Steuernummer:", 40), ("201/113/40209", 250)],
    ])
    fields = {label: " ".join(doc.word(r).text for r in words) for label, words in party_fields(
        doc, ["vendor_name", "vendor_address"]).items()}
    assert fields == {"vendor_name": "MVM Musterhafter Versicherungsverein a.G.",
                      "vendor_address": "Musterstr. 12 DE 12345 Musterstadt"}
    # the postcode line further below its street (1.4 line heights), in the value's column
    doc = _page([[("Käufer/Leistungsempfänger", 40)], [("Name:", 40), ("Liselotte Müllermann", 250)],
                 [("Anschrift:", 40), ("Beispielstraße 24", 250)], [("DE 12345 Berlin", 250)]], line_spacing=26)
    fields = {label: " ".join(doc.word(r).text for r in words) for label, words in party_fields(
        doc, ["customer_name", "billing_address"]).items()}
    assert fields == {"customer_name": "Liselotte Müllermann", "billing_address": "Beispielstraße 24 DE 12345 Berlin"}
    # without a heading that names the side, a "Name:" line is nobody's
    assert party_fields(_page([[("Name: Kunden AG Mitte", 40)]]), ["vendor_name", "customer_name"]) == {}


def test_a_block_without_keys_is_read_as_an_address_label():
    labels = ["vendor_name", "vendor_address", "customer_name", "billing_address", "shipping_address"]

    def read(rows, ocr=False):
        doc = _page(rows)
        if ocr:
            doc = replace(doc, pages=(replace(doc.pages[0], text_source="ocr"),))
        return _party_texts(doc, labels)

    assert read([
        [("Verkäufer:", 40), ("Käufer/Leistungsempfänger:", 300)],
        [("Lieferant GmbH", 40), ("Kunden AG Mitte", 300)],
        [("Lieferantenstraße 20", 40), ("Hans Muster", 300)],
        [("DE 80333 München", 40), ("Kundenstraße 15", 300)],
        [("Steuernummer : 201/113/40209", 40), ("DE 69876 Frankfurt", 300)],
    ]) == {"vendor_name": "Lieferant GmbH", "vendor_address": "Lieferantenstraße 20 DE 80333 München",
           "customer_name": "Kunden AG Mitte", "billing_address": "Kundenstraße 15 DE 69876 Frankfurt"}  # from the street
    # a contact under the name is whom the letter is for, not where it goes; a line after the street stays
    assert read([[("Bill To", 40)], [("Tech Solutions Ltd", 40)], [("Aoife Kelly", 40)], [("10 Tech Park Avenue", 40)],
                 [("Building B", 40)], [("D02 XA00 Dublin", 40)]]) == {
        "customer_name": "Tech Solutions Ltd", "billing_address": "10 Tech Park Avenue Building B D02 XA00 Dublin"}
    # a branch's number alone on its line under the name is no street either
    assert read([[("Abweichender Warenempfänger:", 40)], [("MUSTER-MARKT", 40)], [("8211", 40)],
                 [("HAUPTSTRASSE 44", 40)], [("DE 31157 SARSTEDT", 40)]])["shipping_address"] == \
        "HAUPTSTRASSE 44 DE 31157 SARSTEDT"
    # numbers over the label are not part of it
    assert read([[("Käufer:", 40)], [("Nummer", 40), (": GE2020211", 250)], [("Globale Nummer: 4000001987658 (GTIN)", 40)],
                 [("Kunden AG Mitte", 40)], [("Kundenstraße 15", 40)], [("DE 69876 Frankfurt", 40)]]) == {
        "customer_name": "Kunden AG Mitte", "billing_address": "Kundenstraße 15 DE 69876 Frankfurt"}
    # the same read from a scan, where OCR dropped the colon: "Nummer" | "549910" is still a number's row
    assert read([[("Käufer:", 40)], [("Nummer", 40), ("2 GE2020211", 200)], [("Kunden AG Mitte", 40)],
                 [("Kundenstraße 15", 40)], [("DE 69876 Frankfurt", 40)]]) == {
        "customer_name": "Kunden AG Mitte", "billing_address": "Kundenstraße 15 DE 69876 Frankfurt"}
    # or read the colon as another sign ("> GE2020211", "Globale Nummer; 4333741000005")
    assert read([[("Käufer:", 40)], [("Nummer", 40), ("> GE2020211", 200)],
                 [("Globale Nummer; 4333741000005 (GTIN)", 40)], [("Kunden AG Mitte", 40)], [("Kundenstraße 15", 40)],
                 [("DE 69876 Frankfurt", 40)]]) == {
        "customer_name": "Kunden AG Mitte", "billing_address": "Kundenstraße 15 DE 69876 Frankfurt"}
    # a British postcode after its country code
    assert read([[("Verkäufer:", 40)], [("Global Supplies Ltd.", 40)], [("153 Victoria Street", 40)],
                 [("GB SW1B 3BN London", 40)]]) == {
        "vendor_name": "Global Supplies Ltd.", "vendor_address": "153 Victoria Street GB SW1B 3BN London"}
    # whom it is for is not where it goes
    assert read([[("Bill to:", 40)], [("MEDILAB E.V.", 40)], [("z. Hd. Stefan Kaiser", 40)],
                 [("Friedrich-Ebert-Straße 140", 40)], [("30159 Hannover", 40)]]) == {
        "customer_name": "MEDILAB E.V.", "billing_address": "Friedrich-Ebert-Straße 140 30159 Hannover"}
    # no postcode line under the name: where the address ends is unknown, nothing is read
    assert read([[("Bill to:", 40)], [("Kunden AG Mitte", 40)], [("Kundenstraße 15", 40)], [("Germany", 40)]]) == {}
    # a key's row before the postcode: a block of keyed values, not an address label
    assert read([[("Seller", 40)], [("Lieferant GmbH", 40)], [("Phone: 0123 456", 40)], [("80333 München", 40)]]) == {}
    # but a registration number under the name is only skipped
    assert read([[("Verkäufer:", 40)], [("Lieferant GmbH", 40)], [("Handelsname: 99999999800010", 40)],
                 [("Lieferantenstraße 20", 40)], [("DE 80333 München", 40)]]) == {
        "vendor_name": "Lieferant GmbH", "vendor_address": "Lieferantenstraße 20 DE 80333 München"}
    # nor, on a scan, one whose number OCR read as letters, the last of them "OO" as if the "o.o." of "Sp. z o.o."
    assert read([[("Verkäufer:", 40)], [("Lieferant GmbH", 40)], [("Handelsname: IIIIIIIIEOO OO", 40)],
                 [("Lieferantenstraße 20", 40)], [("DE 80333 München", 40)]], ocr=True) == {
        "vendor_name": "Lieferant GmbH", "vendor_address": "Lieferantenstraße 20 DE 80333 München"}
    # a GLN over the label with its key after it in brackets is no part of it either
    assert read([[("Verkäufer", 40)], [("0001231000000 (GLN)", 40)], [("Lieferant GmbH & Co. KG", 40)],
                 [("Lieferanten-Strasse 12-17", 40)], [("DE 98765 Lieferantenstadt", 40)]]) == {
        "vendor_name": "Lieferant GmbH & Co. KG", "vendor_address": "Lieferanten-Strasse 12-17 DE 98765 Lieferantenstadt"}
    # a line far below the block is not its address
    assert read([[("Seller", 40)], [("Lieferant GmbH", 40)], [], [], [("80333 München", 40)]]) == {}


def test_from_and_to_head_labels_whose_postcode_comes_last():
    # a commercial invoice's "From:" | "To:" with US addresses: the city line "Boston, MA 02108" ends the address,
    # not the street "1228 Highland Ave", whose four digits read as a postcode first
    doc = _page([[("From:", 72), ("To:", 311)], [("Howard Inc", 72), ("RDD Inc.", 311)],
                 [("1128 Broadway", 72), ("1228 Highland Ave", 311)], [("Suite 852", 72), ("Suite 392", 311)],
                 [("Nashville, TN 37203", 72), ("Boston, MA 02108", 311)], [("+8 232 7550135", 72)]])
    labels = ["vendor_name", "vendor_address", "customer_name", "billing_address"]
    fields = _party_texts(doc, labels)
    assert fields == {"vendor_name": "Howard Inc", "vendor_address": "1128 Broadway Suite 852 Nashville, TN 37203",
                      "customer_name": "RDD Inc.", "billing_address": "1228 Highland Ave Suite 392 Boston, MA 02108"}
    # the same in Dutch, "Aan:" (to) left of "Van:" (from)
    doc = _page([[("Aan:", 30), ("Van:", 330)], [("Bouw Dekker", 30), ("Wavepoint N.V.", 330)],
                 [("Keizersgracht 51", 30), ("Molenstraat 208", 330)], [("3011 AD Rotterdam", 30), ("9711 LV Groningen", 330)]])
    fields = _party_texts(doc, labels)
    assert fields == {"customer_name": "Bouw Dekker", "billing_address": "Keizersgracht 51 3011 AD Rotterdam",
                      "vendor_name": "Wavepoint N.V.", "vendor_address": "Molenstraat 208 9711 LV Groningen"}
    # "From" and "To" as a period's column titles: no address under them, nothing read
    doc = _page([[("From", 72), ("To", 311)], [("01.01.2024", 72), ("31.01.2024", 311)], [("Total", 72)]])
    assert party_fields(doc, labels) == {}


def test_an_address_label_with_looser_lines_and_a_name_over_two_lines():
    labels = ["vendor_name", "vendor_address", "customer_name", "billing_address"]
    # lines 13 pt apart (1.2 line heights: an insurer's letter), the name wrapped before its legal form
    doc = _page([[("Verkäufer:", 40)], [("MVM Musterhafter", 40)], [("Versicherungsverein Musterstadt a.G.", 40)],
                 [("Musterstr. 12", 40)], [("DE 12345 Musterstadt", 40)]], line_spacing=24)
    fields = _party_texts(doc, labels)
    assert fields == {"vendor_name": "MVM Musterhafter Versicherungsverein Musterstadt a.G.",
                      "vendor_address": "Musterstr. 12 DE 12345 Musterstadt"}
    # a salutation alone on the name line: the name goes on below it
    doc = _page([[("Käufer:", 40)], [("Herrn", 40)], [("Max Mustermann", 40)], [("Musterstr. 11", 40)],
                 [("DE 12346 Bad Musterhausen", 40)]], line_spacing=24)
    fields = _party_texts(doc, labels)
    assert fields == {"customer_name": "Herrn Max Mustermann", "billing_address": "Musterstr. 11 DE 12346 Bad Musterhausen"}
    # lines over two line heights apart are separate blocks, not one label
    doc = _page([[("Verkäufer:", 40)], [("Lieferant GmbH", 40)], [("Musterstr. 12", 40)], [("DE 12345 Musterstadt", 40)]],
                line_spacing=36)
    assert party_fields(doc, labels) == {}


def test_side_by_side_address_labels_with_a_blank_line_under_the_name():
    # ZUGFeRD 1's layout: two labels side by side, each under its heading, a GLN over the name (no colon) and a
    # blank line between the name and the street
    doc = _page([[("Lieferant", 40), ("Käufer", 210)],
                 [("GLN 4333741000005", 40), ("GLN 4304171000002", 210)],
                 [("MUSTERLIEFERANT GMBH", 40), ("MUSTER-KUNDE GMBH", 210)],
                 [],
                 [("BAHNHOFSTRASSE 99", 40), ("KUNDENWEG 88", 210)],
                 [("99199 MUSTERHAUSEN", 40), ("40235 DUESSELDORF", 210)]], line_spacing=14)
    labels = ["vendor_name", "vendor_address", "customer_name", "billing_address"]
    fields = _party_texts(doc, labels)
    assert fields == {"vendor_name": "MUSTERLIEFERANT GMBH", "vendor_address": "BAHNHOFSTRASSE 99 99199 MUSTERHAUSEN",
                      "customer_name": "MUSTER-KUNDE GMBH", "billing_address": "KUNDENWEG 88 40235 DUESSELDORF"}
    # but the address lines themselves stay stacked: a blank line after the street ends the label (the company's
    # name, with its legal form, is still read: stop 64)
    doc = _page([[("Lieferant", 40)], [("MUSTERLIEFERANT GMBH", 40)], [], [("BAHNHOFSTRASSE 99", 40)], [],
                 [("99199 MUSTERHAUSEN", 40)]], line_spacing=14)
    assert _party_texts(doc, labels) == {"vendor_name": "MUSTERLIEFERANT GMBH"}


def test_a_window_envelope_letter_gives_both_parties():
    from docextract.extraction.party_blocks import window_envelope_fields

    doc = _page([
        [("Seller Company · 123 Seller St · Suite 100 · 12345 Seller City", 40)],  # the return address line
        [("Buyer Company", 40), ("Invoice Number:", 300), ("DOC-12345", 420)],
        [("456 Buyer St", 40), ("Invoice Date:", 300), ("October 1, 2023", 420)],
        [("67890 Buyer City", 40)],
        [("Germany", 40)],
    ])
    fields = {label: " ".join(doc.word(r).text for r in words) for label, words in window_envelope_fields(doc).items()}
    assert fields == {"vendor_name": "Seller Company", "vendor_address": "123 Seller St Suite 100 12345 Seller City",
                      "customer_name": "Buyer Company", "billing_address": "456 Buyer St 67890 Buyer City"}
    # a line of parts without a postcode is no return address
    plain = _page([[("Quality · Service · Price", 40)], [("Buyer Company", 40)], [("67890 Buyer City", 40)]])
    assert window_envelope_fields(plain) == {}
    # parts apart by dashes, and a person as the buyer
    doc = _page([[("WINKLER PERSONALSERVICE AG – Goethestraße 189 – 50667 Köln", 40)], [("Dieter Werner", 40)],
                 [("Kastanienweg 124", 40), ("Rechnungsnr.: 2020-2727", 300)], [("90402 Nürnberg", 40)]])
    fields = {label: " ".join(doc.word(r).text for r in words) for label, words in window_envelope_fields(doc).items()}
    assert fields == {"vendor_name": "WINKLER PERSONALSERVICE AG", "vendor_address": "Goethestraße 189 50667 Köln",
                      "customer_name": "Dieter Werner", "billing_address": "Kastanienweg 124 90402 Nürnberg"}


def _cells_page(cells: list[tuple[str, float, float, float]], ocr: bool = False) -> Document:
    """A page of cells (text, x, top, height): with a text layer, words 6 pt per character wide and 4 pt apart; read
    by OCR, whose boxes hug the ink, 4 pt per character and 3 pt apart."""
    char_width, space = (4, 3) if ocr else (6, 4)
    words = []
    for text, x, top, height in cells:
        for part in text.split():
            words.append(Word(part, Box(x, top, x + char_width * len(part), top + height)))
            x += char_width * len(part) + space
    page = Page(number=1, width=595.0, height=842.0, words=tuple(words), text_source="ocr" if ocr else "pdf_text")
    return analyze_layout(Document(source="scan.png" if ocr else "in/invoice.pdf", pages=(page,), sha256="0" * 64))


def test_a_small_return_address_apart_by_commas_or_hyphens_gives_both_parties():
    from docextract.extraction.party_blocks import window_envelope_fields

    # printed small, its parts apart by commas; the recipient four of its heights below, a little to the right
    doc = _cells_page([("Hayes Labs Ltd", 57, 44, 12), ("Leeds LS1 4DY", 57, 73, 12),
                       ("Hayes Labs Ltd, 156 Riverside Estate, Leeds LS1 4DY", 283, 107, 8),
                       ("Fletcher Events", 312, 146, 12), ("189 London Road", 312, 160, 12),
                       ("Manchester M1 2AB", 312, 174, 12), ("Invoice no. SI-2021-9982", 28, 290, 12),
                       ("Thank you for your order.", 28, 320, 12)])
    fields = {label: " ".join(doc.word(r).text for r in words) for label, words in window_envelope_fields(doc).items()}
    assert fields == {"vendor_name": "Hayes Labs Ltd,", "vendor_address": "156 Riverside Estate, Leeds LS1 4DY",
                      "customer_name": "Fletcher Events", "billing_address": "189 London Road Manchester M1 2AB"}
    doc = _cells_page([("Hetzner Online GmbH - Industriestr. 25 - 91710 Gunzenhausen", 57, 100, 7),
                       ("Max Mustermann", 57, 118, 11), ("Musterweg 1", 57, 132, 11), ("12345 Musterstadt", 57, 146, 11),
                       ("Rechnung", 57, 250, 11), ("Rechnungsnummer: R0001", 57, 270, 11)])
    fields = {label: " ".join(doc.word(r).text for r in words) for label, words in window_envelope_fields(doc).items()}
    assert fields["vendor_name"] == "Hetzner Online GmbH" and fields["customer_name"] == "Max Mustermann"
    # a receipt's address at the body's size, its parts apart by commas, is no return address
    receipt = _cells_page([("GARDENIA BAKERIES SDN BHD", 40, 40, 10), ("NO. 53, JALAN BESAR, 45600 BATANG BERJUNTAI", 40, 54, 10),
                           ("TEL: 03-3271 1234", 40, 68, 10), ("TOTAL 12.00", 40, 200, 10)])
    assert window_envelope_fields(receipt) == {}


def test_a_provider_heading_over_its_block_beside_a_phone_column():
    # the phone number right of the street starts with "+", which OCR reads for a colon: on a text layer it keys nothing
    doc = _page([[("Provider", 63), ("Date of issue: Jan 11, 2022", 315)],
                 [("Distribuzione Rizzo", 63), ("Due date: Feb 25, 2022", 315)],
                 [("Piazza del Duomo 11", 63), ("+39 876 6211196", 250)],
                 [("20121 Milano MI", 63), ("billing@example.com", 250)]], line_spacing=12)
    fields = {label: " ".join(doc.word(r).text for r in words)
              for label, words in party_fields(doc, ["vendor_name", "vendor_address"]).items()}
    assert fields == {"vendor_name": "Distribuzione Rizzo", "vendor_address": "Piazza del Duomo 11 20121 Milano MI"}


def test_party_blocks_of_a_web_template_seller_left_buyer_flush_right_city_then_postcode():
    # sparksuite's simple HTML invoice: "Seller:" left, "Buyer" set flush right (its lines start where their length
    # puts them), each place printed "city, postcode"
    def right(text: str, top: float) -> tuple[str, float, float, float]:
        return text, 518 - 6 * len(text.replace(" ", "")) - 4 * text.count(" "), top, 12

    doc = _cells_page([("Seller:", 77, 207, 12), right("Buyer", 207), ("Procom Bau", 77, 225, 12),
                       right("Sabine Wolf", 225), ("Industriestraße 40", 77, 243, 12), right("Goethestraße 92", 243),
                       ("Köln, 50667", 77, 261, 12), right("Leipzig, 04109", 261), ("Product", 72, 357, 12)])
    labels = ["vendor_name", "vendor_address", "customer_name", "billing_address"]
    fields = _party_texts(doc, labels)
    assert fields == {"vendor_name": "Procom Bau", "vendor_address": "Industriestraße 40 Köln, 50667",
                      "customer_name": "Sabine Wolf", "billing_address": "Goethestraße 92 Leipzig, 04109"}
    # headings printed in two languages name their side in one of them
    bilingual = _cells_page([("Seller / Pardavėjas:", 77, 207, 12), right("Buyer / Pirkėjas:", 207),
                             ("Procom Bau", 77, 225, 12), right("Sabine Wolf", 225), ("Industriestraße 40", 77, 243, 12),
                             right("Goethestraße 92", 243), ("Köln, 50667", 77, 261, 12), right("Leipzig, 04109", 261)])
    fields = {label: " ".join(bilingual.word(r).text for r in words)
              for label, words in party_fields(bilingual, labels).items()}
    assert fields["vendor_name"] == "Procom Bau" and fields["customer_name"] == "Sabine Wolf"
    # a line in the left half that ends where the heading ends is no line of a flush-right block
    left = _cells_page([("Buyer", 270, 100, 12), ("Ein ziemlich langer Hinweis", 140, 118, 12),
                        ("Teclab e.V.", 270, 136, 12), ("Kirchgasse 121", 270, 150, 12), ("40213 Düsseldorf", 270, 164, 12)])
    fields = {label: " ".join(left.word(r).text for r in words) for label, words in party_fields(left, labels).items()}
    assert fields == {"customer_name": "Teclab e.V.", "billing_address": "Kirchgasse 121 40213 Düsseldorf"}


def test_a_service_provider_heading_over_keyed_rows():
    from docextract.extraction.party_blocks import _side

    # PyInvoice: "Service Provider" and "Client" tables of keyed rows side by side
    doc = _cells_page([("Service Provider", 78, 149, 14), ("Client", 351, 149, 14), ("Name:", 78, 175, 10),
                       ("Bertrand SA", 169, 175, 10), ("Name:", 351, 175, 10), ("Isabelle Bernard", 442, 175, 10),
                       ("Street:", 78, 193, 10), ("32 rue Pasteur", 169, 193, 10), ("Street:", 351, 193, 10),
                       ("112 ZI des Glaisins", 442, 193, 10)])
    fields = {label: " ".join(doc.word(r).text for r in words)
              for label, words in party_fields(doc, ["vendor_name", "customer_name"]).items()}
    assert fields == {"vendor_name": "Bertrand SA", "customer_name": "Isabelle Bernard"}
    # "Service" alone (a table's column head) and "Service to" are no headings
    assert _side(["service"]) is None and _side(["service", "to"]) is None
    assert _side(["service", "recipient"]) == "customer_name"


def test_a_bill_to_heading_left_of_its_block_and_the_vendor_name_printed_again_over_its_address():
    from docextract.extraction.party_blocks import named_block_address

    # pyinvoicer: the vendor's name large at the top; "Bill To:" in a narrow column, the client's block right of it
    # and, further right, the vendor's block under its name printed again, without a heading
    doc = _cells_page([("Wavelab LLC", 73, 52, 20), ("INVOICE", 447, 52, 20), ("Bill To:", 49, 148, 8),
                       ("Foster PLLC", 120, 148, 8), ("Wavelab LLC", 382, 148, 8), ("601 Sunset Boulevard", 120, 157, 8),
                       ("136 Pine St", 382, 157, 8), ("Suite 709", 120, 166, 8), ("Phoenix, AZ 85004", 382, 166, 8),
                       ("Columbus, OH 43215", 120, 175, 8), ("Item Units Unit Price Amount", 49, 222, 8)])
    labels = ["customer_name", "billing_address", "vendor_name", "vendor_address"]
    fields = _party_texts(doc, labels)
    assert fields == {"customer_name": "Foster PLLC", "billing_address": "601 Sunset Boulevard Suite 709 Columbus, OH 43215"}
    top_name = tuple(r for r in (WordRef(0, i) for i in range(len(doc.pages[0].words))) if doc.word(r).box.top == 52
                     and doc.word(r).text != "INVOICE")
    address = named_block_address(doc, top_name, "vendor_name")
    assert " ".join(doc.word(r).text for r in address) == "136 Pine St Phoenix, AZ 85004"
    # a name printed nowhere else over an address: no block
    assert named_block_address(doc, tuple(r for r in address[:2]), "vendor_name") == ()
    # a heading with a line under it keeps its block under it ("Bill To:" over the name)
    under = _cells_page([("Bill To:", 49, 148, 8), ("Ref. 2", 120, 148, 8), ("Foster PLLC", 49, 158, 8),
                         ("601 Sunset Boulevard", 49, 167, 8), ("Columbus, OH 43215", 49, 176, 8)])
    fields = {label: " ".join(under.word(r).text for r in words) for label, words in party_fields(under, labels).items()}
    assert fields["customer_name"] == "Foster PLLC"


def test_on_a_scan_a_bilingual_heading_and_a_heading_that_lost_its_colon_still_head_their_blocks():
    labels = ["vendor_name", "vendor_address", "customer_name", "billing_address"]
    # Tesseract's "Seller / Pardavéjas:" (the Lithuanian "ė" read "é") over its block
    doc = _cells_page([("Seller / Pardavéjas:", 78, 167, 9), ("Friedrich Reinigung UG", 78, 185, 9),
                       ("Gewerbepark Süd 141", 78, 203, 9), ("Stuttgart, 70173", 78, 221, 9)], ocr=True)
    fields = _party_texts(doc, labels)
    assert fields == {"vendor_name": "Friedrich Reinigung UG", "vendor_address": "Gewerbepark Süd 141 Stuttgart, 70173"}
    # "Bill To:" read without its colon, its block beside it
    doc = _cells_page([("Bill To", 50, 148, 8), ("Heike Braun", 99, 148, 8), ("Kastanienweg 3", 99, 157, 8),
                       ("DE 40213 Düsseldorf", 99, 166, 8)], ocr=True)
    fields = _party_texts(doc, labels)
    assert fields == {"customer_name": "Heike Braun", "billing_address": "Kastanienweg 3 DE 40213 Düsseldorf"}


def test_a_letters_window_address_without_a_return_line_is_the_recipient():
    from docextract.extraction.party_blocks import window_recipient

    # isodoc under its letterhead: the company's name and address at the top, the recipient in the window 58 mm
    # down without a heading or a return line
    letter = [("Sigmagate S.A.R.L.", 99, 42, 16), ("Jane Roberts", 397, 62, 8), ("218 rue Pasteur", 397, 71, 8),
              ("44000 Nantes", 397, 81, 8), ("Lemaire Communication", 99, 164, 10), ("196 place du Marché", 99, 176, 10),
              ("74000 Annecy", 99, 188, 10), ("Nos références", 298, 277, 8), ("FAC 22-89", 298, 288, 10)]
    found = {label: " ".join(_cells_page(letter).word(r).text for r in words)
             for label, words in window_recipient(_cells_page(letter)).items()}
    assert found == {"customer_name": "Lemaire Communication", "billing_address": "196 place du Marché 74000 Annecy"}
    # the letterhead's own address label above the window is not the recipient (its right-hand block 22 mm down
    # stands above the highest window too)
    assert window_recipient(_cells_page(letter[:4] + letter[7:])) == {}
    # a French letter's (and Tryton's report's) recipient at the right, from 27 mm under the top
    moved = [(text, x + 250 if 164 <= top <= 188 else x, top, height) for text, x, top, height in letter]
    assert window_recipient(_cells_page(moved))["customer_name"] == window_recipient(_cells_page(letter))["customer_name"]
    # a sender's block at the right beside a left window (simpleinvoice): the left window's label is the recipient
    beside = [letter[0], *((text, 349, top + 40, height) for text, x, top, height in letter[1:4]), *letter[4:]]
    assert " ".join(_cells_page(beside).word(r).text for r in window_recipient(_cells_page(beside))["customer_name"]) \
        == "Lemaire Communication"
    # nor lines centred on one axis: a receipt's header photographed right of the middle, not a window's address
    centred = [letter[0], *((text, 430 - (sum(6 * len(w) + 4 for w in text.split()) - 4) / 2, top, height)
                            for text, _, top, height in letter[4:7])]
    assert window_recipient(_cells_page(centred)) == {}
    # ... not above it: a block at the right of a letterhead, 19-27 mm down
    raised = [letter[0], *((text, x + 250, top - 110, height) for text, x, top, height in letter[4:7]), *letter[7:]]
    assert window_recipient(_cells_page(raised)) == {}


def _ocr_page(cells: list[tuple[str, float, float, float]]) -> Document:
    return _cells_page(cells, ocr=True)


def test_a_scanned_return_address_in_pieces_with_misread_dots_still_gives_both_parties():
    from docextract.extraction.party_blocks import window_envelope_fields

    # Tesseract broke the small return line into three lines a few points apart and read its dots as "+", "-", "»";
    # a column further right at the same height is not part of it
    doc = _ocr_page([("Seller Company +", 40, 60, 7), ("123 Seller St-", 112, 65, 7),
                     ("Suite 100 » 12345 Seller City", 176, 58, 7), ("Leistungszeitraum: Januar", 400, 61, 7),
                     ("Buyer Company", 40, 80, 10), ("456 Buyer St", 40, 95, 10), ("67890 Buyer City", 40, 110, 10)])
    assert len({line.box.top for line in doc.pages[0].lines if line.box.top < 70}) > 1  # the pieces, as read
    fields = {label: " ".join(doc.word(r).text for r in words) for label, words in window_envelope_fields(doc).items()}
    assert fields == {"vendor_name": "Seller Company", "vendor_address": "123 Seller St- Suite 100 12345 Seller City",
                      "customer_name": "Buyer Company", "billing_address": "456 Buyer St 67890 Buyer City"}
    # a receipt's key line read by OCR is no return address ("NO :" ends a key, "179509 COUNTER" no postcode part)
    receipt = _ocr_page([("TAX INVOICE NO : 179509 COUNTER : 1", 40, 60, 8), ("CASHIER : ANNE", 40, 75, 8),
                         ("43300 SERI KEMBANGAN", 40, 90, 8)])
    assert window_envelope_fields(receipt) == {}
    # nor a receipt's phone line, whose "+" reads as a dot and "8076 FAX:" as a postcode and city
    receipt = _ocr_page([("MODERN DEPOT SDN BHD", 40, 60, 8), ("TEL: +603-6242 8076 FAX: +603-6242 8176", 40, 90, 8),
                         ("CASH", 40, 120, 8), ("RECEIPT #: CS00090733", 40, 140, 8)])
    assert window_envelope_fields(receipt) == {}
    # the address's normalised value drops the dots OCR glued to its words
    assert normalize_value("vendor_address", fields["vendor_address"], "en_US")[1] == \
        "123 Seller St Suite 100 12345 Seller City"
    # the dot before the city part read as a colon glued to the street: the postcode still starts a part
    doc = _ocr_page([("Global Goods Inc.", 71, 151, 7), ("+", 123, 153, 2), ("789 Commerce Street: M1 1AA Manchester", 131, 151, 7),
                     ("Prime Tech Solutions", 72, 168, 10), ("10 Tech Park Avenue", 72, 198, 10), ("D02 XA00 Dublin", 72, 213, 10)])
    fields = {label: " ".join(doc.word(r).text for r in words) for label, words in window_envelope_fields(doc).items()}
    assert fields == {"vendor_name": "Global Goods Inc.", "vendor_address": "789 Commerce Street: M1 1AA Manchester",
                      "customer_name": "Prime Tech Solutions", "billing_address": "10 Tech Park Avenue D02 XA00 Dublin"}



def test_a_party_block_takes_its_name_back_from_free_text_the_model_spilled_on_it():
    # a model on a layout never seen read the buyer's name under "Käufer" as payment terms; the block's heading
    # says whose it is. A typed value's words (the customer number) are never taken.
    doc = _page([
        [("Käufer/Leistungsempfänger", 40)],
        [("Nummer:", 40), ("GE2020211", 250)],
        [("Name:", 40), ("Kunden AG Mitte", 250)],
        [("Anschrift:", 40), ("Kundenstraße 15", 250)],
        [("DE 69876 Frankfurt", 250)],
    ])
    words = {doc.word(WordRef(0, i)).text: WordRef(0, i) for i in range(len(doc.pages[0].words))}
    spilled = Entity("payment_terms", (words["Kunden"], words["AG"], words["Mitte"]), 0.4, "model")
    labels = ("customer_name", "billing_address", "payment_terms")
    found = _texts(doc, key_value_entities(doc, [spilled], labels, {}, "de_DE", 2024))
    assert found["customer_name"] == ("Kunden AG Mitte", "block")
    assert "payment_terms" not in found
    # payment terms that start outside the block are the model's reading of something else: the block gives way
    wider = Entity("payment_terms", (words["Name:"], words["Kunden"], words["AG"], words["Mitte"]), 0.4, "model")
    found = _texts(doc, key_value_entities(doc, [wider], labels, {}, "de_DE", 2024))
    assert "customer_name" not in found and found["payment_terms"][0] == "Name: Kunden AG Mitte"


def test_a_postcode_tagged_as_the_vat_id_gives_way_to_the_block_once_the_vat_id_is_decided_elsewhere():
    # a model on a layout never seen tagged the postcode of "Anschrift:" as the seller's VAT id; the candidate
    # scorer chose the VAT id printed beside its key, so the tagger's postcode is only an alternative
    doc = _page([
        [("Verkäufer", 40)],
        [("Name:", 40), ("Lieferant GmbH", 250)],
        [("Anschrift:", 40), ("Lieferanten-Str. 12", 250)],
        [("DE 98765 Lieferstadt", 250)],
        [("USt.-Id.-Nr.:", 40), ("DE123456789", 250)],
    ])
    words = {doc.word(WordRef(0, i)).text: WordRef(0, i) for i in range(len(doc.pages[0].words))}
    postcode = Entity("vendor_tax_id", (words["DE"], words["98765"]), 0.6, "model")
    chosen = Entity("vendor_tax_id", (words["DE123456789"],), 0.9, "candidates", assigned=True)
    labels = ("vendor_name", "vendor_address", "vendor_tax_id")
    found = _texts(doc, key_value_entities(doc, [postcode, chosen], labels, {}, "de_DE", 2024))
    assert found["vendor_address"] == ("Lieferanten-Str. 12\nDE 98765 Lieferstadt", "block")
    assert found["vendor_tax_id"] == ("DE123456789", "candidates")
    # the block takes it even where the tagger's postcode is the only VAT id: five digits are no VAT id (a value a
    # typed field holds that can be one is never taken: test_a_house_number_the_model_tagged_as_the_vat_id_...)
    found = _texts(doc, key_value_entities(doc, [replace(postcode, assigned=True)], labels, {}, "de_DE", 2024))
    assert found["vendor_address"] == ("Lieferanten-Str. 12\nDE 98765 Lieferstadt", "block")
    assert "vendor_tax_id" not in found


def test_a_party_name_the_model_read_as_a_line_item_is_the_blocks_name():
    # a model on a layout never seen tagged the seller's name in its block as a line item's description (and took
    # a key phrase further down, "Rückgabe am", for the seller's name)
    doc = _page([
        [("Verkäufer:", 40)],
        [("Nummer", 40), (": 549910", 250)],
        [("MUSTER-Autovermietung", 40)],
        [("Musterstr. 99", 40)],
        [("DE 99199 MUSTERHAUSEN", 40)],
    ])
    words = {doc.word(WordRef(0, i)).text: WordRef(0, i) for i in range(len(doc.pages[0].words))}
    item = Entity("line_item_description", (words["MUSTER-Autovermietung"],), 0.5, "model")
    found = _texts(doc, key_value_entities(doc, [item], ("vendor_name", "vendor_address", "line_item_description"),
                                           {}, "de_DE", 2024))
    assert found["vendor_name"] == ("MUSTER-Autovermietung", "block") and "line_item_description" not in found


def test_payment_terms_under_a_heading_of_their_own():
    # the e-invoice visualisations' terms table: heading, column titles, the terms over two lines, the next section
    doc = _page([
        [("Zahlungsbedingungen:", 40)],
        [("Beschreibung", 40), ("Fälligkeit", 330), ("Teilzahlung", 420)],
        [("Zahlbar innerhalb 30 Tagen netto bis 04.07.2018, 3%", 40)],
        [("Skonto innerhalb 10 Tagen bis 15.06.2018", 40)],
        [("Zu- und Abschläge:", 40)],
    ])
    spilled = Entity("payment_terms", (WordRef(0, 1),), 0.6, "model")  # "Beschreibung"
    found = _texts(doc, key_value_entities(doc, [spilled], ("payment_terms",), {}, "de_DE", 2018))
    assert (" ".join(found["payment_terms"][0].split()), found["payment_terms"][1]) == (
        "Zahlbar innerhalb 30 Tagen netto bis 04.07.2018, 3% Skonto innerhalb 10 Tagen bis 15.06.2018", "rule")
    # a sentence that ends its line with a full stop is not continued; a due date in its own column is not taken
    doc = _page([
        [("Payment terms", 40)],
        [("Please pay within 14 days of the invoice date.", 40), ("21.11.2018", 420)],
        [("Bank details", 40)],
    ])
    assert _texts(doc, key_value_entities(doc, [], ("payment_terms",), {}, "en_GB", 2018))["payment_terms"][0] == (
        "Please pay within 14 days of the invoice date.")
    # a heading followed by the next section's heading printed no terms
    doc = _page([[("Payment terms:", 40)], [("Bank details:", 40)], [("IBAN DE89 3704 0044 0532 0130 00", 40)]])
    assert "payment_terms" not in _texts(doc, key_value_entities(doc, [], ("payment_terms",), {}, "en_GB", 2018))


def test_terms_the_model_cut_at_the_line_end_run_on_to_the_next_line():
    doc = _page([[("Zahlungsbedingungen:", 40), ("Zahlbar innerhalb 30 Tagen netto bis 04.07.2018, 3%", 250)],
                 [("Skonto innerhalb 10 Tagen bis 15.06.2018", 250)], [("Bankverbindung", 40)]])
    words = [WordRef(0, i) for i in range(len(doc.pages[0].words))]
    tagged = Entity("payment_terms", tuple(words[1:3]), 0.6, "model")  # "Zahlbar innerhalb"
    (terms,) = complete_payment_terms(doc, [tagged])
    assert " ".join(terms.text(doc).split()) == ("Zahlbar innerhalb 30 Tagen netto bis 04.07.2018, 3% Skonto innerhalb "
                                                 "10 Tagen bis 15.06.2018")


def test_wrapped_terms_run_on_to_the_end_of_their_paragraph():
    lines = ["Die Leistung wurde erbracht im Zeitraum zwischen", "Übergabe und Rückgabe. Der Rechnungsbetrag wird über",
             "Ihre MasterCard-Kreditkarte abgebucht. Dies ist keine", "Aufforderung zur Zahlung. Rechnung für Ihre",
             "Unterlagen.", "Bankverbindung"]
    doc = _page([[(line, 40)] for line in lines])
    first = [WordRef(0, i) for i in range(7)]  # the first line, as the model tagged it
    (terms,) = complete_payment_terms(doc, [Entity("payment_terms", tuple(first), 0.6, "model")])
    assert " ".join(terms.text(doc).split()) == " ".join(lines[:5])


def test_terms_under_their_heading_with_an_indented_first_line_and_a_key_inside_a_sentence():
    # the FeRD visualisation indents the paragraph's first line; an insurer's sentence breaks before "Fälligkeit",
    # a due date's key, after "zu der": no phrase ends with an article, so the key's line goes on the sentence
    doc = _page([[("Zahlungsbedingungen", 40)], [("Beschreibung", 44), ("Fälligkeit", 330)],
                 [("Die Leistung wurde erbracht im Zeitraum zwischen", 62)],
                 [("Übergabe und Rückgabe. Wir würden dann zu der", 44)],
                 [("Fälligkeit 06.12.2018 den Beitrag von dem uns", 44)],
                 [("bekannten Konto abbuchen.", 44)], [("Bankverbindung", 40)]])
    found = _texts(doc, key_value_entities(doc, [], ("payment_terms",), {}, "de_DE", 2018))
    assert " ".join(found["payment_terms"][0].split()) == (
        "Die Leistung wurde erbracht im Zeitraum zwischen Übergabe und Rückgabe. Wir würden dann zu der Fälligkeit "
        "06.12.2018 den Beitrag von dem uns bekannten Konto abbuchen.")
    # after a whole phrase the key's line is another field's
    doc = _page([[("Zahlungsbedingungen", 40)], [("Zahlbar innerhalb von 30 Tagen ohne Abzug", 40)],
                 [("Fälligkeit 06.12.2018", 40)]])
    found = _texts(doc, key_value_entities(doc, [], ("payment_terms",), {}, "de_DE", 2018))
    assert found["payment_terms"][0] == "Zahlbar innerhalb von 30 Tagen ohne Abzug"


def test_a_word_broken_at_its_hyphen_is_one_word_in_the_normalized_value():
    from docextract.extraction.entities import normalize_value

    assert normalize_value("payment_terms", "ein SEPA-\nLastschriftmandat\nerteilen", "de_DE")[1] == (
        "ein SEPA-Lastschriftmandat erteilen")
    assert normalize_value("payment_terms", "Rabatt -\n5 %", "de_DE")[1] == "Rabatt - 5 %"


def test_short_terms_do_not_run_on_to_the_next_line():
    # "30 Tage netto" is whole; the IBAN line under it is another field's
    doc = _page([[("Zahlungsbedingungen:", 40), ("30 Tage netto", 250)], [("IBAN: DE29 3570 3752 5257 8265 42", 250)]])
    words = [WordRef(0, i) for i in range(len(doc.pages[0].words))]
    (terms,) = complete_payment_terms(doc, [Entity("payment_terms", tuple(words[1:4]), 0.6, "model")])
    assert terms.text(doc) == "30 Tage netto"


def test_a_terms_key_with_its_value_in_the_next_column_is_no_heading():
    doc = _page([[("Terms", 40), ("Net 60", 250)], [("Product / Service", 40), ("Amount", 400)],
                 [("Green tea, loose leaf", 40), ("12.00", 400)]])
    found = _texts(doc, key_value_entities(doc, [], ("payment_terms",), {}, "en_GB", 2024))
    assert found.get("payment_terms", ("", ""))[0] != "Product / Service"


def test_a_shipping_block_gives_the_shipping_address():
    labels = ["customer_name", "billing_address", "shipping_address"]
    doc = _page([
        [("Käufer:", 40), ("Abweichender Warenempfänger:", 300)],
        [("Kunden AG Mitte", 40), ("Metallbau Leipzig GmbH & Co. KG", 300)],
        [("Kundenstraße 15", 40), ("Eichenpromenade 37", 300)],
        [("DE 69876 Frankfurt", 40), ("Tor 1", 300)],
        [("DE 12347 Metallstadt", 300)],
    ])
    fields = _party_texts(doc, labels)
    assert fields == {"customer_name": "Kunden AG Mitte", "billing_address": "Kundenstraße 15 DE 69876 Frankfurt",
                      "shipping_address": "Eichenpromenade 37 Tor 1 DE 12347 Metallstadt"}
    # "Lieferung" alone titles a column more often than a block
    doc = _page([[("Lieferung", 40)], [("Muster GmbH", 40)], [("Musterstr. 1", 40)], [("12345 Musterstadt", 40)]])
    assert party_fields(doc, labels) == {}
    # a delivery block without a name starts at its street
    doc = _page([[("Client :", 40), ("Adresse de livraison :", 300)],
                 [("Dupont & Boyer SARL", 40), ("55 place du Marché", 300)],
                 [("28 allée des Tilleuls", 40), ("33000 Bordeaux", 300)], [("74000 Annecy", 40)]])
    fields = _party_texts(doc, labels)
    assert fields["shipping_address"] == "55 place du Marché 33000 Bordeaux"


def test_an_address_label_reads_its_own_column_only():
    # "Rechnungsersteller" names the seller; the title printed on the street's row, one cell further right, is not
    # part of the address (the two cells stay one line when the gap is narrow)
    doc = _page([[("Rechnungsersteller", 40)], [("Lieferant GmbH", 40)],
                 [("Lieferantenstraße 20", 40), ("RECHNUNG", 172)], [("80333 München", 40)]])
    fields = {label: " ".join(doc.word(r).text for r in words)
              for label, words in party_fields(doc, ["vendor_name", "vendor_address"]).items()}
    assert fields == {"vendor_name": "Lieferant GmbH", "vendor_address": "Lieferantenstraße 20 80333 München"}


def test_free_text_that_starts_in_a_party_block_gives_way_even_when_it_runs_on_below_it():
    doc = _page([[("Käufer/Leistungsempfänger", 40)], [("Name:", 40), ("Kunden AG Mitte", 250)],
                 [("Anschrift:", 40), ("Kundenstraße 15", 250)], [("DE 69876 Frankfurt", 250)],
                 [("Zahlbar innerhalb 30 Tagen", 250)]])
    words = {doc.word(WordRef(0, i)).text: WordRef(0, i) for i in range(len(doc.pages[0].words))}
    spilled = Entity("payment_terms", (words["Kunden"], words["AG"], words["Mitte"], words["Zahlbar"]), 0.4, "model")
    found = _texts(doc, key_value_entities(doc, [spilled], ("customer_name", "payment_terms"), {}, "de_DE", 2024))
    assert found["customer_name"] == ("Kunden AG Mitte", "block") and "payment_terms" not in found


def test_a_scanned_labels_gaps_are_measured_in_font_heights_not_ink_heights():
    # Tesseract boxes the ink: "Musterstr. 11" is 6.8 pt tall where a text layer says 10, so the 10.5 pt gap to
    # "DE 12346 Bad Musterhausen" read as 1.5 line heights and ended the address at the street
    from docextract.document import Box, Document, Page, Word
    from docextract.layout import analyze_layout

    rows = [("Käufer/Leistungsempfänger", 70, 328.8), ("Name:", 70, 359.5), ("Max Mustermann", 261, 358.1),
            ("Anschrift:", 70, 388.3), ("Musterstr. 11", 261, 387.8), ("DE 12346 Bad Musterhausen", 261, 405.1)]

    def page(text_source: str) -> Document:
        words = []
        for text, x, top in rows:
            for token in text.split():
                words.append(Word(token, Box(x, top, x + 5 * len(token), top + 6.8)))
                x += 5 * len(token) + 3
        doc = Document(source="in/scan.jpg", sha256="0" * 64,
                       pages=(Page(number=1, width=595.0, height=842.0, words=tuple(words), text_source=text_source),))
        return analyze_layout(doc)

    def read(doc):
        return {k: " ".join(doc.word(r).text for r in v)
                for k, v in party_fields(doc, ["customer_name", "billing_address"]).items()}

    assert read(page("ocr"))["billing_address"] == "Musterstr. 11 DE 12346 Bad Musterhausen"
    assert read(page("pdf_text"))["billing_address"] == "Musterstr. 11"  # a text layer's 6.8 pt boxes are its font's


def test_a_party_heading_misread_by_ocr_still_heads_its_block():
    labels = ("customer_name", "billing_address")
    rows = [("Kéufer/Leistungsempfiinger:", 40, 60, 8), ("Kunden AG Mitte", 40, 75, 8), ("Kundenstraße 15", 40, 88, 8),
            ("DE 69876 Frankfurt", 40, 101, 8)]
    doc = _ocr_page(rows)
    found = _party_texts(doc, labels)
    assert found == {"customer_name": "Kunden AG Mitte", "billing_address": "Kundenstraße 15 DE 69876 Frankfurt"}
    # cut short by a line broken off ("Käufer/Le") it heads its block too; a town named after a buyer heads nothing
    assert party_fields(_ocr_page([("Käufer/Le", 40, 60, 8)] + rows[1:]), labels)
    assert not party_fields(_ocr_page([("Käuferstadt", 40, 60, 8)] + rows[1:]), labels)
    # the same misread words in a text layer are no heading
    assert not party_fields(_page([[("Kéufer/Leistungsempfiinger:", 40)], [("Kunden AG Mitte", 40)],
                                   [("Kundenstraße 15", 40)], [("DE 69876 Frankfurt", 40)]]), labels)


def test_a_scanned_heading_broken_off_or_read_letter_by_letter_still_heads_its_block():
    # headings as Tesseract read them on the e-invoices' 150-dpi scans
    rows = [("Kunden AG Mitte", 40, 75, 8), ("Kundenstraße 15", 40, 88, 8), ("DE 69876 Frankfurt", 40, 101, 8)]

    def read(heading: str, labels=("customer_name", "billing_address", "shipping_address")) -> dict:
        doc = _ocr_page([(heading, 40, 60, 8)] + rows)
        return _party_texts(doc, labels)

    buyer = {"customer_name": "Kunden AG Mitte", "billing_address": "Kundenstraße 15 DE 69876 Frankfurt"}
    # "Leistungs" starts a buyer's ("Leistungsempfänger") and a seller's word ("Leistungserbringer"): "Käufer" says which
    assert read("Käufer/Leistungs") == buyer
    assert read("K a ufer:") == buyer
    assert read("Abweichender Ware") == {"shipping_address": "Kundenstraße 15 DE 69876 Frankfurt"}
    assert read("Käufer/Leis tungsempfänger:") == buyer  # a space read inside a word
    assert read("Abweichender Warenempfän er:") == {"shipping_address": "Kundenstraße 15 DE 69876 Frankfurt"}
    assert read("Leistungs") == {} and read("Abweichender Wa") == {}  # no side, or too little of one


def test_a_scanned_address_label_with_a_blank_line_a_lost_number_and_a_speck_after_its_country_code():
    # the boxes Tesseract gave a 150-dpi scan's buyer block (ink heights: "Herrn" 6.2 pt, "Max Mustermann" 6.4): a
    # blank line under the name measured 1.5 heights of ink, "Nummer : 75969813" lost its value, "DE 12346" read "DE."
    rows = [("Käufer/Leistungsempfänger:", 50, 420.0, 7.5), ("Nummer", 50, 431.0, 6.0), ("Herrn", 50, 444.9, 6.2),
            ("Max Mustermann", 50, 455.9, 6.4), ("Musterstr. 11", 50, 478.8, 6.5),
            ("DE. 12346 Bad Musterhausen", 51, 489.6, 7.1), ("Beitragsrechnung Nr. 00.123.456.7", 50, 536.5, 9.2)]
    doc = _ocr_page(rows)
    found = {label: " ".join(doc.word(r).text for r in words)
             for label, words in party_fields(doc, ("customer_name", "billing_address")).items()}
    assert found == {"customer_name": "Herrn Max Mustermann", "billing_address": "Musterstr. 11 DE. 12346 Bad Musterhausen"}
    # the speck read as a colon ("DE: 12346") makes no key's row of the postcode line
    colon = _ocr_page(rows[:5] + [("DE: 12346 Bad Musterhausen", 51, 489.6, 7.1)] + rows[6:])
    found = {label: " ".join(colon.word(r).text for r in words)
             for label, words in party_fields(colon, ("customer_name", "billing_address")).items()}
    assert found == {"customer_name": "Herrn Max Mustermann", "billing_address": "Musterstr. 11 DE: 12346 Bad Musterhausen"}
    # two blank lines part a name from what follows
    apart = _ocr_page(rows[:4] + [("Musterstr. 11", 50, 489.6, 6.5), ("DE 12346 Bad Musterhausen", 51, 500.4, 7.1)])
    assert party_fields(apart, ("customer_name", "billing_address")) == {}


def test_a_scanned_street_keeps_its_house_number():
    # the boxes Tesseract gave "Verkäufer: / Lieferant GmbH / Musterstr. 99 / DE 99199 MUSTERHAUSEN" on a 150-dpi
    # scan: they hug the ink, so the space before "99" (9 pt) is wider than 1.2 of the box height (7 pt); read as a
    # cell break, the street lost its number
    from docextract.document import Box, Document, Page, Word
    from docextract.layout import analyze_layout

    def words(text, x0, top, x1):
        return [Word(t, Box(x0 + (x1 - x0) * i / len(text.split()), top, x0 + (x1 - x0) * (i + 1) / len(text.split()) - 3,
                            top + 7), confidence=0.9) for i, t in enumerate(text.split())]

    scanned = [*words("Verkäufer:", 50, 321, 104), *words("Lieferant GmbH", 50, 334, 128),
               Word("Musterstr.", Box(50, 347, 108, 354), 0.9), Word("99", Box(117, 347, 127, 353), 0.9),
               *words("DE 99199 MUSTERHAUSEN", 51, 358, 170)]
    doc = analyze_layout(Document(source="scan.png", sha256="0" * 64, pages=(
        Page(number=1, width=595.0, height=842.0, words=tuple(scanned), text_source="ocr"),)))
    fields = {label: " ".join(doc.word(r).text for r in refs)
              for label, refs in party_fields(doc, ["vendor_name", "vendor_address"]).items()}
    assert fields["vendor_address"] == "Musterstr. 99 DE 99199 MUSTERHAUSEN"


def test_a_scanned_name_tesseract_ended_early_keeps_its_legal_form():
    # Tesseract gave "Lieferant" and "GmbH & Co. KG" of one printed name as two lines (the first box taller, the
    # second 4 pt lower); the name beside "Name:" is both, where nothing parts them but a space
    from docextract.document import Box, Document, Line, Page, Word
    rows = [[("Verkäufer", 67, 330, 100, 337)], [("Name:", 67, 356, 88, 363)], [("Lieferant", 304, 351, 332, 365)],
            [("GmbH", 336, 355, 355, 362), ("&", 357, 355, 361, 362), ("Co.", 363, 355, 373, 362),
             ("KG", 375, 355, 385, 362)],
            [("Anschrift:", 67, 369, 100, 376)], [("Lieferanten-Str.12-17", 306, 369, 380, 376)],
            [("DE", 306, 382, 315, 389), ("98765", 317, 382, 333, 389), ("Lieferstadt", 335, 382, 365, 389)]]
    words, lines = [], []
    for row in rows:
        start = len(words)
        words += [Word(t, Box(x0, top, x1, bottom), 0.9) for t, x0, top, x1, bottom in row]
        lines.append(Line(tuple(range(start, len(words))), Box.enclosing([w.box for w in words[start:]])))
    page = Page(number=1, width=595.0, height=842.0, words=tuple(words), text_source="ocr", lines=tuple(lines))
    doc = Document(source="scan.png", sha256="0" * 64, pages=(page,))
    fields = {label: " ".join(doc.word(r).text for r in refs)
              for label, refs in party_fields(doc, ["vendor_name", "vendor_address"]).items()}
    assert fields["vendor_name"] == "Lieferant GmbH & Co. KG"
    assert fields["vendor_address"] == "Lieferanten-Str.12-17 DE 98765 Lieferstadt"


def test_a_paragraph_of_sentences_goes_on_where_the_text_flow_broke_the_line():
    # an insurer's terms: a sentence ends with a line that the next word did not fit on, and the paragraph goes on;
    # it ends with a sentence whose line stops short of the margin
    lines = ["Einen zu zahlenden Beitrag überweisen Sie bitte auf folgende Bankverbindung: IBAN",
             "DE75123456780000001234, BIC WELADED1MST, Sparkasse Musterstadt Nord-Ost.",
             "Einfacher für Sie ist es, wenn Sie uns ein Lastschriftmandat erteilen.", "Mit freundlichen Grüßen"]
    doc = _page([[("Zahlungsbedingungen", 40)], *[[(line, 40)] for line in lines]])
    found = _texts(doc, key_value_entities(doc, [], ("payment_terms",), {}, "de_DE", 2018))
    assert " ".join(found["payment_terms"][0].split()) == " ".join(lines[:3])
    # the same sentence on a line with room left for the next word ends the terms there
    lines[1] = "DE75123456780000001234, BIC WELADED1MST, Ost."
    doc = _page([[("Zahlungsbedingungen", 40)], *[[(line, 40)] for line in lines]])
    found = _texts(doc, key_value_entities(doc, [], ("payment_terms",), {}, "de_DE", 2018))
    assert " ".join(found["payment_terms"][0].split()) == " ".join(lines[:2])


def _freelancer_page() -> Document:
    """The invoicing package's head: "Invoice To:" over the client's name and address run on one line, and right of it
    "Invoice Number:" over its value; its foot: "NAME trading as:" over the business's name and address, centred."""
    def centred(text: str, top: float) -> tuple[str, float, float, float]:
        return text, 300 - (sum(6 * len(word) + 4 for word in text.split()) - 4) / 2, top, 8

    return _cells_page([("Invoice To:", 50, 100, 8), ("Invoice Number:", 400, 100, 8),
                        ("2506-1613", 400, 111, 8), ("Anna Spencer 407 Sunset Boulevard, Austin, TX 73301", 50, 120, 8),
                        centred("Laura Evans trading as:", 700), centred("Evans Bookkeeping", 710),
                        centred("830 Market Street,", 720), centred("Suite 4,", 730), centred("Madison, WI 53703", 740)])


def test_a_client_whose_name_runs_into_its_address_on_one_line_is_split_at_the_street():
    doc = _freelancer_page()
    found = {label: " ".join(doc.word(r).text for r in words)
             for label, words in party_fields(doc, ["customer_name", "billing_address"]).items()}
    assert found == {"customer_name": "Anna Spencer", "billing_address": "407 Sunset Boulevard, Austin, TX 73301"}
    # without a place line after a comma the line is a name, not a name and an address
    doc = _cells_page([("Invoice To:", 50, 100, 8), ("Anna Spencer 407 Consulting Hours", 50, 112, 8)])
    assert party_fields(doc, ["customer_name", "billing_address"]) == {}


def test_the_business_a_sole_trader_trades_as_is_the_vendor():
    from docextract.extraction.party_blocks import trading_as_fields

    doc = _freelancer_page()
    found = {label: " ".join(doc.word(r).text for r in words) for label, words in trading_as_fields(doc).items()}
    assert found == {"vendor_name": "Evans Bookkeeping", "vendor_address": "830 Market Street, Suite 4, Madison, WI 53703"}
    doc = _cells_page([("J. Smith t/a Smith Plumbing", 50, 100, 8)])
    assert [doc.word(r).text for r in trading_as_fields(doc)["vendor_name"]] == ["Smith", "Plumbing"]
    assert trading_as_fields(_cells_page([("Trading hours: 9-5", 50, 100, 8)])) == {}


def test_a_key_beside_a_party_heading_ends_the_partys_block_and_takes_its_value_from_a_stray_address_line():
    from docextract.extraction.party_blocks import block_extents, side_at

    doc = _freelancer_page()
    words = {doc.word(WordRef(0, i)).text: WordRef(0, i) for i in range(len(doc.pages[0].words))}
    extents = block_extents(doc)
    assert side_at(extents, doc, words["Anna"]) == "customer_name" and side_at(extents, doc, words["2506-1613"]) is None
    # the model read on from the client's address into the number under "Invoice Number:" beside it
    address = tuple(WordRef(0, i) for i, w in enumerate(doc.pages[0].words) if 120 <= w.box.top < 130
                    and w.text not in ("Anna", "Spencer")) + (words["2506-1613"],)
    found = key_value_entities(doc, [Entity("vendor_address", address, 0.7)], INVOICE_LABELS + ("vendor_address",),
                               {}, "en_US", None)
    assert _texts(doc, found)["invoice_number"] == ("2506-1613", "rule")
    assert not any("2506-1613" in e.text(doc) for e in found if e.label != "invoice_number")


def test_a_marketplaces_billing_delivery_and_seller_blocks_side_by_side():
    # Amazon's invoice: three headed blocks in a row; "Billing address" names the buyer's, "Sold by" the seller's,
    # "Delivery address" where the goods went
    doc = _page([[("Billing address", 40), ("Delivery address", 230), ("Sold by", 400)],
                 [("Max Mustermann", 40), ("Max Mustermann", 230), ("Amazon EU S.à r.l.", 400)],
                 [("Lindenweg 3", 40), ("Packstation 123", 230), ("38 avenue John F. Kennedy", 400)],
                 [("80331 München", 40), ("80335 München", 230), ("L-1855 Luxembourg", 400)]])
    labels = ["vendor_name", "vendor_address", "customer_name", "billing_address", "shipping_address"]
    fields = _party_texts(doc, labels)
    assert fields == {"customer_name": "Max Mustermann", "billing_address": "Lindenweg 3 80331 München",
                      "shipping_address": "Packstation 123 80335 München", "vendor_name": "Amazon EU S.à r.l.",
                      "vendor_address": "38 avenue John F. Kennedy L-1855 Luxembourg"}
    # "Address", "Sold" or "By" alone heads no block
    alone = _page([[("Address", 40)], [("Max Mustermann", 40)], [("Lindenweg 3", 40)], [("80331 München", 40)]])
    assert party_fields(alone, labels) == {}


def test_firma_over_a_companys_name_is_no_part_of_it():
    # DIN 5008's address label in a letter's window: "Firma" over the company's name says it is one; "Herrn" over a
    # person's stays
    from docextract.extraction.party_blocks import window_envelope_fields

    def read(salutation):
        doc = _page([[("Serverhaus AG · Industriestr. 25 · 91710 Gunzenhausen", 50)], [(salutation, 50), ("Rechnung", 380)],
                     [("Beispiel GmbH", 50)], [("Ringstraße 7", 50)], [("50667 Köln", 50)]], line_spacing=12)
        return {label: " ".join(doc.word(r).text for r in words) for label, words in window_envelope_fields(doc).items()}

    assert read("Firma")["customer_name"] == "Beispiel GmbH"
    assert read("Firma")["billing_address"] == "Ringstraße 7 50667 Köln"
    assert read("Herrn")["customer_name"] == "Herrn Beispiel GmbH"


def test_a_name_the_model_cut_after_its_salutation_takes_the_name():
    doc = _page([[("Mr John Smith", 50), ("Room", 350), ("412", 430)], [("44 Elm Grove", 50)]])
    cut = Entity("customer_name", (WordRef(0, 0),), 0.6)  # "Mr"
    assert complete_party_names(doc, [cut])[0].text(doc) == "Mr John Smith"  # not the room's column


def test_a_window_recipients_name_a_line_over_the_band_still_heads_the_label():
    # the name set a line above the window's band, its street the band's first line: the label starts at the name
    from docextract.extraction.party_blocks import window_recipient

    doc = _page([[("KPN B.V.", 50)], [("Wilhelminakade 123, 3072 AP Rotterdam", 50)], [("Factuur", 350)],
                 [("Factuurnummer 123456789012", 350)], [("Mevr. J. Jansen", 50)], [("Dorpsstraat 45", 50)],
                 [("3511 AB Utrecht", 50)]], line_spacing=13)  # the name 112 pt down, the band from 113 pt
    fields = {label: " ".join(doc.word(r).text for r in words) for label, words in window_recipient(doc).items()}
    assert fields == {"customer_name": "Mevr. J. Jansen", "billing_address": "Dorpsstraat 45 3511 AB Utrecht"}


def test_the_sellers_tax_id_is_read_from_its_key_where_its_check_digits_hold():
    # Spanish and Italian invoices print the seller's tax id after "CIF:" or "P.IVA" without the country prefix
    doc = _page([[("Suministros Levante S.L.", 50)], [("CIF: B12345674", 50)], [("Cliente", 50)],
                 [("Talleres Martínez S.A.", 50)], [("Avda. del Puerto 120", 50)], [("46023 Valencia", 50)],
                 [("NIF: A98765432", 50)]])
    assert _texts(doc, key_value_entities(doc, [], INVOICE_LABELS, {}, "es_ES", 2024))["vendor_tax_id"] == (
        "B12345674", "rule")
    # check digits that fail, or the buyer's id in the buyer's block, give none
    doc = _page([[("CIF: B12345675", 50)], [("Käufer:", 50)], [("Kunden AG Mitte", 50)], [("USt-IdNr.: DE136695976", 50)],
                 [("Kundenstraße 15", 50)], [("DE 69876 Frankfurt", 50)]])
    assert "vendor_tax_id" not in _texts(doc, key_value_entities(doc, [], INVOICE_LABELS, {}, "es_ES", 2024))


def test_a_name_whose_first_line_is_its_own_key_or_a_company_salutation():
    doc = _page([[("Bill to", 50)], [("Harbor Foods Inc.", 50)]], line_spacing=12)
    name = Entity("customer_name", (WordRef(0, 0), WordRef(0, 1), WordRef(0, 2), WordRef(0, 3), WordRef(0, 4)), 0.9)
    assert complete_party_names(doc, [name])[0].text(doc) == "Harbor Foods Inc."
    from docextract.extraction.party_blocks import window_recipient

    doc = _page([[("Rossi Forniture S.r.l.", 50)], [("Via Roma 12, 20121 Milano (MI)", 50)], [("", 50)], [("", 50)],
                 [("Spett.le", 330)], [("Bianchi Costruzioni S.p.A.", 330)], [("Corso Italia 45", 330)],
                 [("10121 Torino (TO)", 330)]], line_spacing=12)
    fields = {label: " ".join(doc.word(r).text for r in words) for label, words in window_recipient(doc).items()}
    assert fields["customer_name"] == "Bianchi Costruzioni S.p.A."
    # a Dutch "Ter attentie van" alone over the company likewise
    doc = _page([[("Brasserie De Kade", 50)], [("Oosterdokskade 5, 1011 AD Amsterdam", 50)], [("", 50)], [("", 50)],
                 [("Ter attentie van", 330)], [("Bureau Meijer Architecten B.V.", 330)], [("Keizersgracht 321", 330)],
                 [("1016 EE Amsterdam", 330)]], line_spacing=12)
    fields = {label: " ".join(doc.word(r).text for r in words) for label, words in window_recipient(doc).items()}
    assert fields["customer_name"] == "Bureau Meijer Architecten B.V."
    # a Portuguese "Exmo(s). Senhor(es)" over a company likewise
    doc = _page([[("Padaria Estrela do Norte, Lda.", 50)], [("Rua de Santa Catarina, 210, 4000-447 Porto", 50)],
                 [("", 50)], [("", 50)], [("Exmo(s). Senhor(es)", 330)], [("Café Central do Bolhão, Unip. Lda.", 330)],
                 [("Rua Formosa, 15", 330)], [("4000-252 Porto", 330)]], line_spacing=12)
    fields = {label: " ".join(doc.word(r).text for r in words) for label, words in window_recipient(doc).items()}
    assert fields["customer_name"] == "Café Central do Bolhão, Unip. Lda."


def test_the_window_label_is_the_customer_where_the_model_read_its_contact_line():
    # "Müller Treuhand GmbH" over its contact "Herr Urs Müller": the model's "Müller" of the contact is inside the
    # label, whose name is the customer's; a letterhead's second name line in the band is the sender's, not the buyer
    rows = [[("Alpen Software AG", 50)], [("Bahnhofstrasse 10, 8001 Zürich", 50)], [("", 50)], [("", 50)],
            [("Müller Treuhand GmbH", 330)], [("Herr Urs Müller", 330)], [("Seestrasse 5", 330)], [("6003 Luzern", 330)]]
    doc = _page(rows, line_spacing=12)
    contact = next(WordRef(0, i) for i, w in enumerate(doc.pages[0].words) if w.text == "Müller" and w.box.x0 > 350)
    found = _texts(doc, key_value_entities(doc, [Entity("customer_name", (contact,), 0.6)],
                                           ["customer_name", "billing_address"], {}, "de_CH", 2024))
    assert found["customer_name"] == ("Müller Treuhand GmbH", "block")
    # a letterhead's second name line set in the window's band is part of the sender's name: no customer of it
    rows = [[("", 50)]] * 4 + [[("MVM Musterhafter", 70)], [("Versicherungsverein Musterstadt a.G.", 70)], [("", 70)],
                               [("Herrn", 70)], [("Max Mustermann", 70)], [("Musterstr. 11", 70)],
                               [("12346 Bad Musterhausen", 70)]]
    doc = _page(rows, line_spacing=12)
    words = doc.pages[0].words
    vendor = Entity("vendor_name", tuple(WordRef(0, i) for i in range(5)), 0.9)
    customer = Entity("customer_name", tuple(WordRef(0, i) for i, w in enumerate(words) if w.text in ("Max", "Mustermann")), 0.6)
    found = _texts(doc, key_value_entities(doc, [vendor, customer], ["vendor_name", "customer_name", "billing_address"],
                                           {}, "de_DE", 2014))
    assert found["customer_name"] == ("Max Mustermann", "model")


def test_a_letterheads_line_of_parts_over_the_return_line_is_no_recipient():
    # a tradesman's letterhead prints "Meisterbetrieb · Lindenstraße 8 · 90402 Nürnberg" under its name, and the
    # window's return line further down: the recipient is the block under the return line ("Familie" its salutation)
    from docextract.extraction.party_blocks import window_envelope_fields

    doc = _page([[("Elektro Schmidt GmbH", 50)], [("Meisterbetrieb · Lindenstraße 8 · 90402 Nürnberg", 50)],
                 [("Elektro Schmidt GmbH · Lindenstraße 8 · 90402 Nürnberg", 50)], [("Familie", 50)],
                 [("Thomas und Anna Becker", 50)], [("Ahornweg 17", 50)], [("90411 Nürnberg", 50)]], line_spacing=12)
    fields = {label: " ".join(doc.word(r).text for r in words) for label, words in window_envelope_fields(doc).items()}
    assert fields["customer_name"] == "Familie Thomas und Anna Becker"
    assert fields["billing_address"] == "Ahornweg 17 90411 Nürnberg"
    assert fields["vendor_name"] == "Elektro Schmidt GmbH"


def test_postcodes_in_two_groups_and_after_a_spelled_out_state():
    # a SaaS invoice's "Bill to" block of a Swedish buyer ("111 43 Stockholm"), its seller's "San Francisco,
    # California 94104"
    from docextract.extraction.party_blocks import is_postcode_line

    doc = _page([[("111 43 Stockholm", 40)], [("San Francisco, California 94104", 40)], [("Kungsgatan 12", 40)]])
    lines = [[WordRef(0, w) for w in line.word_indices] for line in doc.pages[0].lines]
    assert [is_postcode_line(doc, words) for words in lines] == [True, True, False]


def test_an_italian_e_invoice_viewers_keyed_party_blocks():
    # the SDI viewers print each party's block under "Cedente/prestatore (fornitore)" and "Cessionario/committente
    # (cliente)" as keyed lines: "Denominazione:" names the party
    doc = _page([[("Cedente/prestatore (fornitore)", 50), ("Cessionario/committente (cliente)", 320)],
                 [("Denominazione: Verdi Impianti S.r.l.", 50), ("Denominazione: Studio Neri Associati", 320)],
                 [("Indirizzo: Via Garibaldi 5", 50), ("Indirizzo: Piazza Duomo 1", 320)]], line_spacing=12)
    fields = {label: " ".join(doc.word(r).text for r in words)
              for label, words in party_fields(doc, ["vendor_name", "customer_name"]).items()}
    assert fields == {"vendor_name": "Verdi Impianti S.r.l.", "customer_name": "Studio Neri Associati"}


def test_a_letterheads_line_of_parts_without_a_recipient_under_it_yields_to_the_return_line():
    from docextract.extraction.party_blocks import window_envelope_fields

    # a workshop's letterhead: its name, a line of parts under it, and further down the small return line over the
    # window with the recipient under it
    doc = _cells_page([("Autohaus Krüger GmbH & Co. KG", 50, 50, 14),
                       ("Meisterbetrieb · Industriestraße 12 · 28199 Bremen", 50, 68, 8),
                       ("Autohaus Krüger · Industriestraße 12 · 28199 Bremen", 50, 118, 6),
                       ("Herrn", 50, 134, 10), ("Stefan Hoffmann", 50, 147, 10), ("Am Deich 7", 50, 160, 10),
                       ("28203 Bremen", 50, 173, 10), ("Rechnung", 50, 240, 14)])
    fields = {label: " ".join(doc.word(r).text for r in words) for label, words in window_envelope_fields(doc).items()}
    assert fields["vendor_name"] == "Autohaus Krüger"
    assert fields["customer_name"].endswith("Stefan Hoffmann")


def test_french_and_indian_bill_to_blocks_head_their_parties():
    from docextract.extraction.party_blocks import is_postcode_line

    labels = ["customer_name", "billing_address", "shipping_address"]
    doc = _cells_page([("Adressée à", 330, 120, 8), ("Dubois Conseil SARL", 330, 134, 10),
                       ("14 rue de la République", 330, 146, 10), ("69002 Lyon", 330, 158, 10)])
    fields = _party_texts(doc, labels)
    assert fields["customer_name"] == "Dubois Conseil SARL"
    # "Bill To" and "Ship To" side by side, each block ending in a city with its PIN code and state
    doc = _cells_page([("Bill To", 40, 143, 9), ("Ship To", 300, 143, 9), ("Rahul Sharma", 40, 156, 8),
                       ("Rahul Sharma", 300, 156, 8), ("42, 3rd Cross, Indiranagar", 40, 168, 8),
                       ("42, 3rd Cross, Indiranagar", 300, 168, 8), ("Bengaluru 560038, Karnataka", 40, 180, 8),
                       ("Bengaluru 560038, Karnataka", 300, 180, 8)])
    fields = _party_texts(doc, labels)
    assert fields["customer_name"] == "Rahul Sharma"
    line = next(line for line in doc.pages[0].lines if doc.pages[0].words[line.word_indices[0]].text == "Bengaluru")
    assert is_postcode_line(doc, [WordRef(0, w) for w in line.word_indices])
    order = _cells_page([("Order 123456", 40, 100, 8)])
    assert not is_postcode_line(order, [WordRef(0, w) for w in order.pages[0].lines[0].word_indices])
    # Quebec's "Facturer à" and "Expédier à" side by side, each city line with its province and postal code
    doc = _cells_page([("Facturer à", 40, 140, 9), ("Expédier à", 300, 140, 9), ("Boulangerie Saint-Denis", 40, 154, 9),
                       ("Entrepôt Laval", 300, 154, 9), ("4321, rue Saint-Denis", 40, 166, 8),
                       ("55, boul. Industriel", 300, 166, 8), ("Montréal (Québec) H2J 2K9", 40, 176, 8),
                       ("Laval (Québec) H7L 4S3", 300, 176, 8)])
    fields = _party_texts(doc, labels)
    assert fields["customer_name"] == "Boulangerie Saint-Denis"
    assert fields["billing_address"] == "4321, rue Saint-Denis Montréal (Québec) H2J 2K9"
    assert fields["shipping_address"] == "55, boul. Industriel Laval (Québec) H7L 4S3"


def test_on_a_scan_the_name_line_over_the_windows_street_line_is_the_recipients_name():
    from docextract.extraction.party_blocks import window_recipient

    # a 150-dpi scan read by Tesseract, boxes hugging the ink: the name a line over the window's band, its ink 4.4 pt
    # over the street line's (a text layer's boxes, a font size high, stand 2 pt apart)
    scan = _cells_page([("Fietsenmakerij De Spaak", 50, 39, 14), ("Factuur F2024.0331", 330, 100, 10.8),
                        ("Dhr. K. Smit", 50, 102.4, 7.9), ("Lange Nieuwstraat 8", 50, 114.7, 9.6),
                        ("3512 PH Utrecht", 50, 126.3, 8.2), ("Omschrijving", 50, 185, 8)], ocr=True)
    fields = {label: " ".join(scan.word(r).text for r in words) for label, words in window_recipient(scan).items()}
    assert fields["customer_name"] == "Dhr. K. Smit"


def test_a_name_that_runs_on_past_its_legal_form_and_a_comma_ends_there():
    doc = _page([[("TripNest Travel B.V., Herengracht 500, 1017 CB Amsterdam", 40)]])
    words = tuple(WordRef(0, i) for i in range(4))  # "TripNest Travel B.V., Herengracht", as a model read it
    completed = complete_party_names(doc, [Entity("vendor_name", words, 0.9)])
    assert [e.text(doc) for e in completed] == ["TripNest Travel B.V.,"]
    # its value as printed, its normalised form without the line's comma
    assert normalize_value("vendor_name", completed[0].text(doc), "nl_NL")[1] == "TripNest Travel B.V."


def test_a_logos_name_over_the_letterheads_fuller_name_is_the_fuller_name():
    doc = _page([[("ExpressColis", 40)], [("ExpressColis SAS - 9 rue du Fret", 40)]])
    words = (WordRef(0, 0), WordRef(0, 1), WordRef(0, 2))  # "ExpressColis" | "ExpressColis SAS"
    assert [e.text(doc) for e in complete_party_names(doc, [Entity("vendor_name", words, 0.9)])] == ["ExpressColis SAS"]
    # two lines that are not one name printed twice stay
    doc = _page([[("Holzwerk", 40)], [("Brunner GmbH", 40)]])
    words = (WordRef(0, 0), WordRef(0, 1), WordRef(0, 2))
    assert [e.text(doc) for e in complete_party_names(doc, [Entity("vendor_name", words, 0.9)])] == [
        "Holzwerk\nBrunner GmbH"]


def test_the_end_of_an_iban_inside_a_payment_sentence_takes_the_whole_iban():
    doc = _page([[("Te betalen binnen 30 dagen op NL02 ABNA 0123 4567 89 o.v.v. het factuurnummer.", 40)]])
    at = {doc.word(WordRef(0, i)).text: WordRef(0, i) for i in range(len(doc.pages[0].words))}
    cut = Entity("iban", (at["4567"], at["89"]), 0.5)
    assert [e.text(doc) for e in complete_ibans(doc, [cut])] == ["NL02 ABNA 0123 4567 89"]


def test_a_letterheads_name_cut_by_the_model_takes_the_rest_of_its_cell():
    doc = _cells_page([("Fietsenmakerij De Spaak", 50, 40, 14), ("Factuur F2024.0331", 330, 100, 13),
                       ("Oudegracht 101, 3511 AE Utrecht", 50, 58, 8), ("Dhr. K. Smit", 50, 110, 10),
                       ("Lange Nieuwstraat 8", 50, 122, 10), ("3512 PH Utrecht", 50, 134, 10)])
    cut = Entity("vendor_name", (WordRef(0, 0),), 0.9)
    assert [e.text(doc) for e in complete_party_names(doc, [cut])] == ["Fietsenmakerij De Spaak"]
    # not a name printed at the body's size
    doc = _cells_page([("Fietsenmakerij De Spaak", 50, 40, 10), ("Dhr. K. Smit", 50, 110, 10),
                       ("Lange Nieuwstraat 8", 50, 122, 10)])
    cut = Entity("vendor_name", (WordRef(0, 0),), 0.9)
    assert [e.text(doc) for e in complete_party_names(doc, [cut])] == ["Fietsenmakerij"]


def test_a_name_on_a_bank_details_line_is_no_vendor_name():
    doc = _cells_page([("Zahnarztpraxis Dr. Julia Berger", 50, 50, 12), ("Lindenallee 3, 50667 Köln", 50, 64, 8),
                       ("Sparkasse KölnBonn · IBAN DE89 3704 0044 0532 0130 00", 50, 790, 6)])
    at = {doc.word(WordRef(0, i)).text: WordRef(0, i) for i in range(len(doc.pages[0].words))}
    names = [Entity("vendor_name", (at["Sparkasse"], at["KölnBonn"]), 0.995),
             Entity("vendor_name", (at["Zahnarztpraxis"], at["Dr."], at["Julia"], at["Berger"]), 0.99)]
    assert [e.text(doc) for e in complete_party_names(doc, names)] == ["Zahnarztpraxis Dr. Julia Berger"]


def test_a_spanish_customer_heading_heads_its_block_and_the_order_number_is_keyed():
    doc = _cells_page([("Nº de pedido: 401-55218", 380, 94, 8), ("Datos del cliente", 50, 120, 8),
                       ("Lucía Fernández Ortega", 50, 132, 9), ("Avenida del Puerto 7, 3º B", 50, 144, 9),
                       ("46021 Valencia", 50, 156, 9)])
    fields = {label: " ".join(doc.word(r).text for r in words)
              for label, words in party_fields(doc, ["customer_name", "billing_address"]).items()}
    assert fields["customer_name"] == "Lucía Fernández Ortega"
    found = {e.label: e.text(doc) for e in key_value_entities(doc, [], ["purchase_order"], {}, "es_ES", 2024)}
    assert found["purchase_order"] == "401-55218"


def test_a_rates_zero_tax_is_not_read_as_the_tax_from_its_key_beside_another_rates_tax():
    # a hotel bill's VAT breakdown read from a scan, whose tagger holds the 9 % row's tax as another field
    doc = _page([[("Btw 9% over 328,00", 50), ("27,08", 200)], [("Btw 0% over 27,20", 50), ("0,00", 200)]])
    at = {doc.word(WordRef(0, i)).text: WordRef(0, i) for i in range(len(doc.pages[0].words))}
    held = [Entity("line_item_amount", (at["27,08"],), 0.9)]
    found = {e.label: e.text(doc) for e in key_value_entities(doc, held, ["total_tax", "line_item_amount"], {},
                                                                "nl_NL", 2024)}
    # (the 9 % row's tax, which the tagger held as an item's amount outside any item's row, may be; the 0 % row's zero
    # never is)
    assert found.get("total_tax") != "0,00"


def test_a_window_label_whose_town_and_postcode_alone_stand_in_the_band_is_read_from_its_first_line():
    from docextract.extraction.party_blocks import window_recipient

    # Xero prints the buyer under "TAX INVOICE", 33 mm down: only "Bath" | "BA1 1HE" stand in the window's band
    xero = [("TAX INVOICE", 50, 44, 20), ("Brightwell Dental Practice", 50, 93, 9), ("14 Queen Street", 50, 105, 9),
            ("Bath", 50, 117, 9), ("BA1 1HE", 50, 129, 9)]
    doc = _cells_page(xero)
    found = {label: " ".join(doc.word(r).text for r in words) for label, words in window_recipient(doc).items()}
    assert found == {"customer_name": "Brightwell Dental Practice", "billing_address": "14 Queen Street Bath BA1 1HE"}
    # a heading over the name is no part of the block: "Guest" over "Ms Laura Bennett"
    guest = [("Guest", 50, 100, 8), ("Ms Laura Bennett", 50, 112, 9), ("27 Kings Avenue", 50, 124, 9),
             ("Cambridge CB2 1TN", 50, 136, 9)]
    doc = _cells_page(guest)
    assert " ".join(doc.word(r).text for r in window_recipient(doc)["customer_name"]) == "Ms Laura Bennett"


def test_a_window_label_that_opens_with_a_salutation_is_the_customer_though_the_model_took_it_for_the_vendor():
    # a marketplace's invoice whose only sender name is its logo "bol." and a footer: the model tagged the
    # addressee "Mevrouw S. Jansen" as the vendor; a salutation says whom the page is addressed to
    doc = _cells_page([("bol.", 50, 30, 24), ("Factuur", 50, 78, 16), ("Mevrouw S. Jansen", 50, 121, 10),
                       ("Kerkstraat 21", 50, 134, 10), ("3511 LK Utrecht", 50, 147, 10)])
    words = tuple(r for r in (WordRef(0, i) for i in range(len(doc.pages[0].words))) if doc.word(r).box.top == 121)
    held = [Entity("vendor_name", words, 0.85)]
    found = {e.label: e.text(doc) for e in key_value_entities(doc, held, ["vendor_name", "customer_name"], {},
                                                                "nl_NL", 2024)}
    assert found["customer_name"] == "Mevrouw S. Jansen"


def test_a_card_that_paid_keys_no_amount_due():
    # a hotel bill: "Bezahlt mit Visa 286,00" is what was paid, "Offener Betrag 0,00" what is still due
    doc = _page([[("Gesamtbetrag brutto", 50), ("286,00", 300)], [("Bezahlt mit Visa", 50), ("286,00", 300)],
                 [("Offener Betrag", 50), ("0,00", 300)], [("Payé par Bancontact", 50), ("283,10", 300)]])
    from docextract.extraction.candidate_scorer import document_context

    context = document_context(doc, [], {}, "de_DE", 2024)
    paid = [c for c in context.candidates["amount"] if c.words in context.tendered]
    assert [doc.word(c.words[0]).box.top for c in paid] == [80, 120]


def test_one_rates_share_beside_another_rates_is_no_field():
    from docextract.extraction.candidates import one_rate_amounts
    from docextract.extraction.candidate_scorer import document_context

    # a German hotel bill: nights at 7 %, breakfast at 19 %; each rate's net and tax, then the taxes' sum
    doc = _page([[("Netto 7 %", 50), ("222,43", 300)], [("MwSt 7 %", 50), ("15,57", 300)],
                 [("Netto 19 %", 50), ("40,34", 300)], [("MwSt 19 %", 50), ("7,66", 300)],
                 [("MwSt gesamt", 50), ("23,23", 300)], [("Gesamtbetrag", 50), ("286,00", 300)]])
    context = document_context(doc, [], {}, "de_DE", 2024)
    text = lambda words: doc.word(words[0]).text
    assert sorted(map(text, context.one_rate_amounts["subtotal"])) == ["222,43", "40,34"]
    assert sorted(map(text, context.one_rate_amounts["total_tax"])) == ["15,57", "7,66"]
    found = {e.label: e.text(doc) for e in key_value_entities(doc, [], ["subtotal", "total_tax"], {}, "de_DE", 2024)}
    assert "subtotal" not in found and found.get("total_tax") not in ("15,57", "7,66")
    # one rate alone: its net is the subtotal, its tax the tax; a zero rate's zero tax beside it still is none
    doc = _page([[("Netto 19 %", 50), ("40,34", 300)], [("MwSt 19 %", 50), ("7,66", 300)],
                 [("MwSt 0 %", 50), ("0,00", 300)]])
    context = document_context(doc, [], {}, "de_DE", 2024)
    assert "subtotal" not in context.one_rate_amounts
    assert list(map(text, context.one_rate_amounts["total_tax"])) == ["0,00"]
    assert one_rate_amounts(doc, []) == {}


def test_the_tax_a_total_includes_is_keyed_under_it():
    # "Includes VAT of 23%" under an app store's total, "dont TVA 20 %" under a French store's "Total TTC"
    doc = _page([[("TOTAL", 300), ("€9.98", 480)], [("Includes VAT of 23%", 300), ("€1.87", 480)]])
    found = {e.label: e.text(doc) for e in key_value_entities(doc, [], ["total", "total_tax"], {}, "en_IE", 2024)}
    assert found == {"total": "€9.98", "total_tax": "€1.87"}
    doc = _page([[("Total TTC", 300), ("223,97 €", 480)], [("dont TVA 20 %", 300), ("37,33 €", 480)],
                 [("Total HT", 300), ("186,64 €", 480)]])
    found = {e.label: e.text(doc) for e in key_value_entities(doc, [], ["total_tax"], {}, "fr_FR", 2024)}
    assert found == {"total_tax": "37,33 €"}


def test_the_company_that_opens_the_footer_is_the_vendor_where_nothing_else_names_one():
    from docextract.extraction.key_values import footer_company_name

    # an app store's invoice prints its seller only in the footer's legal line
    footer = "Apple Distribution International Ltd., Hollyhill Industrial Estate, Cork. VAT ID: IE9700053D"
    doc = _cells_page([("Invoice", 50, 40, 22), ("Pixel Apps", 400, 40, 9), ("BILLED TO", 50, 140, 7),
                       ("Jane Murphy", 50, 150, 8), ("12 Harbour Road", 50, 160, 8), ("TOTAL €9.98", 400, 300, 9),
                       (footer, 50, 775, 6)])
    found = {e.label: e.text(doc) for e in key_value_entities(doc, [], ["vendor_name", "customer_name"], {},
                                                                "en_IE", 2024)}
    assert found["vendor_name"] == "Apple Distribution International Ltd.,"
    # a bank's name on the footer's bank line is not it; nor a line above the footer
    bank = _cells_page([("Commerzbank AG · IBAN DE89 3704 0044 0532 0130 00", 50, 790, 6)])
    assert footer_company_name(bank) == ()
    assert footer_company_name(_cells_page([(footer, 50, 400, 6)])) == ()
    # the model's own vendor stands (a title is none: "Invoice" read as the vendor gives way)
    held = [Entity("vendor_name", tuple(r for r in (WordRef(0, i) for i in range(len(doc.pages[0].words)))
                                        if doc.word(r).text in ("Pixel", "Apps")), 0.6)]
    found = {e.label: e.text(doc) for e in key_value_entities(doc, held, ["vendor_name"], {}, "en_IE", 2024)}
    assert "vendor_name" not in found or found["vendor_name"] == "Pixel Apps"
    title = [Entity("vendor_name", (WordRef(0, 0),), 0.6)]
    found = {e.label: e.text(doc) for e in key_value_entities(doc, title, ["vendor_name"], {}, "en_IE", 2024)}
    assert found["vendor_name"] == "Apple Distribution International Ltd.,"


def test_an_attention_line_in_the_window_is_not_the_recipients_name():
    from docextract.extraction.party_blocks import window_recipient

    # the company's name a point above the window's band, "t.a.v. Pieter Jansen" under it in the band
    doc = _cells_page([("Jansen Webbureau", 50, 111, 10), ("t.a.v. Pieter Jansen", 50, 124, 10),
                       ("Oudegracht 120", 50, 137, 10), ("3511 AX Utrecht", 50, 150, 10)])
    found = {label: " ".join(doc.word(r).text for r in words) for label, words in window_recipient(doc).items()}
    assert found == {"customer_name": "Jansen Webbureau", "billing_address": "Oudegracht 120 3511 AX Utrecht"}


def test_pay_to_invoiced_to_and_guest_details_head_their_parties_blocks():
    labels = ["vendor_name", "vendor_address", "customer_name", "billing_address"]
    # WHMCS: "Invoiced To" and "Pay To" side by side, the payee's VAT number in its block
    doc = _cells_page([("Invoiced To", 50, 130, 9), ("Greenleaf Gardening Ltd", 50, 143, 9),
                       ("22 Orchard Way", 50, 155, 9), ("Norwich, Norfolk, NR2 4AB", 50, 167, 9),
                       ("Pay To", 300, 130, 9), ("ByteForge Hosting Ltd", 300, 143, 9), ("9 Dock Street", 300, 155, 9),
                       ("Leeds LS10 1JF", 300, 167, 9)])
    fields = _party_texts(doc, labels)
    assert fields["customer_name"] == "Greenleaf Gardening Ltd" and fields["vendor_name"] == "ByteForge Hosting Ltd"
    # the US "Sold To" beside "Ship To" is the buyer's, as "Remit To" is the seller's
    doc = _cells_page([("SOLD TO", 50, 130, 9), ("Lakeside Dental Group", 50, 143, 9), ("88 Shore Drive", 50, 155, 9),
                       ("Madison, WI 53703", 50, 167, 9), ("REMIT TO", 300, 130, 9), ("Acme Supply Co.", 300, 143, 9),
                       ("PO Box 4410", 300, 155, 9), ("Chicago, IL 60680", 300, 167, 9)])
    fields = _party_texts(doc, labels)
    assert fields["customer_name"] == "Lakeside Dental Group" and fields["vendor_name"] == "Acme Supply Co."
    # a design-tool template: "ISSUED TO:" over the client, "PAY TO:" over the bank, the payee's "Account Name:";
    # read by OCR too, whose heading correction had made "Issued" an "Issuer"
    for ocr in (False, True):
        doc = _cells_page([("ISSUED TO:", 50, 134, 8), ("Thynk Unlimited Ltd", 50, 148, 9),
                           ("45 Castle Street", 50, 160, 9), ("Bristol BS1 3XZ", 50, 172, 9), ("PAY TO:", 50, 206, 8),
                           ("Borcelle Bank", 50, 220, 9), ("Account Name: Avery Davis Design", 50, 232, 9),
                           ("Account No.: 43219876", 50, 244, 9)], ocr=ocr)
        fields = _party_texts(doc, labels)
        assert fields["customer_name"] == "Thynk Unlimited Ltd" and fields["vendor_name"] == "Avery Davis Design", ocr
    # Stripe's German "Rechnung an" beside the seller's block (no heading), which had been read as the recipient's
    doc = _cells_page([("Cloudwerk Software GmbH", 50, 146, 9), ("Torstraße 140", 50, 158, 8), ("10119 Berlin", 50, 168, 8),
                       ("Rechnung an", 250, 146, 9), ("Hafenkontor Logistik GmbH", 250, 158, 8),
                       ("Am Sandtorkai 50", 250, 168, 8), ("20457 Hamburg", 250, 178, 8)])
    fields = _party_texts(doc, labels)
    assert fields["customer_name"] == "Hafenkontor Logistik GmbH"
    # a Spanish factura's "EMISOR" and "RECEPTOR", each party's NIF or CIF between its name and its street
    doc = _cells_page([("EMISOR", 50, 96, 8), ("Javier Morales Gil", 50, 110, 9), ("NIF: 51234560J", 50, 122, 8),
                       ("C/ Gran Vía 45, 3º B", 50, 132, 8), ("28013 Madrid", 50, 142, 8), ("RECEPTOR", 310, 96, 8),
                       ("Estudio Arquitectura Norte, S.L.", 310, 110, 9), ("CIF: B87654307", 310, 122, 8),
                       ("Paseo de la Castellana 120", 310, 132, 8), ("28046 Madrid", 310, 142, 8)])
    fields = _party_texts(doc, labels)
    assert fields["vendor_name"] == "Javier Morales Gil" and fields["customer_name"] == "Estudio Arquitectura Norte, S.L."
    assert fields["billing_address"] == "Paseo de la Castellana 120 28046 Madrid"
    # a travel site's "Guest Details": a name and an e-mail address, no postal address
    doc = _cells_page([("Guest Details", 50, 174, 8), ("Mr. Arjun Mehta", 50, 185, 9),
                       ("arjun.mehta@example.in", 50, 197, 8)])
    fields = _party_texts(doc, labels)
    assert fields == {"customer_name": "Mr. Arjun Mehta"}
    # a first line that is a key's, or has a digit, is no name
    doc = _cells_page([("Guest Details", 50, 174, 8), ("Booking ID: NH77123", 50, 185, 9)])
    assert party_fields(doc, labels) == {}
    # nor is a table's header row under what a scan's OCR read as a heading
    doc = _cells_page([("Guest Details", 50, 200, 8), ("Omschrijving", 50, 229, 8), ("Periode", 300, 229, 8),
                       ("Bedrag", 480, 229, 8)])
    assert party_fields(doc, labels) == {}


def test_the_name_heading_the_sellers_tax_id_block_is_the_vendor_where_nothing_else_names_one():
    from docextract.extraction.party_blocks import name_over

    doc = _cells_page([("tripkart", 50, 34, 20), ("Hotel Details", 50, 94, 8), ("Hotel Lakeview Residency", 50, 105, 9),
                       ("14 Residency Road, Bengaluru 560025, Karnataka", 50, 118, 8),
                       ("GSTIN: 29AABCT1332L1ZA", 50, 130, 8), ("Guest Details", 50, 174, 8),
                       ("Mr. Arjun Mehta", 50, 185, 9)])
    at = {doc.word(WordRef(0, i)).text: WordRef(0, i) for i in range(len(doc.pages[0].words))}
    assert " ".join(doc.word(r).text for r in name_over(doc, at["29AABCT1332L1ZA"])) == "Hotel Lakeview Residency"
    alone = _cells_page([("VAT: GB654321006", 50, 700, 8)])
    assert name_over(alone, WordRef(0, 1)) == ()  # a line with nothing stacked over it heads no block
    contact = _cells_page([("E-Mail", 50, 398, 8), ("USt.-Id.-Nr.: DE123456789", 50, 410, 8)])
    assert name_over(contact, WordRef(0, 2)) == ()  # a contact's key is no name
    found = {e.label: e.text(doc) for e in key_value_entities(doc, [], ["vendor_name", "customer_name", "vendor_tax_id"],
                                                                {}, "en_IN", 2024)}
    assert found["vendor_name"] == "Hotel Lakeview Residency" and found["customer_name"] == "Mr. Arjun Mehta"


def test_a_french_order_reference_keys_the_purchase_order():
    doc = _page([[("Référence de commande : 187231102", 380)]])
    found = {e.label: e.text(doc) for e in key_value_entities(doc, [], ["purchase_order"], {}, "fr_FR", 2024)}
    assert found == {"purchase_order": "187231102"}


def test_a_keyed_number_is_taken_from_a_name_the_model_read_on_into_it():
    # the model read the buyer's name on across the row into the order number under "Order number"
    doc = _cells_page([("Invoice to", 50, 94, 8), ("Order number", 300, 94, 8), ("Mrs Helen Carter", 50, 105, 9),
                       ("5318-2290-7741", 300, 106, 8), ("41 Elm Grove", 50, 117, 9), ("Leicester LE2 3BD", 50, 129, 9)])
    at = {doc.word(WordRef(0, i)).text: WordRef(0, i) for i in range(len(doc.pages[0].words))}
    spilled = Entity("vendor_name", (at["Helen"], at["Carter"], at["5318-2290-7741"]), 0.7)
    found = {e.label: e.text(doc) for e in key_value_entities(doc, [spilled], ["purchase_order", "vendor_name"], {},
                                                                "en_GB", 2024)}
    assert found["purchase_order"] == "5318-2290-7741"


def test_a_headed_blocks_extent_ends_at_a_wide_gap():
    from docextract.extraction.party_blocks import block_extents, side_at

    # "Invoice to" over the buyer's label; the seller's VAT number at the foot of the same column is not the buyer's
    doc = _cells_page([("Invoice to", 50, 94, 8), ("Mrs Helen Carter", 50, 105, 9), ("41 Elm Grove", 50, 117, 9),
                       ("Leicester LE2 3BD", 50, 129, 9), ("Item", 50, 190, 8), ("Wall bracket 39.00", 50, 204, 8),
                       ("VAT registration number 226 8172 04", 50, 785, 6)])
    at = {doc.word(WordRef(0, i)).text: WordRef(0, i) for i in range(len(doc.pages[0].words))}
    extents = block_extents(doc)
    assert side_at(extents, doc, at["Elm"]) == "customer_name" and side_at(extents, doc, at["226"]) is None
    # a blank line between a key column's rows, whose values run over several lines, is no such gap (FeRD)
    doc = _cells_page([("Käufer", 70, 304, 10), ("Name:", 70, 338, 10), ("Metallbau Leipzig GmbH", 261, 338, 10),
                       ("Anschrift:", 70, 356, 10), ("Pappelallee 15", 261, 356, 10), ("Hof 3", 261, 374, 10),
                       ("DE 12345 Leipzig", 261, 392, 10), ("USt.-Id.-Nr.:", 70, 410, 10), ("DE123456789", 261, 410, 10)])
    at = {doc.word(WordRef(0, i)).text: WordRef(0, i) for i in range(len(doc.pages[0].words))}
    assert side_at(block_extents(doc), doc, at["DE123456789"]) == "customer_name"


def test_a_letterhead_name_loses_the_smaller_line_a_model_read_on_into():
    doc = _cells_page([("Les Saveurs de Marthe", 200, 38, 16), ("Traiteur - 4 place du Marché - 44000 Nantes", 215, 60, 8)])
    at = {doc.word(WordRef(0, i)).text: WordRef(0, i) for i in range(len(doc.pages[0].words))}
    name = Entity("vendor_name", (at["Les"], at["Saveurs"], at["de"], at["Marthe"], at["Traiteur"]), 0.9)
    completed = complete_party_names(doc, [name])
    assert [e.text(doc) for e in completed if e.label == "vendor_name"] == ["Les Saveurs de Marthe"]


def test_a_larger_letterhead_name_heads_the_block_of_the_sellers_tax_id():
    from docextract.extraction.party_blocks import name_over

    doc = _cells_page([("Hôtel Les Remparts", 50, 36, 18), ("Rue des Remparts 8 - 5000 Namur - Belgique", 50, 59, 8),
                       ("TVA BE0412345614", 50, 70, 8)])
    at = {doc.word(WordRef(0, i)).text: WordRef(0, i) for i in range(len(doc.pages[0].words))}
    assert " ".join(doc.word(r).text for r in name_over(doc, at["BE0412345614"])) == "Hôtel Les Remparts"


def test_vendu_par_heads_the_sellers_block_and_a_label_set_high_is_read_from_its_postcode_line():
    from docextract.extraction.party_blocks import window_recipient

    labels = ["vendor_name", "vendor_address", "customer_name", "billing_address"]
    doc = _cells_page([("Vendu par", 300, 130, 8), ("Amazon EU S.à r.l., Succursale Française", 300, 142, 8),
                       ("67 boulevard du Général Leclerc", 300, 154, 8), ("92110 Clichy", 300, 166, 8),
                       ("TVA FR12487773327", 300, 178, 8)])
    fields = _party_texts(doc, labels)
    assert fields["vendor_name"] == "Amazon EU S.à r.l., Succursale Française"
    # a railway's buyer 32 mm down: only its postcode line stands in the window's band
    doc = _cells_page([("Herr Markus Klein", 50, 93, 9), ("Bergstraße 4", 50, 105, 9), ("69120 Heidelberg", 50, 117, 9)])
    assert " ".join(doc.word(r).text for r in window_recipient(doc)["customer_name"]) == "Herr Markus Klein"
    doc = _page([[("Numéro de la commande", 300), ("405-1234567-8901234", 460)]])
    found = {e.label: e.text(doc) for e in key_value_entities(doc, [], ["purchase_order"], {}, "fr_FR", 2024)}
    assert found == {"purchase_order": "405-1234567-8901234"}


def test_total_due_is_the_total_where_nothing_else_gives_one():
    doc = _page([[("Subtotal", 380), ("342.00", 480)], [("Sales Tax 7.5%", 380), ("25.65", 480)],
                 [("Freight", 380), ("18.00", 480)], [("TOTAL DUE", 380), ("$385.65", 480)]])
    found = {e.label: e.text(doc) for e in key_value_entities(doc, [], ["subtotal", "total_tax", "total", "amount_due"],
                                                                {}, "en_US", 2024)}
    assert found == {"subtotal": "342.00", "total_tax": "25.65", "total": "$385.65", "amount_due": "$385.65"}
    # a "Balance Due" names no total
    doc = _page([[("Balance Due", 380), ("$385.65", 480)]])
    found = {e.label: e.text(doc) for e in key_value_entities(doc, [], ["total", "amount_due"], {}, "en_US", 2024)}
    assert found == {"amount_due": "$385.65"}


def test_a_keyed_tax_the_model_read_as_an_items_amount_is_the_tax():
    doc = _page([[("Ball bearing 6205-2RS", 120), ("40", 330), ("250.00", 480)],
                 [("Sales Tax 7.5%", 380), ("25.65", 480)]])
    at = {doc.word(WordRef(0, i)).text: WordRef(0, i) for i in range(len(doc.pages[0].words))}
    held = [Entity("line_item_amount", (at["250.00"],), 0.9), Entity("line_item_amount", (at["25.65"],), 0.6)]
    found = {e.label: e.text(doc) for e in key_value_entities(doc, held, ["total_tax", "line_item_amount"], {},
                                                                "en_US", 2024)}
    assert found["total_tax"] == "25.65"
    # an item's own amount stays the item's
    doc = _page([[("Sales tax service, hourly", 120), ("2", 330), ("60.00", 480)]])
    held = [Entity("line_item_amount", (WordRef(0, len(doc.pages[0].words) - 1),), 0.9)]
    found = {e.label: e.text(doc) for e in key_value_entities(doc, held, ["total_tax", "line_item_amount"], {},
                                                                "en_US", 2024)}
    assert "total_tax" not in found


def test_a_charge_the_tagger_read_as_the_tax_gives_way_to_the_keyed_tax():
    from docextract.extraction.candidate_scorer import CandidateScorer, FieldModel, choose_fields
    from docextract.extraction.candidates import FEATURES

    n = len(FEATURES)
    scorer = CandidateScorer(FEATURES, {"total_tax": FieldModel((0.0,) * n, (1.0,) * n, (0.0,) * n, -9.0)})
    doc = _page([[("Subtotal", 380), ("342.00", 480)], [("Sales Tax 7.5%", 380), ("25.65", 480)],
                 [("Freight", 380), ("18.00", 480)]])
    at = {doc.word(WordRef(0, i)).text: WordRef(0, i) for i in range(len(doc.pages[0].words))}
    held = [Entity("total_tax", (at["18.00"],), 0.6, assigned=True)]
    fields = {e.label: e.text(doc) for e in choose_fields(doc, held, {}, scorer, "en_US", 2024) if e.assigned}
    assert "total_tax" not in fields
    found = {e.label: e.text(doc) for e in key_value_entities(doc, [], ["total_tax"], {}, "en_US", 2024)}
    assert found == {"total_tax": "25.65"}


def test_a_customer_po_and_what_is_still_to_pay_are_keyed():
    doc = _page([[("INVOICE NUMBER", 50), ("CUSTOMER PO", 290)], [("7741093", 50), ("LF-22817", 290)]])
    found = {e.label: e.text(doc) for e in key_value_entities(doc, [], ["purchase_order"], {}, "en_US", 2024)}
    assert found == {"purchase_order": "LF-22817"}
    doc = _page([[("Totaal te betalen", 350), ("€ 196,31", 480)], [("Betaald in termijnen", 350), ("€ 180,00", 480)],
                 [("Nog te betalen", 350), ("€ 16,31", 480)]])
    found = {e.label: e.text(doc) for e in key_value_entities(doc, [], ["total", "amount_due"], {}, "nl_NL", 2024)}
    assert found == {"total": "196,31", "amount_due": "16,31"}


def test_belgian_totals_with_and_without_vat_are_keyed():
    doc = _page([[("Total HTVA", 330), ("266,00", 480)], [("Total TVA", 330), ("17,10", 480)],
                 [("Total TVAC", 330), ("283,10", 480)], [("Payé par Bancontact", 330), ("283,10", 480)],
                 [("Solde", 330), ("0,00", 480)]])
    found = {e.label: e.text(doc) for e in key_value_entities(doc, [], ["subtotal", "total_tax", "total", "amount_due"],
                                                                {}, "fr_BE", 2024)}
    assert found == {"subtotal": "266,00", "total_tax": "17,10", "total": "283,10", "amount_due": "0,00"}


def test_a_keyed_name_wrapped_in_a_box_set_flush_right_keeps_its_second_line():
    # gen-invoice's "Pay to:" box: "Name: Lehmann &" over "Neumann KG", its lines flush right
    labels = ["vendor_name", "vendor_address", "customer_name", "billing_address"]
    doc = _cells_page([("Pay to:", 474, 243, 8), ("Name: Lehmann &", 428, 263, 8), ("Neumann KG", 456, 277, 8),
                       ("Bank: Deutsche Bank", 404, 291, 8)])
    fields = _party_texts(doc, labels)
    assert fields["vendor_name"] == "Lehmann & Neumann KG"
    # a key's row under the name is no part of it
    doc = _cells_page([("Pay to:", 474, 243, 8), ("Name: Lehmann GmbH", 410, 263, 8), ("Bank: Deutsche Bank", 404, 277, 8)])
    fields = _party_texts(doc, labels)
    assert fields["vendor_name"] == "Lehmann GmbH"


def test_swedish_norwegian_finnish_and_portuguese_keys_name_their_fields():
    # each country's key column as its vendors print it: the customer and order numbers beside the invoice's are not it
    labels = ["invoice_number", "invoice_date", "due_date", "subtotal", "total_tax", "amount_due", "purchase_order"]
    doc = _page([[("Fakturadatum", 330), ("2024-04-03", 450)], [("Fakturanr", 330), ("1042", 450)],
                 [("Kundnr", 330), ("118", 450)], [("Förfallodatum", 330), ("2024-05-03", 450)],
                 [("Exkl. moms", 330), ("39 200,00", 490)], [("Moms 25 %", 330), ("9 800,00", 490)],
                 [("Att betala", 330), ("49 000,00", 490)]])
    found = {e.label: e.text(doc) for e in key_value_entities(doc, [], labels, {}, "sv_SE", 2024)}
    assert found == {"invoice_date": "2024-04-03", "invoice_number": "1042", "due_date": "2024-05-03",
                     "subtotal": "39 200,00", "total_tax": "9 800,00", "amount_due": "49 000,00"}
    doc = _page([[("Fakturanr.", 340), ("10458", 450)], [("Fakturadato", 340), ("15.04.2024", 450)],
                 [("Forfallsdato", 340), ("29.04.2024", 450)], [("Ordrenr.", 340), ("77120", 450)],
                 [("Sum eks. mva", 350), ("1 996,80", 490)], [("MVA 25 %", 350), ("499,20", 490)],
                 [("Beløp å betale", 330), ("2 496,00", 490)]])
    found = {e.label: e.text(doc) for e in key_value_entities(doc, [], labels, {}, "nb_NO", 2024)}
    assert found == {"invoice_number": "10458", "invoice_date": "15.04.2024", "due_date": "29.04.2024",
                     "purchase_order": "77120", "subtotal": "1 996,80", "total_tax": "499,20", "amount_due": "2 496,00"}
    doc = _page([[("Laskun numero", 330), ("20241187", 450)], [("Laskun päivämäärä", 330), ("08.04.2024", 450)],
                 [("Eräpäivä", 330), ("22.04.2024", 450)], [("Viitenumero", 330), ("2024118776", 450)],
                 [("Veroton yhteensä", 350), ("375,00", 490)], [("ALV 24 %", 350), ("90,00", 490)]])
    found = {e.label: e.text(doc) for e in key_value_entities(doc, [], labels, {}, "fi_FI", 2024)}
    assert found == {"invoice_number": "20241187", "invoice_date": "08.04.2024", "due_date": "22.04.2024",
                     "subtotal": "375,00", "total_tax": "90,00"}
    # the Portuguese "n.º" is one number sign ("Fatura n.º FT 2024/118")
    doc = _page([[("Fatura n.º FT 2024/118", 50)], [("Data de vencimento", 50), ("05-05-2024", 200)],
                 [("Total Ilíquido", 360), ("1.500,00", 490)], [("Total a pagar", 360), ("1.794,00 €", 480)]])
    found = {e.label: e.text(doc) for e in key_value_entities(doc, [], labels, {}, "pt_PT", 2024)}
    assert found == {"invoice_number": "FT 2024/118", "due_date": "05-05-2024", "subtotal": "1.500,00",
                     "amount_due": "1.794,00 €"}
    # a Norwegian accountant's "Sum eksklusiv mva", the words written out
    doc = _page([[("Sum eksklusiv mva", 340), ("11 175,00", 480)]])
    assert _texts(doc, key_value_entities(doc, [], ["subtotal"], {}, "nb_NO", 2024)) == {"subtotal": ("11 175,00", "rule")}


def test_polish_and_czech_keys_read_their_fields():
    labels = ["invoice_number", "invoice_date", "due_date", "subtotal", "total_tax", "amount_due", "vendor_tax_id", "iban"]
    doc = _page([[("Faktura VAT nr FV/2024/04/015", 50)], [("Data wystawienia:", 340), ("2024-04-22", 470)],
                 [("Data sprzedaży:", 340), ("2024-04-20", 470)], [("Termin płatności:", 340), ("2024-05-06", 470)],
                 [("NIP: 527-123-45-63", 50)], [("Do zapłaty:", 50), ("2 460,00 PLN", 140)],
                 [("Nr konta: PL61 1090 1014 0000 0712 1981 2874", 50)]])
    found = {e.label: e.text(doc) for e in key_value_entities(doc, [], labels, {}, "pl_PL", 2024)}
    assert found == {"invoice_number": "FV/2024/04/015", "invoice_date": "2024-04-22", "due_date": "2024-05-06",
                     "amount_due": "2 460,00", "vendor_tax_id": "527-123-45-63",
                     "iban": "PL61 1090 1014 0000 0712 1981 2874"}
    # the Czech "č." is one number sign; the date of the taxable supply (DUZP) is no invoice date
    doc = _page([[("Faktura č. 15/2024", 50)], [("Datum zdanit. plnění:", 50), ("20.04.2024", 160)],
                 [("Datum vystavení:", 50), ("25.04.2024", 160)], [("Datum splatnosti:", 50), ("09.05.2024", 160)],
                 [("Základ daně 21 %", 340), ("10 000,00", 480)], [("DPH 21 %", 340), ("2 100,00", 480)],
                 [("Celkem k úhradě", 340), ("12 100,00 Kč", 470)], [("DIČ: CZ27123456", 50)]])
    found = {e.label: e.text(doc) for e in key_value_entities(doc, [], labels, {}, "cs_CZ", 2024)}
    assert found == {"invoice_number": "15/2024", "invoice_date": "25.04.2024", "due_date": "09.05.2024",
                     "subtotal": "10 000,00", "total_tax": "2 100,00", "amount_due": "12 100,00",
                     "vendor_tax_id": "CZ27123456"}


def test_the_currency_the_model_did_not_tag_is_the_totals_own_word():
    doc = _page([[("Do zapłaty:", 50), ("2 460,00", 140), ("PLN", 200)]])
    words = doc.pages[0].words
    total = Entity("total", tuple(WordRef(0, i) for i, w in enumerate(words) if w.text in ("2", "460,00")), 0.9)
    found = _texts(doc, key_value_entities(doc, [total], ["total", "currency"], {}, "pl_PL", 2024))
    assert found["currency"] == ("PLN", "rule")
    doc = _page([[("Celkem k úhradě:", 340), ("8 500 Kč", 470)]])
    words = doc.pages[0].words
    total = Entity("total", tuple(WordRef(0, i) for i, w in enumerate(words) if w.text in ("8", "500", "Kč")), 0.9)
    assert _texts(doc, key_value_entities(doc, [total], ["total", "currency"], {}, "cs_CZ", 2024))["currency"] == ("Kč", "rule")
    # the rand's "R", a sign only before an amount
    doc = _page([[("Total", 380), ("R 39 675,00", 470)]])
    words = doc.pages[0].words
    total = Entity("total", tuple(WordRef(0, i) for i, w in enumerate(words) if w.text in ("39", "675,00")), 0.9)
    found = key_value_entities(doc, [total], ["total", "currency"], {}, "en_ZA", 2024)
    assert _texts(doc, found)["currency"] == ("R", "rule")
    assert normalize_value("currency", "R", "en_ZA")[1] == "ZAR"
    # a currency the model tagged stays, and a total without a currency word gives none
    doc = _page([[("Total", 50), ("1.190,00", 140)]])
    assert "currency" not in _texts(doc, key_value_entities(doc, [Entity("total", (WordRef(0, 1),), 0.9)],
                                                            ["total", "currency"], {}, "de_DE", 2024))


def test_polish_and_czech_party_blocks_under_their_headings():
    labels = ["vendor_name", "vendor_address", "customer_name", "billing_address"]
    doc = _cells_page([("Sprzedawca", 50, 140, 9), ("Nabywca", 310, 140, 9), ("Drukarnia Wisła Sp. z o.o.", 50, 154, 9),
                       ("Kawiarnia Pod Lipami s.c.", 310, 154, 9), ("ul. Marszałkowska 84", 50, 166, 8),
                       ("ul. Długa 12", 310, 166, 8), ("00-514 Warszawa", 50, 176, 8), ("80-827 Gdańsk", 310, 176, 8)])
    fields = _party_texts(doc, labels)
    assert fields == {"vendor_name": "Drukarnia Wisła Sp. z o.o.", "vendor_address": "ul. Marszałkowska 84 00-514 Warszawa",
                      "customer_name": "Kawiarnia Pod Lipami s.c.", "billing_address": "ul. Długa 12 80-827 Gdańsk"}
    # a Czech sole trader's street, postcode and town on one line
    doc = _cells_page([("Dodavatel", 50, 90, 8), ("Odběratel", 310, 90, 8), ("Jana Dvořáková", 50, 104, 9),
                       ("Kavárna U Mostu s.r.o.", 310, 104, 9), ("Lidická 8, 602 00 Brno", 50, 116, 8),
                       ("Mostecká 3", 310, 116, 8), ("118 00 Praha 1", 310, 126, 8)])
    fields = _party_texts(doc, labels)
    assert fields["vendor_name"] == "Jana Dvořáková" and fields["vendor_address"] == "Lidická 8, 602 00 Brno"
    assert fields["customer_name"] == "Kavárna U Mostu s.r.o."


def test_a_party_name_ends_at_a_wide_gap_in_its_line():
    # the title a letterhead prints on the name's row, which a model read on into
    doc = _page([[("Fjellsport AS", 50), ("FAKTURA", 420)], [("Storgata 10, 0155 Oslo", 50)]])
    from docextract.extraction.key_values import complete_party_names

    vendor = Entity("vendor_name", tuple(WordRef(0, i) for i in range(3)), 0.8)
    assert [e.text(doc) for e in complete_party_names(doc, [vendor])] == ["Fjellsport AS"]


def test_a_contact_after_a_reference_key_is_no_customer_beside_the_window_label():
    # Fortnox's key column prints the buyer's contact after "Er referens" ("your reference"); the model read it as the
    # customer, and the window's label is the customer's name
    rows = [[("Nordlys Konsult AB", 50), ("Faktura", 400)], [("", 50)], [("", 50)], [("", 50)],
            [("Byggfirman Svensson AB", 60), ("Er referens", 330), ("Anna Berg", 450)],
            [("Storgatan 12", 60), ("Vår referens", 330), ("Erik Lind", 450)], [("411 38 Göteborg", 60)]]
    doc = _page(rows, line_spacing=13)
    words = doc.pages[0].words
    contact = Entity("customer_name", tuple(WordRef(0, i) for i, w in enumerate(words) if w.text in ("Anna", "Berg")), 0.9)
    found = _texts(doc, key_value_entities(doc, [contact], ["customer_name", "billing_address"], {}, "sv_SE", 2024))
    assert found["customer_name"] == ("Byggfirman Svensson AB", "block")


def test_the_account_a_direct_debit_takes_the_amount_from_is_no_iban():
    # a telephone company's bill: the buyer's account is charged; the model read it as the IBAN to pay into
    doc = _page([[("Total a pagar", 330), ("62,00 €", 480)],
                 [("Fecha de cargo: 10/04/2024 en la cuenta ES91 2100 0418 4502 0005 1332", 50)]])
    words = doc.pages[0].words
    start = next(i for i, w in enumerate(words) if w.text == "ES91")
    account = Entity("iban", tuple(WordRef(0, i) for i in range(start, len(words))), 0.96)
    assert account.text(doc) == "ES91 2100 0418 4502 0005 1332"
    found = _texts(doc, key_value_entities(doc, [account], ["iban", "amount_due"], {}, "es_ES", 2024))
    assert "iban" not in found
    found = _texts(doc, key_value_entities(doc, [], ["iban", "amount_due"], {}, "es_ES", 2024))
    assert "iban" not in found
    # the seller's account to pay into stays
    doc = _page([[("Der Betrag wird per SEPA-Lastschrift von Ihrem Konto DE89 3704 0044 0532 0130 00 eingezogen.", 50)],
                 [("Bankverbindung: IBAN DE02 1203 0000 0000 2020 51", 50)]])
    found = _texts(doc, key_value_entities(doc, [], ["iban"], {}, "de_DE", 2024))
    assert found["iban"] == ("DE02 1203 0000 0000 2020 51", "rule")


def test_an_iban_inside_the_payment_sentence_is_read_and_the_sentence_kept():
    # a Belgian installer's payment line names the account in its sentence; the model tagged the whole line as the
    # payment terms, which left the IBAN no free words
    doc = _page([[("Totaal te betalen", 330), ("€ 3.010,40", 480)],
                 [("Gelieve te betalen op BE71 0961 2345 6769 met gestructureerde mededeling +++090/9337/55493+++", 50)]])
    words = doc.pages[0].words
    start = next(i for i, w in enumerate(words) if w.text == "Gelieve")
    sentence = Entity("payment_terms", tuple(WordRef(0, i) for i in range(start, len(words))), 0.6)
    found = _texts(doc, key_value_entities(doc, [sentence], ["iban", "payment_terms"], {}, "nl_NL", 2024))
    assert found["iban"] == ("BE71 0961 2345 6769", "rule")
    assert found["payment_terms"][0].startswith("Gelieve te betalen op BE71")


def test_a_belgian_enterprise_number_is_the_vendors_tax_id_and_the_taxable_amount_its_subtotal():
    doc = _page([[("Ondernemingsnummer BE 0746.538.130", 50)], [("RPR Antwerpen", 50)],
                 [("Maatstaf van heffing", 330), ("2.840,00", 480)], [("BTW 6%", 330), ("170,40", 480)],
                 [("Totaal te betalen", 330), ("€ 3.010,40", 480)]])
    found = _texts(doc, key_value_entities(doc, [], ["vendor_tax_id", "subtotal"], {}, "nl_NL", 2024))
    assert found == {"vendor_tax_id": ("BE 0746.538.130", "rule"), "subtotal": ("2.840,00", "rule")}


def test_a_mexican_company_name_keeps_its_legal_form():
    from docextract.extraction.key_values import complete_party_names

    doc = _page([[("Comercializadora Alameda S.A. de C.V.", 50)], [("RFC: CAL180305KJ2", 50)]], line_spacing=12)
    cut = Entity("customer_name", tuple(WordRef(0, i) for i in range(1, 4)), 0.8)  # "Alameda S.A. de"
    assert [e.text(doc) for e in complete_party_names(doc, [cut])] == ["Comercializadora Alameda S.A. de C.V."]


def test_a_party_name_stops_before_the_address_or_contact_line_a_model_read_on_into():
    from docextract.extraction.key_values import complete_party_names

    doc = _page([[("Cliente: Maria Fernandes", 50)], [("Rua das Flores, 22, 2.º Esq.", 50)], [("1200-195 Lisboa", 50)]],
                line_spacing=12)
    customer = Entity("customer_name", tuple(WordRef(0, i) for i in range(1, 7)), 0.9)  # "Maria" ... "22,"
    assert [e.text(doc) for e in complete_party_names(doc, [customer])] == ["Maria Fernandes"]
    doc = _page([[("Hansen Bygg AS", 60)], [("v/ Ole Hansen", 60)], [("Postboks 123", 60)]], line_spacing=12)
    customer = Entity("customer_name", tuple(WordRef(0, i) for i in range(4)), 0.9)  # "Hansen Bygg AS v/"
    assert [e.text(doc) for e in complete_party_names(doc, [customer])] == ["Hansen Bygg AS"]
    # a name wrapped over two lines keeps both
    doc = _page([[("Stichting Vrienden van het", 60)], [("Rijksmuseum Amsterdam", 60)]], line_spacing=12)
    customer = Entity("customer_name", tuple(WordRef(0, i) for i in range(len(doc.pages[0].words))), 0.9)
    assert [e.text(doc) for e in complete_party_names(doc, [customer])] == [customer.text(doc)]


def test_a_new_zealand_gst_number_stacked_under_its_key_is_the_vendors_tax_id():
    doc = _page([[("Invoice Number", 260)], [("INV-1187", 260)], [("GST Number", 260)], [("123-456-703", 260)]],
                line_spacing=11)
    found = _texts(doc, key_value_entities(doc, [], ["invoice_number", "vendor_tax_id"], {}, "en_NZ", 2024))
    assert found == {"invoice_number": ("INV-1187", "rule"), "vendor_tax_id": ("123-456-703", "rule")}


def test_an_argentine_comprobantes_number_follows_its_point_of_sale():
    doc = _page([[("FACTURA", 360)], [("Punto de Venta: 0003", 360), ("Comp. Nro: 00001234", 470)],
                 [("Fecha de Emisión: 22/03/2024", 360)]])
    found = _texts(doc, key_value_entities(doc, [], ["invoice_number", "invoice_date"], {}, "es_AR", 2024))
    assert found["invoice_number"] == ("00001234", "rule")


def test_a_keyed_tax_id_no_scheme_checks_is_the_sellers_where_it_is_long_enough():
    # a Dubai trader's TRN (15 digits, no check stdnum knows); the customer's own TRN under its heading is not it
    doc = _page([[("Desert Rose Trading L.L.C.", 50)], [("TRN: 100234567800003", 50)], [("Customer:", 50)],
                 [("Gulf Star Hospitality FZ-LLC", 50)], [("Customer TRN: 100987654300003", 50)]])
    found = _texts(doc, key_value_entities(doc, [], ["vendor_tax_id"], {}, "en_AE", 2024))
    assert found == {"vendor_tax_id": ("100234567800003", "rule")}
    doc = _page([[("Desert Rose Trading L.L.C.", 50)], [("TRN: 1002345", 50)]])
    assert _texts(doc, key_value_entities(doc, [], ["vendor_tax_id"], {}, "en_AE", 2024)) == {}


def test_a_luxembourg_sarl_keeps_its_whole_legal_form():
    from docextract.extraction.key_values import complete_party_names

    doc = _page([[("Verkauft von", 380)], [("Shopzone EU S.à r.l.", 380)], [("L-1855 Luxembourg", 380)]])
    vendor = Entity("vendor_name", tuple(WordRef(0, i) for i in range(2, 5)), 0.9)  # "Shopzone EU S.à"
    assert [e.text(doc) for e in complete_party_names(doc, [vendor])] == ["Shopzone EU S.à r.l."]


def test_a_title_is_no_partys_name():
    # Holvi prints "LASKU" at the top left, which a model read as the seller's name; the seller's block at the right
    # with its Y-tunnus names it
    doc = _page([[("LASKU", 50), ("Studio Pohjola", 380)], [("Tmi Aino Pohjola", 380)], [("Y-tunnus: 3123456-3", 380)]])
    title = Entity("vendor_name", (WordRef(0, 0),), 0.99)
    found = _texts(doc, key_value_entities(doc, [title], ["vendor_name", "vendor_tax_id"], {}, "fi_FI", 2024))
    assert found["vendor_name"][0] != "LASKU"
    assert found["vendor_tax_id"] == ("3123456-3", "rule")


def test_a_chilean_rut_after_its_dotted_key_is_the_sellers_tax_id():
    doc = _page([[("Comercial Andes SpA", 50), ("R.U.T.: 76.123.456-0", 380)], [("FACTURA ELECTRÓNICA", 380)],
                 [("N° 4521", 380)]])
    found = _texts(doc, key_value_entities(doc, [], ["vendor_tax_id"], {}, "es_CL", 2024))
    assert found == {"vendor_tax_id": ("76.123.456-0", "rule")}


def test_an_eircode_alone_ends_a_window_address():
    from docextract.extraction.party_blocks import window_recipient

    rows = [[("Emerald Energy", 50)], [("", 60)], [("", 60)], [("", 60)], [("", 60)], [("Ms Siobhán Kelly", 60)],
            [("14 Oak Park", 60)], [("Athlone", 60)], [("Co. Westmeath", 60)], [("N37 H2X4", 60)]]
    doc = _page(rows, line_spacing=13)
    found = {label: " ".join(doc.word(r).text for r in words) for label, words in window_recipient(doc).items()}
    assert found["customer_name"] == "Ms Siobhán Kelly"


def test_the_title_over_a_window_label_is_not_its_name():
    from docextract.extraction.party_blocks import window_recipient

    # Moneybird sets "Factuur" right over the buyer's address label
    doc = _cells_page([("Bakkerij Van Dam", 50, 44, 15), ("Factuur", 50, 136, 16), ("Hotel De Domtoren", 50, 173, 9),
                       ("t.a.v. Inkoop", 50, 185, 9), ("Domplein 4", 50, 197, 9), ("3512 JC Utrecht", 50, 209, 9)])
    found = {label: " ".join(doc.word(r).text for r in words) for label, words in window_recipient(doc).items()}
    assert found["customer_name"] == "Hotel De Domtoren"


def test_irish_and_other_legal_forms_end_a_name():
    from docextract.extraction.key_values import complete_party_names

    doc = _page([[("Staybnb Ireland UC", 50)], [("8 Hanover Quay, Dublin 2", 50)]])
    vendor = Entity("vendor_name", (WordRef(0, 0), WordRef(0, 1)), 0.9)  # "Staybnb Ireland"
    assert [e.text(doc) for e in complete_party_names(doc, [vendor])] == ["Staybnb Ireland UC"]


def test_a_freelancers_vat_beside_the_income_tax_withheld_is_the_tax():
    # "Retención IRPF (15%)" is taken off the total but is no VAT rate beside IVA's; the model read each "€" as the
    # currency, which does not keep the keyed amounts from their keys
    doc = _page([[("Base imponible", 340), ("1.000,00 €", 480)], [("IVA (21%)", 340), ("210,00 €", 480)],
                 [("Retención IRPF (15%)", 340), ("-150,00 €", 478)], [("TOTAL FACTURA", 340), ("1.060,00 €", 480)]])
    signs = [Entity("currency", (WordRef(0, i),), 0.99) for i, w in enumerate(doc.pages[0].words) if w.text == "€"]
    found = _texts(doc, key_value_entities(doc, signs, ["subtotal", "total_tax", "total", "currency"], {}, "es_ES", 2024))
    assert found["total_tax"] == ("210,00 €", "rule")
    assert found["subtotal"] == ("1.000,00 €", "rule") and found["total"] == ("1.060,00 €", "rule")


def test_a_po_number_is_keyed():
    doc = _page([[("Invoice Number", 360), ("0047", 470)], [("PO Number", 360), ("SEA-1180", 470)]])
    found = _texts(doc, key_value_entities(doc, [], ["invoice_number", "purchase_order"], {}, "en_US", 2024))
    assert found == {"invoice_number": ("0047", "rule"), "purchase_order": ("SEA-1180", "rule")}


def test_an_insurance_premiums_tax_is_keyed_as_the_tax():
    doc = _page([[("Kfz-Haftpflichtversicherung 2024/25", 50), ("420,17 €", 480)],
                 [("Versicherungsteuer 19 %", 50), ("79,83 €", 480)], [("Zu zahlender Betrag", 340), ("500,00 €", 480)]])
    found = _texts(doc, key_value_entities(doc, [], ["total_tax", "amount_due"], {}, "de_DE", 2024))
    assert found == {"total_tax": ("79,83 €", "rule"), "amount_due": ("500,00 €", "rule")}


def test_an_amount_the_model_read_faintly_as_another_field_is_free_for_its_own_key():
    # "(includes £14.16 VAT)" under a web shop's total, which a model read as the amount due at 0.15
    doc = _page([[("Total", 330), ("£84.95", 470)], [("(includes £14.16 VAT)", 470)]])
    at = {doc.word(WordRef(0, i)).text: WordRef(0, i) for i in range(len(doc.pages[0].words))}
    total = Entity("total", (at["£84.95"],), 0.9, assigned=True)
    faint = Entity("amount_due", (at["£14.16"],), 0.15, assigned=True)
    found = _texts(doc, key_value_entities(doc, [total, faint], INVOICE_LABELS, {}, "en_GB", None))
    assert found["total_tax"] == ("£14.16", "rule") and "amount_due" not in found
    # read so with some confidence, it stays the model's field
    sure = replace(faint, confidence=0.6)
    found = _texts(doc, key_value_entities(doc, [total, sure], INVOICE_LABELS, {}, "en_GB", None))
    assert found["amount_due"] == ("£14.16", "model") and "total_tax" not in found


def test_a_contact_over_a_company_in_a_bill_to_block_is_the_company():
    labels = ["vendor_name", "vendor_address", "customer_name", "billing_address"]
    doc = _page([[("Bill to", 40)], [("Priya Nair", 40)], [("Lantern Analytics LLC", 40)], [("1200 Pearl Street", 40)],
                 [("Boulder, CO 80302", 40)]])
    assert _party_texts(doc, labels) == {"customer_name": "Lantern Analytics LLC",
                                         "billing_address": "1200 Pearl Street Boulder, CO 80302"}
    # a company's name wrapped over two lines stays one name, and a legal form alone under a name ends it
    doc = _page([[("Bill to", 40)], [("Brightwater Studio", 40)], [("Ltd", 40)], [("1200 Pearl Street", 40)],
                 [("Boulder, CO 80302", 40)]])
    assert _party_texts(doc, labels)["customer_name"] == "Brightwater Studio Ltd"


def test_a_letterheads_line_of_street_and_postcode_names_no_vendor():
    from docextract.extraction.party_blocks import window_envelope_fields

    # "Industrieweg 17 · 3771 MA Barneveld · 0342 123 456" under the builder's name: its street, not its name
    doc = _cells_page([("Bouwbedrijf Van Dijk B.V.", 50, 46, 15),
                       ("Industrieweg 17 · 3771 MA Barneveld · 0342 123 456", 50, 68, 8),
                       ("Fam. Bakker", 50, 133, 9), ("Keizersgracht 12", 50, 144, 9), ("1015 CN Amsterdam", 50, 155, 9),
                       ("TERMIJNFACTUUR", 50, 200, 14), ("Factuur nr.: 24-0117", 50, 225, 9)])
    fields = {label: " ".join(doc.word(r).text for r in words) for label, words in window_envelope_fields(doc).items()}
    assert fields == {"vendor_address": "Industrieweg 17 3771 MA Barneveld"}


def test_the_window_label_stands_where_one_of_the_models_customers_is_inside_it():
    # the model read "Bakker" of the label's "Fam. Bakker" and "Keizersgracht" of the project line below as customers
    doc = _cells_page([("Bouwbedrijf Van Dijk B.V.", 50, 46, 15), ("Fam. Bakker", 50, 133, 9),
                       ("Keizersgracht 12", 50, 144, 9), ("1015 CN Amsterdam", 50, 155, 9),
                       ("TERMIJNFACTUUR", 50, 200, 14), ("Project: Verbouwing Keizersgracht 12", 50, 237, 9)])
    words = {doc.word(WordRef(0, i)).text: WordRef(0, i) for i in range(len(doc.pages[0].words))}
    project_street = WordRef(0, max(i for i in range(len(doc.pages[0].words)) if doc.word(WordRef(0, i)).text == "Keizersgracht"))
    vendor = Entity("vendor_name", tuple(WordRef(0, i) for i in range(4)), 0.9)
    inside = Entity("customer_name", (words["Bakker"],), 0.5)
    outside = Entity("customer_name", (project_street,), 0.6)
    labels = ("vendor_name", "customer_name", "billing_address")
    found = _texts(doc, key_value_entities(doc, [vendor, inside, outside], labels, {}, "nl_NL", None))
    assert found["customer_name"] == ("Fam. Bakker", "block")
    # none on its name line and no salutation opening it: the model's customer stands
    doc = _cells_page([("Bouwbedrijf Van Dijk B.V.", 50, 46, 15), ("Bakker Advies", 50, 133, 9),
                       ("Keizersgracht 12", 50, 144, 9), ("1015 CN Amsterdam", 50, 155, 9),
                       ("TERMIJNFACTUUR", 50, 200, 14), ("Project: Verbouwing Keizersgracht 12", 50, 237, 9)])
    outside = Entity("customer_name", (WordRef(0, len(doc.pages[0].words) - 2),), 0.6)
    found = _texts(doc, key_value_entities(doc, [vendor, outside], labels, {}, "nl_NL", None))
    assert found["customer_name"] == ("Keizersgracht", "model")


def test_a_norwegian_attention_line_in_the_window_is_no_recipients_name():
    from docextract.extraction.party_blocks import window_recipient

    # "v/ Ole Hansen" (ved: for the attention of) under the company set just above the window's band
    doc = _cells_page([("Vestland Regnskap AS", 340, 50, 14), ("Hansen Bygg AS", 60, 111, 10),
                       ("v/ Ole Hansen", 60, 124, 10), ("Postboks 123", 60, 137, 10), ("5804 Bergen", 60, 150, 10),
                       ("Faktura", 340, 111, 16), ("Fakturanummer: 2024-118", 340, 135, 8)])
    found = {label: " ".join(doc.word(r).text for r in words) for label, words in window_recipient(doc).items()}
    assert found == {"customer_name": "Hansen Bygg AS", "billing_address": "Postboks 123 5804 Bergen"}
    # ... and "Att. Ole Hansen", as Scandinavian letters also write it
    doc = _cells_page([("Vestland Regnskap AS", 340, 50, 14), ("Hansen Bygg AS", 60, 111, 10),
                       ("Att. Ole Hansen", 60, 124, 10), ("Postboks 123", 60, 137, 10), ("5804 Bergen", 60, 150, 10),
                       ("Faktura", 340, 111, 16), ("Fakturanummer: 2024-118", 340, 135, 8)])
    assert " ".join(doc.word(r).text for r in window_recipient(doc)["customer_name"]) == "Hansen Bygg AS"


def test_fam_opens_a_recipients_name():
    from docextract.extraction.party_blocks import addressed

    doc = _cells_page([("Fam. Bakker", 50, 133, 9), ("M. et Mme Rousseau", 50, 150, 9), ("Bakker Advies", 50, 170, 9)])
    lines = [[WordRef(0, w) for w in line.word_indices] for line in doc.pages[0].lines]
    assert [addressed(doc, words) for words in lines] == [True, True, False]


def test_a_company_salutation_over_the_window_label_addresses_it():
    # an Italian hotel: "Spett.le" over "Studio Ferri & Associati" in the window; the model read the guest "Marco" of
    # "Ospite: Ing. Marco Ferri" further down as the customer
    doc = _cells_page([("Hotel Bellavista", 50, 36, 18), ("Bellavista S.r.l. - Lungolago 12 - 22100 Como", 50, 60, 7),
                       ("Spett.le", 330, 113, 9), ("Studio Ferri & Associati", 330, 124, 10),
                       ("Via Dante 18", 330, 137, 10), ("20121 Milano MI", 330, 150, 10),
                       ("Fattura n. 245/2024", 50, 190, 12), ("Ospite: Ing. Marco Ferri - Camera 305", 50, 222, 8)])
    words = {doc.word(WordRef(0, i)).text: WordRef(0, i) for i in range(len(doc.pages[0].words))}
    vendor = Entity("vendor_name", (words["Hotel"], words["Bellavista"]), 0.8)
    guest = Entity("customer_name", (words["Marco"],), 0.7)
    labels = ("vendor_name", "customer_name", "billing_address")
    found = _texts(doc, key_value_entities(doc, [vendor, guest], labels, {}, "it_IT", None))
    assert found["customer_name"] == ("Studio Ferri & Associati", "block")


def test_the_vendors_vat_number_in_a_key_table_beside_the_buyers_block():
    # "Vendor VAT No." in a key table without colons beside "Sold To:": its row is no part of the buyer's block,
    # whose own "Customer VAT No:" is no seller's
    doc = _cells_page([("INVOICE", 430, 50, 18), ("Invoice Number", 330, 94, 8), ("IE5100238471", 440, 94, 8),
                       ("Invoice Date", 330, 106, 8), ("15-MAY-2024", 440, 106, 8), ("Vendor VAT No.", 330, 142, 8),
                       ("IE 9825613N", 440, 142, 8), ("Sold To:", 50, 104, 8), ("Kestrel Design Ltd", 50, 116, 8),
                       ("14 Harcourt Street", 50, 126, 8), ("Dublin 2 D02 XY45", 50, 136, 8),
                       ("Customer VAT No: IE 3345127C", 50, 156, 8)])
    found = _texts(doc, key_value_entities(doc, [], ("vendor_tax_id", "invoice_number"), {}, "en_IE", 2024))
    assert found["vendor_tax_id"] == ("IE 9825613N", "rule")


def test_a_window_label_that_opens_with_a_salutation_is_the_recipient_over_the_models_customer():
    # a vet's invoice: the tagger read the pet of "Animal : Filou (chat européen, 6 ans)" as the customer
    doc = _cells_page([("Clinique Vétérinaire des Tilleuls", 50, 48, 13), ("FACTURE N° 24-05231", 360, 100, 12),
                       ("M. et Mme Rousseau", 360, 153, 9), ("8 rue Vendôme", 360, 164, 9), ("69006 Lyon", 360, 175, 9),
                       ("Animal : Filou (chat européen, 6 ans)", 50, 203, 9)])
    words = {doc.word(WordRef(0, i)).text: WordRef(0, i) for i in range(len(doc.pages[0].words))}
    vendor = Entity("vendor_name", tuple(WordRef(0, i) for i in range(4)), 0.9)
    pet = Entity("customer_name", (words["Filou"],), 0.7)
    labels = ("vendor_name", "customer_name", "billing_address")
    found = _texts(doc, key_value_entities(doc, [vendor, pet], labels, {}, "fr_FR", None))
    assert found["customer_name"] == ("M. et Mme Rousseau", "block")


def test_the_company_a_page_says_to_pay_is_the_vendor_where_the_models_is_no_company():
    from docextract.extraction.key_values import payee_name

    doc = _cells_page([("DATA SUMMIT 2024", 50, 45, 20), ("Registration Invoice", 50, 72, 11),
                       ("Invoice #: REG-55012", 360, 103, 8), ("Bill To:", 50, 103, 8), ("Samuel Ortiz", 50, 115, 8),
                       ("400 Main St", 50, 125, 8), ("Columbus, OH 43215", 50, 135, 8),
                       ("Make checks payable to Summit Events Group LLC, PO Box 1180, Reston, VA 20195", 50, 773, 7)])
    assert " ".join(doc.word(r).text for r in payee_name(doc)) == "Summit Events Group LLC,"
    title = Entity("vendor_name", (WordRef(0, 1), WordRef(0, 2)), 0.8)  # "SUMMIT 2024"
    found = _texts(doc, key_value_entities(doc, [title], ("vendor_name", "customer_name"), {}, "en_US", None))
    assert found["vendor_name"] == ("Summit Events Group LLC,", "block")
    # a vendor the tagger read with its legal form stands
    company = Entity("vendor_name", tuple(WordRef(0, i) for i in range(1)), 0.8)
    assert payee_name(_cells_page([("Pay to the order of Acme", 50, 100, 8)])) == ()
    legal = _cells_page([("Northwind Ltd", 50, 45, 14), ("Make checks payable to Summit Events Group LLC", 50, 773, 7)])
    found = _texts(legal, key_value_entities(legal, [replace(company, words=(WordRef(0, 0), WordRef(0, 1)))],
                                             ("vendor_name",), {}, "en_US", None))
    assert found["vendor_name"] == ("Northwind Ltd", "model")


def test_a_salutation_set_over_the_windows_band_stays_with_the_name_under_it():
    from docextract.extraction.party_blocks import window_recipient

    # an insurer's letter: "Herrn" a line above the band, "Max Mustermann" in it
    doc = _cells_page([("MVM Musterhafter Versicherungsverein", 50, 48, 12), ("Herrn", 50, 103, 10),
                       ("Max Mustermann", 50, 116, 10), ("Musterstr. 11", 50, 129, 10),
                       ("DE 12346 Bad Musterhausen", 50, 142, 10), ("Beitragsrechnung", 50, 220, 12)])
    found = {label: " ".join(doc.word(r).text for r in words) for label, words in window_recipient(doc).items()}
    assert found == {"customer_name": "Herrn Max Mustermann", "billing_address": "Musterstr. 11 DE 12346 Bad Musterhausen"}


def test_a_window_label_cut_inside_its_block_or_under_a_companys_salutation():
    from docextract.extraction.party_blocks import window_recipient

    # "Spett.le" over the company: the label is the company's, from its name
    doc = _cells_page([("Dott.ssa Giulia Ferri", 50, 48, 13), ("Spett.le", 330, 123, 9),
                       ("Studio Legale Conti & Associati", 330, 135, 10), ("Corso Venezia 8", 330, 148, 10),
                       ("20121 Milano", 330, 162, 10), ("FATTURA N. 12/2024", 50, 212, 12)])
    assert " ".join(doc.word(r).text for r in window_recipient(doc)["customer_name"]) == \
        "Studio Legale Conti & Associati"
    # the band cuts between the company and its contact: the contact's label does not stand over the tagger's company
    doc = _cells_page([("Serverhaus AG", 50, 38, 16), ("Firma", 50, 84, 10), ("Beispiel GmbH", 50, 100, 10),
                       ("Frau Anna Schmidt", 50, 114, 10), ("Ringstraße 7", 50, 127, 10), ("50667 Köln", 50, 140, 10),
                       ("Rechnung", 380, 84, 14)])
    words = {doc.word(WordRef(0, i)).text: WordRef(0, i) for i in range(len(doc.pages[0].words))}
    vendor = Entity("vendor_name", (words["Serverhaus"], words["AG"]), 0.9)
    company = Entity("customer_name", (words["Beispiel"], words["GmbH"]), 0.8)
    contact = Entity("customer_name", (words["Anna"], words["Schmidt"]), 0.5)
    found = key_value_entities(doc, [vendor, company, contact], ("vendor_name", "customer_name"), {}, "de_DE", None)
    assert {(e.text(doc), e.method) for e in found if e.label == "customer_name"} == {("Beispiel GmbH", "model"),
                                                                                   ("Anna Schmidt", "model")}


def test_an_italian_invoices_holder_heads_the_buyers_block():
    doc = _page([[("Intestatario fattura", 330)], [("Studio Associato Ferri & Lanza", 330)],
                 [("Via Santo Stefano 38", 330)], [("40125 Bologna (BO)", 330)]], line_spacing=13)
    assert _party_texts(doc, ("customer_name", "billing_address"))["customer_name"] == "Studio Associato Ferri & Lanza"


def test_a_vat_number_after_its_key_replaces_the_taggers_tax_ids_that_fail_their_check():
    # a French mobile bill: the tagger read digits of the customer's telephone number as the seller's tax id
    doc = _page([[("ligne mobile : 06 12 45 78 90", 40)], [("montant à payer", 40), ("37,50 €", 200)],
                 [("N° TVA intracommunautaire : FR75 812946739 · SIRET 812 946 739 00032", 40)]])
    at = {doc.word(WordRef(0, i)).text: WordRef(0, i) for i in range(len(doc.pages[0].words))}
    telephone = Entity("vendor_tax_id", (at["12"], at["45"], at["78"], at["90"]), 0.6)
    found = _texts(doc, key_value_entities(doc, [telephone], INVOICE_LABELS, {}, "fr_FR", 2024))
    assert found["vendor_tax_id"] == ("FR75 812946739", "rule")
    assert found["amount_due"] == ("37,50 €", "rule")
    # without a checked VAT number after a key, the tagger's reading stays
    doc = _page([[("ligne mobile : 06 12 45 78 90", 40)]])
    assert _texts(doc, key_value_entities(doc, [telephone], INVOICE_LABELS, {}, "fr_FR", 2024))["vendor_tax_id"] == (
        "12 45 78 90", "model")


def test_the_one_checked_vat_number_a_page_prints_is_the_sellers_where_no_key_the_rules_read_names_it():
    # a scan's OCR read "USt-IdNr." as "UStdNr.": the footer's VAT number is still the only one on the page
    doc = _page([[("Beispiel GmbH", 40)], [("Ringstraße 7", 40)], [("50667 Köln", 40)],
                 [("Serverhaus AG Amtsgericht Ansbach HRB 6089 UStdNr. DE812871812", 40)]])
    assert _texts(doc, key_value_entities(doc, [], INVOICE_LABELS, {}, "de_DE", 2024))["vendor_tax_id"] == (
        "DE812871812", "rule")
    # two checked VAT numbers: which is whose is not known; one after another field's key ("Kunde:") is not the seller's
    doc = _page([[("Serverhaus AG UStdNr. DE812871812", 40)], [("DE136695976", 40)]])
    assert "vendor_tax_id" not in _texts(doc, key_value_entities(doc, [], INVOICE_LABELS, {}, "de_DE", 2024))
    doc = _page([[("Serverhaus AG UStdNr. DE812871812", 40)], [("Kunde: DE136695976", 40)]])
    assert _texts(doc, key_value_entities(doc, [], INVOICE_LABELS, {}, "de_DE", 2024))["vendor_tax_id"] == (
        "DE812871812", "rule")
    # the buyer's, in its headed block, is never the seller's
    doc = _page([[("Rechnungsempfänger", 40)], [("Beispiel GmbH", 40)], [("Ringstraße 7", 40)], [("50667 Köln", 40)],
                 [("DE136695976", 40)]], line_spacing=13)
    assert "vendor_tax_id" not in _texts(doc, key_value_entities(doc, [], INVOICE_LABELS, {}, "de_DE", 2024))


def test_a_couples_salutation_alone_over_their_names_and_danish_credit_note_keys():
    from docextract.extraction.party_blocks import is_salutation

    doc = _page([[("Herrn und Frau", 50)], [("Markus und Sabine Lehmeier", 50)]])
    line = [WordRef(0, i) for i in range(3)]
    assert is_salutation(doc, line) and not is_salutation(doc, [WordRef(0, i) for i in range(3, 7)])
    doc = _page([[("Kreditnotanr.: 100418", 40)], [("Krediteret i alt DKK", 330), ("809,95", 480)],
                 [("Offener Saldo", 330), ("0,00", 480)]])
    found = _texts(doc, key_value_entities(doc, [], INVOICE_LABELS, {}, "da_DK", 2024))
    assert found["invoice_number"] == ("100418", "rule") and found["total"] == ("809,95", "rule")
    assert found["amount_due"] == ("0,00", "rule")


def test_a_party_name_on_a_bank_details_line_is_the_banks_and_dropped():
    # "Domiciliation bancaire : CRÉDIT AGRICOLE CENTRE-EST", whose "AGRICOLE" a model read as the customer's name
    doc = _page([[("Domiciliation bancaire : CRÉDIT AGRICOLE CENTRE-EST - Agence de Mornant", 40)],
                 [("Bankverbindung: Sparkasse KölnBonn", 40)], [("SARL BATI-RHÔNE RÉNOVATION", 40)]])
    words = doc.pages[0].words

    def named(label: str, *texts: str) -> Entity:
        return Entity(label, tuple(WordRef(0, i) for i, w in enumerate(words) if w.text in texts), 0.5)

    names = [named("customer_name", "AGRICOLE"), named("vendor_name", "Sparkasse", "KölnBonn"),
             named("customer_name", "SARL", "BATI-RHÔNE", "RÉNOVATION")]
    assert [e.text(doc) for e in complete_party_names(doc, names)] == ["SARL BATI-RHÔNE RÉNOVATION"]


def test_an_owners_key_before_a_sole_traders_name_is_no_part_of_it():
    # a tiler's letterhead "Fliesen Demir" over "Inh. Kemal Demir"
    doc = _page([[("Fliesen Demir", 40)], [("Inh. Kemal Demir", 40)]])
    words = doc.pages[0].words
    owner = Entity("vendor_name", tuple(WordRef(0, i) for i, w in enumerate(words) if w.text in ("Inh.", "Kemal")
                                        or (w.text == "Demir" and i > 1)), 0.6)
    assert [e.text(doc) for e in complete_party_names(doc, [owner])] == ["Kemal Demir"]


def test_a_rate_printed_before_its_keys_sign_is_that_rates_share():
    from docextract.extraction.candidate_scorer import document_context

    # "zzgl. 19 % USt. 2.590,83" (the key starts at the sign) and a deposit's "darin enthalten: ... USt. 19 % 950,00":
    # one rate, not two, so neither is one rate's share and the tax is read
    doc = _page([[("Summe netto", 300), ("13.635,95", 480)], [("zzgl. 19 % USt.", 300), ("2.590,83", 480)],
                 [("Gesamtbetrag", 300), ("16.226,78", 480)], [("abzgl. Anzahlung", 300), ("-5.950,00", 480)],
                 [("darin enthalten: netto 5.000,00, USt. 19 % 950,00", 250)]])
    context = document_context(doc, [], {}, "de_DE", 2024)
    assert not context.one_rate_amounts.get("total_tax")


def test_a_blocked_account_is_not_the_account_to_pay_into():
    # a Dutch contractor's G-rekening (wage tax under the chain-liability act) beside its bank account
    doc = _page([[("Bankrekening: NL89 RABO 0318 2746 59 t.n.v. Polderwind B.V.", 50)],
                 [("G-rekening (Wet ketenaansprakelijkheid): NL67 INGB 0009 9024 17", 50)]])
    words = {w.text: WordRef(0, i) for i, w in enumerate(doc.pages[0].words)}
    blocked = tuple(words[t] for t in ("NL67", "INGB", "0009", "9024", "17"))
    paid_into = tuple(words[t] for t in ("NL89", "RABO", "0318", "2746", "59"))
    found = key_value_entities(doc, [Entity("iban", blocked, 0.9)], INVOICE_LABELS, {}, "nl_NL", 2024)
    assert [e.words for e in found if e.label == "iban"] == [paid_into]


def test_the_currency_the_tagger_read_most_is_the_field():
    # a Swiss invoice's four "CHF" and, under its total, the EUR equivalent "for information"
    from docextract.extraction.key_values import _currency_read_most

    doc = _page([[("Total CHF", 50), ("Währung CHF", 300)], [("Gegenwert EUR", 50), ("CHF", 300)]])
    words = {w.text: WordRef(0, i) for i, w in enumerate(doc.pages[0].words)}
    chf = [WordRef(0, i) for i, w in enumerate(doc.pages[0].words) if w.text == "CHF"]
    readings = [Entity("currency", (words["EUR"],), 0.997)] + [Entity("currency", (r,), 0.99) for r in chf]
    chosen = [e for e in _currency_read_most(readings, doc) if e.assigned]
    assert [e.text(doc) for e in chosen] == ["CHF"]
    assert _currency_read_most(readings[:1], doc) == readings[:1]  # one currency read: nothing to decide


def test_a_name_read_on_into_another_block_is_its_second_lines():
    # a tagline under a logo at the left, read on into the company's block at the top right
    doc = _page([[("Drukkerij Vanhove BV", 420)], [("VANHOVE", 50)], [("drukwerk & uitgeefdiensten", 50)]])
    words = {w.text: WordRef(0, i) for i, w in enumerate(doc.pages[0].words)}
    read = Entity("vendor_name", (words["drukwerk"], words["&"], words["uitgeefdiensten"], words["Drukkerij"]), 0.97)
    assert [e.text(doc) for e in complete_party_names(doc, [read])] == ["Drukkerij Vanhove BV"]
    # its confidence is its kept words' mean tag probability, where they are given
    probability = {r: 0.5 for r in read.words[:3]} | {read.words[3]: 0.9}
    assert [e.confidence for e in complete_party_names(doc, [read], probability)] == [0.9]
    # a name wrapped under itself stays whole
    doc = _page([[("Versicherungsverein", 50)], [("Musterstadt a.G.", 50)]])
    both = Entity("vendor_name", (WordRef(0, 0), WordRef(0, 1), WordRef(0, 2)), 0.9)
    assert [e.text(doc) for e in complete_party_names(doc, [both])] == ["Versicherungsverein\nMusterstadt a.G."]


def test_a_sidebar_of_keys_over_values_is_no_window_address():
    from docextract.extraction.party_blocks import window_recipient

    # a Belgian operator's bill: a narrow left sidebar of small keys over their values (a billed period, then the
    # installation address under its heading) in the left window's band, the recipient at the right
    bill = [("nexalis", 40, 40, 20), ("Monsieur Olivier Dethier", 330, 132, 10), ("Rue Saint-Gilles 218 boîte 3", 330, 145, 10),
            ("4000 Liège", 330, 158, 10), ("Date de facture", 40, 177, 7), ("05/11/2024", 40, 187, 8),
            ("Période facturée", 40, 219, 7), ("du 01/11/2024 au 30/11/2024", 40, 229, 8),
            ("Adresse d'installation", 40, 240, 7), ("Rue Saint-Gilles 218/3", 40, 250, 8), ("4000 Liège", 40, 261, 8)]
    doc = _cells_page(bill)
    found = {label: " ".join(doc.word(r).text for r in words) for label, words in window_recipient(doc).items()}
    assert found["customer_name"] == "Monsieur Olivier Dethier"


def test_the_buyers_tax_id_a_blank_line_under_its_window_label_is_in_its_block():
    from docextract.extraction.party_blocks import block_extents, side_at

    letter = [("CÉLÉRIT express", 50, 44, 22), ("SARL ATELIER VERNOUX", 50, 120, 10), ("Service comptabilité", 50, 133, 10),
              ("14 rue des Tanneurs", 50, 146, 10), ("69007 LYON", 50, 159, 10),
              ("N° TVA intracom. : FR69528419062", 50, 186, 8)]
    doc = _cells_page(letter)
    vat = next(WordRef(0, i) for i, w in enumerate(doc.pages[0].words) if w.text == "FR69528419062")
    assert side_at(block_extents(doc), doc, vat) == "customer_name"
    # a line of another kind there is not the label's
    doc = _cells_page(letter[:-1] + [("Objet : transport octobre 2024", 50, 186, 8)])
    objet = next(WordRef(0, i) for i, w in enumerate(doc.pages[0].words) if w.text == "octobre")
    assert side_at(block_extents(doc), doc, objet) is None


def test_a_person_named_after_a_salutation_in_two_languages_is_the_contact_over_the_company():
    labels = ["customer_name", "billing_address"]
    doc = _cells_page([("Gast / Client", 330, 140, 8), ("Mevr./Mme Sofie Lindqvist", 330, 152, 9),
                       ("Lindqvist Consulting BV", 330, 164, 9), ("Kortrijksesteenweg 1012", 330, 176, 9),
                       ("9051 Gent", 330, 188, 9)])
    assert _party_texts(doc, labels)["customer_name"] == "Lindqvist Consulting BV"


def test_a_banks_name_over_the_line_that_opens_with_its_iban_is_no_party():
    # an agency's payment block: "Société Générale Lyon Cordeliers" over "IBAN : FR76 ...", read as the customer
    doc = _page([[("Règlement par virement bancaire", 40)], [("Société Générale Lyon Cordeliers", 40)],
                 [("IBAN : FR76 3000 3012 3400 0204 1827 365", 40)], [], [("Oblique Communication SAS", 40)],
                 [("IBAN : FR76 3000 3012 3400 0204 1827 365", 300)]], line_spacing=14)
    words = doc.pages[0].words

    def named(label: str, *texts: str) -> Entity:
        return Entity(label, tuple(WordRef(0, i) for i, w in enumerate(words) if w.text in texts), 0.5)

    names = [named("customer_name", "Société", "Générale", "Lyon"), named("vendor_name", "Oblique", "Communication", "SAS")]
    # (a name whose line under it in another column opens with an IBAN stays)
    assert [e.text(doc) for e in complete_party_names(doc, names)] == ["Oblique Communication SAS"]


def test_a_letterheads_name_runs_on_through_a_lower_case_particle():
    doc = _cells_page([("Les Saveurs du Quercy", 50, 42, 16), ("Épicerie fine - vins", 50, 62, 8),
                       ("ZA de Regourd", 50, 74, 8), ("46000 CAHORS", 50, 86, 8), ("Total HT", 300, 200, 8)])
    words = doc.pages[0].words
    cut = Entity("vendor_name", (WordRef(0, 0), WordRef(0, 1)), 0.58)
    assert [e.text(doc) for e in complete_party_names(doc, [cut])] == ["Les Saveurs du Quercy"]
    assert words[2].text == "du"


def test_the_taggers_customer_inside_the_vendors_own_block_leaves_the_window_label_the_customer():
    # a vet's name in the clinic's letterhead block and a seller's register line, read as the customer
    clinic = [("Dierenkliniek De Leiehoeve", 45, 48, 16), ("Paarden · Gezelschapsdieren", 45, 67, 8),
              ("Dr. Lien Vandamme · Dr. Pieter Goethals", 45, 78, 7.5), ("Leiedam 52, 8520 Kuurne", 45, 88, 7.5),
              ("Stoeterij Ter Walle BV", 330, 132, 10), ("Walledreef 3", 330, 145, 10), ("8790 Waregem", 330, 158, 10),
              ("Volgende afspraak: controle-echo op 19/11/2024", 45, 440, 8.5)]
    doc = _cells_page(clinic)
    words = doc.pages[0].words
    labels = ["vendor_name", "customer_name", "billing_address"]
    vendor = Entity("vendor_name", tuple(WordRef(0, i) for i in range(3)), 0.9)
    vet = Entity("customer_name", tuple(WordRef(0, i) for i, w in enumerate(words) if w.text in ("Pieter", "Goethals")),
                 0.66)
    found = key_value_entities(doc, [vendor, vet], labels, {}, "nl_BE", 2024)
    assert {e.text(doc) for e in found if e.label == "customer_name"} == {"Stoeterij Ter Walle BV"}
    # nor does a reading without a capital outside the label ("controle-echo" of a sentence) keep the label out
    word = Entity("customer_name", (next(WordRef(0, i) for i, w in enumerate(words) if w.text == "controle-echo"),), 0.36)
    found = key_value_entities(doc, [vendor, vet, word], labels, {}, "nl_BE", 2024)
    assert {e.text(doc) for e in found if e.label == "customer_name"} == {"Stoeterij Ter Walle BV"}


def test_a_contact_named_with_an_initial_or_a_credential_is_the_contact_over_the_company():
    labels = ["customer_name", "billing_address"]
    for person in ("Mr D Holroyd", "Rebecca MacLeod, RID"):
        doc = _cells_page([("BILL TO", 45, 186, 7), (person, 45, 199, 9), ("Pennine Joinery Ltd", 45, 211, 9),
                           ("1540 Barrington Street", 45, 223, 9), ("Halifax NS B3J 1H6", 45, 235, 9)])
        assert _party_texts(doc, labels)["customer_name"] == "Pennine Joinery Ltd", person


def test_a_name_runs_on_to_an_associations_word_and_stops_at_a_legal_lines_next_part():
    doc = _page([[("Atlantic Interior Designers Association", 45)],
                 [("Bureau Confort Distribution – SARL au capital de 50 000 €", 45)], [("Méca-Alsace Fixations SAS", 45)]])
    words = doc.pages[0].words
    named = lambda *texts: Entity("vendor_name", tuple(WordRef(0, i) for i, w in enumerate(words) if w.text in texts), 0.9)
    out = complete_party_names(doc, [named("Atlantic", "Interior", "Designers"), named("Bureau", "Confort", "Distribution"),
                                     named("Fixations", "SAS")])
    assert [e.text(doc) for e in out] == ["Atlantic Interior Designers Association", "Bureau Confort Distribution",
                                          "Méca-Alsace Fixations SAS"]


def test_a_companys_name_opening_its_legal_line_is_no_banks_where_its_iban_stands_parts_away():
    doc = _cells_page([("RailNed Reizigers B.V. · Croeselaan 321 · 3521 BJ Utrecht · KvK 30124876 · IBAN NL54 INGB "
                        "0006 7184 32", 45, 790, 6.5), ("Total", 300, 300, 8)])
    words = doc.pages[0].words
    from docextract.extraction.key_values import footer_company_name

    assert " ".join(doc.word(r).text for r in footer_company_name(doc)) == "RailNed Reizigers B.V."
    name = Entity("vendor_name", tuple(WordRef(0, i) for i in (1, 2)), 0.9)
    assert [e.text(doc) for e in complete_party_names(doc, [name])] == ["RailNed Reizigers B.V."]
    assert words[0].text == "RailNed"


def test_a_key_read_as_a_partys_name_names_no_one():
    # Dynamics NAV's key column: its "Votre référence" read as the vendor, its salesperson's "Vendeur" as a heading
    doc = _page([[("Vendeur", 45), ("Sandrine Molina", 145)], [("Votre référence", 45), ("Cde n° 24-0877", 145)]])
    words = doc.pages[0].words
    key = Entity("vendor_name", tuple(WordRef(0, i) for i, w in enumerate(words) if w.text in ("Votre", "référence")), 0.9)
    assert complete_party_names(doc, [key]) == []
    found = key_value_entities(doc, [], ["vendor_name", "customer_name"], {}, "fr_FR", 2024)
    assert not [e for e in found if e.label == "vendor_name"]


def test_a_label_whose_name_follows_to_on_its_line_is_the_recipient():
    from docextract.extraction.party_blocks import window_recipient

    letter = [("ELEANOR WHITCOMBE", 183, 46, 20), ("Invoice 2024-031", 50, 128, 22), ("To:", 50, 170, 10),
              ("Harrow & Finch Publishing Ltd", 80, 170, 10), ("FAO Tom Okafor, Head of Marketing", 80, 183, 10),
              ("Unit 12, The Leathermarket", 80, 196, 10), ("Weston Street", 80, 209, 10), ("London SE1 3ER", 80, 222, 10)]
    doc = _cells_page(letter)
    found = {label: " ".join(doc.word(r).text for r in words) for label, words in window_recipient(doc).items()}
    assert found["customer_name"] == "Harrow & Finch Publishing Ltd"
    assert "FAO" not in found["billing_address"]


def test_a_company_set_over_the_windows_band_heads_its_department_in_it():
    from docextract.extraction.party_blocks import window_recipient

    letter = [("Vente - Facture", 449, 40, 14), ("Ateliers Mécaniques du Forez SAS", 45, 97, 8.5),
              ("Service Comptabilité fournisseurs", 45, 108, 8.5), ("ZI des Collonges – 6 rue des Forgerons", 45, 119, 8.5),
              ("42110 Feurs", 45, 130, 8.5)]
    doc = _cells_page(letter)
    found = {label: " ".join(doc.word(r).text for r in words) for label, words in window_recipient(doc).items()}
    assert found["customer_name"] == "Ateliers Mécaniques du Forez SAS"


def test_a_key_that_runs_on_heads_another_address_and_leaves_the_block_a_label():
    labels = ["customer_name", "billing_address"]
    doc = _cells_page([("Client", 330, 126, 7.5), ("M. et Mme Delorme", 330, 136, 10), ("9 impasse des Micocouliers", 330, 148, 8.5),
                       ("34170 Castelnau-le-Lez", 330, 159, 8.5), ("Adresse du chantier", 330, 178, 7.5),
                       ("26 rue de l'Estanove", 330, 190, 8.5), ("34070 Montpellier", 330, 201, 8.5)])
    assert _party_texts(doc, labels) == {"customer_name": "M. et Mme Delorme",
                                         "billing_address": "9 impasse des Micocouliers 34170 Castelnau-le-Lez"}


def test_a_trading_name_ends_at_its_lines_next_part():
    from docextract.extraction.party_blocks import trading_as_fields

    doc = _page([[("Jessica Harlow t/a Wattle & Bloom · ABN 51 824 753 556", 40)],
                 [("Shop 3, 41 Terralong Street, Kiama NSW 2533", 40)]])
    assert " ".join(doc.word(r).text for r in trading_as_fields(doc)["vendor_name"]) == "Wattle & Bloom"


def test_a_partys_word_among_a_grids_keys_heads_no_block():
    # a printer's grid of keys over one row of values: "Verkoper" (seller) names its salesperson, not the seller
    doc = _page([[("Orderbevestiging", 40), ("Afleverdatum", 170), ("Afleveradres", 290), ("Verkoper", 450)],
                 [("OB-24-7716", 40), ("27-09-2024", 170), ("Kolkweg 2", 290), ("Fenna de Wit", 450)],
                 [("Trambaan 9", 450)], [("5283 ND Boxtel", 450)]], line_spacing=12)
    assert "vendor_name" not in _party_texts(doc, ["vendor_name", "vendor_address"])


def test_a_tables_code_letter_heads_no_block():
    # a caterer's VAT code column, "A" and "B" under each other: the French "A :" of a letter's recipient is no code
    doc = _page([[("Apéritif dînatoire", 40), ("A", 520)], [("Fondation Horizons", 40), ("B", 520)],
                 [("Avenue de Rumine 33", 40), ("B", 520)], [("1005 Lausanne", 40), ("A", 520)]], line_spacing=12)
    assert "customer_name" not in _party_texts(doc, ["customer_name", "billing_address"])


def test_an_attention_line_under_the_name_keeps_the_block_an_address_label():
    doc = _page([[("Bill to", 230)], [("Tamaki Freight Solutions Ltd", 230)], [("Attn: Accounts Payable", 230)],
                 [("14 Neilpark Drive", 230)], [("Auckland 2013", 230)]], line_spacing=12)
    assert _party_texts(doc, ["customer_name", "billing_address"]) == {
        "customer_name": "Tamaki Freight Solutions Ltd", "billing_address": "14 Neilpark Drive Auckland 2013"}


def test_a_driving_schools_pupil_heads_the_customers_block():
    doc = _page([[("Élève", 40), ("Formation", 330)], [("Mme Inès Haddad", 40), ("Permis B", 330)],
                 [("31 rue des Wetz", 40)], [("59500 Douai", 40)]], line_spacing=12)
    assert _party_texts(doc, ["customer_name", "billing_address"])["customer_name"] == "Mme Inès Haddad"


def _reading(doc, label, text, confidence=0.9):
    """The entity of ``label`` on the words of ``text``'s first occurrence."""
    words = doc.pages[0].words
    n = len(text.split())
    start = next(i for i in range(len(words)) if " ".join(w.text for w in words[i:i + n]) == text)
    return Entity(label, tuple(WordRef(0, i) for i in range(start, start + n)), confidence)


PARTY_LABELS = ["vendor_name", "customer_name", "billing_address", "vendor_tax_id"]


def _fields(doc, entities):
    """Each label's value as the output takes it (its entities' first by rank), with its method."""
    best = {}
    for e in sorted(entities, key=Entity.rank):
        best.setdefault(e.label, (e.text(doc), e.method))
    return best


def test_the_window_company_over_a_headed_guest_alone_and_over_its_contact_is_the_customer():
    # a hotel folio billed to the guest's employer: the window's "ATELIERS MERCADIER SAS" over its address, and a
    # "Client" heading over the guest's name alone (a loyalty card beside it), no address under it
    rows = [[("HALCYON", 50)], [("", 50)], [("", 50)], [("", 50)], [("ATELIERS MERCADIER SAS", 350)],
            [("Service comptabilité", 350)], [("42 rue de la Fonderie", 350)], [("87000 Limoges", 350)], [("", 50)],
            [("Client", 50), ("Carte fidélité", 245)], [("M. Julien Mercadier", 50), ("3081 0311 2233 4455", 245)]]
    doc = _page(rows, line_spacing=12)
    found = _fields(doc, key_value_entities(doc, [], PARTY_LABELS, {}, "fr_FR", 2025))
    assert found["customer_name"] == ("ATELIERS MERCADIER SAS", "block")
    # a timber merchant's window: a carpenter's company over "Herrn Jan-Hendrik Wohlers", whom the tagger read most
    # surely, beside a reference and a salesperson it read too in the key column under it
    rows = [[("Holzhandel Ottersberg GmbH & Co. KG", 300)], [("", 50)], [("", 50)], [("", 50)],
            [("Zimmerei und Holzbau Wohlers GmbH", 50)], [("Herrn Jan-Hendrik Wohlers", 50)], [("Lindenweg 8", 50)],
            [("28865 Lilienthal", 50)], [("", 50)], [("Ihre Referenz", 50), ("BV Lilienthal, Hof Meyer", 140)],
            [("Verkäufer", 50), ("Dirk Lüdeking", 140)]]
    doc = _page(rows, line_spacing=12)
    tagged = [_reading(doc, "customer_name", "Jan-Hendrik Wohlers", 0.978), _reading(doc, "customer_name", "Meyer", 0.41),
              _reading(doc, "customer_name", "Dirk Lüdeking", 0.97)]
    found = _fields(doc, key_value_entities(doc, tagged, PARTY_LABELS, {}, "de_DE", 2024))
    assert found["customer_name"] == ("Zimmerei und Holzbau Wohlers GmbH", "block")


def test_a_tagged_customer_on_a_dated_line_leaves_the_window_label_and_a_share_capital_line_names_no_one():
    # a hydraulics workshop's "Intervention atelier mobile le 21/11/24", which the tagger read as the customer
    rows = [[("GARONNE HYDRAULIQUE", 40)], [("", 40)], [("", 40)], [("", 40)], [("SAS TERRASSEMENTS DU VOLVESTRE", 330)],
            [("Service comptabilité", 330)], [("Route de Montesquieu", 330)], [("31390 CARBONNE", 330)],
            [("Intervention atelier mobile le 21/11/24", 40)]]
    doc = _page(rows, line_spacing=12)
    found = _fields(doc, key_value_entities(doc, [_reading(doc, "customer_name", "Intervention atelier", 0.87)],
                                           PARTY_LABELS, {}, "fr_FR", 2024))
    assert found["customer_name"] == ("SAS TERRASSEMENTS DU VOLVESTRE", "block")
    # a law firm's name set over the band in larger print, its "SELARL au capital de 30 000 €" line in it
    doc = _page([[("lignéo", 50)], [("", 50)], [("", 50)], [("Cabinet Roussel-Aubert Avocats", 50)],
                 [("SELARL au capital de 30 000 €", 50)], [("18 cours Franklin Roosevelt", 50)], [("69006 Lyon", 50)]],
                line_spacing=11.5)
    from docextract.extraction.party_blocks import window_recipient

    label = {k: " ".join(doc.word(r).text for r in v) for k, v in window_recipient(doc).items()}
    assert label.get("customer_name") == "Cabinet Roussel-Aubert Avocats"


def test_the_taggers_tax_id_after_another_fields_key_gives_way_to_a_keyed_registration():
    # an insurance broker's debit note: the tagger read its number "DN-0231884" after "Debit Note No." as the tax id;
    # the ABN after its key checks
    rows = [[("Debit Note No.", 370), ("DN-0231884", 506)], [("Date of issue", 370), ("16/04/2024", 506)],
            [("ABN 48 418 822 075", 40)]]
    doc = _page(rows, line_spacing=12)
    found = _fields(doc, key_value_entities(doc, [_reading(doc, "vendor_tax_id", "DN-0231884", 0.3)],
                                           ["vendor_tax_id"], {}, "en_AU", 2024))
    assert found["vendor_tax_id"] == ("48 418 822 075", "rule")


def test_the_payees_name_ends_at_its_legal_form_not_at_a_joiner():
    from docextract.extraction.key_values import payee_name

    doc = _page([[("Make checks payable to Cedar Prairie State University and mail to: Bursar, PO Box 82210", 40)]])
    assert payee_name(doc) == ()
    doc = _page([[("Make checks payable to Summit Events Group LLC, PO Box 1180, Denver", 40)]])
    assert " ".join(doc.word(r).text for r in payee_name(doc)) == "Summit Events Group LLC,"


def test_a_vendor_reading_cut_at_a_joiner_gives_way_to_the_footers_company():
    # a cleaning firm's tagline "Nettoyage industriel et tertiaire – Vitrerie", cut by the tagger after its "et"
    rows = [[("NET'AZUR", 40)], [("Nettoyage industriel et tertiaire – Vitrerie", 40)], *[[("", 40)]] * 34,
            [("Net'Azur Propreté SARL au capital de 20 000 € – RCS Nice 514 773 068", 40)]]  # its legal footer
    doc = _page(rows)
    found = _fields(doc, key_value_entities(doc, [_reading(doc, "vendor_name", "Nettoyage industriel et", 0.99)],
                                            PARTY_LABELS, {}, "fr_FR", 2024))
    assert found["vendor_name"][0] == "Net'Azur Propreté SARL"


def test_a_window_labels_name_a_body_line_over_the_band_heads_its_street_line_in_it():
    # an Irish broadband bill: "Corrib Physio Clinic" a 12 pt line over "Unit 4, Westside Enterprise Park", the band's
    # first line
    from docextract.extraction.party_blocks import window_recipient

    doc = _page([[("tellwave", 40)], [("", 40)], [("Your bill for April 2024", 40)],
                 [("Corrib Physio Clinic", 40)], [("Unit 4, Westside Enterprise Park", 40)], [("Seamus Quirke Road", 40)],
                 [("Galway H91 X2T6", 40)]], line_spacing=15)  # 11 pt words: the name over the band's top, 113 pt
    label = {k: " ".join(doc.word(r).text for r in v) for k, v in window_recipient(doc).items()}
    assert label.get("customer_name") == "Corrib Physio Clinic"


def test_a_number_over_a_keyed_name_in_its_column_is_no_part_of_it():
    # a scan of a ZUGFeRD visualisation: "Globale Nummer" OCR set apart from its key column and a GLN printed with
    # "(GLN)" after it, between the rows of "Nummer" and "Name": the value of a key, not the name's first line
    doc = _cells_page([("Verkäufer", 40, 300, 9), ("Nummer", 40, 318, 6), ("0001231000000 (GLN)", 250, 330, 7),
                       ("Name", 40, 343, 6), ("Lieferant GmbH & Co. KG", 250, 341, 9),
                       ("Anschrift", 40, 369, 6), ("Lieferanten-Strasse 12-17", 250, 368, 7),
                       ("DE 98765 Lieferantenstadt", 250, 380, 9)], ocr=True)
    assert _party_texts(doc, ["vendor_name", "vendor_address"])["vendor_name"] == "Lieferant GmbH & Co. KG"
