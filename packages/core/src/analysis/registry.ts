import { argAt, argvOf } from '../context/argv.js';
import { cmdletWith } from '../programs/index.js';
import type { Invocation } from '../shell/types.js';
import type { Span } from '../types.js';

/** One Windows registry key a command changes (adds, sets, deletes, imports into). */
export interface RegistryChange {
  /** `hkcu`, `hklm`, `hkcr`, `hku`, `hkcc`, or `unknown` (`reg import file.reg` can write anywhere). */
  readonly hive: 'hkcu' | 'hklm' | 'hkcr' | 'hku' | 'hkcc' | 'unknown';
  /**
   * The key below the hive, lower-case with every separator and space removed: a POSIX shell drops the
   * backslashes of an unquoted `HKCU\Software\…`, so only this flat form compares the same
   * whichever way the command was written (`…\CurrentVersion\Run` → `…currentversionrun`).
   */
  readonly key: string;
  /** The value name set (`reg add … /v Name`, `Set-ItemProperty … -Name Name`), when given. */
  readonly value?: string;
  readonly span: Span;
}

const REG_VERBS = new Set(['add', 'delete', 'import', 'copy', 'restore', 'load', 'unload']);

const HIVES: Readonly<Record<string, RegistryChange['hive']>> = {
  hkcu: 'hkcu',
  hkey_current_user: 'hkcu',
  hklm: 'hklm',
  hkey_local_machine: 'hklm',
  hkcr: 'hkcr',
  hkey_classes_root: 'hkcr',
  hku: 'hku',
  hkey_users: 'hku',
  hkcc: 'hkcc',
  hkey_current_config: 'hkcc',
};
const REGISTRY_DRIVE = /^(?:registry::|hk(?:cu|lm|cr|u|cc):)/i;
// Longest names first so `hkey_users` is not read as `hku` + `ey_users`.
const HIVE_NAMES = Object.keys(HIVES).sort((a, b) => b.length - a.length);

/** Reads `HKCU\…`, `HKCU:\…`, `HKEY_LOCAL_MACHINE\…`, `Registry::HKLM\…` (separators optional). */
export function registryKey(
  value: string,
): { readonly hive: RegistryChange['hive']; readonly key: string } | undefined {
  let flat = value.toLowerCase().replace(/[\\/:\s]/g, '');
  if (flat.startsWith('registry')) flat = flat.slice('registry'.length);
  const name = HIVE_NAMES.find((hive) => flat.startsWith(hive));
  if (name === undefined) return undefined;
  return { hive: HIVES[name] as RegistryChange['hive'], key: flat.slice(name.length) };
}

/** The registry keys an invocation changes: `reg add|delete|import|…`, PowerShell item cmdlets on `HK…:` paths. */
export function registryChanges(inv: Invocation): RegistryChange[] {
  if (inv.name === 'reg') {
    const verb = (inv.args[0] ?? '').toLowerCase();
    if (!REG_VERBS.has(verb)) return [];
    const target = argAt(inv, 1);
    const value = regValueName(inv);
    const parsed = verb === 'import' ? undefined : registryKey(target.value);
    return [
      {
        hive: parsed?.hive ?? 'unknown',
        key: parsed?.key ?? '',
        ...(value === undefined ? {} : { value }),
        span: inv.span,
      },
    ];
  }
  // PowerShell's item cmdlets that change what a provider path holds (their aliases too: `sp`, `ni`, `ri`, …)
  if (!cmdletWith(inv.name, 'item-changer')) return [];
  const out: RegistryChange[] = [];
  const value = argvOf(inv).values('-Name')[0]?.value;
  for (let i = 0; i < inv.args.length; i++) {
    // PowerShell reaches the registry through a drive (`HKCU:`) or the provider prefix
    const parsed = REGISTRY_DRIVE.test(inv.args[i] ?? '') ? registryKey(inv.args[i] ?? '') : undefined;
    if (parsed) out.push({ ...parsed, ...(value === undefined ? {} : { value }), span: inv.argSpans[i] ?? inv.span });
  }
  return out;
}

function regValueName(inv: Invocation): string | undefined {
  for (let i = 2; i < inv.args.length; i++) {
    if (/^[/-]v$/i.test(inv.args[i] ?? '')) return inv.args[i + 1];
  }
  return undefined;
}
