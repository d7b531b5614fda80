// experiment: a V8 start-up snapshot holding the evaluated hook bundle
const fs = require('node:fs');
const vm = require('node:vm');
const v8 = require('node:v8');
const BUNDLE = process.env.SNAP_BUNDLE;
const DIR = require('node:path').dirname(BUNDLE);
// the snapshot builder has no SharedArrayBuffer; the bundle makes one at load (the lock's sleeper)
globalThis.SharedArrayBuffer ??= ArrayBuffer;
const source = fs.readFileSync(BUNDLE, 'latin1');
const fn = vm.runInThisContext(`(function (exports, require, module, __filename, __dirname, __import) {${source}\n})`, { filename: BUNDLE });
const mod = { exports: {} };
fn(mod.exports, require, mod, BUNDLE, DIR, (s) => import(s));
const runHook = mod.exports.runHook;
v8.startupSnapshot.setDeserializeMainFunction(() => {
  void runHook(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
});
