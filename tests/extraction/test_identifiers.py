"""Bank and tax identifiers checked by python-stdnum, and what an invalid one does to the document."""

from docextract.extraction.checks import validate_invoice
from docextract.extraction.entities import normalize_value
from docextract.extraction.identifiers import check_bic, check_iban, check_tax_id, is_vat_number


def test_iban_needs_its_countrys_length_not_just_the_checksum():
    # 24 characters pass mod 97, but a German IBAN has 22
    wrong_length = check_iban("DE6537040044053201300012")
    assert wrong_length.valid is False and wrong_length.error
    assert check_iban("DE89 3704 0044 0532 0130 00").valid is True
    assert check_iban("DE89 3704 0044 0532 0130 00").normalized == "DE89370400440532013000"
    assert check_iban("DE89 3704 0044 0532 0130 01").valid is False  # checksum
    assert check_iban("4000001234578") == check_iban("4000001234578")  # a GLN is not an IBAN
    assert check_iban("4000001234578").normalized is None and check_iban("4000001234578").valid is False


def test_bic_structure():
    assert check_bic("NWBKGB2LXXX").valid is True
    assert check_bic("BYLADEM1001").valid is True
    assert check_bic("DE12XXBANK").valid is False


def test_vat_id_with_a_wrong_check_digit_is_flagged():
    assert check_tax_id("DE 136 695 976").valid is True
    flagged = check_tax_id("DE136695977")
    assert (flagged.valid, flagged.scheme) == (False, "de.vat")
    assert check_tax_id("FR 40 303 265 045").valid is True
    assert check_tax_id("FR 41 303 265 045").valid is False


def test_a_vat_number_read_by_ocr_with_a_letter_for_a_digit_is_read_again():
    # "DEI36695976": the one reading that is valid is the number, and valid
    repaired = check_tax_id("DEI36695976")
    assert (repaired.normalized, repaired.valid) == ("DE136695976", True)
    assert check_tax_id("DE 8I3 9O5 467").normalized == "DE813905467"
    # a sample's made-up number misread: its digits as the format wants them, its check digits still wrong
    sample = check_tax_id("DEI23456789")
    assert (sample.normalized, sample.valid) == ("DE123456789", False)
    # a letter the format holds stays ("NL...B01"), and no reading of a number too short makes one
    assert check_tax_id("NL 8521 32541 B01").normalized == "NL852132541B01"
    assert check_tax_id("GB98").normalized == "GB98"


def test_a_vat_prefix_ocr_read_with_a_digit_or_a_sign_for_its_letter_is_read_as_letters_where_it_checks():
    # Tesseract at 150 dpi reads the "I" of an Irish "IE" as "1" and its "E" as "£"; a German "D" as "0"
    assert check_tax_id("1E6388047V").normalized == "IE6388047V"
    assert check_tax_id("1£8123456C").normalized == "IE8123456C"
    assert check_tax_id("0E136695976").normalized == "DE136695976"
    # only where the check digits hold, and never a run of digits
    assert check_tax_id("1E1234567X").normalized == "1E1234567X"
    assert check_tax_id("12345678", "IE").normalized == "12345678"


def test_tax_id_without_prefix_is_checked_as_the_documents_country():
    assert check_tax_id("61-7753683", "US").scheme == "us.ein"
    assert check_tax_id("201/113/40209", "DE").valid is True  # a Steuernummer
    assert check_tax_id("99877", "DE").valid is False
    assert check_tax_id("12345", "MY").valid is None  # no scheme known: unknown, not wrong
    # the Nordic organisation numbers and Portugal's NIF, printed without a prefix
    assert check_tax_id("501234500", "PT").scheme == "pt.nif"
    assert check_tax_id("556123-4500", "SE").scheme == "se.orgnr"
    assert check_tax_id("987 654 325 MVA", "NO").valid is True
    assert check_tax_id("2345678-0", "FI").scheme == "fi.ytunnus"
    assert check_tax_id("501234501", "PT").valid is False
    assert check_tax_id("123-456-703", "NZ").scheme == "nz.ird"
    # Canada's business number (with its GST/HST account), Mexico's RFC
    assert check_tax_id("872345616 RT0001", "CA").scheme == "ca.bn"
    assert check_tax_id("872345617", "CA").valid is False
    assert check_tax_id("TDE2012108Q0", "MX").scheme == "mx.rfc"
    # Poland's NIP (printed in groups) and Czechia's DIČ
    assert check_tax_id("527-123-45-63", "PL").scheme == "pl.nip"
    assert check_tax_id("527-123-45-64", "PL").valid is False
    assert check_tax_id("27123456", "CZ").scheme == "cz.dic"


