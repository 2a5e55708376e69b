/**
 * Java client for the Data Governance Service REST API (v1).
 *
 * <p>Start with {@link dev.governance.client.GovernanceClient#builder()}; the services
 * {@link dev.governance.client.AssetsService}, {@link dev.governance.client.LineageService},
 * {@link dev.governance.client.PoliciesService}, {@link dev.governance.client.QualityService},
 * {@link dev.governance.client.QueryService}, {@link dev.governance.client.EventsService},
 * {@link dev.governance.client.WebhooksService}, {@link dev.governance.client.TokensService} and
 * {@link dev.governance.client.UsersService} hang off the client. Collections come back as
 * auto-paging {@link dev.governance.client.PagedIterable}s, the live event stream as an
 * {@link dev.governance.client.EventStream}; failures as subclasses of
 * {@link dev.governance.client.exception.GovernanceException}. Every operation has a
 * {@code ...WithResponse} form taking {@link dev.governance.client.RequestOptions} and answering a
 * {@link dev.governance.client.Response} with the status and headers. The HTTP layer is a
 * swappable {@link dev.governance.client.Transport}; {@link dev.governance.client.Webhooks}
 * verifies webhook deliveries.
 */
package dev.governance.client;
