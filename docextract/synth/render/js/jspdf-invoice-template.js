// docextract render: the props JSON (argv[2]) through jspdf-invoice-template-nodejs, the PDF to argv[3].
"use strict";
const fs = require("fs");
const template = require("jspdf-invoice-template-nodejs");
const props = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
props.outputType = template.OutputType.DataUriString;
props.returnJsPDFDocObject = true;
const created = template.default(props);
fs.writeFileSync(process.argv[3], Buffer.from(created.jsPDFDocObject.output("arraybuffer")));
