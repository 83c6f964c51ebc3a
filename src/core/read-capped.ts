// Reading an answer from a server we do not control (a merchant's notify endpoint, an alert
// channel's vendor): one that streams forever must not exhaust memory, so stop after `max` bytes
// and cancel the rest.

/** Everything the outbound senders keep of an answer: 64 KiB is far more than any acknowledgement. */
export const MAX_READ = 64 * 1024;

/** At most `max` bytes of the body; the stream is cancelled once that much has arrived. */
export async function readCapped(res: Response, max = MAX_READ): Promise<Uint8Array> {
  if (!res.body) return new Uint8Array();
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < max) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
  }
  await reader.cancel().catch(() => {});
  return Buffer.concat(chunks).subarray(0, max);
}
