import type { FileEffect } from '../context/types.js';
import type { PathFacts } from '../facts/paths.js';
import { cmdletOf, cmdletWith, isA } from '../programs/index.js';
import type { Hit, Rule, RuleContext } from '../rule.js';
import type { Invocation } from '../shell/types.js';

/** Whole disks and partitions (not `/dev/null`, `/dev/tty`, `/dev/shm/…`, `/dev/tcp/…`). */
const DISK = /^\/dev\/(?:sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|rdisk\d|mapper\/|md\d|dm-\d|loop\d)/;
const WINDOWS_DISK = /^\\\\\.\\physicaldrive\d/i;

/** Programs whose only job is to erase or reformat a disk or volume. */
const ERASERS = new Set(['diskpart', 'blkdiscard', 'format-volume', 'clear-disk']);
const DISKUTIL_ERASE =
  /^(?:erasedisk|erasevolume|zerodisk|randomdisk|secureerase|partitiondisk|reformat|deletecontainer|deletevolume)$/i;

/** A path that is nothing but variables, slashes and stars: an unset variable turns it into `/` or `/*`. */
const ONLY_VARIABLES = /^(?:\$\{[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*|[/*.])+$/;
/** Another user's home folder (`~bob`, `~bob/*`). */
const OTHER_HOME = /^~[A-Za-z0-9._-]+\/?\*?$/;

export const fsWipe = {
  meta: {
    id: 'fs.wipe',
    decision: 'block',
    remember: 'never',
    title: 'wiping the disk, the root or home',
    reason:
      'This would erase the whole disk, the system folders or the home folder, and none of it could be brought back; delete only a folder inside the project, written out in full, and never what this step names.',
    owasp: ['LLM06:2025', 'ASI02'],
    examples: {
      match: [
        'rm -rf /',
        'rm -rf ~',
        'rm -rf "$HOME"',
        'sudo rm -rf --no-preserve-root /',
        'dd if=/dev/zero of=/dev/sda',
        'rm -rf "$DIR/"*',
      ],
      noMatch: [
        'rm -rf ./build',
        'rm -rf /tmp/x',
        'rm -rf ~/.cache/pip',
        'DIR=dist; rm -rf "$DIR"',
        'dd if=/dev/zero of=disk.img bs=1M count=10',
      ],
    },
  },
  check(context) {
    const hits: Hit[] = [];
    for (const effect of context.files) {
      // `… | ForEach-Object { Remove-Item $_ }`: judged below by what the listing hands over
      const inv = effect.invocation;
      if (inv !== undefined && PIPED_ITEM.test(effect.path.raw) && pipedListing(context, inv) !== undefined) continue;
      if (wipes(effect, context.step.kind === 'shell'))
        hits.push({
          span: effect.span,
          ...(effect.path.abs ? { path: effect.path.abs } : {}),
          detail: effect.path.raw,
        });
    }
    for (const inv of context.invocations) {
      if (erasesDisk(inv, context)) hits.push({ span: inv.span });
      const home = pipedWipe(context, inv);
      if (home !== undefined) hits.push({ span: inv.span, ...(home.abs ? { path: home.abs } : {}), detail: home.raw });
    }
    return hits;
  },
} as const satisfies Rule;

/** `$_`, `$PSItem`, `$_.FullName`: the item the pipeline hands a ForEach-Object block. */
const PIPED_ITEM = /^\$(?:_|PSItem)(?:\.(?:FullName|PSPath|FullPath|Name))?$/i;
const RECURSE = ['-r', '-Recurse', '-rec', '-recu', '-recur', '-recurs'];

/**
 * What a Remove-Item fed by a listing cmdlet right before it deletes (`Get-ChildItem ~ |
 * Remove-Item -Recurse`, `gci C:\ | % { ri $_ -r }`): the listed folders, when its only targets are
 * the piped items (none of its own, or `$_`); undefined otherwise, or when the listing is unknown.
 */
function pipedListing(context: RuleContext, inv: Invocation): readonly PathFacts[] | undefined {
  if (inv.pipeline.index === 0 || cmdletOf(inv.name) !== 'remove-item') return undefined;
  const argv = context.argv(inv);
  const targets = [...argv.operands, ...argv.values('-Path', '-LiteralPath')];
  if (!targets.every((arg) => PIPED_ITEM.test(arg.value))) return undefined;
  const producers = context.stageBefore(inv)?.producers;
  const feeder = producers?.length === 1 ? producers[0] : undefined;
  // a cmdlet that lists items, by any alias (`gci`, `ls`, `dir`, `gi`)
  if (feeder === undefined || !cmdletWith(feeder.name, 'lister')) return undefined;
  return context.listed(feeder);
}

/**
 * Everything in the home folder or the root, handed over by an unfiltered listing to a Remove-Item
 * that takes folders whole (`-Recurse`) or is given every file (`Get-ChildItem -Recurse`).
 */
function pipedWipe(context: RuleContext, inv: Invocation): PathFacts | undefined {
  const listed = pipedListing(context, inv);
  if (listed === undefined) return undefined;
  const feeder = context.stageBefore(inv)?.producers[0];
  const recursive = context.argv(inv).has(...RECURSE) || (feeder !== undefined && context.argv(feeder).has(...RECURSE));
  if (!recursive) return undefined;
  return listed.find((path) => path.isHome || path.isRoot || path.place === 'root');
}

function wipes(effect: FileEffect, shell: boolean): boolean {
  const { path } = effect;
  if (effect.op === 'write') return path.place === 'device' && (DISK.test(path.abs) || WINDOWS_DISK.test(path.raw));
  if (effect.op !== 'delete') return false;
  if (isA(effect.by, 'shredder') && path.place === 'device') return true;
  // a shell `rm` without -r cannot take a folder; a write tool's delete takes whatever it is given,
  // and a move takes a folder with all it holds (`mv ~ /tmp/x`)
  const whole = effect.how === 'recursive' || effect.how === 'move' || !shell;
  if (!whole) return false;
  if (path.isRoot || path.isHome || path.place === 'root') return true;
  // SPEC 4.3: a target that stays unresolved is judged as its worst case, which for `rm -rf $X`
  // or `"$X/"*` is the root or home; `$X/dist` still names one folder (fs.delete asks about it)
  return path.place === 'unresolved' && (ONLY_VARIABLES.test(path.raw) || OTHER_HOME.test(path.raw));
}

function erasesDisk(inv: Invocation, context: RuleContext): boolean {
  const name = inv.name;
  if (ERASERS.has(name)) return true;
  if (
    name === 'mkfs' ||
    name.startsWith('mkfs.') ||
    name.startsWith('newfs') ||
    name === 'mke2fs' ||
    name === 'mkswap'
  ) {
    // a block device (or one a variable names) is wiped; a disk image file is only written
    // (`mkfs.ext4 build/disk.img`), which the file rules judge by where it is
    return context.argv(inv).operands.some((a) => a.value.startsWith('/dev/') || a.value.includes('$'));
  }
  switch (name) {
    case 'wipefs':
      return !context.argv(inv).has('-n', '--no-act');
    case 'format':
      // cmd's `format D:` (there is no Unix `format` to confuse it with)
      return context.argv(inv).operands.some((a) => /^[A-Za-z]:\\?$/.test(a.value));
    case 'diskutil': {
      const ops = context.argv(inv).operands;
      const verb = ops[0]?.value === 'apfs' ? ops[1]?.value : ops[0]?.value;
      return verb !== undefined && DISKUTIL_ERASE.test(verb);
    }
    case 'sgdisk':
      return context.argv(inv).has('-Z', '-o', '--zap-all', '--clear');
    case 'nvme':
      return /^(format|sanitize)$/.test(context.argv(inv).operands[0]?.value ?? '');
    case 'parted':
      return inv.args.includes('mklabel');
    default:
      return false;
  }
}
