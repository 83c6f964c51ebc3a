// npm run build: compiles the CLI, its migrations and the cashier assets into one executable,
// dist/xpay, that needs nothing beside it but its database file.
import { mkdirSync } from "node:fs";
import pkg from "../package.json";

// Worker threads are entry points of their own in a compiled executable.
const WORKERS = ["src/store/sqlite/checkpoint-worker.ts", "src/store/sqlite/check-worker.ts"];

mkdirSync("dist", { recursive: true });
const target = process.env.XPAY_TARGET; // e.g. bun-linux-arm64 for another platform
const result = Bun.spawnSync(
  [process.execPath, "build", "--compile", "--minify", "--sourcemap=none", ...(target ? [`--target=${target}`] : []), "src/cli/main.ts", ...WORKERS, "--outfile", "dist/xpay"],
  { stdout: "inherit", stderr: "inherit" },
);
if (result.exitCode !== 0) {
  console.error("build failed");
  process.exit(result.exitCode ?? 1);
}
console.log(`built dist/xpay ${pkg.version}`);
