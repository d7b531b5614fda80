import { rolldown } from 'rolldown';
import { isBuiltin } from 'node:module';
const bundle = await rolldown({ input: 'packages/cli/dist/hook/run.js', platform: 'node', treeshake: true, external: (id) => id.startsWith('node:') || isBuiltin(id) || ['yaml','execa','smol-toml'].includes(id), logLevel: 'silent' });
const { output } = await bundle.generate({ format: 'cjs', codeSplitting: false, dynamicImportInCjs: true, minify: true });
const mods = Object.entries(output[0].modules).map(([id, m]) => [id.replace(/.*packages\//, ''), m.renderedLength]).sort((a, b) => b[1] - a[1]);
let tot = 0; for (const [, l] of mods) tot += l;
console.log('total', tot, 'modules', mods.length);
for (const [id, l] of mods.slice(0, 40)) console.log(String(l).padStart(7), id);
