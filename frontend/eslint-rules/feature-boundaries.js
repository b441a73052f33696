/**
 * The import boundaries of src/ (docs/frontend.md, "Layout"):
 *
 * - a feature (src/features/<area>/) uses another feature only through that feature's public
 *   surface, src/features/<other>/index.ts (imported as '../<other>' or '../<other>/index'); its
 *   api.ts, components and pages are its own;
 * - src/components/ and src/lib/ are shared by everyone, so they import no feature and nothing
 *   of the shell (src/app/);
 * - features do not import the shell either: the shell imports them (the router's pages).
 *
 * Relative paths are resolved against the importing file, so '../profiles' and
 * '../../profiles' mean the same module wherever they are written.
 *
 * That features import each other without a cycle is checked by feature-graph.test.js.
 */
import { dirname, relative, resolve, sep } from 'node:path';

/** The part of src/ a path belongs to: a feature name, or 'components', 'lib', 'app', null. */
function areaOf(pathInSrc) {
  const [top, second] = pathInSrc.split('/');
  if (top === 'features' && second) return { kind: 'feature', name: second };
  if (top === 'components' || top === 'lib' || top === 'app') return { kind: top, name: top };
  return null;
}

/** 'features/profiles', 'features/profiles/index', 'features/profiles/index.ts' → true. */
function isPublicModule(pathInSrc) {
  return /^features\/[^/]+(\/index(\.tsx?)?)?$/.test(pathInSrc);
}

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: { description: 'Features talk to each other through index.ts; shared code imports no feature' },
    schema: [],
    messages: {
      internal:
        "'{{source}}' is inside the {{other}} feature: import it from features/{{other}} (its index.ts), or move what is shared to components/ or lib/",
      shared: "{{area}}/ is shared by every feature and must not import '{{source}}'",
      shell: "features must not import the shell ('{{source}}'); the shell imports them",
    },
  },
  create(context) {
    const filename = context.filename;
    const marker = `${sep}src${sep}`;
    const at = filename.lastIndexOf(marker);
    if (at === -1) return {};
    const srcDir = filename.slice(0, at + marker.length - 1);
    const toSrc = (path) => relative(srcDir, path).split(sep).join('/');
    const from = areaOf(toSrc(filename));
    if (!from) return {};

    function check(node) {
      const source = node.source;
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      if (!source.value.startsWith('.')) return;
      const target = toSrc(resolve(dirname(filename), source.value));
      if (target.startsWith('..')) return;
      const to = areaOf(target);
      if (!to) return;
      const data = { source: source.value, other: to.name, area: from.name };

      if (from.kind === 'components' || from.kind === 'lib') {
        if (to.kind === 'feature' || to.kind === 'app') context.report({ node: source, messageId: 'shared', data });
        return;
      }
      if (from.kind === 'feature') {
        if (to.kind === 'app') context.report({ node: source, messageId: 'shell', data });
        else if (to.kind === 'feature' && to.name !== from.name && !isPublicModule(target)) {
          context.report({ node: source, messageId: 'internal', data });
        }
      }
    }

    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};