def test_invalid_identifier_puts_the_document_in_review_with_the_reason():
    kind, normalized, extra = normalize_value("vendor_tax_id", "DE 136 695 977", "de_DE")
    assert (kind, normalized, extra["valid"]) == ("vat_id", "DE136695977", False)
    field = {"type": kind, "value": "DE 136 695 977", "normalized": normalized, "confidence": 0.2, **extra}
    validation = validate_invoice({"vendor_tax_id": field}, [])
    assert validation["needs_review"] is True
    assert validation["review_reasons"] == [f"invalid identifier: vendor_tax_id ({extra['invalid_reason']})"]
    assert {"name": "vendor_tax_id_valid", "status": "fail"} in validation["checks"]


def test_a_vat_number_printed_in_groups_is_one_candidate():
    from docextract.extraction.candidates import generate
    from docextract.extraction.identifiers import spaced_vat_length
    from docextract.extraction.key_context import LineIndex
    from tests.layout_helpers import laid_out_page

    assert spaced_vat_length(["DE", "921", "733", "374", "Seite"]) == 4  # its check digits wrong: still one number
    assert spaced_vat_length(["FR", "50", "718452558"]) == 3
    assert spaced_vat_length(["DE", "12", "345"]) == 0  # too short for a German VAT number
    assert spaced_vat_length(["IBAN", "DE89"]) == 0
    doc = laid_out_page([[("USt-ID", 40), ("DE 136 695 976", 200)]])
    ids = [c.value for c in generate(doc, LineIndex(doc), "de_DE", 2024)["identifier"]]
    assert ids == ["DE136695976"]


def test_an_iban_read_by_ocr_with_letters_for_digits_is_repaired_where_its_check_digits_hold():
    from docextract.extraction.identifiers import check_iban

    assert check_iban("DEO2 1203 0000 0000 2020 51").normalized == "DE02120300000000202051"  # O for 0
    assert check_iban("DE02 l203 0000 0000 2020 51").valid is True  # l for 1
    assert check_iban("DEO2 1203 0000 0000 2020 52").valid is False  # no reading holds: not repaired
    assert check_iban("GB29 NWBK 6016 1331 9268 19").normalized == "GB29NWBK60161331926819"  # letters of the bank code stay
    assert check_iban("0E75 5121 0800 1245 1261 99").normalized == "DE75512108001245126199"  # a digit for a letter
    assert check_iban("DE89 37O4 OO44 O532 O13O OO").normalized == "DE89370400440532013000"  # every 0 read as O
    assert check_iban("DE89 37O4 OO44 O532 O13O O1").valid is False


def test_an_iban_misread_by_ocr_keeps_its_printed_digits_where_its_check_digits_fail():
    from docextract.extraction.identifiers import check_iban

    misread = check_iban("DEI2 1234 5678 9012 3456 78")  # I for 1; the sample's IBAN has made-up check digits
    assert (misread.normalized, misread.valid) == ("DE12123456789012345678", False)
    assert check_iban("D£02 1203 0000 0000 2020 51").normalized == "DE02120300000000202051"  # £ for E: repaired
    assert check_iban("GB9S NWBK 6016 1312 3456 78").normalized == "GB95NWBK60161312345678"  # the bank code stays letters
    assert check_iban("DEO9687654321").normalized is None  # no country's IBAN is 13 characters long
    # where no country's structure fits (the samples' made-up IBANs of 18 characters), the country is still read as
    # letters and the check digits as digits; a key's colon OCR glued to the number is no part of it
    assert check_iban("DES4 6789 4567 8765 00").normalized == "DE5467894567876500"
    assert check_iban(":DEI2 12344321 9876 00").normalized == "DE1212344321987600"
    assert check_iban(":DEO2120300000000202051").valid is True
    assert check_iban("1234 4321 9876 00").normalized is None  # digits alone: no country "IZ"


