/**
 * Java client for the Data Governance Service REST API (v1).
 *
 * <p>Start with {@link dev.governance.client.GovernanceClient#builder()}; the services
 * {@link dev.governance.client.AssetsService}, {@link dev.governance.client.LineageService},
 * {@link dev.governance.client.PoliciesService}, {@link dev.governance.client.QualityService},
 * {@link dev.governance.client.QueryService}, {@link dev.governance.client.EventsService} and
 * {@link dev.governance.client.TokensService} hang off the client. Collections come back as
 * auto-paging {@link dev.governance.client.PagedIterable}s; failures as subclasses of
 * {@link dev.governance.client.exception.GovernanceException}; the HTTP layer is a swappable
 * {@link dev.governance.client.Transport}.
 */
package dev.governance.client;
