// The export's sender's cost per batch (SPEC §10, docs/performance.md "Export: the protobuf
// encoding"): N decisions encoded as one OTLP/HTTP logs request, in JSON and in protobuf, each in a
// fresh process (the sender is a short-lived one): how long the first request takes (for protobuf
// with loading the OpenTelemetry serializer, which the sender does on its first batch), the median
// of the requests after it, and the request's size. Run by `npm run bench` (the start part); alone,
// after `npm run build`:
//
//   node scripts/export-encode.mjs [--records N] [--rounds N]
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const SEND = join(fileURLToPath(new URL('..', import.meta.url)), 'packages/cli/dist/export/send.js');
const ENCODINGS = ['json', 'protobuf'];

/** N decisions as the log keeps them: a harmless step and a blocked push, each with its rule ids and step. */
function entries(records) {
  return Array.from({ length: records }, (_, n) => ({
    time: new Date(Date.UTC(2026, 11, 7, 10, 0, 0, n)).toISOString(),
    how: 'rules',
    agent: 'codex',
    chat: '01a2273f-cfcb-7371-b14a-9ad11511244c',
    event: 'PreToolUse',
    tool: 'Bash',
    kind: 'shell',
    project: '/home/dev/projects/app',
    ...(n % 2 === 0
      ? { decision: 'allow', answer: 'allow', rules: [], step: `git status --short ${n}` }
      : { decision: 'block', answer: 'block', rules: ['git.push'], step: `git push --force origin main ${n}` }),
    mode: 'standard',
    ms: n % 40,
  }));
}

/** In this process: one encoding's first request and the median of `rounds` more. */
async function one(encoding, records, rounds) {
  const { encode, encodeProtobuf } = await import(pathToFileURL(SEND).href);
  const list = entries(records);
  const config = { command: true, projectPath: false };
  const run = encoding === 'protobuf' ? () => encodeProtobuf(list, config) : async () => encode(list, config);
  let started = performance.now();
  const body = await run();
  const firstMs = performance.now() - started;
  const ms = [];
  for (let round = 0; round < rounds; round++) {
    started = performance.now();
    await run();
    ms.push(performance.now() - started);
  }
  ms.sort((a, b) => a - b);
  return {
    encoding,
    records,
    bytes: typeof body === 'string' ? Buffer.byteLength(body) : body.length,
    firstMs,
    medianMs: ms[Math.floor(ms.length / 2)],
  };
}

/** Each encoding in a fresh process, as the sender runs. */
export function exportEncodeBench({ records = 500, rounds = 20 } = {}) {
  return ENCODINGS.map((encoding) => {
    const child = spawnSync(
      process.execPath,
      [fileURLToPath(import.meta.url), '--one', encoding, '--records', String(records), '--rounds', String(rounds)],
      { encoding: 'utf8' },
    );
    if (child.status !== 0) throw new Error(`export-encode ${encoding} exited ${child.status}: ${child.stderr}`);
    return JSON.parse(child.stdout);
  });
}

export function describeExportEncode(results) {
  return results.map(
    (item) =>
      `export encode, ${item.records} records as ${item.encoding}: ${(item.bytes / 1024).toFixed(0)} KB; first request ${item.firstMs.toFixed(1)} ms${item.encoding === 'protobuf' ? ' (loading the serializer with it)' : ''}, then ${item.medianMs.toFixed(1)} ms (median)`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      one: { type: 'string' },
      records: { type: 'string', default: '500' },
      rounds: { type: 'string', default: '20' },
    },
  });
  const records = Number(values.records);
  const rounds = Number(values.rounds);
  if (values.one !== undefined) {
    process.stdout.write(`${JSON.stringify(await one(values.one, records, rounds))}\n`);
  } else {
    for (const line of describeExportEncode(exportEncodeBench({ records, rounds }))) console.log(line);
  }
}
