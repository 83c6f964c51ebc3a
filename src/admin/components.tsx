/** @jsxImportSource @kitajs/html */
// Small pieces every console page uses: a form field with its inline error, notices, the CSRF
// input, times in the operator's time zone, a page heading, keyset paging links. Every text they
// print is escaped (`safe`); attribute values are quoted and escaped by kitajs.
import { type Children, escapeHtml } from "@kitajs/html";
import { formatLocal } from "../core/time.ts";

/**
 * An attribute value from user input. kitajs escapes only `"` in attributes (enough to stay inside
 * the quotes), so `&` would not round-trip and markup-like text would appear in the source: pass
 * such values through attr(), which escapes & < > " ' (kitajs leaves the entities as they are).
 */
export function attr(value: string | undefined | null): string | undefined {
  return value === undefined || value === null ? undefined : escapeHtml(value);
}

export interface FieldProps {
  label: string;
  name: string;
  type?: "text" | "password" | "search" | "number" | "url";
  value?: string;
  /** The inline error under the field; the input is marked aria-invalid. */
  error?: string | null;
  hint?: string;
  autocomplete?: string;
  required?: boolean;
  autofocus?: boolean;
  maxlength?: number;
}

export function Field(p: FieldProps) {
  const id = `f-${p.name}`;
  return (
    <div class="field">
      <label for={id} safe>{p.label}</label>
      <input
        id={id}
        name={p.name}
        type={p.type ?? "text"}
        value={p.type === "password" ? undefined : attr(p.value)}
        autocomplete={p.autocomplete}
        required={p.required}
        autofocus={p.autofocus}
        maxlength={p.maxlength}
        aria-invalid={p.error ? "true" : undefined}
        aria-describedby={p.error ? `${id}-error` : p.hint ? `${id}-hint` : undefined}
      />
      {p.error ? <p class="field-error" id={`${id}-error`} safe>{p.error}</p> : ""}
      {p.hint ? <p class="hint" id={`${id}-hint`} safe>{p.hint}</p> : ""}
    </div>
  );
}

export function Notice(p: { kind: "error" | "ok" | "info" | "warn"; text: string; id?: string }) {
  return <p class={`notice notice-${p.kind}`} id={p.id} role={p.kind === "error" ? "alert" : "status"} safe>{p.text}</p>;
}

/** The session's CSRF token in a plain form (htmx requests send the header from <body hx-headers>). */
export function CsrfInput(p: { csrf: string }) {
  return <input type="hidden" name="_csrf" value={p.csrf} />;
}

/** "2026-11-23 20:15:00" in the operator's zone, the offset in the tooltip; "—" for 0 (never). */
export function Time(p: { at: number; tz: string }) {
  if (!p.at) return <span class="faint">—</span>;
  const full = formatLocal(p.at * 1000, p.tz);
  return <time datetime={new Date(p.at * 1000).toISOString()} title={full} safe>{full.slice(0, 19)}</time>;
}

export function PageHead(p: { title: string; lead?: string; children?: Children }) {
  return (
    <div>
      <div class="page-head">
        <h1 safe>{p.title}</h1>
        {p.children ?? ""}
      </div>
      {p.lead ? <p class="lead" safe>{p.lead}</p> : ""}
    </div>
  );
}

/** Links to the newer and older page; either is absent at the ends. */
export function Pager(p: { newer?: string | null; older?: string | null; newerLabel: string; olderLabel: string }) {
  if (!p.newer && !p.older) return "";
  return (
    <nav class="pager" aria-label="pages">
      {p.newer ? <a href={p.newer} rel="prev" class="btn btn-small" safe>{p.newerLabel}</a> : <span></span>}
      {p.older ? <a href={p.older} rel="next" class="btn btn-small" safe>{p.olderLabel}</a> : <span></span>}
    </nav>
  );
}
