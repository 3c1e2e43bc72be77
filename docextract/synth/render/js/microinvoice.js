// docextract render: the options JSON (argv[2]) through microinvoice, the PDF to argv[3].
"use strict";
const fs = require("fs");
const MicroInvoice = require("microinvoice");
const options = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
new MicroInvoice(options).generate(process.argv[3]).catch((error) => { console.error(error); process.exit(1); });
