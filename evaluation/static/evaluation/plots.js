// Results pages: draw each plot as an SVG from the data the page carries (json_script).
// evaluation/plots.py builds that data and the plot's CSV from the same numbers; the server
// never draws. Kinds: intervals, curves, histogram, heatmap, binned.
const SVG = "http://www.w3.org/2000/svg";
const COLOURS = ["#2457c5", "#c55a24", "#1c6b3a", "#8a3ab9", "#a32020", "#5b6475"];
const MUTED = "#5b6475";
const WIDTH = 640;
const CHAR = 7; // width of a character of the 11px labels, generously, for margins

function node(parent, name, attrs = {}, text = undefined) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) element.setAttribute(key, value);
  if (text !== undefined) element.textContent = text;
  if (parent) parent.append(element);
  return element;
}

const finite = (v) => typeof v === "number" && Number.isFinite(v);

function niceStep(span, count) {
  const raw = span / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * magnitude).find((step) => step >= raw);
}

function ticks(lo, hi, count = 5) {
  const step = niceStep(hi - lo, count);
  const out = [];
  for (let v = Math.ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step) {
    out.push(Number(v.toPrecision(12)));
  }
  return out;
}

function label(v) {
  return Math.abs(v) >= 1e4 || (v !== 0 && Math.abs(v) < 1e-3) ? v.toExponential(1) : String(Number(v.toPrecision(4)));
}

function extent(values, { pad = 0.05, floor = null, ceil = null } = {}) {
  const known = values.filter(finite);
  let lo = known.length ? Math.min(...known) : 0;
  let hi = known.length ? Math.max(...known) : 1;
  if (hi === lo) { lo -= 0.5; hi += 0.5; }
  const margin = (hi - lo) * pad;
  lo = floor !== null ? Math.max(floor, lo - margin) : lo - margin;
  hi = ceil !== null ? Math.min(ceil, hi + margin) : hi + margin;
  return [lo, hi];
}

function linear([d0, d1], [r0, r1]) {
  return (v) => r0 + ((v - d0) / (d1 - d0)) * (r1 - r0);
}

// The SVG, its title and a plotting area inside the margins; marks() is clipped to it.
function frame(spec, { width = WIDTH, height, left = 56, right = 16, top = 30, bottom = 44 }) {
  width = Math.max(width, CHAR * spec.title.length + 24);
  const svg = node(null, "svg", {
    viewBox: `0 0 ${width} ${height}`, width, height, role: "img", "aria-label": spec.title,
    class: "plot", "data-plot": spec.name, "font-size": 11, "font-family": "system-ui, sans-serif",
  });
  node(svg, "title", {}, spec.title);
  node(svg, "text", { x: width / 2, y: 16, "text-anchor": "middle", "font-size": 12, "font-weight": 600 }, spec.title);
  const area = { svg, x0: left, x1: width - right, y0: height - bottom, y1: top, width, height };
  const clip = node(node(svg, "defs"), "clipPath", { id: `clip-${spec.name}` });
  node(clip, "rect", { x: left - 6, y: top - 6, width: area.x1 - left + 12, height: area.y0 - top + 12 });
  area.marks = () => node(svg, "g", { class: "marks", "clip-path": `url(#clip-${spec.name})` });
  return area;
}

function xAxis(f, scale, values, text) {
  const g = node(f.svg, "g", { class: "axis x" });
  node(g, "line", { x1: f.x0, x2: f.x1, y1: f.y0, y2: f.y0, stroke: MUTED });
  for (const v of values) {
    const x = scale(v);
    node(g, "line", { x1: x, x2: x, y1: f.y1, y2: f.y0, stroke: MUTED, "stroke-opacity": 0.15 });
    node(g, "text", { x, y: f.y0 + 14, "text-anchor": "middle" }, label(v));
  }
  if (text) node(g, "text", { x: (f.x0 + f.x1) / 2, y: f.height - 8, "text-anchor": "middle" }, text);
}

