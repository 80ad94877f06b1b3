// ZeroLayer console: snapshot + server-sent events, rendered with plain DOM (never innerHTML).
'use strict';
(() => {
  const MAX_DECISIONS = 1000, MAX_ROWS = 200, WINDOW = 60;
  const TOKEN_KEY = 'zerolayer.adminToken';
  const BASE_TIERS = ['haiku', 'sonnet', 'opus'];
  const FAULTS = ['sm_saturation', 'cuda_graph_warmup', 'load_spike', 'gateway_congestion', 'ttft_spikes',
    'gpu_bandwidth', 'errors', 'crash', 'stream_cut', 'stream_stall', 'pcie_errors'];
  const TIER_COLORS = { haiku: '#2a9d8f', sonnet: '#3b6fd8', opus: '#8e44ad' };
  const PALETTE = ['#e76f51', '#e9c46a', '#588157', '#b5838d', '#6c757d', '#d62828'];

  const $ = (id) => document.getElementById(id);
  const state = {
    local: false, nodes: [], decisions: [], pending: [], ids: new Set(), paused: false, selected: null,
    alerts: new Map(), policy: null, series: null, tiers: new Set(BASE_TIERS), reasons: new Set(),
    optionsDirty: true, token: sessionStorage.getItem(TOKEN_KEY) || '', etag: null, editorBase: '',
    dryRunText: null, lastEvent: {},
  };

  // ---------- helpers ----------
  function el(tag, props = {}, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(props)) {
      if (v == null || v === false) continue;
      if (k === 'class') e.className = v;
      else if (k === 'text') e.textContent = v;
      else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? '' : String(v));
    }
    for (const c of children.flat(2)) if (c != null && c !== false && c !== '') e.append(c);
    return e;
  }
  function svg(tag, attrs = {}, text, title) { // title: optional hover tooltip
    const e = document.createElementNS('http://www.w3.org/2000/svg', tag);
    for (const [k, v] of Object.entries(attrs)) if (v != null) e.setAttribute(k, String(v));
    if (text != null) e.textContent = text;
    if (title != null) e.append(svg('title', {}, title));
    return e;
  }
  const DASH = '—';
  const isNum = (v) => v != null && v !== '' && Number.isFinite(Number(v));
  const fmtNum = (v, d = 2) => (isNum(v) ? Number(v).toFixed(d) : DASH);
  const fmtPct = (v, d = 0) => (isNum(v) ? `${(v * 100).toFixed(d)}%` : DASH);
  const fmtGiB = (mib) => (isNum(mib) ? (mib / 1024).toFixed(1) : DASH);
  const fmtTime = (iso) => { const t = new Date(iso); return iso && !isNaN(t) ? t.toLocaleTimeString([], { hour12: false }) : DASH; };
  const fmtDateTime = (iso) => { const t = new Date(iso); return iso && !isNaN(t) ? t.toLocaleString([], { hour12: false }) : DASH; };
  const td = (text, cls) => el('td', { class: cls, text: text == null || text === '' ? DASH : String(text) });
  const clamp01 = (v) => Math.max(0, Math.min(1, Number(v) || 0));
  const extraColors = new Map(); // stable colours for tiers beyond the known three
  const tierColor = (t) => TIER_COLORS[t] ||
    extraColors.get(t) || extraColors.set(t, PALETTE[extraColors.size % PALETTE.length]).get(t);
  const orderTiers = (set) => [...BASE_TIERS.filter((t) => set.has(t)), ...[...set].filter((t) => !BASE_TIERS.includes(t)).sort()];

  // Runs fn at most once per `ms`, coalescing calls in between.
  function throttled(fn, ms) {
    let last = 0, timer = null;
    const run = () => { timer = null; last = performance.now(); fn(); };
    return () => { timer ??= setTimeout(run, Math.max(0, last + ms - performance.now())); };
  }

  function setStatus(msg, kind = 'info') {
    Object.assign($('admin-status'), { textContent: msg }).dataset.kind = kind;
  }

  async function api(method, path, { body, etag, auth = true } = {}) {
    const headers = {
      ...(auth && state.token && { Authorization: `Bearer ${state.token}` }),
      ...(body !== undefined && { 'Content-Type': 'application/json' }),
      ...(etag && { 'If-Match': etag }),
    };
    const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    let data = null;
    try { data = JSON.parse(await res.text()); } catch { /* empty or not JSON */ }
    if (!res.ok) throw new Error(data?.error?.message || `HTTP ${res.status}${res.statusText ? ' ' + res.statusText : ''}`);
    return { data, res };
  }

  async function adminAction(label, fn) {
    setStatus(`${label}…`, 'pending');
    try { const r = await fn(); setStatus(`${label}: ok`, 'ok'); return r; }
    catch (e) { setStatus(`${label}: ${e.message}`, 'error'); return null; }
  }

  // ---------- fleet ----------
  const FLEET_COLS = ['node', 'tier', 'state', 'score', 'sm', 'vram', 'queue', 'kv', 'load', 'breaker', 'diag', 'faults'];
  const NUM_COLS = new Set(['score', 'sm', 'vram', 'queue', 'kv', 'load']);
  const fleetRows = new Map();

  function faultControls(nodeId) {
    const path = `api/faults/${encodeURIComponent(nodeId)}`;
    const sel = el('select', { 'data-testid': 'fault-type', 'aria-label': `fault type for ${nodeId}` },
      FAULTS.map((f) => el('option', { value: f, text: f })));
    return el('span', { class: 'fault-controls' }, sel,
      el('button', { type: 'button', 'data-testid': 'inject-fault', text: 'Inject',
        onclick: () => adminAction(`inject ${sel.value} on ${nodeId}`,
          () => api('POST', path, { body: { type: sel.value, durationMs: 600000 } })) }),
      el('button', { type: 'button', 'data-testid': 'clear-faults', text: 'Clear',
        onclick: () => adminAction(`clear faults on ${nodeId}`, () => api('DELETE', path)) }));
  }

  function makeFleetRow(nodeId) {
    const cells = {};
    const tr = el('tr', { 'data-testid': 'node-row', 'data-node': nodeId });
    for (const k of FLEET_COLS) tr.append(cells[k] = el('td', { class: NUM_COLS.has(k) ? 'num' : k === 'diag' ? 'wrap' : null }));
    cells.faults.append(cells.faultText = el('span', { class: 'fault-list' }));
    return { tr, cells, controls: null };
  }

  function updateFleetRow(r, n) {
    const c = r.cells;
    r.tr.dataset.state = n.state;
    const text = {
      node: n.nodeId, tier: `${n.tier ?? DASH} / ${n.cluster ?? DASH}`, score: fmtNum(n.score, 2), sm: fmtPct(n.smActive),
      vram: `${fmtGiB(n.framebufferUsedMiB)} / ${fmtGiB(n.framebufferTotalMiB)}`, queue: n.queueDepth ?? DASH,
      kv: fmtPct(n.kvCacheUsage), load: fmtPct(n.load),
    };
    for (const [k, v] of Object.entries(text)) c[k].textContent = v;
    c.node.title = `last sample ${n.lastSampleAgeMs ?? '?'} ms ago`;
    c.state.replaceChildren(el('span', { class: `badge s-${n.state}`, text: n.state }));
    c.breaker.dataset.testid = 'breaker';
    c.breaker.dataset.open = n.breakerOpen == null ? 'unknown' : String(n.breakerOpen);
    c.breaker.className = n.breakerOpen ? 'bad' : n.breakerOpen === false ? 'ok' : 'muted';
    c.breaker.textContent = n.breakerOpen == null ? DASH : n.breakerOpen ? `open since ${fmtTime(n.breakerSince)}` : 'closed';
    c.breaker.title = n.breakerOpen == null ? 'no decision has weighed this node yet'
      : `as the newest decision that weighed it reported; ${n.breakerOpen ? 'open' : 'closed'} since ${n.breakerSince}`;
    const reasons = (n.reasons || []).join('; ');
    c.diag.replaceChildren(n.diagnosis ? el('strong', { text: n.diagnosis }) : '',
      reasons ? el('span', { class: 'muted', text: `${n.diagnosis ? ' · ' : ''}${reasons}` }) : '',
      !n.diagnosis && !reasons ? DASH : '');
    const faults = n.faults || [];
    c.faultText.textContent = faults.length ? faults.join(', ') : (state.local ? 'none' : DASH);
    c.faultText.classList.toggle('active', faults.length > 0);
    if (state.local && !r.controls) c.faults.append(r.controls = faultControls(n.nodeId));
    if (r.controls) r.controls.hidden = !state.local;
  }

  // Updates rows in place so open selects and focus survive the once-a-second refresh.
  function renderFleet() {
    const body = $('fleet-body'), seen = new Set(), counts = {};
    state.nodes.forEach((n, i) => {
      seen.add(n.nodeId);
      counts[n.state] = (counts[n.state] || 0) + 1;
      noteOption(state.tiers, n.tier);
      let r = fleetRows.get(n.nodeId);
      if (!r) fleetRows.set(n.nodeId, r = makeFleetRow(n.nodeId));
      updateFleetRow(r, n);
      if (body.children[i] !== r.tr) body.insertBefore(r.tr, body.children[i] || null);
    });
    for (const [id, r] of fleetRows) if (!seen.has(id)) { r.tr.remove(); fleetRows.delete(id); }
    $('fleet-empty').hidden = state.nodes.length > 0;
    $('fleet-summary').textContent = state.nodes.length
      ? `${state.nodes.length} nodes · ${Object.entries(counts).map(([s, c]) => `${c} ${s}`).join(' · ')}` : '';
    renderNodeLoad();
  }
  const renderFleetSoon = throttled(renderFleet, 1000);

  // ---------- charts ----------
  const W = 560, H = 220, M = { l: 52, r: 14, t: 12, b: 40 };

  function niceMax(v) {
    if (!(v > 0)) return 1;
    const p = 10 ** Math.floor(Math.log10(v)), f = v / p;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
  }

  function frame(n, yMax, yFmt, yLabel, times, xLabel) {
    const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'svg', role: 'img' });
    const pw = W - M.l - M.r, ph = H - M.t - M.b, band = pw / Math.max(n, 1);
    const x = (i) => M.l + (i + 0.5) * band, y = (v) => M.t + ph - (v / yMax) * ph;
    for (const v of [0, 1, 2, 3, 4].map((k) => (yMax * k) / 4)) {
      root.append(svg('line', { x1: M.l, x2: W - M.r, y1: y(v), y2: y(v), class: 'gridline' }),
        svg('text', { x: M.l - 6, y: y(v) + 3, 'text-anchor': 'end', class: 'tick' }, yFmt(v)));
    }
    root.append(svg('line', { x1: M.l, x2: M.l, y1: M.t, y2: M.t + ph, class: 'axis' }),
      svg('line', { x1: M.l, x2: W - M.r, y1: M.t + ph, y2: M.t + ph, class: 'axis' }),
      svg('text', { transform: `translate(12 ${M.t + ph / 2}) rotate(-90)`, 'text-anchor': 'middle', class: 'label' }, yLabel),
      svg('text', { x: M.l + pw / 2, y: H - 4, 'text-anchor': 'middle', class: 'label' }, xLabel));
    for (const i of new Set([0, Math.floor((n - 1) / 2), n - 1])) { // first, middle and last bucket times
      root.append(svg('text', { x: x(i), y: M.t + ph + 14, 'text-anchor': 'middle', class: 'tick' }, fmtTime(times[i])));
    }
    return { root, x, y, band };
  }

  function legend(items) {
    return el('div', { class: 'legend' }, items.map((it) =>
      el('span', { class: 'key' }, el('i', { class: `sw ${it.kind || ''}`, style: `--c:${it.color}` }), it.name)));
  }

  function drawLine(f, vals, color, dashed, title, fmt) {
    let d = '', pen = false;
    const g = svg('g');
    vals.forEach((v, i) => {
      if (!isNum(v)) { pen = false; return; }
      const px = f.x(i).toFixed(1), py = f.y(v).toFixed(1);
      d += `${pen ? 'L' : 'M'}${px},${py}`;
      pen = true;
      g.append(svg('circle', { cx: px, cy: py, r: 1.8, fill: color }, null, `${title}: ${fmt(v)}`));
    });
    g.prepend(svg('path', { d, fill: 'none', stroke: color, 'stroke-width': 1.6, 'stroke-dasharray': dashed ? '5 3' : null }));
    f.root.append(g);
  }

  function chart(id, build) {
    const out = build();
    document.querySelector(`#${id} .chart-body`).replaceChildren(...(out || [el('p', { class: 'empty', text: 'no data yet' })]));
  }

  function renderCharts() {
    const sr = state.series, buckets = (sr?.buckets || []).slice(-WINDOW);
    const times = buckets.map((b) => b.at), xLabel = `time (${sr?.bucketSeconds ?? '?'} s buckets)`;
    $('series-info').textContent = buckets.length ? `last ${buckets.length} buckets` : '';
    const countFmt = (v) => (Number.isInteger(v) ? String(v) : v.toFixed(1));

    chart('chart-tier-mix', () => {
      const tiers = orderTiers(new Set(buckets.flatMap((b) => Object.keys(b.tiers || {}))));
      const totals = buckets.map((b) => tiers.reduce((a, t) => a + (b.tiers?.[t] || 0), 0));
      if (!totals.some((t) => t > 0)) return null;
      const f = frame(buckets.length, niceMax(Math.max(...totals)), countFmt, 'requests', times, xLabel);
      buckets.forEach((b, i) => {
        let acc = 0;
        for (const t of tiers) {
          const c = b.tiers?.[t] || 0;
          if (!c) continue;
          const y0 = f.y(acc), y1 = f.y((acc += c));
          f.root.append(svg('rect', { x: f.x(i) - f.band * 0.4, y: y1, width: Math.max(1, f.band * 0.8), height: y0 - y1, fill: tierColor(t) },
            null, `${fmtTime(b.at)} ${t}: ${c}`));
        }
      });
      return [f.root, legend(tiers.map((t) => ({ name: t, color: tierColor(t), kind: 'block' })))];
    });

    chart('chart-fallback-rate', () => {
      const rates = buckets.map((b) => (b.total > 0 ? (b.fallbacks || 0) / b.total : null));
      if (!rates.some(isNum)) return null;
      const max = Math.max(...rates.filter(isNum));
      const f = frame(buckets.length, max > 0 ? Math.min(1, niceMax(max)) : 0.1, (v) => fmtPct(v, v < 0.1 && v > 0 ? 1 : 0), 'fallback rate', times, xLabel);
      drawLine(f, rates, '#d9480f', false, 'fallback rate', (v) => fmtPct(v, 1));
      return [f.root, legend([{ name: 'fallbacks / total', color: '#d9480f' }])];
    });

    chart('chart-ttft', () => {
      const tiers = orderTiers(new Set(buckets.flatMap((b) => Object.keys(b.ttft || {}))));
      const vals = buckets.flatMap((b) => tiers.flatMap((t) => [b.ttft?.[t]?.p50, b.ttft?.[t]?.p99])).filter(isNum);
      if (!vals.length) return null;
      const f = frame(buckets.length, niceMax(Math.max(...vals)), countFmt, 'TTFT ms', times, xLabel);
      const keys = [];
      for (const t of tiers) {
        drawLine(f, buckets.map((b) => b.ttft?.[t]?.p50), tierColor(t), false, `${t} p50`, (v) => `${Math.round(v)} ms`);
        drawLine(f, buckets.map((b) => b.ttft?.[t]?.p99), tierColor(t), true, `${t} p99`, (v) => `${Math.round(v)} ms`);
        keys.push({ name: `${t} p50`, color: tierColor(t) }, { name: `${t} p99`, color: tierColor(t), kind: 'dashed' });
      }
      return [f.root, legend(keys)];
    });
  }
  const renderChartsSoon = throttled(renderCharts, 1000);

  function renderNodeLoad() {
    chart('chart-node-load', () => {
      const nodes = state.nodes;
      if (!nodes.length) return null;
      const l = 130, r = 90, t = 8, b = 34, rowH = 24, h = t + nodes.length * rowH + b, pw = W - l - r;
      const qMax = niceMax(Math.max(1, ...nodes.map((n) => n.queueDepth || 0)));
      const root = svg('svg', { viewBox: `0 0 ${W} ${h}`, class: 'svg', role: 'img' });
      for (const q of [0, 0.25, 0.5, 0.75, 1]) {
        root.append(svg('line', { x1: l + pw * q, x2: l + pw * q, y1: t, y2: h - b, class: 'gridline' }),
          svg('text', { x: l + pw * q, y: h - b + 14, 'text-anchor': 'middle', class: 'tick' }, `${q * 100}%`));
      }
      nodes.forEach((n, i) => {
        const y0 = t + i * rowH, q = n.queueDepth ?? 0;
        root.append(svg('text', { x: l - 6, y: y0 + 15, 'text-anchor': 'end', class: 'tick' }, n.nodeId),
          svg('rect', { x: l, y: y0 + 3, width: pw * clamp01(n.load), height: 9, fill: '#3b6fd8' }, null, `${n.nodeId} load ${fmtPct(n.load)}`),
          svg('rect', { x: l, y: y0 + 14, width: pw * Math.min(1, q / qMax), height: 5, fill: '#e9a23b' }, null, `${n.nodeId} queue ${q}`),
          svg('text', { x: W - r + 6, y: y0 + 15, class: 'tick' }, `${fmtPct(n.load)} · q ${q}`));
      });
      root.append(svg('line', { x1: l, x2: l, y1: t, y2: h - b, class: 'axis' }),
        svg('line', { x1: l, x2: l + pw, y1: h - b, y2: h - b, class: 'axis' }),
        svg('text', { x: l + pw / 2, y: h - 4, 'text-anchor': 'middle', class: 'label' }, `load % (queue bar full = ${qMax})`));
      return [root, legend([{ name: 'load', color: '#3b6fd8', kind: 'block' }, { name: `queue depth (0–${qMax})`, color: '#e9a23b', kind: 'block' }])];
    });
  }

  // ---------- alerts ----------
  function renderAlerts() {
    const firing = [...state.alerts.values()].filter((a) => a.status === 'FIRING');
    $('alerts-body').replaceChildren(...firing.map((a) => el('tr', { 'data-testid': 'alert-row', 'data-scope': a.scope },
      td(a.scope), el('td', {}, el('span', { class: 'badge s-DOWN', text: a.status })),
      td(`${fmtPct(a.fallbackRate, 1)} vs ${fmtPct(a.threshold, 1)}`, 'num'), td(fmtDateTime(a.since)))));
    $('alerts-empty').hidden = firing.length > 0;
    $('alerts-summary').textContent = firing.length ? `${firing.length} firing` : '';
  }

  // ---------- decisions ----------
  function noteOption(set, value) {
    if (value && !set.has(value)) { set.add(value); state.optionsDirty = true; }
  }

  // Dedupes by requestId and records new filter options; false when the decision is already known.
  function accept(d) {
    if (!d || d.requestId == null || state.ids.has(d.requestId)) return false;
    state.ids.add(d.requestId);
    noteOption(state.tiers, d.tier);
    noteOption(state.reasons, d.fallbackReason);
    return true;
  }

  function trim() {
    while (state.decisions.length > MAX_DECISIONS) state.ids.delete(state.decisions.pop().requestId);
    while (state.pending.length > MAX_DECISIONS) state.ids.delete(state.pending.shift().requestId);
  }

  function addDecision(d) {
    if (!accept(d)) return;
    if (state.paused) { state.pending.push(d); trim(); updateCount(); return; }
    state.decisions.unshift(d);
    trim();
    renderDecisionsSoon();
  }

  function mergeDecisions(list) {
    const fresh = list.filter(accept);
    if (!fresh.length) return;
    state.decisions.push(...fresh);
    state.decisions.sort((a, b) => (Date.parse(b.at) || 0) - (Date.parse(a.at) || 0));
    trim();
    renderDecisionsSoon();
  }

  function syncOptions(sel, fixed, values) {
    const cur = sel.value;
    sel.replaceChildren(...fixed.map(([v, t]) => el('option', { value: v, text: t })),
      ...values.map((v) => el('option', { value: v, text: v })));
    sel.value = [...fixed.map(([v]) => v), ...values].includes(cur) ? cur : fixed[0][0];
  }

  function matches(d, f) {
    if (f.tier !== 'all' && d.tier !== f.tier) return false;
    const reason = d.fallbackReason || null;
    if (f.reason === 'none' ? reason !== null : f.reason !== 'all' && reason !== f.reason) return false;
    return !f.key || String(d.apiKeyId ?? '').toLowerCase().includes(f.key);
  }

  function decisionRow(d) {
    const reason = d.fallbackReason || (d.rulesFired || []).join(', ');
    const cls = [d.fallbackTriggered ? 'fallback' : '', state.selected?.requestId === d.requestId ? 'selected' : ''].join(' ').trim();
    return el('tr', { 'data-testid': 'decision-row', 'data-node': d.node ?? '', 'data-tier': d.tier ?? '', 'data-request-id': d.requestId, class: cls || null },
      el('td', { text: fmtTime(d.at), title: d.at }), td(d.tier), td(d.cluster), td(d.node),
      td(reason, d.fallbackReason ? 'warn' : null),
      td(isNum(d.routeTimeMicros) ? (d.routeTimeMicros / 1000).toFixed(2) : null, 'num'),
      td(isNum(d.ttfbMillis) ? Math.round(d.ttfbMillis) : null, 'num'),
      td(d.cacheHit ? 'hit' : 'miss'),
      td(`${d.status ?? ''}${d.httpStatus != null ? ` ${d.httpStatus}` : ''}`.trim(), d.httpStatus >= 400 ? 'bad' : null),
      td(d.apiKeyId));
  }

  function updateCount(shown) {
    const c = $('decision-count');
    if (shown != null) c.dataset.shown = shown;
    c.textContent = `${c.dataset.shown ?? 0} shown · ${state.decisions.length} in memory${state.paused ? ` · paused (${state.pending.length} new)` : ''}`;
  }

  function renderDecisions() {
    if (state.optionsDirty) {
      state.optionsDirty = false;
      syncOptions($('filter-tier'), [['all', 'all']], orderTiers(state.tiers));
      syncOptions($('filter-reason'), [['all', 'all'], ['none', 'none']], [...state.reasons].sort());
    }
    const f = { tier: $('filter-tier').value, reason: $('filter-reason').value, key: $('filter-apikey').value.trim().toLowerCase() };
    const rows = [];
    for (const d of state.decisions) {
      if (matches(d, f)) rows.push(decisionRow(d));
      if (rows.length >= MAX_ROWS) break;
    }
    updateCount(rows.length);
    if (!rows.length) {
      rows.push(el('tr', {}, el('td', { colspan: 10, class: 'empty', text: state.decisions.length ? 'no matching decisions' : 'no decisions yet' })));
    }
    $('decision-body').replaceChildren(...rows);
  }
  const renderDecisionsSoon = throttled(renderDecisions, 250);

  function fmtField(v) {
    if (Array.isArray(v)) return v.length ? v.map(fmtField).join(', ') : '(none)';
    return v == null ? DASH : typeof v === 'object' ? JSON.stringify(v) : String(v);
  }

  function candidateTable(d) {
    const names = [...new Set(d.candidates.flatMap((c) => [...Object.keys(c.terms || {}), ...Object.keys(c.weightedTerms || {})]))];
    const head = el('tr', {}, ['node', 'tier / cluster', 'eligible / excluded because', 'breaker', 'score'].map((h, i) => el('th', { class: i === 4 ? 'num' : null, text: h })),
      names.map((n) => [el('th', { class: 'num', text: n, title: `${n} (raw)` }), el('th', { class: 'num', text: `${n} ×w`, title: `${n} (weighted)` })]));
    const rows = d.candidates.map((c) => el('tr', { 'data-testid': 'candidate-row', 'data-node': c.node ?? '', class: c.node === d.node ? 'chosen' : null },
      td(c.node), td(`${c.tier ?? DASH} / ${c.cluster ?? DASH}`),
      td(c.eligible ? 'eligible' : `excluded: ${c.excludedBecause ?? 'unknown'}`, c.eligible ? 'ok' : 'bad'),
      td(c.breakerOpen == null ? DASH : c.breakerOpen ? 'open' : 'closed', c.breakerOpen ? 'bad' : null),
      td(fmtNum(c.score, 3), 'num'),
      names.map((n) => [td(fmtNum(c.terms?.[n], 3), 'num'), td(fmtNum(c.weightedTerms?.[n], 3), 'num')])));
    return el('div', { class: 'table-wrap' },
      el('table', { class: 'grid', 'data-testid': 'candidate-table' }, el('thead', {}, head), el('tbody', {}, rows)));
  }

  function showDetail(d) {
    state.selected = d;
    for (const tr of $('decision-body').children) tr.classList.toggle('selected', tr.dataset.requestId === String(d.requestId));
    const fields = el('dl', { class: 'fields' }, Object.entries(d).filter(([k]) => k !== 'candidates')
      .map(([k, v]) => [el('dt', { text: k }), el('dd', { 'data-field': k, text: fmtField(v) })]));
    const box = $('decision-detail');
    box.replaceChildren(
      el('div', { class: 'detail-head' }, el('h3', { text: `Decision ${d.requestId}` }),
        el('button', { type: 'button', 'data-testid': 'decision-detail-close', text: 'Close', onclick: closeDetail })),
      fields, el('h4', { text: 'Candidates' }),
      Array.isArray(d.candidates) ? candidateTable(d)
        : el('p', { class: 'muted', 'data-testid': 'no-candidates', text: 'this decision was recorded without candidate terms' }));
    box.hidden = false;
    box.scrollIntoView({ block: 'nearest' });
  }

  function closeDetail() {
    state.selected = null;
    $('decision-detail').hidden = true;
    $('decision-body').querySelector('tr.selected')?.classList.remove('selected');
  }

  // ---------- policy ----------
  function setEditor(doc, force) {
    if (doc == null) return;
    const editor = $('policy-editor');
    if (!force && editor.value !== state.editorBase) return; // never clobber unsaved edits
    editor.value = state.editorBase = JSON.stringify(doc, null, 2);
    updateApply();
  }

  function updateApply() {
    $('policy-apply').disabled = !(state.dryRunText != null && $('policy-editor').value === state.dryRunText);
  }

  function onPolicy(p, fromEvent) {
    const prev = state.policy?.version;
    state.policy = p || null;
    $('policy-version').textContent = p ? `active version ${p.version} · updated by ${p.updatedBy ?? 'unknown'}` : 'no active policy';
    if (!p) return;
    setEditor(p.document, false);
    if (fromEvent && prev !== p.version) { state.etag = null; loadHistory(); loadPolicy(false, true); }
  }

  async function loadPolicy(force = false, quiet = false) {
    if (!state.token) return;
    try {
      const { data, res } = await api('GET', 'api/policy');
      state.etag = data?.etag ?? res.headers.get('ETag');
      setEditor(data?.document, force);
    } catch (e) {
      if (!quiet) setStatus(`load policy: ${e.message}`, 'error');
    }
  }

  async function loadHistory() {
    const list = $('policy-history');
    try {
      const { data } = await api('GET', 'api/policy/history', { auth: false });
      const item = (v) => {
        const active = v.version === data.activeVersion;
        return el('li', { 'data-testid': 'policy-history-item', 'data-version': v.version, class: active ? 'active' : null }, el('b', { text: `v${v.version}` }),
          ` ${fmtDateTime(v.at)} · ${v.by ?? '?'} · ${v.action ?? DASH} · ${v.changeCount ?? 0} change${v.changeCount === 1 ? '' : 's'} `,
          active && el('span', { class: 'badge s-HEALTHY', text: 'active' }));
      };
      const versions = data?.versions || [];
      list.replaceChildren(...(versions.length ? versions.map(item) : [el('li', { class: 'muted', text: 'no versions yet' })]));
    } catch (e) {
      list.replaceChildren(el('li', { class: 'muted', text: `history unavailable: ${e.message}` }));
    }
  }

  const fmtTransition = (t) => (t?.from != null && t?.to != null ? `${t.from} → ${t.to}${t.count != null ? `: ${t.count}` : ''}` : fmtField(t));

  function renderDiff(r) {
    const changes = r?.changes || [], tr = r?.transitions;
    const transitions = Array.isArray(tr) ? tr.map(fmtTransition) : Object.entries(tr || {}).map(([k, v]) => `${k}: ${fmtField(v)}`);
    $('policy-diff').replaceChildren(
      el('p', { class: r?.valid === false ? 'bad' : 'ok', text: `${r?.valid === false ? 'invalid' : 'valid'} against active version ${r?.activeVersion ?? DASH}` }),
      changes.length
        ? el('ul', { class: 'changes' }, changes.map((c) => el('li', { 'data-testid': 'policy-change', class: `k-${c.kind}`, text: `${c.kind} ${c.path}` })))
        : el('p', { class: 'muted', text: 'no changes' }),
      el('p', { 'data-testid': 'policy-replay', text: `replayed ${r?.replayed ?? 0} recent decisions, ${r?.changedTier ?? 0} would change tier` }),
      ...(transitions.length ? [el('ul', { class: 'transitions' }, transitions.slice(0, 20).map((t) => el('li', { text: t })))] : []));
  }

  function parseEditor() {
    try { return JSON.parse($('policy-editor').value); }
    catch (e) { setStatus(`invalid JSON: ${e.message}`, 'error'); return undefined; }
  }

  async function dryRun() {
    const text = $('policy-editor').value, doc = parseEditor();
    state.dryRunText = null;
    updateApply();
    if (doc === undefined) return;
    if (!state.etag) await loadPolicy(false, true);
    const r = await adminAction('dry run', () => api('PUT', 'api/policy?dryRun=true', { body: doc, etag: state.etag }));
    if (!r) { $('policy-diff').replaceChildren(); return; }
    renderDiff(r.data);
    if (r.data?.valid === false) setStatus('dry run: policy is invalid', 'error');
    else state.dryRunText = text;
    updateApply();
  }

  async function apply() {
    const text = $('policy-editor').value, doc = text === state.dryRunText ? parseEditor() : undefined;
    if (doc === undefined) return;
    $('policy-apply').disabled = true;
    const r = await adminAction('apply policy', () => api('PUT', 'api/policy', { body: doc, etag: state.etag }));
    if (!r) { updateApply(); return; }
    state.dryRunText = null;
    state.editorBase = text; // the applied text is the new baseline, so the refresh below may replace it
    updateApply();
    setStatus(`policy applied${r.data?.version != null ? ` (version ${r.data.version})` : ''}`, 'ok');
    await loadPolicy(true, true);
    loadHistory();
  }

  // ---------- snapshot + events ----------
  function setMode() {
    Object.assign($('mode'), { textContent: state.local ? 'local mode (simulated fleet)' : 'cluster mode' }).dataset.local = state.local;
  }

  function setConnection(live) {
    const text = live ? 'live' : 'reconnecting';
    Object.assign($('connection'), { textContent: text }).dataset.state = text;
  }

  async function loadSnapshot() {
    const started = performance.now();
    const fresh = (kind) => !(state.lastEvent[kind] > started); // an event newer than this request wins
    try {
      const { data } = await api('GET', 'api/snapshot', { auth: false });
      if (state.local !== !!data.local) { state.local = !!data.local; setMode(); renderFleetSoon(); }
      if (fresh('fleet')) { state.nodes = data.fleet?.nodes || []; renderFleetSoon(); }
      if (fresh('series') && data.series) { state.series = data.series; renderChartsSoon(); }
      if (fresh('policy')) onPolicy(data.policy, false);
      for (const a of data.alerts || []) if (fresh('alert') || !state.alerts.has(a.scope)) state.alerts.set(a.scope, a);
      renderAlerts();
      mergeDecisions(data.decisions || []);
    } catch (e) { console.warn('snapshot failed', e); }
  }

  function connect() {
    const es = new EventSource('api/events');
    const on = (name, fn) => es.addEventListener(name, (ev) => {
      let data;
      try { data = JSON.parse(ev.data); } catch { return; }
      state.lastEvent[name] = performance.now();
      fn(data);
    });
    // Once subscribed, reload the snapshot to fill anything the stream could not carry (first load or a gap).
    es.addEventListener('open', () => { setConnection(true); loadSnapshot(); });
    es.addEventListener('error', () => {
      setConnection(false);
      if (es.readyState === EventSource.CLOSED) { es.close(); setTimeout(connect, 3000); }
    });
    on('fleet', (d) => { state.nodes = d?.nodes || []; renderFleetSoon(); });
    on('decision', addDecision);
    on('alert', (a) => { if (a?.scope != null) { state.alerts.set(a.scope, a); renderAlerts(); } });
    on('policy', (p) => onPolicy(p, true));
    on('series', (s) => { state.series = s; renderChartsSoon(); });
  }

  // ---------- wiring ----------
  function init() {
    const token = $('admin-token');
    token.value = state.token;
    token.addEventListener('input', () => {
      state.token = token.value.trim();
      state.etag = null;
      if (state.token) sessionStorage.setItem(TOKEN_KEY, state.token); else sessionStorage.removeItem(TOKEN_KEY);
    });
    token.addEventListener('change', () => loadPolicy());
    for (const id of ['filter-tier', 'filter-reason']) $(id).addEventListener('change', renderDecisionsSoon);
    $('filter-apikey').addEventListener('input', renderDecisionsSoon);
    $('decisions-pause').addEventListener('click', (ev) => {
      state.paused = !state.paused;
      ev.currentTarget.textContent = state.paused ? 'Resume' : 'Pause';
      ev.currentTarget.setAttribute('aria-pressed', String(state.paused));
      if (!state.paused) { state.decisions = state.pending.reverse().concat(state.decisions); state.pending = []; trim(); }
      renderDecisionsSoon();
    });
    $('decision-body').addEventListener('click', (ev) => {
      const id = ev.target.closest('tr[data-request-id]')?.dataset.requestId;
      const d = id && state.decisions.find((x) => String(x.requestId) === id);
      if (d) showDetail(d);
    });
    $('policy-editor').addEventListener('input', updateApply);
    $('policy-dry-run').addEventListener('click', dryRun);
    $('policy-apply').addEventListener('click', apply);

    setMode();
    setConnection(false);
    [renderFleet, renderCharts, renderAlerts, renderDecisions].forEach((render) => render());
    connect();
    loadSnapshot();
    loadHistory();
    loadPolicy(false, true);
  }

  init();
})();
