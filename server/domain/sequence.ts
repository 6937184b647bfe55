/** The order scenes play in a render (SPEC §3 Scene type). Pure. */

const RANK: Readonly<Record<string, number>> = { intro: 0, outro: 2 };

/** Intro scenes first and outro scenes last, each group keeping its storyboard order. */
export function renderOrder<T extends { type: string }>(scenes: readonly T[]): T[] {
  // Array#sort is stable: equal ranks keep their order.
  return [...scenes].sort((a, b) => (RANK[a.type] ?? 1) - (RANK[b.type] ?? 1));
}
