/**
 * Request and response bodies as immutable records. Responses ignore fields they do not know
 * (the v1 API grows only by addition); request records leave null fields out of the JSON.
 */
package dev.governance.client.model;
