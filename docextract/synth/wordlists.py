"""The words synthetic invoices are made of: names, streets, cities, items, terms and notes per language/locale.

Plain data, no logic: content.py samples from it. Keys are a language ("en", "de", "fr", "nl", "it", "es")
or a locale ("de_DE"). Lists are long on purpose: real vendor names are varied (one-word brands, trades,
acronyms, a person's name with a profession, all capitals), and a model that has seen sixteen surnames
learns the surnames. Every string must be encodable in cp1252 (the PDFs use the core fonts).
"""

from __future__ import annotations

SURNAMES = {
    "en": ("Smith", "Johnson", "Walker", "Harper", "Bennett", "Carter", "Hughes", "Foster", "Porter", "Reed",
           "Sullivan", "Hayes", "Brooks", "Palmer", "Fletcher", "Turner", "Mitchell", "Campbell", "Parker", "Evans",
           "Collins", "Morgan", "Cooper", "Howard", "Ward", "Griffin", "Barnes", "Wallace", "Ellis", "Graham",
           "Hunt", "Marshall", "Holmes", "Lloyd", "Spencer", "O'Brien", "McKenzie", "Whitfield"),
    "de": ("Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Becker", "Hoffmann", "Schäfer", "Koch",
           "Bauer", "Richter", "Klein", "Wolf", "Schröder", "Neumann", "Krüger", "Zimmermann", "Braun", "Hartmann",
           "Lange", "Schmitt", "Werner", "Krause", "Meier", "Lehmann", "Schulz", "Huber", "Kaiser", "Fuchs",
           "Peters", "Jung", "Möller", "Vogel", "Friedrich", "Keller", "Günther", "Berger", "Winkler", "Lorenz",
           "Baumann", "Franke", "Albrecht", "Ludwig", "Sommer", "Dietrich", "von Bergen", "Seidel"),
    "fr": ("Dupont", "Martin", "Bernard", "Lefèvre", "Moreau", "Laurent", "Girard", "Fournier", "Mercier",
           "Rousseau", "Blanc", "Garnier", "Chevalier", "Lambert", "Faure", "Gauthier", "Petit", "Durand",
           "Leroy", "Simon", "Michel", "Lefebvre", "Roux", "David", "Bertrand", "Morel", "Bonnet", "François",
           "Legrand", "Perrin", "Clément", "Guérin", "Boyer", "Lemaire", "Renaud", "Dubois", "Benoît", "Masson"),
    "nl": ("de Vries", "Jansen", "Bakker", "Visser", "Smit", "Meijer", "de Boer", "Mulder", "de Groot", "Bos",
           "Vos", "Peters", "Hendriks", "van Dijk", "van den Berg", "Dekker", "van Leeuwen", "Brouwer", "de Wit",
           "Dijkstra", "Willems", "van der Linden", "Kok", "Jacobs", "de Haan", "Vermeulen", "Schouten", "Koster"),
    "it": ("Rossi", "Russo", "Ferrari", "Esposito", "Bianchi", "Romano", "Colombo", "Ricci", "Marino", "Greco",
           "Bruno", "Gallo", "Conti", "De Luca", "Mancini", "Costa", "Giordano", "Rizzo", "Lombardi", "Moretti",
           "Barbieri", "Fontana", "Santoro", "Mariani", "Rinaldi", "Caruso", "Ferrara", "Galli", "Martini", "Leone"),
    "es": ("García", "Fernández", "González", "Rodríguez", "López", "Martínez", "Sánchez", "Pérez", "Gómez",
           "Martín", "Jiménez", "Ruiz", "Hernández", "Díaz", "Moreno", "Álvarez", "Muñoz", "Romero", "Alonso",
           "Gutiérrez", "Navarro", "Torres", "Domínguez", "Vázquez", "Ramos", "Gil", "Serrano", "Blanco", "Molina"),
}
FIRST_NAMES = {
    "en": ("Anna", "James", "Laura", "Thomas", "Claire", "Daniel", "Emily", "Michael", "Sarah", "David", "Olivia",
           "Robert", "Grace", "William", "Hannah", "Peter"),
    "de": ("Dieter", "Birgit", "Lukas", "Anna", "Klaus", "Sabine", "Thomas", "Petra", "Jürgen", "Monika", "Felix",
           "Gisela", "Heike", "Stefan", "Ursula", "Uwe"),
    "fr": ("Pierre", "Sophie", "Claire", "Jean", "Marie", "Nicolas", "Camille", "Julien", "Élodie", "François",
           "Isabelle", "Luc", "Hélène", "Mathieu", "Chloé", "Antoine"),
    "nl": ("Jan", "Anke", "Pieter", "Sanne", "Joost", "Femke", "Bram", "Lotte", "Daan", "Ingrid", "Sven", "Marieke"),
    "it": ("Marco", "Giulia", "Luca", "Francesca", "Alessandro", "Chiara", "Matteo", "Elena", "Paolo", "Sara",
           "Giovanni", "Valentina"),
    "es": ("Javier", "Lucía", "Carlos", "María", "Pablo", "Carmen", "Alejandro", "Laura", "Miguel", "Elena",
           "Sergio", "Marta"),
}
# Trades and services: "Becker Metallbau GmbH", "Metallbau Becker", "Metallbau Leipzig GmbH".
COMPANY_WORDS = {
    "en": ("Consulting", "Supplies", "Logistics", "Software", "Print", "Engineering", "Office", "Media",
           "Facilities", "Design", "Electrical", "Catering", "Plumbing", "Construction", "Security", "Analytics",
           "Freight", "Packaging", "Marketing", "Landscaping", "Legal Services", "Accounting", "Medical Supplies",
           "IT Services", "Data Systems", "Motors", "Hardware", "Furniture", "Cleaning", "Events", "Labs",
           "Renewables", "Property Management", "Signs", "Studio", "Trading"),
    "de": ("Bürotechnik", "Logistik", "Software", "Druck", "Maschinenbau", "Beratung", "Elektro", "Medien",
           "Gebäudeservice", "Handel", "Metallbau", "Catering", "Haustechnik", "Bau", "Sicherheitstechnik",
           "Spedition", "Verpackung", "Werbeagentur", "Gartenbau", "Steuerberatung", "Versicherungsmakler",
           "Informationstechnik", "Systemhaus", "Autohaus", "Möbelwerkstatt", "Reinigung", "Veranstaltungstechnik",
           "Labortechnik", "Solartechnik", "Immobilien", "Hausverwaltung", "Getränkehandel", "Feinkost", "Dachdeckerei",
           "Malerbetrieb", "Sanitär", "Werkzeugbau", "Kunststofftechnik", "Personalservice", "Großhandel"),
    "fr": ("Conseil", "Logistique", "Informatique", "Imprimerie", "Bâtiment", "Fournitures", "Électricité",
           "Médias", "Services", "Transports", "Traiteur", "Design", "Plomberie", "Menuiserie", "Sécurité",
           "Emballages", "Communication", "Paysage", "Expertise Comptable", "Assurances", "Ingénierie",
           "Nettoyage", "Événements", "Laboratoires", "Énergies", "Immobilier", "Distribution", "Équipements",
           "Boulangerie", "Maçonnerie", "Peinture", "Agencement", "Négoce", "Solutions"),
    "nl": ("Advies", "Logistiek", "Software", "Drukkerij", "Bouw", "Installatietechniek", "Schoonmaak", "Transport",
           "Kantoorartikelen", "Media", "Elektrotechniek", "Catering", "Vastgoed", "Groothandel", "Beveiliging",
           "Verpakkingen", "Accountants", "Techniek", "Hoveniers", "Automatisering"),
    "it": ("Consulenze", "Logistica", "Informatica", "Tipografia", "Costruzioni", "Forniture", "Impianti Elettrici",
           "Servizi", "Trasporti", "Catering", "Arredamenti", "Sicurezza", "Imballaggi", "Comunicazione",
           "Immobiliare", "Distribuzione", "Meccanica", "Pulizie", "Energia", "Ingegneria"),
    "es": ("Consultoría", "Logística", "Informática", "Imprenta", "Construcciones", "Suministros", "Electricidad",
           "Servicios", "Transportes", "Catering", "Mobiliario", "Seguridad", "Embalajes", "Comunicación",
           "Inmobiliaria", "Distribuciones", "Ingeniería", "Limpiezas", "Energía", "Reformas"),
}
# Invented brand names are a stem and an ending: "Novatec", "Alpline", "Terradata".
BRAND_STEMS = ("Nova", "Alp", "Tec", "Sol", "Vita", "Medi", "Euro", "Inter", "Pro", "Opti", "Lumi", "Terra",
               "Aqua", "Prime", "Blue", "Green", "Silver", "Zen", "Max", "Omni", "Nord", "Sun", "Vero", "Kon",
               "Data", "Astra", "Cleve", "Ever", "Flex", "Helio", "Ido", "Quanta", "Rhein", "Sigma", "Velo", "Wave")
