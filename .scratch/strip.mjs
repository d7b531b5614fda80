// experiment: hook bundle with rule examples stripped, written to OUT dir
import { bundleHook } from '../scripts/bundle-hook.mjs';
import { parseAst } from 'rolldown/parseAst';
import { cpSync, mkdirSync } from 'node:fs';
const out = process.argv[2];
mkdirSync(out, { recursive: true });
cpSync('packages/cli/dist/hook-load.cjs', `${out}/hook-load.cjs`);
let removed = 0;
const strip = {
  name: 'strip-examples',
  transform(code, id) {
    if (!/[\\/]core[\\/]dist[\\/]rules[\\/]/.test(id) || !code.includes('examples')) return null;
    const ast = parseAst(code);
    const cuts = [];
    const walk = (node) => {
      if (!node || typeof node !== 'object') return;
      if (Array.isArray(node)) return node.forEach(walk);
      if (node.type === 'Property' && !node.computed && (node.key?.name === 'examples') && node.value?.type === 'ObjectExpression') { cuts.push([node.value.start, node.value.end]); return; }
      for (const k in node) if (k !== 'parent') walk(node[k]);
    };
    walk(ast);
    let s = code;
    for (const [a, b] of cuts.sort((x, y) => y[0] - x[0])) { removed += b - a; s = s.slice(0, a) + '{match:[],noMatch:[]}' + s.slice(b); }
    return { code: s, map: null };
  },
};
const r = await bundleHook({ out, plugins: [strip] });
console.log(r, 'removed chars', removed);
