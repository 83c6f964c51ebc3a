import type { Command } from "commander";
import pc from "picocolors";
import { CLI_ACTOR } from "../core/admin/audit.ts";
import { newMerchantKeys } from "../core/merchant-keys.ts";
import { pemToBase64 } from "../protocols/signing.ts";
import { type Cli, CliError, printJson, requireInt } from "./context.ts";
import { examples } from "./help.ts";

export function register(program: Command, cli: Cli): void {
  program
    .command("keygen")
    .description("new epay V2 merchant key pair for a merchant (the private key is printed once, never stored)")
    .addHelpText("after", examples("xpay keygen --pid 1001", "xpay keygen --pid 1001 --force --json   # replaces its keys: the old private key stops working"))
    .requiredOption("--pid <pid>", "merchant id")
    .option("--force", "replace the merchant's V2 keys; its current private key stops working")
    .option("--json", "print JSON")
    .action(async (o: { pid: string; force?: boolean; json?: boolean }) => {
      const pid = requireInt("--pid", o.pid, { min: 1 });
      const r = await newMerchantKeys(cli.open(), CLI_ACTOR, pid, { replace: o.force === true });
      if (r.kind === "not_found") throw new CliError(`no merchant with pid ${pid}`);
      if (r.kind === "has_keys") {
        throw new CliError(`merchant ${pid} has V2 keys already; a new pair makes its current private key stop working: run again with --force to replace them`);
      }
      const pair = { privateKey: r.privateKey, publicKey: r.publicKey };
      const platform = { publicKey: r.platformPublicKey };
      const out = { merchant_private_key: pair.privateKey, merchant_public_key: pair.publicKey, platform_public_key: platform.publicKey };
      if (o.json) return printJson(out);
      if (r.replaced) console.log(pc.yellow(`the previous key pair of merchant ${pid} no longer works; give the merchant the new private key`));
      console.log(pc.bold(`V2 keys for merchant ${pid}`) + pc.dim("  (SDKs that take bare Base64 use the one-line forms)"));
      console.log(pc.yellow("merchant private key (shown once; xpay keeps only the public key):"));
      console.log(pair.privateKey + pemToBase64(pair.privateKey) + "\n");
      console.log(pc.yellow("merchant public key:"));
      console.log(pair.publicKey + pemToBase64(pair.publicKey) + "\n");
      console.log(pc.yellow("platform public key (verifies xpay's responses and notifications):"));
      console.log(platform.publicKey + pemToBase64(platform.publicKey));
    });
}
