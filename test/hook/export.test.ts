import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readExport } from '../../packages/cli/src/export/config.js';
import { encode, encodeProtobuf, projectHash, sendExport } from '../../packages/cli/src/export/send.js';
import type { LogEntry } from '../../packages/cli/src/state/decision-log.js';
import { appendLog } from '../../packages/cli/src/state/decision-log.js';
import { scaled } from '../machine.js';
import { asProtobufCarries, decodeLogsRequest } from '../otlp-decode.js';
import { codexChat, guard, makeWorld, removeWorld } from './chats.js';
import type { World } from './chats.js';
import { writeSystemSettings } from '../../packages/cli/test/system-root.js';

// Decisions to the organisation's collector: a stand-in OTLP/HTTP collector on 127.0.0.1 receives
// every decision of a run of real hook calls (the sender each call starts after its answer ships
// them), none with a key's value; with the collector down they wait in the log and arrive when it
// is back.

interface Collector {
  readonly url: string;
  /** Each request taken, decoded (protobuf as OTLP's JSON encoding writes it). */
  readonly bodies: unknown[];
  readonly headers: IncomingMessage['headers'][];
  /** Answers every request with this status (503: a collector that is down behind its proxy). */
  status: number;
  close(): Promise<void>;
}

/** A stand-in OTLP/HTTP collector on 127.0.0.1: it reads each body by its content type, as a collector does. */
async function collector(): Promise<Collector> {
  const bodies: unknown[] = [];
  const headers: IncomingMessage['headers'][] = [];
  const state = { status: 200 };
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (state.status === 200 && request.url === '/v1/logs') {
        const body = Buffer.concat(chunks);
        const type = request.headers['content-type'];
        bodies.push(type === 'application/x-protobuf' ? decodeLogsRequest(body) : JSON.parse(body.toString('utf8')));
        headers.push(request.headers);
      }
      response.writeHead(state.status, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bodies,
    headers,
    get status() {
      return state.status;
    },
    set status(value: number) {
      state.status = value;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The content type each encoding is sent with (and the other's, which it must not be). */
const CONTENT_TYPE = { json: 'application/json', protobuf: 'application/x-protobuf' } as const;
const ENCODINGS = ['json', 'protobuf'] as const;

interface Attr {
  key: string;
  // (protobuf has no empty list: an attribute with none decodes with no values)
  value: { stringValue?: string; arrayValue?: { values?: { stringValue: string }[] } };
}
interface LogRecordJson {
  severityText: string;
  attributes: Attr[];
}

/** Every log record the collector received, as attribute maps. */
function received(c: Collector): Array<Map<string, string>> {
  return c.bodies.flatMap((body) =>
    (body as { resourceLogs: { scopeLogs: { logRecords: LogRecordJson[] }[] }[] }).resourceLogs.flatMap((resource) =>
      resource.scopeLogs.flatMap((scope) =>
        scope.logRecords.map(
          (record) =>
            new Map(
              record.attributes.map((attr) => [
                attr.key,
                attr.value.stringValue ?? attr.value.arrayValue?.values?.map((v) => v.stringValue).join(',') ?? '',
              ]),
            ),
        ),
      ),
    ),
  );
}

async function until(check: () => boolean, what: string): Promise<void> {
  const end = Date.now() + scaled(20_000);
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const KEY = 'sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c';
let world: World | undefined;
let stand: Collector | undefined;
afterEach(async () => {
  if (world !== undefined) removeWorld(world);
  await stand?.close();
  world = undefined;
  stand = undefined;
});

describe('guard export: decisions to an OTLP collector', { timeout: scaled(90_000) }, () => {
  it.for(ENCODINGS)(
    'every decision of a run of hook calls arrives in %s, redacted, with the headers; none before export was on',
    async (encoding) => {
      world = makeWorld('export');
      stand = await collector();
      const chat = codexChat(world, 'export-chat');
      await chat.shell('ls'); // before export is on: stays local
      const on = await guard(world, [
        'export',
        'on',
        '--otlp',
        stand.url,
        '--header',
        'Authorization=Bearer t0k3n',
        ...(encoding === 'json' ? [] : ['--encoding', encoding]),
      ]);
      expect(on.code).toBe(0);
      expect(on.stdout).not.toContain('t0k3n');
      expect(statSync(join(world.guardHome, 'export.json')).mode & 0o777).toBe(0o600);
      const steps = [
        'git status',
        'git push --force origin main',
        `curl -H "Authorization: Bearer ${KEY}" https://api.example.com`,
      ];
      for (const step of steps) await chat.shell(step);
      await until(
        () => received(stand as Collector).filter((r) => r.has('guard.decision')).length >= steps.length,
        'the records',
      );
      const records = received(stand).filter((r) => r.has('guard.decision'));
      expect(records.map((r) => r.get('guard.command'))).toEqual([
        'git status',
        'git push --force origin main',
        expect.not.stringContaining(KEY),
      ]);
      expect(records.map((r) => r.get('guard.decision'))).toEqual([
        'allow',
        'block',
        expect.stringMatching(/ask|block/),
      ]);
      expect(records[1]?.get('guard.rule_ids')).toContain('git.push');
      expect(records.every((r) => r.get('guard.agent') === 'codex' && r.get('guard.chat_id') === 'export-chat')).toBe(
        true,
      );
      expect(JSON.stringify(stand.bodies)).not.toContain(KEY);
      expect(stand.headers.every((h) => h.authorization === 'Bearer t0k3n')).toBe(true);
      expect(stand.headers.map((h) => h['content-type'])).toEqual(stand.headers.map(() => CONTENT_TYPE[encoding]));
      const status = JSON.parse((await guard(world, ['export', 'status', '--json'])).stdout) as Record<string, unknown>;
      expect(status).toMatchObject({
        on: true,
        endpoint: `${stand.url}/v1/logs`,
        headers: ['Authorization'],
        encoding,
      });
      expect(status['sent']).toBeGreaterThanOrEqual(steps.length);
      expect(JSON.stringify(status)).not.toContain('t0k3n');
    },
  );

  it.for(ENCODINGS)(
    'in %s, with the collector down the records wait in the log, and arrive when it is back',
    async (encoding) => {
      world = makeWorld('export-down');
      stand = await collector();
      const chat = codexChat(world, 'down-chat');
      expect(
        (await guard(world, ['export', 'on', '--otlp', stand.url, '--no-command', '--encoding', encoding])).code,
      ).toBe(0);
      stand.status = 503;
      await chat.shell('git push --force origin main');
      await chat.shell('npm test');
      const state = join(world.guardHome, 'export', 'state.json');
      await until(
        () => existsSync(state) && readFileSync(state, 'utf8').includes('HTTP 503'),
        'the failure to be kept',
      );
      expect(received(stand)).toEqual([]);
      // back again: the sender that kept trying (or the next one) delivers what waited
      stand.status = 200;
      await until(() => received(stand as Collector).filter((r) => r.has('guard.decision')).length >= 2, 'the records');
      const records = received(stand).filter((r) => r.has('guard.decision'));
      expect(records.map((r) => r.get('guard.decision'))).toEqual(['block', 'allow']);
      // --no-command: the step stays home
      expect(records.every((r) => !r.has('guard.command'))).toBe(true);
      // nothing is sent twice
      expect((await guard(world, ['export', 'send'])).code).toBe(0);
      await until(() => !existsSync(join((world as World).guardHome, 'export', 'sender.lock')), 'the sender to leave');
      expect(received(stand).filter((r) => r.has('guard.decision'))).toHaveLength(2);
      expect(JSON.parse(readFileSync(state, 'utf8'))).not.toHaveProperty('lastError');
      expect(stand.headers.every((h) => h['content-type'] === CONTENT_TYPE[encoding])).toBe(true);
    },
  );

  it.for([
    { args: ['export', 'on'], error: /Say where the collector is/ },
    {
      args: ['export', 'on', '--otlp', 'http://collector.example:4318'],
      error: /https:\/\/, or http:\/\/ to 127\.0\.0\.1/,
    },
    { args: ['export', 'on', '--otlp', 'https://user:pw@collector.example'], error: /user or password/ },
    {
      args: ['export', 'on', '--otlp', 'https://collector.example', '--header', 'no-equals'],
      error: /is not NAME=VALUE/,
    },
    {
      args: ['export', 'on', '--otlp', 'https://collector.example', '--encoding', 'grpc'],
      error: /--encoding "grpc" is not json or protobuf/,
    },
    // near misses of the two names
    {
      args: ['export', 'on', '--otlp', 'https://collector.example', '--encoding', 'Protobuf'],
      error: /--encoding "Protobuf" is not json or protobuf/,
    },
    {
      args: ['export', 'on', '--otlp', 'https://collector.example', '--encoding', 'proto'],
      error: /--encoding "proto" is not json or protobuf/,
    },
    {
      args: ['export', 'on', '--otlp', 'https://collector.example', '--encoding', ''],
      error: /--encoding "" is not json or protobuf/,
    },
    { args: ['export', 'on', '--otlp', 'https://collector.example', '--encoding'], error: /argument missing/ },
  ])('guard $args: a usage error, export stays off', async ({ args, error }) => {
    world = makeWorld('export-usage');
    const result = await guard(world, args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(error);
    expect(existsSync(join(world.guardHome, 'export.json'))).toBe(false);
    expect(existsSync(join(world.guardHome, 'export', 'state.json'))).toBe(false);
  });

  it.for([
    { given: [], encoding: 'json', shown: 'as OTLP JSON' },
    { given: ['--encoding', 'json'], encoding: 'json', shown: 'as OTLP JSON' },
    { given: ['--encoding', 'protobuf'], encoding: 'protobuf', shown: 'as OTLP protobuf' },
  ])('guard export on $given: $encoding, kept and shown by status', async ({ given, encoding, shown }) => {
    world = makeWorld('export-encoding');
    const on = await guard(world, ['export', 'on', '--otlp', 'https://collector.example', ...given]);
    expect(on.code).toBe(0);
    expect(on.stdout).toContain(`log record in OTLP ${encoding === 'json' ? 'JSON' : 'protobuf'} (the step`);
    expect(JSON.parse(readFileSync(join(world.guardHome, 'export.json'), 'utf8'))).toMatchObject({ encoding });
    expect((await guard(world, ['export', 'status'])).stdout).toContain(`https://collector.example/v1/logs ${shown}`);
    const status = JSON.parse((await guard(world, ['export', 'status', '--json'])).stdout) as Record<string, unknown>;
    expect(status['encoding']).toBe(encoding);
  });

  it('off: nothing more is sent, and off again says so', async () => {
    world = makeWorld('export-off');
    expect((await guard(world, ['export', 'on', '--otlp', 'https://collector.example:4318/v1/logs'])).code).toBe(0);
    expect((await guard(world, ['export', 'off'])).stdout).toContain(
      'Export is off: nothing more goes to https://collector.example:4318/v1/logs.',
    );
    expect((await guard(world, ['export', 'off'])).stdout).toContain('Export was already off');
    expect((await guard(world, ['export'])).stdout).toContain('Export is off');
  });
});

describe('the OTLP encoding', () => {
  const entry: LogEntry = {
    time: '2026-12-07T10:00:00.123Z',
    how: 'rules',
    agent: 'claude-code',
    chat: 'c1',
    decision: 'ask',
    answer: 'block',
    rules: ['fs.delete', 'pkg.unlisted'],
    step: 'rm -rf build',
    ms: 12,
  };
  it.for([
    { command: true, has: 'guard.command' },
    { command: false, has: undefined },
  ])('command $command', ({ command, has }) => {
    const body = JSON.parse(encode([entry], { command, projectPath: false })) as {
      resourceLogs: {
        resource: { attributes: Attr[] };
        scopeLogs: { logRecords: (LogRecordJson & { timeUnixNano: string; severityNumber: number })[] }[];
      }[];
    };
    const [resource] = body.resourceLogs;
    expect(resource?.resource.attributes.map((a) => a.key)).toEqual(['service.name', 'service.version', 'host.name']);
    const record = resource?.scopeLogs[0]?.logRecords[0];
    expect(record).toMatchObject({ timeUnixNano: '1796637600123000000', severityNumber: 17, severityText: 'ERROR' });
    const keys = record?.attributes.map((a) => a.key) ?? [];
    expect(keys).toContain('guard.rule_ids');
    expect(keys.includes('guard.command')).toBe(has !== undefined);
  });

  // the project is its folder's hash unless the person (or the system settings) chose to send the path
  it.for([
    { name: 'hashed by default', project: '/projects/app', projectPath: false, sent: projectHash('/projects/app') },
    { name: 'the path when asked', project: '/projects/app', projectPath: true, sent: '/projects/app' },
    { name: 'none without a project', project: undefined, projectPath: false, sent: undefined },
    { name: 'none without a project, path asked', project: undefined, projectPath: true, sent: undefined },
  ])('project: $name', ({ project, projectPath, sent }) => {
    const body = JSON.parse(
      encode([{ ...entry, ...(project === undefined ? {} : { project }) }], { command: true, projectPath }),
    ) as {
      resourceLogs: { scopeLogs: { logRecords: LogRecordJson[] }[] }[];
    };
    const attributes = body.resourceLogs[0]?.scopeLogs[0]?.logRecords[0]?.attributes ?? [];
    expect(attributes.find((a) => a.key === 'guard.project')?.value.stringValue).toBe(sent);
    expect(JSON.stringify(body).includes('/projects/app')).toBe(projectPath && project !== undefined);
  });

  // the protobuf request, read by another decoder, says what the JSON one says: the same records and attributes
  it.for([
    { name: 'a decision with its step', entries: [entry], command: true, projectPath: false },
    { name: 'without the step', entries: [entry], command: false, projectPath: false },
    {
      name: 'a project, hashed, and one sent as it is',
      entries: [{ ...entry, project: '/projects/app' }],
      command: true,
      projectPath: true,
    },
    {
      name: 'several, of every kind',
      entries: [
        entry,
        { time: '2026-12-07T10:00:01.000Z', how: 'rules', decision: 'allow', step: 'ls', mode: 'extended' },
        { time: '2026-12-07T10:00:02.999Z', how: 'switch', changed: { export: 'off' } },
      ],
      command: true,
      projectPath: false,
    },
    {
      // what proto3 cannot tell from absent (no rule ids, time 0) is absent from the bytes
      name: 'empty values',
      entries: [{ time: 'not a time', how: 'rules', decision: 'block', rules: [], step: 'é ✓ \u0000', ms: 0 }],
      command: true,
      projectPath: false,
      defaults: true,
    },
  ] as Array<{ name: string; entries: LogEntry[]; command: boolean; projectPath: boolean; defaults?: true }>)(
    'protobuf and JSON carry the same: $name',
    async ({ entries, command, projectPath, defaults }) => {
      const json: unknown = JSON.parse(encode(entries, { command, projectPath }));
      const decoded = decodeLogsRequest(await encodeProtobuf(entries, { command, projectPath }));
      expect(decoded).toEqual(defaults === true ? asProtobufCarries(json) : json);
      if (defaults === true) expect(decoded).not.toEqual(json);
    },
  );

  // export.json as guard wrote it before there was a choice, and as a hand may have edited it
  it.for([
    { name: 'no encoding (written before the choice): JSON', encoding: undefined, read: 'json' },
    { name: 'json', encoding: 'json', read: 'json' },
    { name: 'protobuf', encoding: 'protobuf', read: 'protobuf' },
    { name: 'a name guard does not know: the file is not used', encoding: 'grpc', read: undefined },
    { name: 'in capitals: not used', encoding: 'JSON', read: undefined },
    { name: 'not a string: not used', encoding: 1, read: undefined },
  ])('readExport with $name', ({ encoding, read }) => {
    const home = mkdtempSync(join(tmpdir(), 'guard-export-file-'));
    try {
      const file = { endpoint: 'https://collector.example/v1/logs', headers: {}, command: true, encoding };
      writeFileSync(join(home, 'export.json'), JSON.stringify(file));
      expect(readExport(home)?.encoding).toBe(read);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('near miss: a record that differs is told apart after the protobuf round trip', async () => {
    const one = decodeLogsRequest(await encodeProtobuf([entry], { command: true, projectPath: false }));
    const other = JSON.parse(encode([{ ...entry, step: 'rm -rf buile' }], { command: true, projectPath: false }));
    expect(one).not.toEqual(other);
  });

  it.for([
    ['/projects/app', '/projects/app', true],
    ['/projects/app', '/projects/app2', false],
    ['/projects/app', '/projects/app/', false],
  ] as const)('projectHash(%s) equals projectHash(%s): %s', ([a, b, same]) => {
    expect(projectHash(a)).toMatch(/^[0-9a-f]{16}$/);
    expect(projectHash(a) === projectHash(b)).toBe(same);
  });

  // the organisation's salt: the same folder hashes differently under two salts, alike under one, and
  // alike (as before any salt) without; another folder under the same salt differs
  it.for([
    { a: ['/projects/app', 'acme-1'], b: ['/projects/app', 'acme-2'], same: false },
    { a: ['/projects/app', 'acme-1'], b: ['/projects/app', 'acme-1'], same: true },
    { a: ['/projects/app', undefined], b: ['/projects/app', undefined], same: true },
    { a: ['/projects/app', 'acme-1'], b: ['/projects/app', undefined], same: false },
    { a: ['/projects/app', 'acme-1'], b: ['/projects/app2', 'acme-1'], same: false },
  ] as const)('salted: projectHash$a equals projectHash$b: $same', ({ a, b, same }) => {
    const hash = ([path, salt]: readonly [string, string | undefined]): string => projectHash(path, salt);
    expect(hash(a)).toMatch(/^[0-9a-f]{16}$/);
    expect(hash(a) === hash(b)).toBe(same);
  });

  it("without a salt, the hash is the folder path's SHA-256 as before (records already sent still match)", () => {
    expect(projectHash('/projects/app')).toBe(createHash('sha256').update('/projects/app').digest('hex').slice(0, 16));
  });

  it.for([
    { salt: 'acme-1', sent: projectHash('/projects/app', 'acme-1') },
    { salt: undefined, sent: projectHash('/projects/app') },
  ])('encode hashes the project with the salt $salt', ({ salt, sent }) => {
    const body = JSON.parse(
      encode([{ ...entry, project: '/projects/app' }], {
        command: true,
        projectPath: false,
        ...(salt === undefined ? {} : { projectSalt: salt }),
      }),
    ) as { resourceLogs: { scopeLogs: { logRecords: LogRecordJson[] }[] }[] };
    const attributes = body.resourceLogs[0]?.scopeLogs[0]?.logRecords[0]?.attributes ?? [];
    expect(attributes.find((a) => a.key === 'guard.project')?.value.stringValue).toBe(sent);
    // the salt itself never goes
    expect(JSON.stringify(body).includes('acme-1')).toBe(false);
  });
});

// keep the fixture writer honest: a torn last line is not sent until it is whole
describe('the spool is the log', () => {
  it('a torn last line is left for the next sender', async () => {
    world = makeWorld('export-torn');
    stand = await collector();
    expect((await guard(world, ['export', 'on', '--otlp', stand.url])).code).toBe(0);
    const log = join(world.guardHome, 'log.jsonl');
    const line = JSON.stringify({ time: new Date().toISOString(), how: 'rules', decision: 'allow', step: 'ls' });
    writeFileSync(log, `${readFileSync(log, 'utf8')}${line}\n${line.slice(0, 20)}`);
    expect((await guard(world, ['export', 'send'])).code).toBe(0);
    expect(received(stand).filter((r) => r.has('guard.decision'))).toHaveLength(1);
  });
});

describe('the spool is bounded by the log', () => {
  it('a log rotated past the position counts a drop and sends from the oldest line left', async () => {
    world = makeWorld('export-overrun');
    stand = await collector();
    expect((await guard(world, ['export', 'on', '--otlp', stand.url])).code).toBe(0);
    const line = (step: string): string =>
      `${JSON.stringify({ time: new Date().toISOString(), how: 'rules', decision: 'allow', step })}\n`;
    // the file the position pointed into was rotated away (log.2 dropped it), two newer ones are left
    const state = join(world.guardHome, 'export', 'state.json');
    writeFileSync(state, JSON.stringify({ position: { ino: 1, offset: 10 }, sent: 0, dropped: 0 }));
    writeFileSync(join(world.guardHome, 'log.1.jsonl'), line('older'));
    writeFileSync(join(world.guardHome, 'log.jsonl'), line('newer'));
    expect((await guard(world, ['export', 'send'])).stdout).toBe('Sent 2 records.\n');
    expect(received(stand).map((r) => r.get('guard.command'))).toEqual(['older', 'newer']);
    expect(JSON.parse(readFileSync(state, 'utf8'))).toMatchObject({ sent: 2, dropped: 1 });
    expect((await guard(world, ['export', 'status'])).stdout).toContain(
      'the log rotated past records not yet sent 1 time',
    );
  });
});

describe(
  'export turned on for everyone by the system settings (a scratch system root)',
  { timeout: scaled(60_000) },
  () => {
    /** From the start of the log as it is: what the chat decided waits to be sent. */
    function fromStart(guardHome: string): void {
      const ino = statSync(join(guardHome, 'log.jsonl')).ino;
      mkdirSync(join(guardHome, 'export'), { recursive: true });
      writeFileSync(
        join(guardHome, 'export', 'state.json'),
        JSON.stringify({ position: { ino, offset: 0 }, sent: 0, dropped: 0 }),
      );
    }

    it.for([
      { name: 'projects hashed', extra: '', path: false, salt: undefined, type: CONTENT_TYPE.json },
      {
        name: "projects hashed with the organisation's salt",
        extra: 'exportProjectSalt: acme-1\n',
        path: false,
        salt: 'acme-1',
        type: CONTENT_TYPE.json,
      },
      {
        name: 'project folders as they are',
        extra: 'exportProjectPath: true\n',
        path: true,
        salt: undefined,
        type: CONTENT_TYPE.json,
      },
      {
        name: "in protobuf, hashed with the organisation's salt",
        extra: 'exportEncoding: protobuf\nexportProjectSalt: acme-1\n',
        path: false,
        salt: 'acme-1',
        type: CONTENT_TYPE.protobuf,
      },
    ])('every decision arrives with its project: $name', async ({ extra, path, salt, type }) => {
      world = makeWorld('export-system');
      stand = await collector();
      const root = join(world.root, 'system-root');
      writeSystemSettings(root, `exportOtlp: ${stand.url}\nexportHeader-X-Tenant: acme\n${extra}`);
      const chat = codexChat(world, 'system-chat');
      await chat.shell('git status');
      await chat.shell('git push --force origin main');
      fromStart(world.guardHome);
      const result = await sendExport(world.guardHome, { systemRoot: root, lingerMs: 0, retryForMs: 0 });
      expect(result.error).toBeUndefined();
      const records = received(stand).filter((r) => r.has('guard.decision'));
      expect(records.map((r) => r.get('guard.decision'))).toEqual(['allow', 'block']);
      const project = realpathSync(world.project);
      expect(records.map((r) => r.get('guard.project'))).toEqual(
        Array(2).fill(path ? project : projectHash(project, salt)),
      );
      expect(JSON.stringify(stand.bodies).includes(project)).toBe(path);
      expect(stand.headers.every((h) => h['x-tenant'] === 'acme' && h['content-type'] === type)).toBe(true);
    });

    it('near miss: with no system file and no user export, nothing is sent', async () => {
      world = makeWorld('export-system-none');
      const chat = codexChat(world, 'none-chat');
      await chat.shell('git status');
      const root = join(world.root, 'system-root');
      expect(await sendExport(world.guardHome, { systemRoot: root, lingerMs: 0, retryForMs: 0 })).toEqual({
        sent: 0,
        skipped: 'off',
      });
    });
  },
);

describe('the spool stays under its bound', () => {
  it('with the collector down, a thousand decisions leave at most three log files of the bound, and the drop is counted', async () => {
    world = makeWorld('export-bound');
    stand = await collector();
    stand.status = 503;
    expect((await guard(world, ['export', 'on', '--otlp', stand.url])).code).toBe(0);
    const bound = 4096;
    const entry = (n: number): LogEntry => ({
      time: new Date().toISOString(),
      how: 'rules',
      decision: 'allow',
      step: `echo ${n}`,
    });
    for (let n = 0; n < 1000; n++) appendLog(world.guardHome, entry(n), bound);
    const files = ['log.jsonl', 'log.1.jsonl', 'log.2.jsonl', 'log.3.jsonl'].map((name) =>
      join((world as World).guardHome, name),
    );
    const sizes = files.map((file) => (existsSync(file) ? statSync(file).size : 0));
    expect(sizes[3]).toBe(0);
    expect(sizes.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(3 * bound);
    // back again: what is left arrives, from the oldest line kept; what rotated away is counted
    stand.status = 200;
    const result = await sendExport(world.guardHome, {
      systemRoot: join(world.root, 'system-root'),
      lingerMs: 0,
      retryForMs: 0,
    });
    const steps = received(stand).map((r) => r.get('guard.command'));
    expect(result.sent).toBe(steps.length);
    expect(steps.length).toBeLessThan(1000);
    expect(steps.at(-1)).toBe('echo 999');
    const state = JSON.parse(readFileSync(join(world.guardHome, 'export', 'state.json'), 'utf8')) as {
      dropped: number;
    };
    expect(state.dropped).toBeGreaterThanOrEqual(1);
  });

  it('near miss: under the bound nothing rotates, nothing is dropped, every line arrives', async () => {
    world = makeWorld('export-under-bound');
    stand = await collector();
    expect((await guard(world, ['export', 'on', '--otlp', stand.url])).code).toBe(0);
    for (let n = 0; n < 20; n++)
      appendLog(
        world.guardHome,
        { time: new Date().toISOString(), how: 'rules', decision: 'allow', step: `echo ${n}` },
        64 * 1024,
      );
    expect(existsSync(join(world.guardHome, 'log.1.jsonl'))).toBe(false);
    await sendExport(world.guardHome, { systemRoot: join(world.root, 'system-root'), lingerMs: 0, retryForMs: 0 });
    expect(received(stand).filter((r) => r.get('guard.command')?.startsWith('echo '))).toHaveLength(20);
    const state = JSON.parse(readFileSync(join(world.guardHome, 'export', 'state.json'), 'utf8')) as {
      dropped: number;
    };
    expect(state.dropped).toBe(0);
  });
});
