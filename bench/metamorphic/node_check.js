// Syntax check of many files in one process, as `node --check` would load each one:
// stdin is a JSON list of [path, "esm" | "cjs"]; stdout a JSON list of [path, error or null].
"use strict";
const fs = require("fs");
const vm = require("vm");
const files = JSON.parse(fs.readFileSync(0, "utf8"));
const out = [];
for (const [path, kind] of files) {
  let code = fs.readFileSync(path, "utf8");
  if (code.startsWith("#!")) code = "//" + code.slice(2);
  try {
    if (kind === "esm") new vm.SourceTextModule(code, { identifier: path });
    else vm.compileFunction(code, ["exports", "require", "module", "__filename", "__dirname"], { filename: path });
    out.push([path, null]);
  } catch (err) {
    out.push([path, String(err && err.message || err).split("\n")[0].slice(0, 200)]);
  }
}
process.stdout.write(JSON.stringify(out));
