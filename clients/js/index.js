/**
 * @governance/client: the Node.js client of the data governance service.
 *
 *     import { GovernanceClient } from '@governance/client';
 *     const client = new GovernanceClient(); // GOVERNANCE_URL, GOVERNANCE_TOKEN
 *
 * Which method serves which operation of the service's API is listed in
 * operations.json (operationId -> member path on the client).
 */

export {
  GovernanceClient,
  VERSION,
  DEFAULT_BASE_URL,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
} from './src/client.js';
export { APIPromise } from './src/api-promise.js';
export { DEFAULT_RECONNECT_MS } from './src/event-stream.js';
export {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  DomainForbiddenError,
  GovernanceError,
  NotFoundError,
  PermissionError,
  PreconditionFailedError,
  RateLimitedError,
  ServerError,
  TimeoutError,
  UnavailableError,
  ValidationError,
  WebhookVerificationError,
  errorClassFor,
  errorKind,
} from './src/errors.js';
export { MAX_BULK_EDGES, chunks, chunksOf } from './src/chunks.js';
export { parseRetryAfter, retryDelayMs, shouldRetry } from './src/retry.js';
export { verifyWebhook } from './src/webhooks.js';
export { buildQuery, encodeSegment, normalizeBaseURL } from './src/url.js';
export { GovernanceClient as default } from './src/client.js';
