import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** The part of the profile to rank, in milliseconds before its end (the process exit). */
export interface ProfileWindow {
  fromEndMs: number;
  toEndMs: number;
}

export interface HotSpot {
  name: string;
  /** Where: a gateway file (dist/...), a package, or node internals. */
  where: string;
  selfPct: number;
  totalPct: number;
}

export interface ProfileSummary {
  durationMs: number;
  samples: number;
  idlePct: number;
  /** Functions by self time (all code). */
  bySelf: HotSpot[];
  /** Gateway functions (dist/) by inclusive time. */
  gatewayByTotal: HotSpot[];
  /** Self time per area (gateway directory, package, node internals). */
  byArea: Array<{ area: string; selfPct: number }>;
}

const TOP = 15;

/** Reads a V8 .cpuprofile and ranks where the time went inside `window`. */
export function summarizeProfile(
  path: string,
  repoRoot: string,
  window: ProfileWindow,
): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const hitsById = windowHits(profile, window);
  const total = [...hitsById.values()].reduce((a, b) => a + b, 0) || 1;
  const self = new Map<string, { spot: HotSpot; hits: number }>();
  const inclusive = new Map<string, number>();
  const areas = new Map<string, number>();
  let idle = 0;

  const walk = (id: number, onStack: Set<string>): number => {
    const node = byId.get(id);
    if (!node) return 0;
    const key = keyOf(node);
    const hits = hitsById.get(id) ?? 0;
    let subtree = hits;
    const fresh = !onStack.has(key);
    if (fresh) onStack.add(key);
    for (const child of node.children ?? []) subtree += walk(child, onStack);
    if (fresh) {
      onStack.delete(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + subtree);
    }
    const name = node.callFrame.functionName || '(anonymous)';
    if (name === '(idle)' || name === '(program)' || name === '(garbage collector)') {
      if (name === '(idle)') idle += hits;
    }
    const where = whereOf(node.callFrame.url, node.callFrame.lineNumber, repoRoot);
    const entry = self.get(key) ?? { spot: { name, where, selfPct: 0, totalPct: 0 }, hits: 0 };
    entry.hits += hits;
    self.set(key, entry);
    const area = areaOf(node.callFrame.url, name, repoRoot);
    areas.set(area, (areas.get(area) ?? 0) + hits);
    return subtree;
  };
  walk(profile.nodes[0].id, new Set());

  const pct = (hits: number) => (hits / total) * 100;
  const spots = [...self.entries()].map(([key, { spot, hits }]) => ({
    ...spot,
    selfPct: pct(hits),
    totalPct: pct(inclusive.get(key) ?? 0),
  }));
  return {
    durationMs: window.fromEndMs - window.toEndMs,
    samples: total,
    idlePct: pct(idle),
    bySelf: spots
      .filter((s) => s.name !== '(idle)')
      .sort((a, b) => b.selfPct - a.selfPct)
      .slice(0, TOP),
    gatewayByTotal: spots
      .filter((s) => s.where.startsWith('dist/'))
      .sort((a, b) => b.totalPct - a.totalPct)
      .slice(0, TOP),
    byArea: [...areas.entries()]
      .map(([area, hits]) => ({ area, selfPct: pct(hits) }))
      .filter((a) => a.area !== '(idle)')
      .sort((a, b) => b.selfPct - a.selfPct)
      .slice(0, TOP),
  };
}

function windowHits(profile: CpuProfile, window: ProfileWindow): Map<number, number> {
  const from = profile.endTime - window.fromEndMs * 1000;
  const to = profile.endTime - window.toEndMs * 1000;
  const hits = new Map<number, number>();
  let time = profile.startTime;
  profile.samples.forEach((id, i) => {
    time += profile.timeDeltas[i] ?? 0;
    if (time >= from && time <= to) hits.set(id, (hits.get(id) ?? 0) + 1);
  });
  return hits;
}

function keyOf(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  return `${functionName}@${url}:${lineNumber}`;
}

function relative(url: string, repoRoot: string): string {
  const path = url.replace(/^file:\/\//, '');
  return path.startsWith(`${repoRoot}/`) ? path.slice(repoRoot.length + 1) : path;
}

function whereOf(url: string, line: number, repoRoot: string): string {
  if (url === '') return '(native/V8)';
  return `${relative(url, repoRoot)}:${line + 1}`;
}

function areaOf(url: string, name: string, repoRoot: string): string {
  if (url === '') return name.startsWith('(') ? name : '(native/V8)';
  const path = relative(url, repoRoot);
  if (path.startsWith('node:')) return 'node internals';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (pkg) return pkg[1];
  const dist = /^dist\/([^/]+)/.exec(path);
  return dist ? `gateway dist/${dist[1]}` : path;
}
