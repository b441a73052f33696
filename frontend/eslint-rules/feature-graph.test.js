// @vitest-environment node
/**
 * Features import each other without a cycle (docs/frontend.md, "Boundaries"). The lint rule
 * (feature-boundaries.js) sees one import at a time; this walks every import of the app's
 * modules under src/features/ (tests left out: a test may reach into a feature it drives) and
 * fails with the cycle it found, e.g. 'posts → comments → posts'.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'src');
const features = join(src, 'features');

function modules(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return modules(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The feature a path lies in, or null outside src/features/. */
function featureOf(path) {
  const [top, name] = relative(src, path).split(sep);
  return top === 'features' && name ? name : null;
}

/** feature → the other features its modules import (statically, dynamically or re-exporting). */
function featureGraph() {
  const graph = new Map();
  for (const file of modules(features)) {
    const from = featureOf(file);
    const edges = graph.get(from) ?? new Set();
    graph.set(from, edges);
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const to = featureOf(resolve(dirname(file), fileName));
      if (to && to !== from) edges.add(to);
    }
  }
  return graph;
}

/** One cycle of the graph as a path ('a → b → a'), or null when there is none. */
function findCycle(graph) {
  const state = new Map(); // node → 'open' while on the path, 'done' after
  const path = [];
  function visit(node) {
    if (state.get(node) === 'done') return null;
    if (state.get(node) === 'open') return [...path.slice(path.indexOf(node)), node].join(' → ');
    state.set(node, 'open');
    path.push(node);
    for (const next of [...(graph.get(node) ?? [])].sort()) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(node, 'done');
    return null;
  }
  for (const node of [...graph.keys()].sort()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return null;
}

describe('the import graph of src/features', () => {
  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['b'])],
    ]);
    expect(findCycle(graph)).toBe('b → c → b');
    expect(findCycle(new Map([['a', new Set(['b'])], ['b', new Set()]]))).toBeNull();
  });

  it('sees the features import each other (posts shows comments, reports, the player and scores)', () => {
    const graph = featureGraph();
    expect([...(graph.get('posts') ?? [])].sort()).toEqual(['comments', 'player', 'reports', 'scores']);
    expect([...(graph.get('comments') ?? [])].sort()).toEqual(['reports']);
  });

  it('has no cycle between features', () => {
    expect(findCycle(featureGraph())).toBeNull();
  });
});
