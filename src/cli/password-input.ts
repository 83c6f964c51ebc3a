// Reading an operator's password: never from argv (it would sit in the shell history and in `ps`).
// Either piped with --password-stdin (one line; the trailing newline dropped, as `docker login`
// does), or typed at a terminal prompt twice without echo. Stdin that is not a terminal and no
// --password-stdin is refused: a script would otherwise hang on a prompt nobody sees.
import { CliError } from "./errors.ts";

/** Everything on stdin, less one trailing newline. */
export async function passwordFromStdin(): Promise<string> {
  const text = (await Bun.stdin.text()).replace(/\r?\n$/, "");
  if (text === "") throw new CliError("--password-stdin: nothing on stdin; pipe the password, e.g. printf '%s\\n' \"$PASSWORD\" | xpay admin add --user NAME --password-stdin");
  if (/[\r\n]/.test(text)) throw new CliError("--password-stdin: the password must be one line");
  return text;
}

/** One line typed at the terminal, shown as nothing; Ctrl-C aborts (exit 130). */
export function promptHidden(question: string): Promise<string> {
  const stdin = process.stdin;
  // Echo off before the prompt shows: whatever is typed (or pasted) once it is on screen is
  // never echoed, however the process is scheduled between the two.
  stdin.setRawMode(true);
  process.stderr.write(question);
  return new Promise((resolve, reject) => {
    let typed = "";
    const done = (error?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off("data", onData);
      process.stderr.write("\n");
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: Buffer) => {
      for (const ch of chunk.toString("utf8")) {
        if (ch === "\r" || ch === "\n") return done();
        if (ch === "\u0003") {
          done(new CliError("aborted"));
          process.exit(130);
        }
        if (ch === "\u0004" && typed === "") return done(new CliError("aborted: no password typed"));
        if (ch === "\u007f" || ch === "\b") typed = [...typed].slice(0, -1).join("");
        else if (ch >= " ") typed += ch;
      }
    };
    stdin.resume();
    stdin.on("data", onData);
  });
}

/** The new password: from stdin, or typed twice at a terminal. */
export async function readNewPassword(o: { stdin?: boolean; user: string }): Promise<string> {
  if (o.stdin) return passwordFromStdin();
  if (!process.stdin.isTTY) {
    throw new CliError("stdin is not a terminal: pipe the password with --password-stdin (it is never taken from the command line)");
  }
  const first = await promptHidden(`New password for ${o.user}: `);
  const second = await promptHidden("Repeat it: ");
  if (first !== second) throw new CliError("the two passwords differ; nothing was changed");
  return first;
}
