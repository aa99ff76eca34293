import fs from 'node:fs';
import path from 'node:path';

/**
 * Stageline's own lint rules, cheap enough to run on every `npm run lint` (docs/architecture.md
 * §Layers). Imports are read with a regular expression and resolved by hand (relative specifiers
 * only, `.ts`/`.tsx`/`index`), once per package per run: no second TypeScript program.
 *
 * - `feature-entry`: a module outside `features/<x>/` imports that feature only through its entry
 *   files (`index.ts`, plus the extra entries the config names, such as web pipelines' `read-only`).
 * - `no-cycle`: no import cycle between files, and none between features.
 * - `docs-exist`: a comment cites only documents the repository holds: not the product spec or the
 *   style notes kept outside it (the names are in `missing` below), nor a `docs/…md` that is not there.
 */

const importPattern =
  /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
const commentPattern = /\/\*[\s\S]*?\*\/|\/\/[^\n]*/g;
const isTest = (file) => /\.test\.tsx?$/.test(file);

/** The file a relative specifier names, or null when it is not one of ours. */
function resolve(fromFile, specifier) {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(fromFile), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
    if (/\.tsx?$/.test(candidate) && fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return null;
}

function listSources(dir, out = []) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) listSources(full, out);
    else if (/\.tsx?$/.test(entry.name) && !/\.d\.ts$/.test(entry.name) && !isTest(entry.name)) out.push(full);
  }
  return out;
}

/** `packages/<pkg>/src` of a file, or null. */
function srcRootOf(file) {
  const match = /^(.*[\\/]packages[\\/][^\\/]+[\\/]src)[\\/]/.exec(file);
  return match ? match[1] : null;
}

/** The feature a file belongs to (`features/<x>/…`), or null. */
function featureOf(srcRoot, file) {
  const rel = path.relative(path.join(srcRoot, 'features'), file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const parts = rel.split(path.sep);
  return parts.length > 1 ? parts[0] : null;
}

/** Tarjan's strongly connected components, iterative; returns node → component id for cycles only. */
function cyclicComponents(graph) {
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const component = new Map();
  let counter = 0;
  let componentId = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work = [[start, [...(graph.get(start) ?? [])], 0]];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [node, next] = frame;
      if (frame[2] < next.length) {
        const target = next[frame[2]++];
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push([target, [...(graph.get(target) ?? [])], 0]);
        } else if (onStack.has(target)) {
          low.set(node, Math.min(low.get(node), index.get(target)));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === index.get(node)) {
        const members = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          members.push(member);
        } while (member !== node);
        const selfLoop = (graph.get(node) ?? new Set()).has(node);
        if (members.length > 1 || selfLoop) {
          componentId++;
          for (const m of members) component.set(m, componentId);
        }
      }
    }
  }
  return component;
}

const packageGraphs = new Map();

/** The import graph of one package's `src` (tests left out), files and features, with their cycles. */
function packageGraph(srcRoot) {
  const cached = packageGraphs.get(srcRoot);
  if (cached) return cached;
  const files = new Map();
  const features = new Map();
  for (const file of listSources(srcRoot)) {
    const text = fs.readFileSync(file, 'utf8').replace(commentPattern, '');
    const targets = new Set();
    for (const match of text.matchAll(importPattern)) {
      const target = resolve(file, match[1] ?? match[2]);
      if (target && !isTest(target)) targets.add(target);
    }
    files.set(file, targets);
    const from = featureOf(srcRoot, file);
    if (!from) continue;
    if (!features.has(from)) features.set(from, new Set());
    for (const target of targets) {
      const to = featureOf(srcRoot, target);
      if (to && to !== from) features.get(from).add(to);
    }
  }
  const graph = { files, fileCycles: cyclicComponents(files), featureCycles: cyclicComponents(features) };
  packageGraphs.set(srcRoot, graph);
  return graph;
}

