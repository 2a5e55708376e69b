// The live event feed: Server-Sent Events from /ui/events/stream (the session cookie
// authenticates it), newest first. EventSource resumes after a dropped connection by
// itself, sending the last seen id as Last-Event-ID, so no event is lost or doubled.
const MAX_ITEMS = 500;
const TYPES = [
  "asset.created", "asset.updated", "asset.deleted", "asset.merged",
  "lineage.edge.created", "lineage.edge.deleted", "lineage.bulk.ingested", "lineage.manifest.ingested",
  "policy.created", "policy.updated", "policy.deleted",
  "policy.violation.opened", "policy.violation.resolved",
  "quality.rule.created", "quality.rule.updated", "quality.rule.deleted",
  "quality.result.recorded", "quality.rule.failed", "quality.rule.recovered",
  "token.created", "token.revoked", "webhook.disabled",
];

const when = (stamp) => `${stamp.slice(0, 10)} ${stamp.slice(11, 16)} UTC`;

// One line naming what the event is about, and the asset it concerns (for a link).
function describe(event) {
  const d = event.data && typeof event.data === "object" ? event.data : {};
  if (event.type.startsWith("lineage.edge.")) return [`${d.source} → ${d.target}`, null];
  if (event.type.startsWith("policy.violation.")) {
    return [`${d.asset_id} breaks ${d.policy_id}: ${d.reason || ""}`, d.asset_id];
  }
  if (event.type.startsWith("quality.rule.") && d.rule_id) {
    const count = d.impact?.downstream_count;
    return [`${d.rule_id} on ${d.asset_id}${count ? ` (${count} downstream)` : ""}`, d.asset_id];
  }
  if (event.type === "quality.result.recorded") return [`${d.rule_id}: ${d.result?.status || ""}`, null];
  if (event.type === "lineage.manifest.ingested") return [`${d.project}: ${d.edges?.created ?? 0} new edges`, null];
  if (event.type === "lineage.bulk.ingested" && d.origin) {
    return [`${d.origin}: ${d.edges?.created ?? 0} new edges`, null];
  }
  if (event.type === "lineage.bulk.ingested") return [`${d.received} edges received, ${d.created} new`, null];
  if (event.type === "asset.merged") return [`${d.from} merged into ${d.into}`, d.into];
  if (event.type.startsWith("asset.") && event.type !== "asset.deleted") return [d.id, d.id];
  return [String(d.name || d.id || d.webhook_id || ""), null];
}

function span(className, text) {
  const element = document.createElement("span");
  element.className = className;
  element.textContent = text;
  return element;
}

function item(event) {
  const li = document.createElement("li");
  li.className = "event";
  li.dataset.seq = String(event.seq);
  const time = document.createElement("time");
  time.dateTime = event.occurred_at;
  time.textContent = when(event.occurred_at);
  li.append(time, span("event-type", event.type));
  if (event.alert) {
    const severity = event.severity || "medium";
    li.classList.add("alert", `sev-${severity}`);
    li.append(span(`badge sev-${severity}`, "alert"));
  }
  const [line, asset] = describe(event);
  const summary = span("event-summary", "");
  if (asset) {
    const link = document.createElement("a");
    link.href = `/assets/${encodeURIComponent(asset)}`;
    link.textContent = line;
    summary.append(link);
  } else {
    summary.textContent = line;
  }
  li.append(summary, span("event-actor", event.actor));
  return li;
}

function follow(feed) {
  const status = document.querySelector("[data-event-status]");
  const empty = document.querySelector("[data-event-empty]");
  const source = new EventSource(`/ui/events/stream?after=${Number(feed.dataset.after) || 0}`);
  const show = (message) => {
    const event = JSON.parse(message.data);
    if (feed.querySelector(`li[data-seq="${event.seq}"]`)) return;
    feed.prepend(item(event));
    empty?.remove();
    while (feed.children.length > MAX_ITEMS) feed.lastElementChild.remove();
  };
  for (const type of TYPES) source.addEventListener(type, show);
  source.onopen = () => {
    status.textContent = "Live";
    feed.dataset.eventFeedReady = "true";
  };
  source.onerror = () => {
    status.textContent = source.readyState === EventSource.CLOSED ? "Disconnected: reload the page" : "Reconnecting…";
  };
}

for (const feed of document.querySelectorAll("[data-event-feed]")) follow(feed);
