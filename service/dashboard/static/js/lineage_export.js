// The lineage page's Export menu. The four file formats are the API's export behind the
// session (`/ui/lineage/{id}/export`): their links are refreshed from the view shown
// (the graph script changes depth, direction and moment without reloading). SVG and
// PNG are pictures of the graph as drawn, read from the cytoscape instance the graph
// script leaves in `window.governanceLineage`: PNG by cytoscape's own `cy.png()`, SVG
// written here from the drawn positions, sizes, colours and labels (no library: the
// one on npm, cytoscape-svg, is GPL-3.0, which this Apache-2.0 service cannot ship).

const SVG_NS = "http://www.w3.org/2000/svg";
const PAD = 24;

const segment = (value) => encodeURIComponent(value);

function xml(text) {
  return String(text).replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function fileStem(root) {
  const stem = root.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^[._]+|[._]+$/g, "").slice(0, 100);
  return `lineage-${stem || "asset"}`;
}

// The view shown now: the page's address holds what the graph script last drew.
function viewParams(section) {
  const shown = new URL(window.location.href).searchParams;
  const params = new URLSearchParams();
  params.set("depth", shown.get("depth") || section.dataset.depth || "5");
  params.set("direction", shown.get("direction") || section.dataset.direction || "both");
  const asOf = shown.get("as_of") || section.dataset.asOf;
  if (asOf) params.set("as_of", asOf.endsWith("Z") || /[+-]\d\d:\d\d$/.test(asOf) ? asOf : `${asOf}Z`);
  return params;
}

// The asset shown now: the graph script moves to another asset by changing the address.
function rootOf(section) {
  const match = window.location.pathname.match(/^\/lineage\/([^/]+)$/);
  return match ? decodeURIComponent(match[1]) : section.dataset.root;
}

function save(blob, name) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

function labelLines(element) {
  const label = element.data("label") ?? element.data("text") ?? element.id();
  return String(label).split("\n");
}

function nodeSvg(node) {
  const { x, y } = node.position();
  const width = node.outerWidth();
  const height = node.outerHeight();
  const lines = labelLines(node);
  const round = String(node.style("shape")).includes("round") ? ' rx="6"' : "";
  const dashed = node.style("border-style") === "dashed" ? ' stroke-dasharray="5 3"' : "";
  const box = `<rect x="${x - width / 2}" y="${y - height / 2}" width="${width}" height="${height}"${round} fill="${xml(node.style("background-color"))}" stroke="${xml(node.style("border-color"))}" stroke-width="${parseFloat(node.style("border-width")) || 1}"${dashed}/>`;
  const size = parseFloat(node.style("font-size")) || 12;
  const top = node.isParent() ? y - height / 2 + size + 4 : y - ((lines.length - 1) * size * 1.2) / 2 + size / 3;
  const spans = lines
    .map((line, i) => `<tspan x="${x}" y="${top + i * size * 1.2}">${xml(line)}</tspan>`)
    .join("");
  const text = `<text text-anchor="middle" font-family="Helvetica, Arial, sans-serif" font-size="${size}" fill="${xml(node.style("color"))}">${spans}</text>`;
  return `<g class="node" data-id="${xml(node.id())}">${box}${text}</g>`;
}

function edgeSvg(edge) {
  const from = edge.sourceEndpoint();
  const to = edge.targetEndpoint();
  const colour = xml(edge.style("line-color"));
  const dashed = edge.style("line-style") === "dashed" ? ' stroke-dasharray="6 4"' : "";
  return `<line class="edge" x1="${from.x}" y1="${from.y}" x2="${to.x}" y2="${to.y}" stroke="${colour}" stroke-width="${parseFloat(edge.style("width")) || 1}"${dashed} marker-end="url(#arrow)"/>`;
}

// The drawn graph as an SVG document: groups first (they hold their members), then
// edges, then the assets, each with its label; the whole graph, not only what is in view.
export function svgOf(cy) {
  const shown = cy.elements(":visible");
  const box = shown.boundingBox({ includeLabels: true });
  const width = Math.ceil(box.w + 2 * PAD);
  const height = Math.ceil(box.h + 2 * PAD);
  const nodes = shown.nodes();
  const parts = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<svg xmlns="${SVG_NS}" width="${width}" height="${height}" viewBox="${box.x1 - PAD} ${box.y1 - PAD} ${width} ${height}">`,
    `<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#64748b"/></marker></defs>`,
    `<rect x="${box.x1 - PAD}" y="${box.y1 - PAD}" width="${width}" height="${height}" fill="#ffffff"/>`,
    ...nodes.filter((n) => n.isParent()).map(nodeSvg),
    ...shown.edges().map(edgeSvg),
    ...nodes.filter((n) => !n.isParent()).map(nodeSvg),
    `</svg>`,
  ];
  return parts.join("\n") + "\n";
}

function picture(kind, section, status) {
  const cy = window.governanceLineage;
  if (!cy || cy.elements().empty()) {
    status.textContent = "The graph is not drawn yet; try again in a moment.";
    return;
  }
  const name = `${fileStem(rootOf(section))}.${kind}`;
  if (kind === "svg") {
    save(new Blob([svgOf(cy)], { type: "image/svg+xml" }), name);
  } else {
    save(cy.png({ output: "blob", full: true, scale: 2, bg: "#ffffff" }), name);
  }
  status.textContent = `Saved ${name}.`;
}

function start() {
  const menu = document.querySelector("[data-lineage-export]");
  const section = document.querySelector("[data-lineage]");
  if (!menu || !section) return;
  const status = menu.querySelector("[data-lineage-export-status]");
  for (const link of menu.querySelectorAll("a[data-export-format]")) {
    const refresh = () => {
      const params = viewParams(section);
      params.set("format", link.dataset.exportFormat);
      link.href = `/ui/lineage/${segment(rootOf(section))}/export?${params}`;
    };
    link.addEventListener("pointerdown", refresh);
    link.addEventListener("focus", refresh);
    link.addEventListener("click", refresh);
  }
  for (const button of menu.querySelectorAll("button[data-export-picture]")) {
    button.hidden = false;
    button.addEventListener("click", () => picture(button.dataset.exportPicture, section, status));
  }
}

start();