/** Calls `check(node, specifier)` for every import, re-export and dynamic import of the file. */
function eachImport(check) {
  const onSource = (node) => {
    if (node.source && typeof node.source.value === 'string') check(node, node.source.value);
  };
  return {
    ImportDeclaration: onSource,
    ExportNamedDeclaration: onSource,
    ExportAllDeclaration: onSource,
    ImportExpression: onSource,
  };
}

const featureEntry = {
  meta: {
    type: 'problem',
    docs: { description: 'A feature is imported only through its entry files, never its internals.' },
    schema: [
      {
        type: 'object',
        properties: {
          extraEntries: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
          screenImporters: { type: 'array', items: { type: 'string' } },
        },
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const file = context.filename;
    const srcRoot = srcRootOf(file);
    if (!srcRoot || isTest(file)) return {};
    const { extraEntries = {}, screenImporters = [] } = context.options[0] ?? {};
    const own = featureOf(srcRoot, file);
    const relFile = path.relative(srcRoot, file).split(path.sep).join('/');
    const mayImportScreens = screenImporters.some((prefix) => relFile.startsWith(prefix));
    return eachImport((node, specifier) => {
      const target = resolve(file, specifier);
      if (!target) return;
      const feature = featureOf(srcRoot, target);
      if (!feature || feature === own) return;
      const inside = path
        .relative(path.join(srcRoot, 'features', feature), target)
        .split(path.sep)
        .join('/')
        .replace(/\.tsx?$/, '');
      const entries = ['index', ...(extraEntries[feature] ?? []).flatMap((e) => [e, `${e}/index`])];
      if (entries.includes(inside)) return;
      if (mayImportScreens && inside.startsWith('routes/')) return;
      context.report({
        node,
        message: `'${specifier}' reaches into the ${feature} feature; import it from 'features/${feature}' (its index.ts) and export what is needed there.`,
      });
    });
  },
};

const noCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'No import cycle between files of a package, nor between its features.' },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const srcRoot = srcRootOf(file);
    if (!srcRoot || isTest(file)) return {};
    const graph = packageGraph(srcRoot);
    const own = featureOf(srcRoot, file);
    return eachImport((node, specifier) => {
      const target = resolve(file, specifier);
      if (!target || isTest(target)) return;
      const fileCycle = graph.fileCycles.get(file);
      if (fileCycle !== undefined && graph.fileCycles.get(target) === fileCycle) {
        context.report({ node, message: `'${specifier}' closes an import cycle between files.` });
        return;
      }
      const feature = featureOf(srcRoot, target);
      if (!own || !feature || feature === own) return;
      const featureCycle = graph.featureCycles.get(own);
      if (featureCycle !== undefined && graph.featureCycles.get(feature) === featureCycle) {
        context.report({
          node,
          message: `The ${own} and ${feature} features import each other (directly or through others); move what both need down a layer (web or server shared code, or packages/shared).`,
        });
      }
    });
  },
};

const missing = /\b(?:product|domain|STYLE)\.md\b/;
const docReference = /\bdocs\/[\w./-]+?\.md\b/g;

const docsExist = {
  meta: {
    type: 'problem',
    docs: { description: 'Comments cite only documents that are in the repository.' },
    schema: [],
  },
  create(context) {
    const repoRoot = context.cwd;
    return {
      Program() {
        for (const comment of context.sourceCode.getAllComments()) {
          const bad = missing.exec(comment.value);
          if (bad) {
            context.report({
              loc: comment.loc,
              message: `'${bad[0]}' is not in the repository: cite docs/ (rules.md, decisions.md, architecture.md) or say the rule here.`,
            });
          }
          for (const [reference] of comment.value.matchAll(docReference)) {
            if (!fs.existsSync(path.join(repoRoot, reference))) {
              context.report({ loc: comment.loc, message: `'${reference}' does not exist.` });
            }
          }
        }
      },
    };
  },
};

export default {
  meta: { name: 'eslint-plugin-stageline' },
  rules: { 'feature-entry': featureEntry, 'no-cycle': noCycle, 'docs-exist': docsExist },
};
