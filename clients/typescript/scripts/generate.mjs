// Regenerates src/generated/ from the repository's openapi.json,
// api/shared/error_codes.py and solver/play/words.py: the request and response types
// (openapi-typescript) and the constants they cannot carry (scripts/generate_constants.py).
//
//   npm run generate                       # into src/generated/
//   node scripts/generate.mjs --out DIR    # elsewhere (the freshness test)
//
// PYTHON names the Python to run (default python3; standard library only).

import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const pkg = resolve(here, "..");
const root = resolve(pkg, "..", "..");
const openapi = join(root, "openapi.json");

const outFlag = process.argv.indexOf("--out");
const out = outFlag >= 0 ? resolve(process.argv[outFlag + 1]) : join(pkg, "src", "generated");
mkdirSync(out, { recursive: true });

// The flags say how openapi.json maps to TypeScript:
// --default-non-nullable false: a request field with a default stays optional
//   (openapi-typescript's default would make `engine`, `discard` ... required);
// --root-types --root-types-no-schema-prefix: `SolveRequest`, not
//   `components["schemas"]["SolveRequest"]`.
const require = createRequire(import.meta.url);
const cli = join(dirname(require.resolve("openapi-typescript/package.json")), "bin", "cli.js");
execFileSync(process.execPath, [
  cli, openapi,
  "--default-non-nullable", "false",
  "--root-types", "--root-types-no-schema-prefix",
  "--output", join(out, "openapi.ts"),
], { stdio: ["ignore", "ignore", "inherit"] });

execFileSync(process.env.PYTHON || "python3", [
  join(here, "generate_constants.py"), openapi, join(root, "api", "shared", "error_codes.py"),
  join(root, "solver", "play", "words.py"), join(out, "constants.ts"),
], { stdio: "inherit" });

console.log(`wrote ${join(out, "openapi.ts")} and ${join(out, "constants.ts")}`);
