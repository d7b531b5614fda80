import type { ArgvSpec, FileUse, ProgramSpec } from '../types.js';
import { POWERSHELL_COMMON } from './files.js';

// PowerShell's cmdlets, each with its built-in aliases. An alias that is also a POSIX program's
// name (`rm`, `ls`, `cat`, `curl` in Windows PowerShell) keeps that program's entry for look-ups
// by name; `cmdletOf` (../lookup.ts) gives the cmdlet it stands for in a PowerShell line.

/**
 * A cmdlet's parameters: whole words, compared without case, or any start of one that names no
 * other; these take a value (the switches most cmdlets that change things have are known too, so
 * `-r` is `-Recurse` and `-fo` is `-Force`).
 */
const cmdlet = (...values: string[]): ArgvSpec => ({
  values,
  common: POWERSHELL_COMMON,
  words: true,
  prefixes: true,
  switches: SWITCHES,
});
const SWITCHES = ['-Recurse', '-Force', '-Confirm', '-WhatIf', '-PassThru'];
const ITEM = cmdlet('-Path', '-LiteralPath');
/** The parameters that name the file a cmdlet works on (the first in place when not named). */
const PATH = ['-Path', '-LiteralPath'];
const FILE_PATH = ['-FilePath', '-Path', '-LiteralPath'];
/** Invoke-WebRequest's and Invoke-RestMethod's: `-OutFile` saves the answer, `-InFile` is sent. */
const WEB_FILES: readonly FileUse[] = [
  { op: 'write', options: ['-OutFile'] },
  { op: 'read', sends: true, options: ['-InFile'] },
];

/** `-ArgumentList`, `-ArgumentLis`, … down to `shortest` characters (the dash included). */
function prefixes(name: string, shortest: number): string[] {
  const out: string[] = [];
  for (let end = name.length; end >= shortest; end--) out.push(name.slice(0, end));
  return out;
}

