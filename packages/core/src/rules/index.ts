import type { Rule } from '../rule.js';
import { agentRules } from './agent-rules.js';
import { dbDestroy } from './db-destroy.js';
import { envPrint } from './env-print.js';
import { execHidden } from './exec-hidden.js';
import { execRemoteCode } from './exec-remote-code.js';
import { fsDelete } from './fs-delete.js';
import { fsWipe } from './fs-wipe.js';
import { fsWriteOutside } from './fs-write-outside.js';
import { gitPush } from './git-push.js';
import { gitRewriteSharedHistory } from './git-rewrite-shared-history.js';
import { gitSkipChecks } from './git-skip-checks.js';
import { guardTamper } from './guard-tamper.js';
import { infraDestroy } from './infra-destroy.js';
import { mcpChanges } from './mcp-changes.js';
import { mcpPoisonedServer } from './mcp-poisoned-server.js';
import { netNewSite } from './net-new-site.js';
import { netSendAfterKey } from './net-send-after-key.js';
import { pkgInstall } from './pkg-install.js';
import { pkgPublish } from './pkg-publish.js';
import { pkgUnlisted } from './pkg-unlisted.js';
import { processKillByName } from './process-kill-by-name.js';
import { scriptContainsNever } from './script-contains-never.js';
import { scriptPrintsKey } from './script-prints-key.js';
import { secretsCommit } from './secrets-commit.js';
import { secretsInCommand } from './secrets-in-command.js';
import { secretsRead } from './secrets-read.js';
import { sessionAfterInjection } from './session-after-injection.js';
import { sessionAfterUntrusted } from './session-after-untrusted.js';
import { sessionThirdTry } from './session-third-try.js';
import { shellOpaque } from './shell-opaque.js';
import { systemElevate } from './system-elevate.js';
import { systemPersistence } from './system-persistence.js';
import { systemSecurityOff } from './system-security-off.js';

/** Every built-in rule, sorted by id. rules.meta.test.ts keeps this list and the folder in sync. */
export const rules: readonly Rule[] = [
  agentRules,
  dbDestroy,
  envPrint,
  execHidden,
  execRemoteCode,
  fsDelete,
  fsWipe,
  fsWriteOutside,
  gitPush,
  gitRewriteSharedHistory,
  gitSkipChecks,
  guardTamper,
  infraDestroy,
  mcpChanges,
  mcpPoisonedServer,
  netNewSite,
  netSendAfterKey,
  pkgInstall,
  pkgPublish,
  pkgUnlisted,
  processKillByName,
  scriptContainsNever,
  scriptPrintsKey,
  secretsCommit,
  secretsInCommand,
  secretsRead,
  sessionAfterInjection,
  sessionAfterUntrusted,
  sessionThirdTry,
  shellOpaque,
  systemElevate,
  systemPersistence,
  systemSecurityOff,
];
