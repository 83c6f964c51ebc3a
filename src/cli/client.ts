// `xpay client list`: the phones and third-party-account watchers that report, and whether each
// is online (seen within the heartbeat_timeout setting).
import type { Command } from "commander";
import pc from "picocolors";
import { clientStates } from "../core/monitor-clients.ts";
import { type Cli, printJson, printTable } from "./context.ts";
import { examples } from "./help.ts";
import { showTime } from "./time.ts";

export function register(program: Command, cli: Cli): void {
  const client = program
    .command("client")
    .description("monitoring clients that report payments")
    .addHelpText("after", examples("xpay client list"));
  client
    .command("list")
    .description("list clients, most recently seen first")
    .addHelpText("after", examples("xpay client list", "xpay client list --json"))
    .option("--json", "print JSON")
    .action(async (o: { json?: boolean }) => {
      const gw = cli.open();
      const rows = (await clientStates(gw)).clients.map((c) => ({
        id: c.id, kind: c.kind, pid: c.pid, name: c.name, channel_id: c.channelId ?? "", ext_data: c.extData,
        // A V免签 client is listed from the moment it is added, before its first heartbeat.
        last_seen: c.lastSeenAt > 0 ? showTime(c.lastSeenAt) : "never", online: c.online,
      }));
      if (o.json) return printJson(rows);
      printTable(
        rows.map((r) => ({ ...r, online: r.online ? pc.green("online") : pc.dim("offline") })),
        ["id", "kind", "pid", "name", "channel_id", "last_seen", "online"],
      );
    });
}
