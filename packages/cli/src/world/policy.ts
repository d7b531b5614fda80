import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { enclosingPolicyRoots } from './project-policy.js';
import { EMPTY_POLICY, rules as builtinRules, type Policy, type PolicyRule, type Rule } from '@guard/core';
import type { LineCounter, Node as YamlNode } from 'yaml';

/** The project policy file, at the project root. */
export const POLICY_FILE = '.guard.yaml';

const MAX_POLICY_BYTES = 256 * 1024;
const TOP_KEYS = ['secrets', 'block', 'rules', 'allow'] as const;
const RULE_KEYS = ['id', 'program', 'args', 'decision', 'reason'] as const;
const ALLOW_KEYS = ['rule', 'paths'] as const;
const POLICY_ID = /^policy\.[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A project policy as loaded: what applies, and what was wrong with the file (one line per problem). */
export interface LoadedPolicy {
  readonly policy: Policy;
  readonly error?: string;
}

/**
 * Reads `.guard.yaml` at the project root; never throws. No file: the empty policy, and the yaml
 * library is not even loaded. A file with problems gives `error` (each line `file:line: where: what`)
 * and a policy that only tightens: the valid secrets, blocks and rules apply, every `allow` is
 * dropped, and a file that is not YAML at all applies nothing.
 */
export function loadPolicy(projectRoot: string): LoadedPolicy {
  const path = join(projectRoot, POLICY_FILE);
  let text: string;
  try {
    const stat = statSync(path);
    // a pipe or device here would make the read wait forever
    if (!stat.isFile()) return failed(`${POLICY_FILE}:1: this is not a regular file, so guard did not read it.`);
    if (stat.size > MAX_POLICY_BYTES)
      return failed(
        `${POLICY_FILE}:1: the file is larger than ${MAX_POLICY_BYTES / 1024} KB, so guard did not read it.`,
      );
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { policy: EMPTY_POLICY };
    return failed(`${POLICY_FILE}:1: the file could not be read (${code ?? String(error)}).`);
  }
  return parsePolicy(text, path);
}

/**
 * The policy for a project and every project around it (a repository nested in another): the
 * nearest `.guard.yaml` applies as it is, and each one further out still adds what it tightens
 * (secrets, blocks, rules), so a nested repository's file cannot silently replace the outer
 * project's. Allows come from the nearest file only, and never reach outside its project.
 */
export function loadPolicies(projectRoot: string): LoadedPolicy {
  let loaded = loadPolicy(projectRoot);
  for (const outer of enclosingPolicyRoots(projectRoot)) loaded = withOuter(loaded, loadPolicy(outer), outer);
  return loaded;
}

function withOuter(inner: LoadedPolicy, outer: LoadedPolicy, outerRoot: string): LoadedPolicy {
  const { policy } = inner;
  const ids = new Set(policy.rules.map((rule) => rule.id));
  // the outer file's relative globs name places under its own folder
  const secrets = outer.policy.secrets.map((glob) =>
    glob.startsWith('/') || glob.startsWith('~/') || !glob.includes('/') ? glob : `${outerRoot}/${glob}`,
  );
  const merged: Policy = {
    ...policy,
    secrets: [...new Set([...policy.secrets, ...secrets])],
    block: [...new Set([...policy.block, ...outer.policy.block])],
    rules: [...policy.rules, ...outer.policy.rules.filter((rule) => !ids.has(rule.id))],
  };
  const errors = [
    inner.error,
    outer.error === undefined ? undefined : `${join(outerRoot, POLICY_FILE)}: ${outer.error}`,
  ];
  const error = errors.filter((line) => line !== undefined).join('\n');
  return error === '' ? { policy: merged } : { policy: merged, error };
}

function failed(error: string): LoadedPolicy {
  return { policy: EMPTY_POLICY, error };
}

interface Problem {
  readonly line: number;
  readonly where: string;
  readonly message: string;
}

/** Validates policy text (pure apart from loading the yaml library); see loadPolicy for what applies. */
export function parsePolicy(
  text: string,
  source: string = POLICY_FILE,
  catalogue: readonly Rule[] = builtinRules,
): LoadedPolicy {
  const yaml = process.getBuiltinModule('node:module').createRequire(import.meta.url)('yaml') as typeof import('yaml');
  const lineCounter = new yaml.LineCounter();
  const doc = yaml.parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const name = POLICY_FILE;
  if (doc.errors.length > 0) {
    const lines = doc.errors.map(
      (e) => `${name}:${lineCounter.linePos(e.pos[0]).line}: ${firstLine(e.message)}; nothing in the file was applied.`,
    );
    return { policy: { ...EMPTY_POLICY, source }, error: lines.join('\n') };
  }

  const problems: Problem[] = [];
  const reader = new Reader(yaml, lineCounter, problems);
  const root = doc.contents;
  const policy = {
    secrets: [] as string[],
    block: [] as string[],
    rules: [] as PolicyRule[],
    allow: [] as { rule: string; paths: string[] }[],
  };
  const byId = new Map(catalogue.map((rule) => [rule.meta.id, rule]));

  if (root !== null && !(yaml.isScalar(root) && root.value === null)) {
    const top = reader.map(root, '', TOP_KEYS, `the top level must be a mapping with the keys ${TOP_KEYS.join(', ')}`);
    for (const [key, value] of top) {
      if (key === 'secrets') policy.secrets.push(...reader.strings(value, 'secrets', 'a path glob', 'path globs'));
      if (key === 'block') {
        for (const [node, where] of reader.list(value, 'block', 'ask-rule ids')) {
          const rule = reader.string(node, where, 'an ask-rule id');
          const known = rule === undefined ? undefined : byId.get(rule);
          if (rule === undefined) continue;
          if (!known) reader.problem(node, where, unknownRule(rule));
          else if (known.meta.decision === 'block')
            reader.problem(node, where, `${rule} is on the never list and is always blocked already`);
          else policy.block.push(rule);
        }
      }
      if (key === 'rules') {
        const seen = new Set<string>();
        for (const [node, where] of reader.list(value, 'rules', 'rules (id, program, args, decision, reason)')) {
          const rule = readRule(reader, node, where, seen);
          if (rule) policy.rules.push(rule);
        }
      }
      if (key === 'allow') {
        for (const [node, where] of reader.list(value, 'allow', 'entries (rule, paths)')) {
          const entry = readAllow(reader, node, where, byId);
          if (entry) policy.allow.push(entry);
        }
      }
    }
  }

  if (problems.length === 0) return { policy: { ...policy, source } };
  const lines = problems.map((p) => `${name}:${p.line}: ${p.where ? `${p.where}: ` : ''}${p.message}.`);
  // a file with mistakes still tightens what it validly can, but loosens nothing
  return { policy: { ...policy, allow: [], source }, error: lines.join('\n') };
}

function readAllow(
  reader: Reader,
  node: YamlNode,
  where: string,
  byId: ReadonlyMap<string, Rule>,
): { rule: string; paths: string[] } | undefined {
  const fields = reader.map(node, where, ALLOW_KEYS, 'must be a mapping with the keys rule and paths');
  if (!reader.isMap(node)) return undefined;
  const before = reader.count();
  const ruleNode = fields.get('rule');
  const id = reader.required(ruleNode, node, `${where}.rule`, 'an ask-rule id');
  const known = id === undefined ? undefined : byId.get(id);
  if (id !== undefined && !known) reader.problem(ruleNode ?? node, `${where}.rule`, unknownRule(id));
  else if (id !== undefined && known?.meta.decision === 'block')
    reader.problem(ruleNode ?? node, `${where}.rule`, `${id} is on the never list and cannot be allowed`);
  const pathsNode = fields.get('paths');
  const paths = pathsNode === undefined ? [] : reader.strings(pathsNode, `${where}.paths`, 'a path glob', 'path globs');
  // an allow with no paths would cover the whole project; that has to be said with "**"
  if (reader.count() === before && paths.length === 0) {
    reader.problem(
      pathsNode ?? node,
      `${where}.paths`,
      'must list at least one path glob (use "**" for the whole project)',
    );
  }
  return reader.count() > before || id === undefined ? undefined : { rule: id, paths };
}

function readRule(reader: Reader, node: YamlNode, where: string, seen: Set<string>): PolicyRule | undefined {
  const fields = reader.map(node, where, RULE_KEYS, `must be a mapping with the keys ${RULE_KEYS.join(', ')}`);
  if (fields.size === 0 && !reader.isMap(node)) return undefined;
  const before = reader.count();
  const id = reader.required(fields.get('id'), node, `${where}.id`, 'an id such as policy.no-prod-deploy');
  if (id !== undefined && !POLICY_ID.test(id)) {
    reader.problem(
      fields.get('id') ?? node,
      `${where}.id`,
      `${JSON.stringify(id)} must look like policy.some-name (lower-case words joined by dashes)`,
    );
  } else if (id !== undefined && seen.has(id)) {
    reader.problem(fields.get('id') ?? node, `${where}.id`, `${id} is used by an earlier rule`);
  }
  if (id !== undefined) seen.add(id);
  const program = reader.required(fields.get('program'), node, `${where}.program`, 'a program name such as terraform');
  if (program !== undefined && /[\s/\\]/.test(program)) {
    reader.problem(
      fields.get('program') ?? node,
      `${where}.program`,
      `${JSON.stringify(program)} must be a bare program name such as terraform (no folder, no spaces)`,
    );
  }
  const argsNode = fields.get('args');
  const args =
    argsNode === undefined ? [] : reader.strings(argsNode, `${where}.args`, 'an argument word', 'argument words');
  const decision = reader.required(fields.get('decision'), node, `${where}.decision`, 'ask or block');
  if (decision !== undefined && decision !== 'ask' && decision !== 'block') {
    reader.problem(
      fields.get('decision') ?? node,
      `${where}.decision`,
      `must be ask or block, not ${JSON.stringify(decision)}`,
    );
  }
  const reason = reader.required(
    fields.get('reason'),
    node,
    `${where}.reason`,
    'one sentence saying why, for the agent and the person',
  );
  if (reader.count() > before || id === undefined || program === undefined || reason === undefined) return undefined;
  return { id, program, args, decision: decision === 'block' ? 'block' : 'ask', reason };
}

function firstLine(message: string): string {
  return (message.split('\n')[0] ?? message).replace(/\.$/, '');
}

/** Small typed readers over yaml nodes that record a problem (with its line) instead of throwing. */
class Reader {
  constructor(
    private readonly yaml: typeof import('yaml'),
    private readonly lines: LineCounter,
    private readonly problems: Problem[],
  ) {}

  count(): number {
    return this.problems.length;
  }

  problem(node: YamlNode | null | undefined, where: string, message: string): void {
    const offset = node?.range?.[0];
    this.problems.push({ line: offset === undefined ? 1 : this.lines.linePos(offset).line, where, message });
  }

  isMap(node: unknown): boolean {
    return this.yaml.isMap(node);
  }

  /** The entries of a mapping with string keys from `allowed`; anything else is a problem. */
  map<K extends string>(node: unknown, where: string, allowed: readonly K[], expected: string): Map<K, YamlNode> {
    const out = new Map<K, YamlNode>();
    if (!this.yaml.isMap(node)) {
      this.problem(this.yaml.isNode(node) ? node : undefined, where, expected);
      return out;
    }
    for (const pair of node.items) {
      const keyNode = this.yaml.isNode(pair.key) ? pair.key : undefined;
      const key = this.yaml.isScalar(pair.key) ? String(pair.key.value) : undefined;
      const at = where ? `${where}.${key ?? '?'}` : (key ?? '?');
      if (key === undefined || !(allowed as readonly string[]).includes(key)) {
        this.problem(keyNode ?? node, at, `unknown key; the keys here are ${allowed.join(', ')}`);
        continue;
      }
      if (this.yaml.isNode(pair.value)) out.set(key as K, pair.value);
      else this.problem(keyNode, at, 'has no value');
    }
    return out;
  }

  /** The items of a sequence, with their `where` labels (`block[2]`). */
  list(node: YamlNode, where: string, many: string): [YamlNode, string][] {
    if (!this.yaml.isSeq(node)) {
      this.problem(node, where, `must be a list of ${many}`);
      return [];
    }
    return node.items.flatMap((item, i): [YamlNode, string][] => {
      if (this.yaml.isNode(item)) return [[item, `${where}[${i}]`]];
      this.problem(node, `${where}[${i}]`, 'is empty');
      return [];
    });
  }

  /** A non-empty string scalar, else a problem (`one` names what was expected, with its article). */
  string(node: YamlNode, where: string, one: string): string | undefined {
    if (this.yaml.isScalar(node) && typeof node.value === 'string' && node.value.trim() !== '') return node.value;
    this.problem(node, where, `must be ${one}`);
    return undefined;
  }

  /** A field that must be there: a missing one is reported at its parent. */
  required(node: YamlNode | undefined, parent: YamlNode, where: string, one: string): string | undefined {
    if (node === undefined) {
      this.problem(parent, where, `is missing; give ${one}`);
      return undefined;
    }
    return this.string(node, where, one);
  }

  /** A list of non-empty strings; the bad items are problems, the good ones are returned. */
  strings(node: YamlNode, where: string, one: string, many: string): string[] {
    return this.list(node, where, many).flatMap(([item, at]) => this.string(item, at, one) ?? []);
  }
}

function unknownRule(id: string): string {
  return `${id} is not a rule guard knows; \`guard rules\` lists them`;
}