BRAND_ENDINGS = ("tec", "line", "wave", "data", "form", "plan", "soft", "trans", "bau", "print", "med", "vision",
                 "point", "works", "lab", "net", "ware", "com", "tronic", "logic", "mark", "star", "field", "gate")
# English style "Global Goods Inc.": an adjective and a noun.
ENGLISH_ADJECTIVES = ("Global", "United", "Pacific", "Atlantic", "Summit", "Pioneer", "Metro", "Apex", "Northern",
                      "Coastal", "Premier", "Allied", "First", "Central", "Crown", "Liberty", "Evergreen", "Golden",
                      "Red Oak", "Blue Ridge", "Silverline", "Keystone")
ENGLISH_NOUNS = ("Goods", "Trading", "Solutions", "Systems", "Services", "Partners", "Industries", "Holdings",
                 "Group", "Supply", "Works", "Enterprises", "Technologies", "Distributors", "Associates", "Ventures")
# A one-person business: a profession before or after the person's name, no legal suffix.
PROFESSIONS = {
    "en": ("Photography", "Consulting", "Bookkeeping", "Translations", "Plumbing & Heating", "Design Studio",
           "Tutoring", "Web Development"),
    "de": ("Ergotherapie", "Logopädin", "Malermeister", "Rechtsanwalt", "Steuerberaterin", "Fotografie",
           "Übersetzungsbüro", "Hausmeisterservice", "Tischlerei", "Praxis Dr.", "Ingenieurbüro", "Kurierdienst"),
    "fr": ("Cabinet", "Atelier", "Dr", "Maître", "Studio", "Entreprise", "Ets", "Boulangerie", "Menuiserie"),
    "nl": ("Fotografie", "Adviesbureau", "Schildersbedrijf", "Praktijk", "Klussenbedrijf", "Vertaalbureau"),
    "it": ("Studio", "Dott.", "Avv.", "Officina", "Ditta", "Laboratorio"),
    "es": ("Estudio", "Taller", "Despacho", "Dr.", "Asesoría", "Fotografía"),
}
# Where the profession goes: "Logopädin Heike Seidel" (before) or "Jane Smith Photography" (after).
PROFESSION_AFTER = {"en": True, "de": False, "fr": False, "nl": False, "it": False, "es": False}
COMPANY_SUFFIXES = {
    "en_US": ("Inc.", "LLC", "Corp.", "Co.", "Corporation", "Ltd.", "L.P.", "PLLC", "Inc"),
    "en_GB": ("Ltd", "Limited", "LLP", "& Sons Ltd", "plc", "& Co", "Ltd."),
    "de_DE": ("GmbH", "AG", "GmbH & Co. KG", "e.K.", "KG", "OHG", "UG (haftungsbeschränkt)", "mbH", "e.V.",
              "GbR", "& Co. KG", "GMBH", "SE", "a.G."),
    "fr_FR": ("SARL", "SAS", "SA", "EURL", "SASU", "SCI", "SNC", "S.A.R.L.", "S.A.S."),
    "nl_NL": ("B.V.", "BV", "N.V.", "V.O.F.", "& Zn."),
    "it_IT": ("S.r.l.", "S.p.A.", "S.n.c.", "S.a.s.", "Srl", "SRL", "S.r.l.s."),
    "es_ES": ("S.L.", "S.A.", "S.L.U.", "SL", "S.Coop.", "SA"),
}
STREETS = {
    "en_US": ("Oak Street", "Maple Avenue", "Main Street", "Park Road", "Cedar Lane", "Elm Drive", "Lake Blvd",
              "Washington Ave", "Sunset Boulevard", "Pine St", "Market Street", "Highland Ave", "River Road",
              "Commerce Dr", "Industrial Pkwy", "Broadway"),
    "en_GB": ("High Street", "Station Road", "Church Lane", "Victoria Road", "Mill Lane", "King Street",
              "Queen's Road", "London Road", "Park Avenue", "Bridge Street", "The Green", "Manor Way",
              "Riverside Industrial Estate", "Albert Road"),
    "de_DE": ("Hauptstraße", "Bahnhofstraße", "Gartenweg", "Lindenallee", "Schulstraße", "Industriestraße",
              "Ahornweg", "Mozartstraße", "Am Markt", "Goethestraße", "Mühlenweg", "Rathausplatz",
              "Gewerbepark Süd", "Friedrich-Ebert-Straße", "Kirchgasse", "Im Gewerbegebiet", "Lessingstraße",
              "Berliner Allee", "Kastanienweg", "An der Autobahn"),
    "fr_FR": ("rue de la Paix", "avenue Victor Hugo", "boulevard Voltaire", "rue des Lilas", "place du Marché",
              "rue de la République", "avenue Jean Jaurès", "rue du Moulin", "chemin des Vignes",
              "ZI des Glaisins", "rue Pasteur", "allée des Tilleuls", "quai de la Loire", "impasse des Roses"),
    "nl_NL": ("Hoofdstraat", "Kerkstraat", "Dorpsstraat", "Stationsweg", "Industrieweg", "Molenstraat",
              "Keizersgracht", "Marktplein", "Nieuwe Binnenweg", "Parallelweg"),
    "it_IT": ("Via Roma", "Via Garibaldi", "Corso Vittorio Emanuele", "Via Mazzini", "Piazza del Duomo",
              "Viale della Repubblica", "Via Dante", "Via dell'Industria", "Via Verdi", "Largo Augusto"),
    "es_ES": ("Calle Mayor", "Avenida de la Constitución", "Calle Real", "Paseo de Gracia", "Calle de Alcalá",
              "Plaza de España", "Calle del Sol", "Avenida Diagonal", "Polígono Industrial Norte", "Calle Nueva"),
}
CITIES = {
    "en_US": (("Springfield", "IL", "62704"), ("Austin", "TX", "73301"), ("Portland", "OR", "97205"),
              ("Columbus", "OH", "43215"), ("Denver", "CO", "80202"), ("Madison", "WI", "53703"),
              ("Boston", "MA", "02108"), ("Phoenix", "AZ", "85004"), ("Raleigh", "NC", "27601"),
              ("San Jose", "CA", "95113"), ("Seattle", "WA", "98101"), ("Nashville", "TN", "37203")),
    "en_GB": (("London", "", "SW1A 1AA"), ("Leeds", "", "LS1 4DY"), ("Bristol", "", "BS1 5TR"),
              ("Manchester", "", "M1 2AB"), ("York", "", "YO1 7HH"), ("Glasgow", "", "G1 1XQ"),
              ("Cardiff", "", "CF10 1EP"), ("Norwich", "", "NR2 1RQ"), ("Birmingham", "", "B2 4QA")),
    "de_DE": (("Berlin", "", "10115"), ("München", "", "80331"), ("Köln", "", "50667"),
              ("Hamburg", "", "20095"), ("Leipzig", "", "04109"), ("Nürnberg", "", "90402"),
              ("Frankfurt am Main", "", "60311"), ("Stuttgart", "", "70173"), ("Düsseldorf", "", "40213"),
              ("Dresden", "", "01067"), ("Hannover", "", "30159"), ("Bremen", "", "28195"),
              ("Kassel", "", "34117"), ("Freiburg im Breisgau", "", "79098"), ("Regensburg", "", "93047")),
    "fr_FR": (("Paris", "", "75002"), ("Lyon", "", "69002"), ("Marseille", "", "13001"),
              ("Toulouse", "", "31000"), ("Nantes", "", "44000"), ("Lille", "", "59000"),
              ("Bordeaux", "", "33000"), ("Strasbourg", "", "67000"), ("Rennes", "", "35000"),
              ("Annecy", "", "74000"), ("Montpellier", "", "34000"), ("Saint-Étienne", "", "42000")),
    "nl_NL": (("Amsterdam", "", "1012 AB"), ("Rotterdam", "", "3011 AD"), ("Utrecht", "", "3511 LX"),
              ("Den Haag", "", "2511 BT"), ("Eindhoven", "", "5611 AZ"), ("Groningen", "", "9711 LV")),
    "it_IT": (("Milano", "MI", "20121"), ("Roma", "RM", "00184"), ("Torino", "TO", "10121"),
              ("Bologna", "BO", "40121"), ("Firenze", "FI", "50123"), ("Napoli", "NA", "80133")),
    "es_ES": (("Madrid", "", "28013"), ("Barcelona", "", "08007"), ("Valencia", "", "46002"),
              ("Sevilla", "", "41004"), ("Bilbao", "", "48001"), ("Zaragoza", "", "50001")),
}
# The country line some addresses end with, and the prefix of "DE 80333 München".
COUNTRY_NAMES = {
    "en_US": ("USA", "United States"), "en_GB": ("United Kingdom", "UK", "England"),
    "de_DE": ("Deutschland", "Germany", "DEUTSCHLAND"), "fr_FR": ("France", "FRANCE"),
    "nl_NL": ("Nederland", "The Netherlands"), "it_IT": ("Italia", "ITALIA"), "es_ES": ("España", "ESPAÑA"),
}
COUNTRY_CODES = {"en_US": "US", "en_GB": "GB", "de_DE": "DE", "fr_FR": "FR", "nl_NL": "NL", "it_IT": "IT",
                 "es_ES": "ES"}
