// The Ingest page's "Check impact": the chosen manifest goes to /ui/impact/manifest (which
// writes nothing) and the report is drawn beside the form, so the file stays chosen for
// Upload. Everything shown is set as text, never parsed as HTML.

const form = document.querySelector("form[action='/ingest']");
const button = form?.querySelector("[data-impact-check]");
const report = document.querySelector("[data-impact-report]");
const csrf = document.querySelector("meta[name='csrf-token']")?.content ?? "";

function element(tag, text, className) {
  const made = document.createElement(tag);
  if (text !== undefined && text !== null) made.textContent = text;
  if (className) made.className = className;
  return made;
}

function code(text) {
  return element("code", text);
}

function table(caption, headings, rows, testId) {
  const made = element("table", null, "data-table");
  made.dataset.testid = testId;
  made.append(element("caption", caption));
  const head = element("thead");
  const line = element("tr");
  for (const heading of headings) {
    const th = element("th", heading);
    th.scope = "col";
    line.append(th);
  }
  head.append(line);
  const body = element("tbody");
  body.append(...rows);
  made.append(head, body);
  return made;
}

function row(cells, className) {
  const tr = element("tr", null, className);
  for (const cell of cells) {
    const td = element("td");
    td.append(cell ?? "—");
    tr.append(td);
  }
  return tr;
}

// An asset the caller may not read is a stand-in: 'Hidden · <owning team>', no link.
function assetCell(item) {
  if (item.redacted) return element("span", `Hidden · ${item.team ?? "unknown team"}`, "redacted muted");
  return assetLink(item.asset);
}

function assetLink(id) {
  const link = element("a", null, "asset-name");
  link.href = `/assets/${encodeURIComponent(id)}`;
  link.append(code(id));
  return link;
}

// "int → bigint", "— → table": a change's stored and candidate values.
function fromTo(change) {
  if (change.from == null && change.to == null) return null;
  const span = element("span", null, "from-to");
  span.append(change.from == null ? "—" : code(change.from), " → ", change.to == null ? "—" : code(change.to));
  return span;
}

function breakingBadge(change) {
  return change.breaking ? element("span", "⚠ breaking", "badge change-breaking") : element("span", "no", "muted");
}

// Breaking changes first, each group in the order the service gave.
function changesTable(changes) {
  const ordered = [...changes.filter((c) => c.breaking), ...changes.filter((c) => !c.breaking)];
  const rows = ordered.map((c) =>
    row([code(c.kind), assetCell(c), c.column ? code(c.column) : null, fromTo(c), breakingBadge(c)],
      c.breaking ? "row-bad" : ""));
  return table("What the candidate changes, against the project as stored", ["Change", "Asset", "Column", "Stored → candidate", "Breaking"], rows, "impact-changes");
}

function impactedTable(impacted) {
  const rows = impacted.map((i) => {
    const path = element("span", i.via.join(" → "), "impact-path");
    return row([assetCell(i), i.column ? code(i.column) : null, String(i.distance), i.owners.length ? i.owners.join(", ") : null, path]);
  });
  return table("Downstream assets reading what a breaking change touches, nearest first", ["Asset", "Column", "Distance", "Owners", "Path"], rows, "impact-impacted");
}

function verdict(result) {
  const breaking = result.changes.filter((c) => c.breaking).length;
  const line = element("p", null, "impact-verdict");
  line.append(
    result.breaking ? element("span", "⚠ Breaking", "badge change-breaking") : element("span", "✓ No breaking change", "badge status-passing"),
    ` ${result.changes.length} ${result.changes.length === 1 ? "change" : "changes"} (${breaking} breaking), `,
    `${result.impacted.length} downstream ${result.impacted.length === 1 ? "asset" : "assets"} impacted, within ${result.depth} hops. Nothing was written.`,
  );
  return line;
}

function show(result, filename) {
  report.querySelector("[data-impact-title]").textContent = `Change impact of ${filename} on ${result.project}`;
  const body = report.querySelector("[data-impact-body]");
  const parts = [verdict(result)];
  parts.push(result.changes.length ? changesTable(result.changes) : element("p", "The candidate changes nothing the project stores.", "muted"));
  if (result.impacted.length) parts.push(impactedTable(result.impacted));
  else if (result.breaking) parts.push(element("p", "Nothing downstream reads what the breaking changes touch.", "muted"));
  body.replaceChildren(...parts);
}

function refused(problem, status) {
  const box = element("div", null, "flash flash-error");
  box.setAttribute("role", "alert");
  box.append(element("p", problem.detail || `The service answered ${status}.`, "flash-title"));
  const errors = (problem.errors || []).slice(0, 10).map((e) => element("li", e.msg));
  if (errors.length) {
    const list = element("ul");
    list.append(...errors);
    box.append(list);
  }
  report.querySelector("[data-impact-title]").textContent = "Change impact";
  report.querySelector("[data-impact-body]").replaceChildren(box);
}

async function check() {
  const file = form.elements.file.files[0];
  report.hidden = false;
  const status = report.querySelector("[data-impact-status]");
  if (!file) {
    refused({ detail: "Choose a manifest.json file to check." }, 0);
    status.textContent = "";
    return;
  }
  const namespace = form.elements.namespace.value.trim();
  const query = namespace ? `?namespace=${encodeURIComponent(namespace)}` : "";
  const data = new FormData();
  data.append("file", file);
  button.disabled = true;
  status.textContent = `Checking ${file.name}…`;
  report.dataset.impactReady = "false";
  try {
    const response = await fetch(`/ui/impact/manifest${query}`, {
      method: "POST",
      body: data,
      credentials: "same-origin",
      headers: { Accept: "application/json", "X-CSRF-Token": csrf },
    });
    const answer = await response.json().catch(() => ({}));
    if (response.status === 401) window.location.assign(`/login?next=${encodeURIComponent(location.pathname)}`);
    if (response.ok) show(answer, file.name);
    else refused(answer, response.status);
    const found = answer.breaking ? "breaking changes found" : "no breaking change";
    status.textContent = response.ok ? `Checked ${file.name}: ${found}.` : "";
    report.scrollIntoView({ block: "nearest" });
  } catch {
    refused({ detail: "The service could not be reached. Try again in a moment." }, 0);
    status.textContent = "";
  } finally {
    button.disabled = false;
    report.dataset.impactReady = "true";
  }
}

button?.addEventListener("click", check);