function yAxis(f, scale, values, text) {
  const g = node(f.svg, "g", { class: "axis y" });
  node(g, "line", { x1: f.x0, x2: f.x0, y1: f.y1, y2: f.y0, stroke: MUTED });
  for (const v of values) {
    const y = scale(v);
    node(g, "line", { x1: f.x0, x2: f.x1, y1: y, y2: y, stroke: MUTED, "stroke-opacity": 0.15 });
    node(g, "text", { x: f.x0 - 5, y: y + 4, "text-anchor": "end" }, label(v));
  }
  if (text) {
    const y = (f.y0 + f.y1) / 2;
    node(g, "text", { x: 12, y, "text-anchor": "middle", transform: `rotate(-90 12 ${y})` }, text);
  }
}

function legend(f, entries, { bottom = false } = {}) {
  if (entries.length < 2) return;
  const g = node(f.svg, "g", { class: "legend" });
  const width = 24 + CHAR * Math.max(...entries.map(([name]) => name.length));
  const height = 15 * entries.length + 4;
  const top = bottom ? f.y0 - height - 4 : f.y1;
  node(g, "rect", { x: f.x1 - width - 4, y: top, width: width + 4, height, fill: "#fff", "fill-opacity": 0.85 });
  entries.forEach(([name, colour, dashed], i) => {
    const y = top + 8 + 15 * i;
    const x = f.x1 - width;
    node(g, "line", { x1: x, x2: x + 16, y1: y, y2: y, stroke: colour, "stroke-width": 2, "stroke-dasharray": dashed ? "4 3" : "none" });
    node(g, "text", { x: x + 20, y: y + 4 }, name);
  });
}

function errorBar(g, x1, y1, x2, y2, colour, horizontal) {
  node(g, "line", { x1, y1, x2, y2, stroke: colour, "stroke-width": 1.5 });
  for (const [x, y] of [[x1, y1], [x2, y2]]) {
    const cap = horizontal ? { x1: x, x2: x, y1: y - 4, y2: y + 4 } : { x1: x - 4, x2: x + 4, y1: y, y2: y };
    node(g, "line", { ...cap, stroke: colour, "stroke-width": 1.5 });
  }
}

function path(points) {
  let d = "";
  let pen = "M";
  for (const [x, y] of points) {
    if (!finite(x) || !finite(y)) { pen = "M"; continue; }
    d += `${pen}${x.toFixed(2)},${y.toFixed(2)}`;
    pen = "L";
  }
  return d;
}

// rows: [label, estimate, low, high], one per line, top to bottom.
function intervals(spec) {
  const rows = spec.rows;
  const left = Math.min(220, 16 + CHAR * Math.max(4, ...rows.map((r) => String(r[0]).length)));
  const f = frame(spec, { height: Math.max(150, 20 * rows.length + 80), left });
  const domain = extent(rows.flatMap((r) => r.slice(1)));
  const x = linear(domain, [f.x0, f.x1]);
  const step = (f.y0 - f.y1) / rows.length;
  const y = (i) => f.y1 + step * (i + 0.5);
  xAxis(f, x, ticks(...domain), spec.xlabel);
  const g = f.marks();
  rows.forEach(([name, estimate, low, high], i) => {
    node(f.svg, "text", { x: f.x0 - 6, y: y(i) + 4, "text-anchor": "end" }, name);
    if (finite(low) && finite(high)) errorBar(g, x(low), y(i), x(high), y(i), COLOURS[0], true);
    if (finite(estimate)) node(g, "circle", { cx: x(estimate), cy: y(i), r: 3.5, fill: COLOURS[0] });
  });
  return f.svg;
}

// The powers of ten within a domain of log10 values, as the values themselves.
function decades([lo, hi]) {
  const out = [];
  for (let e = Math.ceil(lo - 1e-9); e <= hi + 1e-9; e += 1) out.push(Number((10 ** e).toPrecision(12)));
  return out;
}

