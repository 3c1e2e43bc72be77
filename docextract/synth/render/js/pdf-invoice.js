// docextract render: {payload, config} JSON (argv[2]) through @h1dd3nsn1p3r/pdf-invoice, the PDF to argv[3].
"use strict";
const fs = require("fs");
const { PDFInvoice } = require("@h1dd3nsn1p3r/pdf-invoice");
const { payload, config } = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
payload.invoice.path = process.argv[3];
new PDFInvoice(payload, config).create().catch((error) => { console.error(error); process.exit(1); });