/** Every entry here is a cmdlet (../index.ts knows them apart by this list). */
export const POWERSHELL: readonly ProgramSpec[] = [
  {
    names: ['remove-item'],
    aliases: ['ri', 'rm', 'rmdir', 'del', 'erase', 'rd'],
    roles: ['deleter', 'item-changer'],
    argv: ITEM,
  },
  {
    names: ['get-childitem'],
    aliases: ['gci', 'ls', 'dir'],
    roles: ['lister', 'looker'],
    argv: cmdlet('-Path', '-LiteralPath', '-Attributes'),
  },
  { names: ['get-item'], aliases: ['gi'], roles: ['lister', 'looker'], argv: ITEM },
  {
    names: ['get-content'],
    aliases: ['gc', 'cat', 'type'],
    roles: ['content-reader', 'looker'],
    argv: cmdlet(
      '-Path',
      '-LiteralPath',
      '-TotalCount',
      '-Head',
      '-Tail',
      '-First',
      '-Last',
      '-Encoding',
      '-Delimiter',
      '-ReadCount',
    ),
  },
  {
    names: ['set-content'],
    aliases: ['sc'],
    argv: cmdlet('-Path', '-LiteralPath', '-Value', '-Encoding'),
    files: [{ op: 'write', how: 'truncate', options: PATH, operands: 0 }],
  },
  {
    names: ['clear-content'],
    aliases: ['clc'],
    argv: ITEM,
    files: [{ op: 'write', how: 'truncate', options: PATH, operands: 0 }],
  },
  {
    names: ['add-content'],
    aliases: ['ac'],
    argv: cmdlet('-Path', '-LiteralPath', '-Value', '-Encoding'),
    files: [{ op: 'write', how: 'append', options: PATH, operands: 0 }],
  },
  {
    names: ['out-file'],
    argv: cmdlet('-FilePath', '-LiteralPath', '-Encoding', '-Width', '-InputObject'),
    files: [{ op: 'write', how: 'truncate', append: ['-Append'], options: FILE_PATH, operands: 0 }],
  },
  {
    names: ['tee-object'],
    aliases: ['tee'],
    argv: cmdlet('-FilePath', '-LiteralPath', '-Variable', '-InputObject'),
    files: [{ op: 'write', how: 'truncate', append: ['-Append'], options: FILE_PATH, operands: 0 }],
  },
  {
    names: ['copy-item'],
    aliases: ['cpi', 'cp', 'copy'],
    roles: ['item-changer'],
    argv: cmdlet('-Path', '-LiteralPath', '-Destination'),
    files: [
      { op: 'read', how: 'copy', options: PATH, operands: 0 },
      { op: 'write', options: ['-Destination'], operands: 1 },
    ],
  },
  {
    names: ['move-item'],
    aliases: ['mi', 'mv', 'move'],
    roles: ['item-changer'],
    argv: cmdlet('-Path', '-LiteralPath', '-Destination'),
    files: [
      { op: 'delete', how: 'move', options: PATH, operands: 0 },
      { op: 'write', options: ['-Destination'], operands: 1 },
    ],
  },
  {
    names: ['rename-item'],
    aliases: ['rni', 'ren'],
    roles: ['item-changer'],
    argv: cmdlet('-Path', '-LiteralPath', '-NewName'),
  },
  {
    // not a `creator`: `-Value` gives the new file its text
    names: ['new-item'],
    aliases: ['ni'],
    roles: ['item-changer'],
    argv: cmdlet('-Path', '-Name', '-ItemType', '-Value'),
    files: [{ op: 'create', options: ['-Path'], operands: 0 }],
  },
  { names: ['set-item'], aliases: ['si'], roles: ['item-changer'], argv: cmdlet('-Path', '-LiteralPath', '-Value') },
  {
    names: ['set-itemproperty'],
    aliases: ['sp'],
    roles: ['item-changer'],
    argv: cmdlet('-Path', '-LiteralPath', '-Name', '-Value', '-Type'),
  },
  {
    names: ['new-itemproperty'],
    roles: ['item-changer'],
    argv: cmdlet('-Path', '-LiteralPath', '-Name', '-Value', '-PropertyType'),
  },
  {
    names: ['remove-itemproperty'],
    aliases: ['rp'],
    roles: ['item-changer'],
    argv: cmdlet('-Path', '-LiteralPath', '-Name'),
  },
  {
    names: ['rename-itemproperty'],
    aliases: ['rnp'],
    roles: ['item-changer'],
    argv: cmdlet('-Path', '-LiteralPath', '-Name', '-NewName'),
  },
  // they change only the folder the commands after them run in (the reader follows it)
  {
    names: ['set-location'],
    aliases: ['sl', 'cd', 'chdir'],
    roles: ['location-changer', 'looker'],
    argv: cmdlet('-Path', '-LiteralPath'),
  },
  {
    names: ['push-location'],
    aliases: ['pushd'],
    roles: ['location-changer', 'looker'],
    argv: cmdlet('-Path', '-LiteralPath'),
  },
  { names: ['pop-location'], aliases: ['popd'], roles: ['location-changer', 'looker'] },
  {
    names: ['select-string'],
    aliases: ['sls'],
    roles: ['pattern-first'],
    argv: cmdlet('-Pattern', '-Path', '-LiteralPath'),
  },
  { names: ['where-object'], aliases: ['where', '?'], roles: ['filter'] },
  { names: ['select-object'], aliases: ['select'], roles: ['filter'] },
  { names: ['sort-object'], aliases: ['sort'], roles: ['filter'] },
  { names: ['foreach-object'], aliases: ['%', 'foreach'] },
  { names: ['write-output'], aliases: ['echo', 'write'], roles: ['printer', 'looker'] },
  { names: ['write-host'], roles: ['printer'] },
  // help about a cmdlet names it without running it
  { names: ['get-help', 'get-command'], roles: ['looker'] },
  // its arguments are PowerShell code, read as the shell reads `eval`'s
  { names: ['invoke-expression'], aliases: ['iex'], roles: ['evaluator'], source: 'eval', dialect: 'powershell' },
  {
    names: ['invoke-webrequest'],
    aliases: ['iwr', 'curl', 'wget'],
    roles: ['http-client', 'downloader'],
    argv: cmdlet('-Uri', '-OutFile', '-InFile', '-Method', '-Body', '-Headers', '-ContentType', '-UserAgent'),
    files: WEB_FILES,
  },
  {
    names: ['invoke-restmethod'],
    aliases: ['irm'],
    roles: ['http-client', 'downloader'],
    argv: cmdlet('-Uri', '-OutFile', '-InFile', '-Method', '-Body', '-Headers', '-ContentType', '-UserAgent'),
    files: WEB_FILES,
  },
  { names: ['start-bitstransfer'], roles: ['http-client', 'downloader'], argv: cmdlet('-Source', '-Destination') },
  { names: ['send-mailmessage'], argv: cmdlet('-SmtpServer', '-To', '-From', '-Subject', '-Body', '-Attachments') },
  { names: ['resolve-dnsname'], roles: ['dns-client'], argv: cmdlet('-Type', '-Server', '-Name') },
  { names: ['stop-process'], aliases: ['spps', 'kill'], argv: cmdlet('-Name', '-ProcessName', '-Id') },
  { names: ['get-process'], aliases: ['gps', 'ps'], argv: cmdlet('-Name', '-ProcessName', '-Id') },
  {
    names: ['start-process'],
    aliases: ['saps', 'start'],
    // PowerShell takes any unambiguous start of a parameter's name (`-Arg`, `-File`)
    argv: cmdlet(
      ...prefixes('-FilePath', 2),
      '-PSPath',
      '-Path',
      ...prefixes('-ArgumentList', 2),
      '-Args',
      ...prefixes('-Verb', 2),
      ...prefixes('-WorkingDirectory', 3),
      ...prefixes('-WindowStyle', 3),
      ...prefixes('-Credential', 2),
      ...prefixes('-Environment', 2),
      '-RedirectStandardError',
      '-RedirectStandardInput',
      '-RedirectStandardOutput',
    ),
    runs: [{ kind: 'start-process' }],
  },
];