// columns: [x, one per curve]; options: ylim, hline, vlines [[label, x]], xlabel, ylabel,
// xlog (x on a logarithmic scale).
function curves(spec) {
  const f = frame(spec, { height: 340 });
  const names = spec.columns.slice(1);
  const lx = spec.xlog ? Math.log10 : (v) => v;
  const xs = spec.rows.map((r) => lx(r[0]));
  const xDomain = extent(xs, { pad: 0 });
  const yDomain = spec.ylim || extent(spec.rows.flatMap((r) => r.slice(1)));
  const sx = linear(xDomain, [f.x0, f.x1]);
  const x = (v) => sx(lx(v));
  const y = linear(yDomain, [f.y0, f.y1]);
  xAxis(f, x, spec.xlog ? decades(xDomain) : ticks(...xDomain), spec.xlabel);
  yAxis(f, y, ticks(...yDomain), spec.ylabel);
  const g = f.marks();
  if (finite(spec.hline)) {
    node(g, "line", { x1: f.x0, x2: f.x1, y1: y(spec.hline), y2: y(spec.hline), stroke: MUTED, "stroke-dasharray": "5 4" });
  }
  for (const [text, value] of spec.vlines || []) {
    node(g, "line", { x1: x(value), x2: x(value), y1: f.y1, y2: f.y0, stroke: MUTED, "stroke-dasharray": "2 3" });
    node(f.svg, "text", { x: x(value) - 4, y: f.y1 + 12, fill: MUTED, "text-anchor": "end" }, text);
  }
  names.forEach((name, k) => {
    const points = spec.rows.map((r) => [x(r[0]), finite(r[k + 1]) ? y(r[k + 1]) : NaN]);
    node(g, "path", { d: path(points), fill: "none", stroke: COLOURS[k % COLOURS.length], "stroke-width": 2, "data-series": name });
  });
  legend(f, names.map((name, k) => [name, COLOURS[k % COLOURS.length]]), { bottom: true });
  return f.svg;
}

// rows: [bin low, bin high, count].
function histogram(spec) {
  const f = frame(spec, { width: 480, height: 300 });
  const lows = spec.rows.map((r) => r[0]);
  const highs = spec.rows.map((r) => r[1]);
  const xDomain = [Math.min(...lows), Math.max(...highs)];
  const top = Math.max(1, ...spec.rows.map((r) => r[2]));
  const x = linear(xDomain, [f.x0, f.x1]);
  const y = linear([0, top], [f.y0, f.y1]);
  xAxis(f, x, ticks(...xDomain), spec.xlabel);
  yAxis(f, y, ticks(0, top, Math.min(5, top)).filter(Number.isInteger), spec.ylabel);
  const g = f.marks();
  for (const [low, high, count] of spec.rows) {
    const bar = node(g, "rect", { x: x(low) + 0.5, width: Math.max(0, x(high) - x(low) - 1), y: y(count), height: f.y0 - y(count), fill: COLOURS[0] });
    node(bar, "title", {}, `[${label(low)}, ${label(high)}): ${count}`);
  }
  return f.svg;
}

// viridis, reversed (small p-values bright): stops of matplotlib's colour map.
const VIRIDIS = ["#fde725", "#5ec962", "#21918c", "#3b528b", "#440154"];

function colour(t) {
  const clamped = Math.min(1, Math.max(0, t)) * (VIRIDIS.length - 1);
  const i = Math.min(VIRIDIS.length - 2, Math.floor(clamped));
  const mix = clamped - i;
  const rgb = (hex) => [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16));
  const [a, b] = [rgb(VIRIDIS[i]), rgb(VIRIDIS[i + 1])];
  return `rgb(${a.map((v, k) => Math.round(v + (b[k] - v) * mix)).join(",")})`;
}

