/**
 * The hottest functions of a Chromium CPU profile, named through the build's source maps, so the
 * report says "Storyboard.tsx:120 SceneCard" rather than "index-3f2a.js:1:48213 e".
 */
import { readFile } from "node:fs/promises";
import path from "node:path";

export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

interface Hot {
  name: string;
  where: string;
  /** Self time, or total time for the app's functions. */
  selfMs: number;
}

const TOP = 15;
const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const VLQ_SHIFT = 5;
const VLQ_CONTINUE = 1 << VLQ_SHIFT;
const VLQ_MASK = VLQ_CONTINUE - 1;

/** Source map v3 segments: [generatedColumn, source, originalLine, originalColumn, name?], per generated line. */
type Segment = [number, number, number, number, number | undefined];

function decodeMappings(mappings: string): Segment[][] {
  const lines: Segment[][] = [];
  let source = 0;
  let originalLine = 0;
  let originalColumn = 0;
  let name = 0;
  for (const line of mappings.split(";")) {
    const segments: Segment[] = [];
    let column = 0;
    for (const text of line.split(",")) {
      if (!text) continue;
      const values: number[] = [];
      let value = 0;
      let shift = 0;
      for (const char of text) {
        const digit = BASE64.indexOf(char);
        value += (digit & VLQ_MASK) << shift;
        if (digit & VLQ_CONTINUE) shift += VLQ_SHIFT;
        else {
          values.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      column += values[0] ?? 0;
      if (values.length < 4) continue;
      source += values[1]!;
      originalLine += values[2]!;
      originalColumn += values[3]!;
      if (values.length > 4) name += values[4]!;
      segments.push([column, source, originalLine, originalColumn, values.length > 4 ? name : undefined]);
    }
    lines.push(segments);
  }
  return lines;
}

interface SourceMap {
  /** The folder the map's source paths are relative to. */
  dir: string;
  sources: string[];
  names: string[];
  lines: Segment[][];
}

async function loadMap(distDir: string, url: string, cache: Map<string, SourceMap | null>): Promise<SourceMap | null> {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    return null;
  }
  if (!cache.has(pathname)) {
    try {
      const file = path.join(distDir, `${pathname}.map`);
      const raw = JSON.parse(await readFile(file, "utf8"));
      cache.set(pathname, { dir: path.dirname(file), sources: raw.sources, names: raw.names ?? [], lines: decodeMappings(raw.mappings) });
    } catch {
      cache.set(pathname, null);
    }
  }
  return cache.get(pathname) ?? null;
}

/** A package's path from its name on; the app's from the repository's root. */
function shortPath(file: string): string {
  const inPackages = file.lastIndexOf("node_modules/");
  return inPackages >= 0 ? file.slice(inPackages + "node_modules/".length) : path.relative(process.cwd(), file);
}

/** Where a generated position came from: the last segment at or before the column. */
function original(map: SourceMap, line: number, column: number) {
  const segments = map.lines[line] ?? [];
  let found: Segment | undefined;
  for (const s of segments) {
    if (s[0] > column) break;
    found = s;
  }
  if (!found) return undefined;
  const file = path.resolve(map.dir, map.sources[found[1]] ?? "?");
  return { source: shortPath(file), app: !file.includes("/node_modules/"), line: found[2] + 1, name: found[4] === undefined ? undefined : map.names[found[4]] };
}

/** A profile node's function, named through the source map when there is one. */
async function describe(node: CpuProfile["nodes"][number], distDir: string, maps: Map<string, SourceMap | null>): Promise<{ name: string; where: string; app: boolean }> {
  const { functionName, url, lineNumber, columnNumber } = node.callFrame;
  let name = functionName || "(anonymous)";
  let where = url ? `${new URL(url).pathname}:${lineNumber + 1}` : "";
  const map = url ? await loadMap(distDir, url, maps) : null;
  const from = map ? original(map, lineNumber, columnNumber) : undefined;
  if (from) {
    where = `${from.source}:${from.line}`;
    if (from.name && (!functionName || functionName.length <= 2)) name = from.name;
  }
  // App code, as opposed to packages and the engine.
  return { name, where, app: from?.app ?? false };
}

/**
 * The functions and the source files with the most self time (engine internals such as "(program)",
 * "(garbage collector)" and "(idle)" included), and the app's own functions by total time (their
 * callees included): where a component's render cost comes from.
 */
export async function hottest(profile: CpuProfile, distDir: string): Promise<{ functions: Hot[]; files: Hot[]; app: Hot[] }> {
  const selfUs = new Map<number, number>();
  profile.samples.forEach((node, i) => selfUs.set(node, (selfUs.get(node) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const maps = new Map<string, SourceMap | null>();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const described = new Map<number, { name: string; where: string; app: boolean; key: string }>();
  for (const node of profile.nodes) {
    const d = await describe(node, distDir, maps);
    described.set(node.id, { ...d, key: `${d.name}@${d.where}` });
  }
  const add = (m: Map<string, Hot>, key: string, name: string, where: string, us: number) => {
    const hot = m.get(key) ?? { name, where, selfMs: 0 };
    hot.selfMs += us / 1000;
    m.set(key, hot);
  };

  const byFunction = new Map<string, Hot>();
  const byFile = new Map<string, Hot>();
  for (const node of profile.nodes) {
    const us = selfUs.get(node.id);
    const d = described.get(node.id)!;
    if (!us) continue;
    add(byFunction, d.key, d.name, d.where, us);
    const file = d.where ? d.where.replace(/:\d+$/, "") : d.name;
    add(byFile, file, file, "", us);
  }

  // Total time: a node's self time plus its subtree's, counted once per function on a stack (recursion).
  const totalUs = new Map<number, number>();
  const total = (id: number): number => {
    const known = totalUs.get(id);
    if (known !== undefined) return known;
    const node = byId.get(id);
    const sum = (selfUs.get(id) ?? 0) + (node?.children ?? []).reduce((acc, child) => acc + total(child), 0);
    totalUs.set(id, sum);
    return sum;
  };
  const byApp = new Map<string, Hot>();
  const walk = (id: number, onStack: ReadonlySet<string>) => {
    const d = described.get(id)!;
    const counted = d.app && !onStack.has(d.key);
    if (counted) add(byApp, d.key, d.name, d.where, total(id));
    const next = counted ? new Set([...onStack, d.key]) : onStack;
    for (const child of byId.get(id)?.children ?? []) walk(child, next);
  };
  const root = profile.nodes[0];
  if (root) walk(root.id, new Set());

  const top = (m: Map<string, Hot>) => [...m.values()].sort((a, b) => b.selfMs - a.selfMs).slice(0, TOP);
  return { functions: top(byFunction), files: top(byFile), app: top(byApp) };
}