// Cloud modules' cmdlets (Az, AzureAD, Microsoft Graph, AWS Tools, Google Cloud): a verb that
// destroys, stops or publishes on a noun of one of these modules changes things that live on
// another computer (`Remove-AzResourceGroup`, `Remove-S3Bucket`, `Stop-EC2Instance`). Their
// `Get-` and `Test-` cmdlets only look. The nouns are the modules' prefixes, in lower case.
const CLOUD_VERBS = 'remove|clear|reset|disable|unregister|uninstall|revoke|stop|publish';
const CLOUD_NOUNS =
  'az|azurerm|azuread|azure|mg|aws|s3|ec2|ecr|ecs|eks|efs|elb|elb2|rds|iam|cfn|lm|ddb|sqs|sns|kms|sec|r53|cw|cwl|ssm|gcs|gce|gcd|gcsql|gcp';
const CLOUD_CMDLET = new RegExp(`^(?:${CLOUD_VERBS})-(?:${CLOUD_NOUNS})[a-z0-9]`);
/** Cloud cmdlets that change only this computer's sign-in and settings (`Clear-AzContext`). */
const LOCAL_NOUNS =
  /^[a-z]+-(?:azcontext|azaccount|azurermcontext|azurermaccount|mgcontext|awscredential|awsdefaultconfiguration|awsdefaultregion|awshistory)$/;

/** Whether a cmdlet (its name in lower case) destroys, stops or publishes something in a cloud. */
export function cloudChange(name: string): boolean {
  return CLOUD_CMDLET.test(name) && !LOCAL_NOUNS.test(name);
}

/**
 * The cmdlets' aliases that other shells also run as programs or built-ins (`rm`, `cat`, `echo`,
 * cmd's `del`, `dir`, `start`): a line that opens with one of them may be any shell's.
 */
const SHARED_ALIASES = new Set(
  'rm rmdir del erase rd ls dir cat type sc tee cp copy mv move ren cd chdir pushd popd where ? select sort % foreach echo write curl wget kill ps start'.split(
    ' ',
  ),
);

/** Whether `name` (in lower case) is an alias only PowerShell has (`ri`, `gci`, `iwr`, `spps`). */
export function powershellOnly(name: string, cmdlet: string | undefined): boolean {
  return cmdlet !== undefined && cmdlet !== name && !SHARED_ALIASES.has(name);
}
