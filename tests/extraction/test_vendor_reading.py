"""Of the tagger's near-equal readings of the vendor's name, the one a company's name's evidence backs."""

from docextract.document import WordRef
from docextract.extraction.entities import Entity
from docextract.extraction.vendor_reading import company_evidence, vendor_reading_by_evidence
from tests.layout_helpers import laid_out_page


def _coworking_page():
    # a coworking space's logo "De Werkplaats" over its tagline, its company at the right over its address
    return laid_out_page([
        [("De Werkplaats", 50), ("De Werkplaats Utrecht B.V.", 380)],
        [("Coworking & Events", 50), ("Oudegracht 188", 380)],
        [("3511 NP Utrecht", 380)],
    ], line_spacing=13)


def _reading(doc, text, confidence):
    words = doc.pages[0].words
    for start in range(len(words)):
        refs = tuple(WordRef(0, start + i) for i in range(len(text.split())))
        if " ".join(doc.word(r).text for r in refs if r.word_index < len(words)) == text:
            return Entity("vendor_name", refs, confidence)
    raise AssertionError(text)


def _chosen(doc, entities):
    return min((e for e in vendor_reading_by_evidence(doc, entities) if e.label == "vendor_name"),
               key=Entity.rank).text(doc)


def test_the_logo_printed_again_as_the_company_beats_a_tagline_the_tagger_found_as_probable():
    doc = _coworking_page()
    logo, tagline = _reading(doc, "De Werkplaats", 0.995), _reading(doc, "Coworking & Events", 0.996)
    assert company_evidence(doc, logo) > company_evidence(doc, tagline)
    assert _chosen(doc, [tagline, logo]) == "De Werkplaats"
    # a reading far less probable than the tagger's best stays an alternative
    assert _chosen(doc, [tagline, _reading(doc, "De Werkplaats", 0.6)]) == "Coworking & Events"


def test_the_company_over_its_address_with_its_legal_form_beats_an_item_line_that_opens_with_the_brand():
    doc = laid_out_page([
        [("Stratus Cloud Services EMEA SARL", 50)],
        [("38 Avenue John F. Kennedy, L-1855 Luxembourg", 50)],
        [],
        [("Stratus Web Services Charges (period 1-31 May)", 50), ("1,204.50", 450)],
    ], line_spacing=13)
    company, item = _reading(doc, "Stratus Cloud Services EMEA SARL", 0.89), _reading(doc, "Stratus Web Services", 0.953)
    assert _chosen(doc, [item, company]) == "Stratus Cloud Services EMEA SARL"
    # beyond the margin the tagger's best stands; so does an assigned reading
    assert _chosen(doc, [_reading(doc, "Stratus Web Services", 0.995), company]) == "Stratus Web Services"
    assigned = Entity("vendor_name", item.words, 0.953, assigned=True)
    assert _chosen(doc, [assigned, company]) == "Stratus Web Services"


def test_an_academic_title_alone_is_no_reading_of_the_vendor():
    # an engineers' letter: "Dr.-Ing." (0.923) of its partners' lines printed again, the GmbH of the return line (0.922)
    doc = laid_out_page([
        [("Ingenieurbüro Hartmann + Ruoff GmbH · Rotebühlstraße 87 · 70178 Stuttgart", 50)],
        [("Dr.-Ing. Felix Ruoff", 380)], [("Dr.-Ing. Tobias Hartmann", 380)],
    ], line_spacing=13)
    entities = [_reading(doc, "Ingenieurbüro Hartmann + Ruoff GmbH", 0.922), _reading(doc, "Dr.-Ing.", 0.923)]
    assert _chosen(doc, entities) == "Ingenieurbüro Hartmann + Ruoff GmbH"


def test_a_word_cut_from_a_tagline_gives_way_to_a_letterhead_the_page_prints_again_at_any_probability():
    # a wholesaler's letterhead over its tagline and its legal block; the tagger read the tagline's first word at 0.96
    doc = laid_out_page([
        [("Les Saveurs du Quercy", 50)], [("Épicerie fine - vins - produits régionaux en gros", 50)],
        [("Les Saveurs du Quercy SARL", 50)], [("ZA de Regourd - 180, rue des Artisans", 50)], [("46000 CAHORS", 50)],
    ], line_spacing=13)
    cut, letterhead = _reading(doc, "Épicerie", 0.96), _reading(doc, "Les Saveurs du Quercy", 0.58)
    assert company_evidence(doc, cut) == 0
    assert _chosen(doc, [cut, letterhead]) == "Les Saveurs du Quercy"
    # a name the page prints nowhere else does not
    doc = laid_out_page([[("Les Saveurs du Quercy", 50)], [("Épicerie fine - vins - produits régionaux en gros", 50)]],
                        line_spacing=13)
    assert _chosen(doc, [_reading(doc, "Épicerie", 0.96), _reading(doc, "Les Saveurs du Quercy", 0.58)]) == "Épicerie"


def test_a_reading_without_a_capital_gives_way_to_the_name_the_page_prints_again():
    # a photographer's name over her tagline, her block and footer printing "Noor Lindeman Fotografie": the tagger read
    # the tagline's "fotografie" (0.946, printed again at an item's start) over the footer's name (0.888), each with
    # one sign of a company's name; no name is written without a capital
    doc = laid_out_page([
        [("Noor Lindeman", 40)], [("fotografie voor bedrijven en events", 40)], [],
        [("Noor Lindeman Fotografie", 40)], [("Vismarkt 3", 40)], [("9712 CB Groningen", 40)], [],
        [("Fotografie jubileumfeest", 40), ("1.250,00", 450)],
        [("Noor Lindeman Fotografie · KvK 80123459 · IBAN NL28 BUNQ 2374 1059 89", 40)],
    ], line_spacing=13)
    tagline = _reading(doc, "fotografie", 0.946)
    footer = Entity("vendor_name", tuple(WordRef(0, w) for w in range(len(doc.pages[0].words) - 13,
                                                                       len(doc.pages[0].words) - 10)), 0.888)
    assert footer.text(doc) == "Noor Lindeman Fotografie"
    assert _chosen(doc, [tagline, footer]) in ("Noor Lindeman Fotografie", "Noor Lindeman")
