// `GET /lineage/{id}/export`: an asset's lineage neighbourhood as a file. Kept
// beside `lineage.js`, whose `export` method calls it, as it alone reads a
// file's text and its headers rather than a JSON body.

import { APIPromise } from '../api-promise.js';
import { encodeSegment } from '../url.js';

/** What the service answers in for each format, asked for as `Accept`. */
const MEDIA_TYPES = {
  openlineage: 'application/json',
  dot: 'text/vnd.graphviz',
  mermaid: 'text/vnd.mermaid',
  csv: 'text/csv',
};

/**
 * The export of `id` in `params.format` (with `direction`, `depth`, `limit`,
 * `as_of`) as `{text, filename, truncated}`.
 * @param {import('../client.js').GovernanceClient} client
 */
export function exportLineage(client, id, params, options = {}) {
  if (!params?.format) {
    throw new TypeError('export needs a `format`: openlineage, dot, mermaid or csv');
  }
  const mediaType = MEDIA_TYPES[params.format];
  const sent = client
    .request({
      ...options,
      method: 'GET',
      path: `/lineage/${encodeSegment(id)}/export`,
      query: params,
      responseType: 'text',
      headers: { accept: mediaType ? `${mediaType}, application/problem+json` : '*/*', ...(options.headers ?? {}) },
    })
    .withResponse()
    .then((answer) => ({
      ...answer,
      data: {
        text: answer.data,
        filename: attachmentName(answer.headers.get('content-disposition')),
        truncated: answer.headers.get('lineage-truncated') === 'true',
      },
    }));
  return new APIPromise(sent);
}

/**
 * The file name a `Content-Disposition` value gives, as RFC 6266 reads it:
 * `filename*` (UTF-8, percent-encoded) where given, else `filename`; null
 * when there is none.
 * @param {string | null} disposition
 */
export function attachmentName(disposition) {
  if (!disposition) return null;
  const extended = /(?:^|;)\s*filename\*\s*=\s*UTF-8'[^']*'([^;\s]+)/i.exec(disposition);
  if (extended) {
    try {
      return decodeURIComponent(extended[1]);
    } catch {
      // a broken percent-encoding: the plain filename, if any, still names the file
    }
  }
  const plain = /(?:^|;)\s*filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i.exec(disposition);
  if (!plain) return null;
  return plain[1] !== undefined ? plain[1].replace(/\\(.)/g, '$1') : plain[2];
}
