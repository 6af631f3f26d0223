// The graph scenario drawn as SVG from what the run really had: the compiled graph's nodes and edges
// (`graph.parts`), and the run's execution error records marking the nodes that failed, fatal or recoverable.
// Left to right on a wide screen, top to bottom on a narrow one; all text is set with textContent.

const SVG = 'http://www.w3.org/2000/svg';
const START = '__start__';
const END = '__end__';
const BOX = { width: 176, height: 54, terminal: 84, gap: 46 };

const svg = (tag, attributes = {}, text) => {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
};

/** The graph's nodes (START and END included) and edges, each node at its distance from START. */
export function graphShape(parts) {
  const edges = [];
  for (const [from, targets] of parts.edgesFrom) for (const to of targets) edges.push({ from, to, conditional: false });
  for (const [from, branches] of parts.branchesFrom) {
    for (const branch of branches) for (const to of new Set(Object.values(branch.pathMap ?? {}))) edges.push({ from, to, conditional: true });
  }
  for (const entry of parts.entries) if (!edges.some((edge) => edge.from === START && edge.to === entry)) edges.push({ from: START, to: entry, conditional: false });
  const level = new Map([[START, 0]]);
  const queue = [START];
  while (queue.length > 0) {
    const from = queue.shift();
    for (const edge of edges) {
      if (edge.from !== from || level.has(edge.to)) continue;
      level.set(edge.to, level.get(from) + 1);
      queue.push(edge.to);
    }
  }
  const ids = [START, ...parts.nodes.keys(), ...(edges.some((edge) => edge.to === END) ? [END] : [])];
  const deepest = Math.max(...level.values());
  const nodes = ids.map((id) => ({ id, type: parts.nodes.get(id)?.type ?? 'terminal', level: level.get(id) ?? deepest + 1 }));
  return { nodes, edges };
}

/**
 * What each node's records say: the worst severity, and for a failure inside a child graph the child's node that
 * failed (a record with a `path` belongs to the node that ran the child: the path's first step).
 */
export function failedNodes(records) {
  const marks = new Map();
  for (const record of records) {
    const inChild = Array.isArray(record.path) && record.path.length > 0;
    const id = inChild ? record.path[0] : record.nodeId ?? record.nodeName;
    const mark = marks.get(id) ?? { severity: 'recoverable', inner: [] };
    if (record.severity === 'fatal') mark.severity = 'fatal';
    if (inChild) mark.inner.push(record.nodeName ?? record.nodeId);
    marks.set(id, mark);
  }
  return marks;
}

const label = (id) => (id === START ? 'START' : id === END ? 'END' : id.length > 22 ? `${id.slice(0, 21)}…` : id);

function statusLine(mark, type) {
  if (!mark) return type === 'agent' ? 'child graph · no error record' : 'no error record';
  const where = mark.inner.length ? ` in ${mark.inner.join(', ')}` : '';
  return `${mark.severity}${where}`;
}

/** The drawing: an <svg> of the graph, its failed nodes marked (`data-status` fatal / recoverable / none). */
export function drawGraph(name, parts, records, vertical) {
  const { nodes, edges } = graphShape(parts);
  const marks = failedNodes(records);
  const levels = [];
  for (const node of nodes) (levels[node.level] ??= []).push(node);
  const sizeOf = (node) => ({ width: node.type === 'terminal' ? BOX.terminal : BOX.width, height: node.type === 'terminal' ? 34 : BOX.height });
  // Each level is a column (wide) or a row (narrow); nodes of one level sit side by side across it, centred.
  const crossOf = (node) => (vertical ? sizeOf(node).width : sizeOf(node).height);
  const depthOf = (node) => (vertical ? sizeOf(node).height : sizeOf(node).width);
  const bands = levels.filter(Boolean).map((group) => ({ group, depth: Math.max(...group.map(depthOf)), extent: group.reduce((sum, node) => sum + crossOf(node), 0) + 18 * (group.length - 1) }));
  const across = Math.max(...bands.map((band) => band.extent));
  const place = new Map();
  let along = 0;
  for (const { group, depth, extent } of bands) {
    let offset = (across - extent) / 2;
    for (const node of group) {
      const size = sizeOf(node);
      const inBand = along + (depth - depthOf(node)) / 2;
      place.set(node.id, vertical ? { x: offset, y: inBand, ...size } : { x: inBand, y: offset, ...size });
      offset += crossOf(node) + 18;
    }
    along += depth + BOX.gap;
  }
  along -= BOX.gap;
  const width = vertical ? across : along;
  const height = vertical ? along : across;
  const root = svg('svg', { viewBox: `-2 -2 ${width + 4} ${height + 4}`, width: width + 4, class: 'graph-svg', role: 'img', 'data-graph': name });
  const summary = nodes.filter((node) => marks.has(node.id)).map((node) => `${node.id} ${statusLine(marks.get(node.id), node.type)}`);
  root.setAttribute('aria-label', `Graph ${name}: ${nodes.length - 2} nodes; ${summary.length ? summary.join('; ') : 'no node failed'}`);
  const marker = svg('marker', { id: 'graph-arrow', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' });
  marker.append(svg('path', { d: 'M0,0 L10,5 L0,10 z', class: 'graph-arrowhead' }));
  const defs = svg('defs');
  defs.append(marker);
  root.append(defs);
  for (const edge of edges) {
    const a = place.get(edge.from);
    const b = place.get(edge.to);
    if (!a || !b) continue;
    const [x1, y1, x2, y2] = vertical ? [a.x + a.width / 2, a.y + a.height, b.x + b.width / 2, b.y] : [a.x + a.width, a.y + a.height / 2, b.x, b.y + b.height / 2];
    root.append(svg('line', { x1, y1, x2, y2, class: `graph-edge${edge.conditional ? ' conditional' : ''}`, 'data-edge': `${edge.from}->${edge.to}`, 'marker-end': 'url(#graph-arrow)' }));
  }
  for (const node of nodes) {
    const box = place.get(node.id);
    const mark = marks.get(node.id);
    const group = svg('g', { class: `graph-node ${node.type}`, 'data-node': node.id, 'data-status': mark?.severity ?? 'none', transform: `translate(${box.x} ${box.y})` });
    group.append(svg('title', {}, `${node.id}: ${statusLine(mark, node.type)}`));
    group.append(svg('rect', { width: box.width, height: box.height, rx: node.type === 'terminal' ? box.height / 2 : 8, class: 'graph-box' }));
    const middle = box.width / 2;
    if (node.type === 'terminal') {
      group.append(svg('text', { x: middle, y: box.height / 2 + 4, 'text-anchor': 'middle', class: 'graph-name terminal' }, label(node.id)));
    } else {
      group.append(svg('text', { x: middle, y: 22, 'text-anchor': 'middle', class: 'graph-name' }, label(node.id)));
      group.append(svg('text', { x: middle, y: 41, 'text-anchor': 'middle', class: 'graph-status' }, statusLine(mark, node.type)));
    }
    root.append(group);
  }
  return root;
}
