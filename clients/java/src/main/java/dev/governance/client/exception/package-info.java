/**
 * The unchecked exceptions the client throws; {@link
 * dev.governance.client.exception.GovernanceException} draws the hierarchy.
 */
package dev.governance.client.exception;
