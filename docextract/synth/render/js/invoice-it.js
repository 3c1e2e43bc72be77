// docextract render: the options JSON (argv[2]) through @rimiti/invoice-it's invoice template, as its user calls it
// (configure, create, setters, getInvoice().toHTML()); the HTML to argv[3], and what the package computed and printed
// (each article's cells, the three totals) as JSON to argv[3] + ".json".
"use strict";
const fs = require("fs");
const invoiceIt = require("@rimiti/invoice-it").default;
const o = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
invoiceIt.configure({ global: { lang: o.lang, date_format: o.date_format, logo: o.logo, invoice_note: o.note } });
const invoice = invoiceIt.create(o.recipient, o.emitter);
invoice.lang = o.lang;
invoice.date_format = o.date_format;
invoice.date = o.date;
invoice.reference = o.reference;
invoice.footer = { en: o.footer, fr: o.footer };
invoice.article = o.articles;
const page = invoice.getInvoice();
fs.writeFileSync(process.argv[3], page.toHTML().html);
fs.writeFileSync(process.argv[3] + ".json", JSON.stringify({
  articles: page.articles.map((a) => ({ price: a.price, tax: a.tax, qt: a.qt, total: a.total_product_without_taxes })),
  subtotal: page.table_total_without_taxes_value, total_tax: page.table_total_taxes_value,
  total: page.table_total_with_taxes_value, date: page.header_date,
}));
