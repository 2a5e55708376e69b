// What the lineage view draws, from the service's answers: an asset view (nodes with
// their side and distance, edges as pairs), a further page merged into it, a column
// view from both directions' column lineage, and the names a node is shown by. Pure
// functions, but for `getJson`, the one way the view asks the service.

const LABEL_CHARS = 26;
const PLACE_CHARS = 34;

export const segment = (id) => encodeURIComponent(id);
export const clip = (text) => (text.length > LABEL_CHARS ? `${text.slice(0, LABEL_CHARS - 1)}…` : text);

export async function getJson(url) {
  const response = await fetch(url, {
    credentials: "same-origin",
    headers: { Accept: "application/json" },
  });
  const body = await response.json().catch(() => ({}));
  if (response.status === 401) window.location.assign(`/login?next=${segment(location.pathname + location.search)}`);
  if (!response.ok) throw new Error(body.detail || `The server answered ${response.status}.`);
  return body;
}

function shortName(assetId) {
  const parts = assetId.split(/[./]/).filter(Boolean);
  return parts.length ? parts[parts.length - 1] : assetId;
}

// Asset lineage as the view draws it: nodes with a signed column, edges as pairs. An
// asset the reader may not see comes as a stand-in (`redacted`): it is drawn in its
// place on the path, named only by the team whose domain holds it.
export function assetView(graph) {
  const nodes = graph.nodes.map((n) => ({
    id: n.id,
    label: n.redacted ? `Hidden · ${n.team ?? "another team"}` : n.name,
    redacted: Boolean(n.redacted),
    asset: n.id,
    type: n.type,
    platform: n.platform,
    dataset: n.dataset ?? null,
    placeholder: n.placeholder,
    distance: n.distance,
    direction: n.direction,
    change: n.change ?? null,
  }));
  const edges = graph.edges.map((e) => ({
    source: e.source, target: e.target, origins: e.origins ?? [], change: e.change ?? null,
  }));
  return {
    nodes, edges, truncated: graph.truncated, compare: graph.compare ?? null,
    // Paging: the next page's cursor (null on the last), and what is left per side.
    nextCursor: graph.next_cursor ?? null, remaining: graph.remaining ?? null,
  };
}

// The next page of a view, added to it: every node once (the first page's answer
// wins), every edge once.
export function merged(view, page) {
  const known = new Set(view.nodes.map((n) => n.id));
  const pairs = new Set(view.edges.map((e) => `${e.source}\u0001${e.target}`));
  return {
    ...view,
    nodes: [...view.nodes, ...page.nodes.filter((n) => !known.has(n.id))],
    edges: [...view.edges, ...page.edges.filter((e) => !pairs.has(`${e.source}\u0001${e.target}`))],
    truncated: page.truncated,
    nextCursor: page.nextCursor,
    remaining: page.remaining,
  };
}

// A placeholder made for a dataset is named by its id (`namespace/db.schema.table`);
// the graph calls it by its table, the second line saying where that lives.
export function displayName(n) {
  return n.placeholder && n.dataset && n.label === n.asset ? shortName(n.dataset.name) : n.label;
}

// The second line a node shows: where the asset lives, its platform (else the scheme
// of its dataset's namespace) and its dataset, leading parts (`db.`) left out to fit.
export function whereabouts(n) {
  const platform = n.platform || n.dataset?.namespace.split(":")[0] || "";
  if (!n.dataset) return platform;
  const name = tail(n.dataset.name, PLACE_CHARS - (platform ? platform.length + 3 : 0));
  return platform ? `${platform} · ${name}` : name;
}

// The longest end of a name that fits in `room` characters, cut after a `.` or `/`
// where one allows (`…schema.table`, `…dir/file`), else mid-part.
function tail(name, room) {
  if (name.length <= room) return name;
  for (let i = 0; i < name.length; i += 1) {
    if ((name[i] === "." || name[i] === "/") && name.length - i <= room) return `…${name.slice(i + 1)}`;
  }
  return `…${name.slice(name.length - room + 1)}`;
}

// Column lineage from both directions, merged into one view of `asset.column` nodes;
// `seen` gives the assets (name, platform, dataset) where the asset view has seen them.
// A column of an asset the reader may not see comes as a stand-in (`redacted`, asset and
// column `redacted:<n>`, numbered per answer): each side's answer numbers its own, so a
// stand-in is named with its side (`redacted:1 (upstream)`), and drawn as 'Hidden · <team>'.
export function columnView(root, column, upstream, downstream, seen) {
  const key = (ref, side) => {
    const plain = `${ref.asset}\u0000${ref.column}`;
    return ref.asset.startsWith("redacted:") ? `${side}\u0000${plain}` : plain;
  };
  const nodes = new Map();
  for (const [side, graph] of [["upstream", upstream], ["downstream", downstream]]) {
    for (const n of graph.nodes) {
      const id = key(n, side);
      const isRoot = n.asset === root && n.column === column;
      const direction = isRoot ? "root" : side;
      const known = nodes.get(id);
      if (!known || n.distance < known.distance) {
        const asset = n.redacted ? undefined : seen.get(n.asset);
        const name = n.redacted ? `Hidden · ${n.team ?? "another team"}` : asset?.name ?? shortName(n.asset);
        nodes.set(id, {
          id, label: n.redacted ? name : `${name}.${n.column}`, name,
          asset: n.redacted ? `${n.asset} (${side})` : n.asset, column: n.column,
          type: "column", redacted: Boolean(n.redacted),
          platform: asset?.platform ?? null, dataset: asset?.dataset ?? null, placeholder: false,
          distance: n.distance, direction,
        });
      }
    }
  }
  const edges = new Map();
  for (const [side, graph] of [["upstream", upstream], ["downstream", downstream]]) {
    for (const e of graph.edges) {
      const pair = { source: key(e.source, side), target: key(e.target, side), origins: null };
      edges.set(`${pair.source}\u0001${pair.target}`, pair);
    }
  }
  return { nodes: [...nodes.values()], edges: [...edges.values()], truncated: false };
}
