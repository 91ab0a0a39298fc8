// @ts-check
/**
 * A transfer's live document as Server-Sent Events: `EventSource` with the session cookie, or
 * `fetch` with a bearer token (which `EventSource` cannot send).
 * @module
 */
import { CountersignError, errorFrom, safeParse } from './errors.js';

/** @typedef {import('./types.js').TransferDocument} TransferDocument */
/** @typedef {import('./client.js').Countersign} Countersign */

/** Final transfer statuses: the stream ends after one of these. */
export const FINAL_TRANSFER_STATUSES = Object.freeze(['SUCCESS', 'FAILED', 'DECLINED', 'EXPIRED', 'CANCELLED']);

/**
 * Watches a transfer's live document. `onDocument` gets every version (in order); the stream
 * ends by itself after a final status. Returns a function that stops watching.
 * With the session cookie this is an `EventSource`; with a bearer token (which `EventSource`
 * cannot send) it reads the stream with `fetch`.
 * @param {Countersign} client
 * @param {string} id
 * @param {(doc: TransferDocument) => void} onDocument
 * @param {{onError?: (error: unknown) => void}} opts
 * @returns {() => void}
 */
export function watchTransfer(client, id, onDocument, { onError } = {}) {
  const path = `/transfers/${encodeURIComponent(id)}/events`;
  let lastSequence = 0;
  /** @param {string} data */
  const deliver = (data) => {
    /** @type {TransferDocument} */
    let doc;
    try {
      doc = JSON.parse(data);
    } catch (error) {
      onError?.(error);
      return false;
    }
    if (typeof doc.sequence === 'number' && doc.sequence <= lastSequence) return false;
    lastSequence = doc.sequence ?? lastSequence;
    onDocument(doc);
    return FINAL_TRANSFER_STATUSES.includes(doc.status);
  };
  if (!client.token && typeof EventSource !== 'undefined') {
    const source = new EventSource(client.url(path), { withCredentials: client.crossOrigin });
    /** @param {MessageEvent} event */
    const handler = (event) => {
      if (deliver(event.data)) source.close();
    };
    source.onmessage = handler;
    source.addEventListener('transfer', handler); // servers that still name their events
    source.onerror = () => {
      // EventSource reconnects by itself; CLOSED means the server ended it for good (204, 401, 404).
      if (source.readyState === EventSource.CLOSED) onError?.(new CountersignError(0, 'stream_closed', 'The live updates stopped.'));
    };
    return () => source.close();
  }
  const controller = new AbortController();
  readStream(client, path, () => lastSequence, deliver, controller.signal).catch((error) => {
    if (!controller.signal.aborted) onError?.(error);
  });
  return () => controller.abort();
}

/**
 * Server-Sent Events over fetch, for bearer tokens; reconnects with Last-Event-ID until final.
 * @param {Countersign} client
 * @param {string} path
 * @param {() => number} last
 * @param {(data: string) => boolean} deliver returns true when the document is final
 * @param {AbortSignal} signal
 */
async function readStream(client, path, last, deliver, signal) {
  for (let attempt = 0; attempt < 100 && !signal.aborted; attempt++) {
    /** @type {Record<string, string>} */
    const headers = { Accept: 'text/event-stream' };
    if (client.token) headers.Authorization = `Bearer ${client.token}`;
    if (last() > 0) headers['Last-Event-ID'] = String(last());
    const response = await client.fetch(client.url(path), {
      headers, signal, credentials: client.crossOrigin ? 'include' : 'same-origin', cache: 'no-store',
    });
    if (response.status === 204) return;
    if (!response.ok || !response.body) {
      const text = await response.text();
      throw errorFrom(response, text ? safeParse(text) : null);
    }
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value.replace(/\r\n?/g, '\n');
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block.split('\n').filter((l) => l.startsWith('data:'))
          .map((l) => l.slice(5).replace(/^ /, '')).join('\n');
        if (data && deliver(data)) {
          await reader.cancel().catch(() => {});
          return;
        }
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}
