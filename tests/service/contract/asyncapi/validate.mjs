// Parses AsyncAPI documents with AsyncAPI's official parser and prints, as one line of JSON, each
// one's diagnostics: node validate.mjs a.json b.json (tests/service/contract/test_asyncapi.py).
import { readFileSync } from "node:fs";
import { Parser } from "@asyncapi/parser";

const parser = new Parser();
const reports = [];
for (const path of process.argv.slice(2)) {
  const { document, diagnostics } = await parser.parse(readFileSync(path, "utf8"));
  const found = diagnostics.map((d) => ({ severity: d.severity, code: d.code, message: d.message, path: d.path.join("/") }));
  reports.push({ parsed: document !== undefined, diagnostics: found });
}
console.log(JSON.stringify(reports));
