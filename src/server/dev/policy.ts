// The test-mode banner is an inline <style> added to pages the app made, under each page's own
// Content-Security-Policy. This finds the nonce a page already allows for styles, or adds a fresh
// one to the directive that governs <style> elements, so the banner is styled on every page (the
// cashier's nonce policy, the error pages' 'unsafe-inline', the console's 'self') and nothing
// else the page may load changes. Only `xpay dev` answers pass through here.
import { randomBytes } from "node:crypto";

const NONCE = /'nonce-([A-Za-z0-9+/=_-]+)'/;

/** The nonce a page's policy allows for `directive` (style-src, script-src), if it uses one. */
export function policyNonce(policy: string | null, directive: "style-src" | "script-src"): string | null {
  if (!policy) return null;
  const rule = policy.split(";").map((d) => d.trim()).find((d) => d.startsWith(`${directive} `));
  return rule ? (NONCE.exec(rule)?.[1] ?? null) : null;
}

/** The policy to send and the nonce for the banner's <style> (null: a plain <style> is allowed). */
export function allowInlineStyle(policy: string | null, fresh = () => randomBytes(16).toString("base64")): { policy: string | null; nonce: string | null } {
  if (!policy) return { policy, nonce: null };
  const directives = policy.split(";").map((d) => d.trim()).filter(Boolean);
  const named = (name: string) => directives.findIndex((d) => d === name || d.startsWith(`${name} `));
  // <style> elements follow style-src-elem, else style-src, else default-src.
  let at = named("style-src-elem");
  if (at < 0) at = named("style-src");
  let rule: string;
  if (at >= 0) rule = directives[at]!;
  else {
    const fallback = named("default-src");
    if (fallback < 0) return { policy, nonce: null }; // nothing restricts styles
    rule = `style-src ${directives[fallback]!.slice("default-src".length).trim()}`.replace(/\s*'none'/, "");
    at = directives.push(rule) - 1;
  }
  const existing = NONCE.exec(rule)?.[1];
  if (existing) return { policy: directives.join("; "), nonce: existing };
  // A nonce would switch 'unsafe-inline' off for the page's own inline styles: keep it as it is.
  if (rule.includes("'unsafe-inline'") && !/'sha(256|384|512)-/.test(rule)) return { policy, nonce: null };
  const nonce = fresh();
  directives[at] = `${rule} 'nonce-${nonce}'`;
  return { policy: directives.join("; "), nonce };
}