# (name, unit); a few units take decimal quantities (kg, m, l).
ITEMS = {
    "en": (("Consulting services", "h"), ("Server maintenance", "h"), ("Office chair", "pcs"),
           ("Printer toner cartridge", "pcs"), ("Website hosting", "month"), ("Software licence", "pcs"),
           ("Project management", "h"), ("Network cabling", "m"), ("Desk lamp", "pcs"), ("Copy paper A4", "box"),
           ("Delivery charge", ""), ("Installation", "h"), ("Training workshop", "day"), ("USB-C docking station", "pcs"),
           ("Cloud storage plan", "month"), ("Graphic design", "h"), ("Monitor 27 inch", "pcs"), ("Cleaning service", "h"),
           ("Stainless steel bolts M8", "pcs"), ("Espresso roast 500g", "kg"), ("Herbal tea assortment", "kg"),
           ("Mineral water 12 x 1l", "crate"), ("Annual support contract", "yr"), ("Travel expenses", ""),
           ("Laptop 14 inch", "pcs"), ("Paint, white, 10 l", "l"), ("Site survey", "day"), ("Legal advice", "h")),
    "de": (("Beratungsleistung", "Std."), ("Wartung Server", "Std."), ("Bürostuhl", "Stk."), ("Tonerkartusche", "Stk."),
           ("Webhosting", "Monat"), ("Softwarelizenz", "Stk."), ("Projektleitung", "Std."), ("Netzwerkkabel", "m"),
           ("Schreibtischlampe", "Stk."), ("Kopierpapier A4", "Karton"), ("Versandkosten", ""), ("Montage", "Std."),
           ("Schulung", "Tag"), ("Dockingstation USB-C", "Stk."), ("Cloud-Speicher", "Monat"), ("Grafikdesign", "Std."),
           ("Monitor 27 Zoll", "Stk."), ("Reinigung Büroräume", "Std."), ("Ordner A4 breit", "Stk"),
           ("Apfelsaft naturtrüb", "Kiste"), ("Pflastersteine grau", "m²"), ("Rinderhack", "kg"),
           ("Gartenschlauch 25m", "Stk."), ("Leergut", "Stk."), ("Spülmittel 1l", "Stk."),
           ("Kaffeefilter Gr. 4", "Pack"), ("Fahrtkosten", "km"), ("Anfahrtspauschale", ""),
           ("Heizöl EL schwefelarm", "l"), ("Wartungsvertrag", "Jahr"), ("Massage 30 min", "Stk"),
           ("Ergotherapie Einzelsitzung", "Stk"), ("Miete Büro", "Monat"), ("Nebenkostenvorauszahlung", "Monat")),
    "fr": (("Prestation de conseil", "h"), ("Maintenance serveur", "h"), ("Chaise de bureau", "pce"),
           ("Cartouche de toner", "pce"), ("Hébergement web", "mois"), ("Licence logiciel", "pce"),
           ("Gestion de projet", "h"), ("Câblage réseau", "m"), ("Lampe de bureau", "pce"), ("Papier A4", "carton"),
           ("Frais de livraison", ""), ("Installation", "h"), ("Formation", "jour"), ("Station d'accueil USB-C", "pce"),
           ("Stockage cloud", "mois"), ("Conception graphique", "h"), ("Écran 27 pouces", "pce"), ("Nettoyage", "h"),
           ("Thé vert en vrac", "kg"), ("Eau minérale 6 x 1,5l", "pack"), ("Frais de déplacement", ""),
           ("Contrat de maintenance annuel", "an"), ("Vis inox M8", "pce"), ("Peinture blanche", "l"),
           ("Main d'oeuvre", "h"), ("Location nacelle", "jour")),
    "nl": (("Adviesdiensten", "uur"), ("Onderhoud server", "uur"), ("Bureaustoel", "st"), ("Tonercartridge", "st"),
           ("Webhosting", "maand"), ("Softwarelicentie", "st"), ("Projectmanagement", "uur"), ("Netwerkkabel", "m"),
           ("Kopieerpapier A4", "doos"), ("Verzendkosten", ""), ("Installatie", "uur"), ("Training", "dag"),
           ("Groene thee los", "kg"), ("Schoonmaak kantoor", "uur"), ("Monitor 27 inch", "st")),
    "it": (("Servizi di consulenza", "h"), ("Manutenzione server", "h"), ("Sedia da ufficio", "pz"),
           ("Cartuccia toner", "pz"), ("Hosting sito web", "mese"), ("Licenza software", "pz"),
           ("Gestione progetto", "h"), ("Cavo di rete", "m"), ("Carta A4", "scatola"), ("Spese di spedizione", ""),
           ("Installazione", "h"), ("Corso di formazione", "gg"), ("Tè verde sfuso", "kg"),
           ("Pulizia uffici", "h"), ("Monitor 27 pollici", "pz")),
    "es": (("Servicios de consultoría", "h"), ("Mantenimiento servidor", "h"), ("Silla de oficina", "ud"),
           ("Cartucho de tóner", "ud"), ("Alojamiento web", "mes"), ("Licencia de software", "ud"),
           ("Gestión de proyecto", "h"), ("Cable de red", "m"), ("Papel A4", "caja"), ("Gastos de envío", ""),
           ("Instalación", "h"), ("Formación", "día"), ("Té verde a granel", "kg"), ("Limpieza de oficinas", "h"),
           ("Monitor 27 pulgadas", "ud")),
}
DECIMAL_UNITS = ("h", "Std.", "uur", "kg", "m", "m²", "l", "km")
ITEM_DETAILS = {
    "en": ("", "", "standard", "premium", "phase 2", "on site", "remote", "model X-200", "pack of 10", "annual"),
    "de": ("", "", "Standard", "Premium", "Phase 2", "vor Ort", "remote", "Modell X-200", "10er Pack", "jährlich"),
    "fr": ("", "", "standard", "premium", "phase 2", "sur site", "à distance", "modèle X-200", "lot de 10", "annuel"),
    "nl": ("", "", "standaard", "premium", "fase 2", "op locatie", "op afstand", "model X-200", "10 stuks"),
    "it": ("", "", "standard", "premium", "fase 2", "in sede", "da remoto", "modello X-200", "conf. da 10"),
    "es": ("", "", "estándar", "premium", "fase 2", "in situ", "en remoto", "modelo X-200", "pack de 10"),
}
# A second, unlabelled line under an item's description (packaging, dimensions); GTINs are made in content.py.
ITEM_SUBLINES = {
    "en": ("Packaging: box", "120 cm x 80 cm", "Colour: black", "Serial no. SN-{n}", "Batch {n}", "incl. cable"),
    "de": ("Verpackungseinheit: 6 Stück", "Maße 120 x 80 cm", "Herkunft: EU", "Farbe: anthrazit", "Inhalt 0,75 l",
           "Charge {n}", "Seriennr. {n}", "Gebinde: Eimer"),
    "fr": ("Conditionnement : carton", "120 cm x 80 cm", "Coloris : noir", "N° de série {n}", "Lot {n}"),
    "nl": ("Verpakking: doos", "Kleur: zwart", "Serienr. {n}", "Partij {n}"),
    "it": ("Confezione: scatola", "Colore: nero", "Matricola {n}", "Lotto {n}"),
    "es": ("Embalaje: caja", "Color: negro", "N.º de serie {n}", "Lote {n}"),
}
PAYMENT_TERMS = {
    "en": ("Net 30", "Net 14", "Due on receipt", "Payment within 30 days", "2% 10, Net 30", "Net 60",
           "Payment due within 30 days of invoice date", "Payable by bank transfer"),
    "de": ("Zahlbar innerhalb von 14 Tagen ohne Abzug", "Zahlbar sofort ohne Abzug", "30 Tage netto",
           "14 Tage 2% Skonto, 30 Tage netto", "Zahlbar innerhalb von 30 Tagen netto", "Lastschrift"),
    "fr": ("Paiement à 30 jours", "Paiement à réception", "45 jours fin de mois", "Paiement à 30 jours net",
           "Virement à 30 jours"),
    "nl": ("Betaling binnen 30 dagen", "Betaling binnen 14 dagen", "Direct betalen", "30 dagen netto"),
    "it": ("Pagamento a 30 giorni", "Bonifico bancario 30 gg d.f.", "Rimessa diretta", "60 gg fine mese"),
    "es": ("Pago a 30 días", "Transferencia bancaria", "Pago al contado", "60 días fecha factura"),
}
NOTES = {
    "en": ("Thank you for your business.", "Please include the invoice number with your payment.",
           "Goods remain our property until paid in full.", "Questions about this invoice? Contact our accounts team.",
           "Late payments may incur interest of 1.5% per month."),
    "de": ("Vielen Dank für Ihren Auftrag.", "Bitte geben Sie bei Zahlung die Rechnungsnummer an.",
           "Die Ware bleibt bis zur vollständigen Bezahlung unser Eigentum.", "Leistungsdatum entspricht Rechnungsdatum.",
           "Bei Fragen wenden Sie sich bitte an unsere Buchhaltung.", "Es gelten unsere Allgemeinen Geschäftsbedingungen."),
    "fr": ("Merci pour votre confiance.", "Merci de rappeler le numéro de facture lors du paiement.",
           "En cas de retard, une pénalité de 3 fois le taux légal sera appliquée.",
           "Indemnité forfaitaire pour frais de recouvrement : 40 EUR.", "Pas d'escompte pour paiement anticipé."),
    "nl": ("Bedankt voor uw opdracht.", "Vermeld bij betaling altijd het factuurnummer.",
           "Op al onze leveringen zijn onze algemene voorwaarden van toepassing."),
    "it": ("Grazie per la fiducia accordataci.", "Si prega di indicare il numero di fattura nel pagamento.",
           "Contributo ambientale CONAI assolto ove dovuto."),
    "es": ("Gracias por su confianza.", "Indique el número de factura en la transferencia.",
           "La mercancía viaja por cuenta y riesgo del comprador."),
}
# Names of invoicing tools (invented) for the producer line some viewers print on top: never a vendor.
PRODUCER_LINES = ("Erstellt mit FakturaPro 5.2", "Visualisierung XR-View 1.3", "Generated by InvoiceView 3.1",
                  "Rendu lisible par FX-Lecteur 2.0", "Ansicht erzeugt mit E-Rechnung Viewer 4.0",
                  "Printed with LedgerDesk 2024", "e-factuur weergave v2", "Visualizzazione FatturaViewer 1.1",
                  "Lesbare Darstellung, (c) Belegwerk GmbH 2023")
# The unlabelled line under a logo: "{w}" is one of the company words.
TAGLINES = {
    "en": ("Your partner for {w}", "Quality {w} since 1987", "{w} - reliable and fast", "Excellence in {w}"),
    "de": ("Ihr Partner für {w}", "{w} seit 1987", "Qualität aus Meisterhand", "{w} - zuverlässig und schnell"),
    "fr": ("Votre partenaire {w}", "{w} depuis 1987", "La qualité au service de nos clients"),
    "nl": ("Uw partner in {w}", "{w} sinds 1987"),
    "it": ("Il vostro partner per {w}", "{w} dal 1987"),
    "es": ("Su socio en {w}", "{w} desde 1987"),
}