// labels and a square matrix (null where there is nothing, e.g. the diagonal).
function heatmap(spec) {
  const n = spec.labels.length;
  // Big enough to read: up to 48 px a cell, each with its value written in when it fits.
  const cell = Math.max(3, Math.min(48, 640 / Math.max(1, n)));
  const every = Math.ceil(12 / cell); // label every k-th row and column when cells are small
  const margin = 12 + CHAR * Math.max(4, ...spec.labels.map((l) => l.length));
  const width = margin + n * cell + 90;
  const f = frame(spec, { width, height: 30 + n * cell + margin, left: margin, top: 30, bottom: margin, right: 90 });
  const g = f.marks();
  const { vmin, vmax } = spec;
  spec.matrix.forEach((row, i) => {
    row.forEach((value, j) => {
      if (!finite(value)) return;
      const t = (value - vmin) / (vmax - vmin);
      const rect = node(g, "rect", { x: f.x0 + j * cell, y: f.y1 + i * cell, width: cell, height: cell, fill: colour(t) });
      node(rect, "title", {}, `${spec.labels[i]} – ${spec.labels[j]}: ${label(value)}`);
      if (cell >= 30) {
        const text = value < 0.001 && value >= 0 ? "<.001" : label(value);
        node(g, "text", { x: f.x0 + (j + 0.5) * cell, y: f.y1 + (i + 0.5) * cell + 4, "text-anchor": "middle", class: "cell-value", fill: t > 0.45 ? "#fff" : "#000" }, text); // dark cells (high t) get white text
      }
    });
  });
  spec.labels.forEach((name, i) => {
    if (i % every) return;
    const c = (i + 0.5) * cell;
    node(f.svg, "text", { x: f.x0 - 4, y: f.y1 + c + 4, "text-anchor": "end" }, name);
    const x = f.x0 + c + 4;
    const y = f.y1 + n * cell + 6;
    node(f.svg, "text", { x, y, "text-anchor": "end", transform: `rotate(-90 ${x} ${y})` }, name);
  });
  // The colour bar, from vmax (top) to vmin.
  const bar = { x: f.x0 + n * cell + 24, y: f.y1, height: Math.max(60, n * cell) };
  for (let k = 0; k < 20; k += 1) {
    node(f.svg, "rect", { x: bar.x, y: bar.y + (bar.height * k) / 20, width: 12, height: bar.height / 20 + 0.5, fill: colour(1 - k / 19) });
  }
  const scale = linear([vmin, vmax], [bar.y + bar.height, bar.y]);
  for (const v of ticks(vmin, vmax, 4)) node(f.svg, "text", { x: bar.x + 16, y: scale(v) + 4 }, label(v));
  const mid = bar.y + bar.height / 2;
  node(f.svg, "text", { x: bar.x + 56, y: mid, "text-anchor": "middle", transform: `rotate(90 ${bar.x + 56} ${mid})` }, spec.colorbar);
  return f.svg;
}

// rows: [series, x, y, low, high, count]; the series named in options.curves are lines.
function binned(spec) {
  const f = frame(spec, { height: 360 });
  const x = linear([0, 1], [f.x0, f.x1]);
  const y = linear([0, 1], [f.y0, f.y1]);
  xAxis(f, x, ticks(0, 1), spec.xlabel);
  yAxis(f, y, ticks(0, 1), spec.ylabel);
  const series = [...new Set(spec.rows.map((r) => r[0]))];
  const g = f.marks();
  const entries = [];
  series.forEach((name, k) => {
    const tint = COLOURS[k % COLOURS.length];
    const rows = spec.rows.filter((r) => r[0] === name);
    const isCurve = (spec.curves || []).includes(name);
    entries.push([name, tint, isCurve && k % 2 === 0]);
    if (isCurve) {
      node(g, "path", { d: path(rows.map((r) => [x(r[1]), finite(r[2]) ? y(r[2]) : NaN])), fill: "none", stroke: tint, "stroke-width": 2, "stroke-dasharray": k % 2 === 0 ? "6 4" : "none", "data-series": name });
      return;
    }
    for (const [, px, py, low, high] of rows) {
      if (!finite(py)) continue;
      if (finite(low) && finite(high)) errorBar(g, x(px), y(Math.min(low, py)), x(px), y(Math.max(high, py)), tint, false);
      node(g, "circle", { cx: x(px), cy: y(py), r: 3.5, fill: tint, "data-series": name });
    }
  });
  legend(f, entries);
  return f.svg;
}

const DRAW = { intervals, curves, histogram, heatmap, binned };

for (const place of document.querySelectorAll("[data-spec]")) {
  const spec = JSON.parse(document.getElementById(place.dataset.spec).textContent);
  const draw = DRAW[spec.kind];
  if (draw) place.replaceChildren(draw(spec));
}
