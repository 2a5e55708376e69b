/**
 * Reading Server-Sent Events as the HTML standard describes them: lines end in
 * CRLF, LF or CR; `data:` lines join with newlines; `id:` sets the last event id
 * (kept across messages); `retry:` sets the reconnection delay; lines starting
 * with `:` are comments (the service's heartbeats) and are skipped; a blank line
 * ends a message, and a message without data is not one.
 */

import { ConnectionError } from './errors.js';

/** @typedef {{id: string, event: string, data: string}} SSEMessage */

export class SSEParser {
  constructor() {
    /** The reconnection delay the server asked for, in ms, or null. */
    this.retry = null;
    /** The last event id seen (it carries over to later messages). */
    this.lastEventId = '';
    this._pending = '';
    this._afterCR = false;
    this._started = false;
    this._reset();
  }

  /**
   * Feeds decoded text and returns the messages it completed.
   * @param {string} text
   * @returns {SSEMessage[]}
   */
  push(text) {
    let input = text;
    if (!this._started && input.length > 0) {
      this._started = true;
      if (input.charCodeAt(0) === 0xfeff) input = input.slice(1);
    }
    if (this._afterCR && input.startsWith('\n')) input = input.slice(1);
    this._afterCR = false;
    const messages = [];
    let start = 0;
    for (let i = 0; i < input.length; i++) {
      const c = input[i];
      if (c !== '\n' && c !== '\r') continue;
      this._line(this._pending + input.slice(start, i), messages);
      this._pending = '';
      if (c === '\r') {
        if (i + 1 === input.length) this._afterCR = true;
        else if (input[i + 1] === '\n') i++;
      }
      start = i + 1;
    }
    this._pending += input.slice(start);
    return messages;
  }

  /** @private */
  _line(line, messages) {
    if (line === '') {
      this._dispatch(messages);
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this._data.push(value);
    else if (field === 'event') this._event = value;
    else if (field === 'id' && !value.includes('\0')) this.lastEventId = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.retry = Number(value);
  }

  /** @private */
  _dispatch(messages) {
    if (this._data.length > 0) {
      messages.push({ id: this.lastEventId, event: this._event || 'message', data: this._data.join('\n') });
    }
    this._reset();
  }

  /** @private */
  _reset() {
    this._data = [];
    this._event = '';
  }
}

/**
 * The text of a response body, chunk by chunk. A body that stays silent for
 * `idleMs` is closed through `onIdle`; a body that breaks raises a ConnectionError.
 * The idle clock runs only while waiting for the network, not while the caller
 * works on a chunk.
 * @param {ReadableStream<Uint8Array>} body
 * @param {number} idleMs
 * @param {() => void} onIdle
 * @returns {AsyncGenerator<string, void, undefined>}
 */
export async function* readText(body, idleMs, onIdle) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let idle = false;
  let timer;
  try {
    for (;;) {
      timer = setTimeout(() => {
        idle = true;
        onIdle();
      }, idleMs);
      let chunk;
      try {
        chunk = await reader.read();
      } catch (error) {
        const why = idle ? `nothing arrived for ${idleMs} ms` : (error?.message ?? String(error));
        throw new ConnectionError(`the event stream was interrupted: ${why}`, { cause: error });
      } finally {
        clearTimeout(timer);
      }
      if (chunk.done) return;
      yield decoder.decode(chunk.value, { stream: true });
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}