def test_a_swiss_enterprise_number_printed_apart_from_its_mwst_is_valid():
    from docextract.extraction.identifiers import check_tax_id

    assert check_tax_id("CHE-100.999.380", "CH").valid is True
    assert check_tax_id("CHE-100.999.381", "CH").valid is False


def test_a_valid_vat_number_printed_with_dots_is_given_in_its_canonical_form():
    # Belgian numbers are printed "BE 0123.456.749"; a payer's system matches BE0123456749
    checked = check_tax_id("BE 0123.456.749")
    assert (checked.normalized, checked.valid, checked.scheme) == ("BE0123456749", True, "be.vat")


def test_an_indian_gst_number_is_checked_by_its_check_character():
    assert (check_tax_id("29AABCS1234K1ZC").valid, check_tax_id("29AABCS1234K1ZC").scheme) == (True, "in.gstin")
    assert check_tax_id("29AABCS1234K1ZD").valid is False


def test_a_dotted_vat_number_and_one_a_scans_ocr_split_are_one_identifier():
    from docextract.extraction.candidate_scorer import document_context
    from docextract.extraction.identifiers import dotted_vat_length
    from tests.layout_helpers import laid_out_page

    assert dotted_vat_length(["NL8027.27.608.B01"]) == 1
    assert dotted_vat_length(["NL8027.27.608.", "B01", "KvK"]) == 2  # OCR split it at a dot
    assert dotted_vat_length(["DEB1", "1907980"]) == 2  # and read its "8" as a "B"
    assert dotted_vat_length(["DE811907980", "12345"]) == 1  # valid alone: the register number after it is its own
    assert dotted_vat_length(["BA1", "1HE"]) == 0 and dotted_vat_length(["DE12", "3456"]) == 0
    # its dots read as no amount's decimals: the footer's VAT number is an identifier candidate
    doc = laid_out_page([[("Btw-nummer NL8027.27.608. B01", 40.0)]])
    identifiers = [c.value for c in document_context(doc, [], {}, "nl_NL", 2024).candidates["identifier"]]
    assert "NL8027.27.608.B01" in identifiers
    assert check_tax_id("DEB11907980").normalized == "DE811907980"


def test_a_vat_number_in_groups_may_end_its_sentence():
    from docextract.extraction.identifiers import spaced_vat_length

    assert spaced_vat_length(["GB", "269", "5318", "26.", "Registered"]) == 4
    assert spaced_vat_length(["GB", "269", "5318", "26"]) == 4


def test_a_swiss_uid_is_a_vat_number_for_the_rules_that_look_for_one():
    from docextract.extraction.identifiers import is_vat_number

    assert is_vat_number(check_tax_id("CHE-416.382.152"))
    assert is_vat_number(check_tax_id("FR75 812946739"))
    assert not is_vat_number(check_tax_id("812 946 739 00032", "FR"))  # a SIRET: valid, but no VAT number


def test_a_canadian_business_number_with_its_gst_account_is_a_vat_number():
    # the GST/HST registration: the business number and its "RT" program account; the number alone registers no tax
    assert is_vat_number(check_tax_id("794312587RT0001", "CA"))
    assert not is_vat_number(check_tax_id("794312587", "CA"))
    assert is_vat_number(check_tax_id("48 418 822 075", "AU"))  # an Australian ABN, the GST registration
