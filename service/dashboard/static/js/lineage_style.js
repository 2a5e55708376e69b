// How the lineage graph looks: cytoscape's stylesheet for assets, groups, frames and
// edges, a compared view's added and removed marks, and the highlight of a path.

const COLORS = {
  root: "#3b5bdb", upstream: "#e7ecfd", downstream: "#e3f4ea",
  added: "#1e7a46", removed: "#b42323", removedFill: "#fdf0f0",
};

export function style() {
  return [
    {
      selector: "node",
      style: {
        shape: "round-rectangle",
        width: 230,
        height: 34,
        label: "data(label)",
        "font-size": 12,
        "text-valign": "center",
        "text-halign": "center",
        "text-wrap": "wrap",
        "text-max-width": 224,
        "line-height": 1.35,
        "min-zoomed-font-size": 7,
        color: "#1d2330",
        "background-color": "#eef0f4",
        "border-width": 1,
        "border-color": "#9aa4b5",
      },
    },
    { selector: "node.two-line", style: { height: 46, "font-size": 11.5 } },
    { selector: "node.upstream", style: { "background-color": COLORS.upstream } },
    { selector: "node.downstream", style: { "background-color": COLORS.downstream } },
    { selector: "node.root", style: { "background-color": COLORS.root,  color: "#ffffff", "border-color": "#2f4ac0", "font-weight": 700 } },
    { selector: "node.placeholder", style: { "border-style": "dashed", "background-color": "#f5f6f8", color: "#5a6372" } },
    {
      selector: "edge",
      style: {
        width: 1.3,
        "curve-style": "straight",
        "target-arrow-shape": "triangle",
        "arrow-scale": 0.8,
        "line-color": "#a9b1bf",
        "target-arrow-color": "#a9b1bf",
      },
    },
    // A compared view: colour and a second cue apart from colour (a double border and a
    // `+` for added, dashes and a `−` for removed), as the legend says.
    { selector: "node.added", style: { "border-width": 4, "border-style": "double", "border-color": COLORS.added } },
    { selector: "node.removed", style: { "border-width": 2, "border-style": "dashed", "border-color": COLORS.removed, "background-color": COLORS.removedFill, color: "#7a1d1d" } },
    { selector: "edge.added", style: { width: 3, "line-color": COLORS.added, "target-arrow-color": COLORS.added } },
    { selector: "edge.removed", style: { width: 2.4, "line-style": "dashed", "line-dash-pattern": [7, 5], "line-color": COLORS.removed, "target-arrow-color": COLORS.removed } },
    { selector: ".dimmed", style: { opacity: 0.18 } },
    { selector: "edge.pinned", style: { width: 3, "line-color": "#2f4ac0", "target-arrow-color": "#2f4ac0" } },
    { selector: "edge.on-path", style: { width: 3, "line-color": "#3b5bdb", "target-arrow-color": "#3b5bdb" } },
    { selector: "node.on-path", style: { "border-width": 3, "border-color": "#3b5bdb" } },
    // Groups: a collapsed group is one box with its count (a thick double border); an
    // expanded one a frame around its members' grid, its title at the top.
    { selector: "node.group", style: { height: 50, "font-weight": 600, "border-width": 4, "border-style": "double", "border-color": "#5a6a8a", "background-color": "#dfe4ee" } },
    { selector: "node.group.upstream", style: { "background-color": "#d3dcfa" } },
    { selector: "node.group.downstream", style: { "background-color": "#cdebd8" } },
    { selector: "node.more", style: { "border-style": "dashed", "background-color": "#f7f8fa", color: "#3b4a6b", "font-style": "italic" } },
    {
      selector: "node.frame",
      style: {
        shape: "round-rectangle", "background-color": "#f3f5f9", "background-opacity": 0.7, "border-width": 1.5,
        "border-style": "dashed", "border-color": "#7c8aa5", padding: 14, "text-valign": "top", "text-halign": "center",
        "text-margin-y": -6, "text-events": "yes", "font-size": 13, "font-weight": 600, color: "#2d3a55", "text-max-width": 600,
      },
    },
    { selector: "edge.bundle", style: { width: "mapData(count, 2, 400, 2, 9)", "line-color": "#8e98ab", "target-arrow-color": "#8e98ab" } },
    { selector: "node.found", style: { "border-width": 5, "border-color": "#d9480f", "border-style": "solid" } },
  ];
}
