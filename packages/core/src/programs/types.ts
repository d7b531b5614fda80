import type { ArgvSpec } from './argv.js';

export type { ArgvSpec } from './argv.js';

/**
 * What a program does, as far as the reader, the analysis and the rules ask. A program may have
 * several roles (bash is a shell and a script runner; curl an HTTP client and a downloader).
 */
export type Role =
  /** Reads commands: from `-c` (or its own spelling of it), a script file, or stdin. */
  | 'shell'
  /** Runs the script file named by its first operand (shells, interpreters, `source`). */
  | 'script-runner'
  /** Runs program text given in an option or on stdin (`python -c`, `node -e`, `awk '{…}'`). */
  | 'inline-code'
  /** Runs its arguments, or its pipeline input, as shell code (`eval`, `iex`). */
  | 'evaluator'
  /** Sends HTTP requests to the URLs it is given. */
  | 'http-client'
  /** Fetches a URL and hands over (prints or saves) what came back. */
  | 'downloader'
  /** Runs a command on another computer or in a container (`ssh host cmd`, `docker exec`). */
  | 'remote-runner'
  /** Runs its operands as a command here (`xargs`, `parallel`, `find -exec`, `watch`). */
  | 'runner'
  /** Fetches a package and runs it (`npx`, `pnpm dlx`, `uvx`). */
  | 'package-runner'
  /** Stands in front of a command and runs it (`sudo`, `env`, `nice`, `timeout`). */
  | 'prefix'
  /** Runs the command it is given as another user, with that user's home and settings (`sudo`, `su`). */
  | 'other-user'
  /** Runs the command it is given under limits it sets (`prlimit`, `systemd-run -p MemoryMax=…`). */
  | 'limiter'
  /** Deletes the files it is given. */
  | 'deleter'
  /** Lists files (what it prints names files: `find`, `ls`, `Get-ChildItem`). */
  | 'lister'
  /** Prints or passes on the content of the files it is given (`cat`, `head`, `base64`). */
  | 'content-reader'
  /** Makes empty files or folders (`touch`, `mkdir`): it changes no file's text. */
  | 'creator'
  /** Changes only a file's mode, owner or access list (`chmod`, `chown`, `setfacl`), never its text. */
  | 'attribute-changer'
  /** Its first operand is a pattern or program text, the rest files (`grep`, `sed`, `awk`). */
  | 'pattern-first'
  /** Installs packages (`npm`, `pip`, `cargo`, `apt`). */
  | 'package-manager'
  /** Logs into another computer or copies files to it (`ssh`, `scp`, `rsync`). */
  | 'ssh-client'
  /** Looks names up (`dig`, `nslookup`). */
  | 'dns-client'
  /** Opens a raw network connection (`nc`, `socat`, `telnet`). */
  | 'raw-client'
  /** A database's command-line client (`psql`, `mysql`, `sqlite3`, `redis-cli`). */
  | 'database-client'
  /**
   * A cloud or hosting service's command-line tool: its delete verbs remove what it names, or the
   * linked project's resources, on the service (`gcloud … delete`, `heroku apps:destroy`,
   * `wrangler d1 delete`, `vault kv destroy`).
   */
  | 'hosting-cli'
  /**
   * A cloud CLI whose commands reach the account's resources by the names they are given
   * (`gcloud`, `az`, `doctl`), not the project the folder is linked to (`vercel`, `fly`, `heroku`).
   */
  | 'unscoped-cli'
  /** Prints its words (`echo`, `printf`, `Write-Output`). */
  | 'printer'
  /** Prints only a digest of what it reads, never the text: a hash, a size or a count (`sha256sum`, `wc`). */
  | 'summarizer'
  /**
   * Only shows what it finds (files, text, names, the computer's state) and changes nothing,
   * whatever its words, but for a few options that write (`sort -o`, `find -delete`).
   */
  | 'looker'
  /** Overwrites what it deletes, so that nothing of it can be brought back (`shred`, `srm`). */
  | 'shredder'
  /** Deletes nothing that cannot be had back: `rmdir` takes only empty folders, `trash` keeps what it takes. */
  | 'lossless-deleter'
  /**
   * Changes the folder the commands after it run in: `cd`, `pushd`, `popd` (the cmdlets
   * Set-Location, Push-Location and Pop-Location, whose aliases they are).
   */
  | 'location-changer'
  /** A PowerShell cmdlet that passes on some of what it is handed (`Where-Object`, `Select-Object`, `Sort-Object`). */
  | 'filter'
  /**
   * A PowerShell item cmdlet that changes what a provider path holds, a file or a registry key
   * (`Set-ItemProperty`, `New-Item`, `Remove-Item`, `Copy-Item`).
   */
  | 'item-changer'
  /**
   * One of cmd.exe's own commands, or a Windows program no POSIX system has (`del`, `rd`, `xcopy`,
   * `findstr`): no POSIX shell runs it, and a line that starts with one is read as cmd's.
   */
  | 'cmd-command';

/** The packages a package manager installs: each ecosystem's names and lists are read its own way. */
export type Ecosystem = 'npm' | 'pypi' | 'crates' | 'go' | 'gems' | 'packagist' | 'nuget' | 'conda' | 'hex' | 'system';

/** The syntax a shell reads its commands in. */
export type Dialect = 'posix' | 'powershell' | 'cmd';

/** The language of program text (inline code, a script file). */
export type Language =
  'python' | 'node' | 'ruby' | 'perl' | 'php' | 'deno' | 'awk' | 'lua' | 'applescript' | 'r' | 'powershell' | 'other';

/** The language of a script file a runner runs. */
export type ScriptLanguage = 'shell' | 'python' | 'node' | 'ruby' | 'perl' | 'php' | 'lua' | 'powershell';

/**
 * How a program takes what it runs (the reader follows it; the analysis asks it the same way):
 * - `shell`: a POSIX shell (`-c TEXT`, `--command TEXT`, `-s`, a script, or stdin);
 * - `powershell`: `-Command TEXT`/`-c`, `-File`, `-EncodedCommand`, stdin with `-Command -`;
 * - `cmd`: `/c TEXT`, `/k TEXT`, or stdin;
 * - `code`: an interpreter (`python -c CODE`, `node -e CODE`, code on stdin with no script);
 * - `awk`: awk's first operand is its program (unless `-f FILE`);
 * - `deno`: `deno eval CODE`;
 * - `eval`: every argument is shell text; `source`: the first operand is a script.
 */
export type Source = 'shell' | 'powershell' | 'cmd' | 'code' | 'awk' | 'deno' | 'eval' | 'source';

/** Options that hand an interpreter its code. */
export interface CodeSpec {
  /** `-c`, `-e`, `--eval`, `-p`: the value is code. */
  readonly options: readonly string[];
  /** Several code options are joined (`perl -e a -e b`). */
  readonly many?: boolean;
  /** Options after which the rest belongs to something else (`python -m mod`). */
  readonly stop?: readonly string[];
  /** Options whose value is the script file (`php -f tool.php`). */
  readonly file?: readonly string[];
  /** Options that load a module before the code runs (`perl -MLWP::Simple`, `ruby -rnet/http`): part of what the code can call. */
  readonly modules?: readonly string[];
}

/** How a prefix (`sudo`, `env`, `timeout 5`) is followed by the command it runs. */
export interface PrefixSpec {
  /** `NAME=value` words may follow the options (`sudo HUSKY=0 git …`, `env A=1 cmd`). */
  readonly env?: boolean;
  /** Positional words to skip before the command (`timeout 5 cmd`). */
  readonly positional?: number;
  /** Options after which the prefix runs no command (`command -v git` only looks git up). */
  readonly not?: readonly string[];
  /** Options that set the folder the command runs in (`env -C dir`, `sudo -D dir`). */
  readonly cwd?: readonly string[];
  /** A lone `-` after the options is one of them, not the command (`env - cmd`, as `env -i cmd`). */
  readonly dash?: boolean;
}

/**
 * How a program runs another command the reader should read (beyond shells and interpreters):
 * - `argv`: its operands from the first one on are a command (`xargs rm`, `busybox sh`);
 * - `find`: every `-exec`/`-execdir`/`-ok` … `;` or `{} +` is a command;
 * - `parallel`: a command line before `:::`, or each argument after it;
 * - `watch`: the operands, joined, are handed to `sh -c`;
 * - `script`: `-c TEXT`, or the BSD form `script [file] command…`;
 * - `su`: `-c TEXT`;
 * - `ssh`: the words after the host run there (stdin does when there are none);
 * - `container-exec`: `docker exec [options] CONTAINER command…` (and `compose exec`);
 * - `kubectl-exec`: `kubectl exec POD -- command…`;
 * - `package-runner`: a fetched package and its arguments (`npx pkg …`, `pnpm dlx pkg …`), or a
 *   shell line given by `call` options or after `flag` options;
 * - `env-runner`: a command in a tool's environment or under its watch (`poetry run cmd`, `bundle exec cmd`,
 *   `mise exec -- cmd`, `nix develop -c cmd`, `git submodule foreach CMD`, `watchexec -- cmd`);
 * - `option-text`: an option's value or an environment variable is a command line it runs
 *   (`env -S TEXT`, `tar --to-command=CMD`, `rsync -e CMD`, `ssh -o ProxyCommand=CMD`, `MANPAGER`);
 * - `start-process`: `Start-Process FILE -ArgumentList ARGS` (and cmd's `start`) starts FILE with ARGS;
 * - `git`, `vim`, `sed`, `make`, `pager`: commands written in the program's own language (git
 *   aliases and settings, Ex commands, sed scripts, Makefiles, less's `+!cmd`: ../shell/embedded.ts).
 */
export type Runs =
  /** `stdio`: the command runs in the runner's place, with its redirections (`busybox sh >& …`). */
  | { readonly kind: 'argv'; readonly stdio?: boolean }
  | { readonly kind: 'find' }
  | { readonly kind: 'parallel' }
  | { readonly kind: 'watch' }
  | { readonly kind: 'script' }
  | { readonly kind: 'su' }
  | { readonly kind: 'ssh' }
  | { readonly kind: 'container-exec' }
  | { readonly kind: 'kubectl-exec' }
  | {
      readonly kind: 'package-runner';
      /** The subcommand words that lead to it (`dlx`, `tool run`); none for `npx`. */
      readonly path?: readonly string[];
      /** Options whose value is a shell line (`npx -c 'cmd'`). */
      readonly call?: readonly string[];
      /** Flags after which the rest forms a shell line (`pnpm dlx -c cmd args`). */
      readonly flag?: readonly string[];
      /** Options of this form of the runner (before the package): `leading`, the package follows. */
      readonly argv?: ArgvSpec;
    }
  | {
      readonly kind: 'env-runner';
      /** The subcommand words that lead to it (`run`, `bisect run`); none: its operands are the command. */
      readonly path?: readonly string[];
      /** Its options there, before the command (default: any, up to the first operand). */
      readonly argv?: ArgvSpec;
      /** Operands of its own before the command (`direnv exec DIR cmd`, `aws-vault exec PROFILE -- cmd`). */
      readonly skip?: number;
      /** The command starts only after `--` (`mise exec node@20 -- cmd`). */
      readonly dashdash?: boolean;
      /** The command starts after one of these options (`nix develop -c cmd args`). */
      readonly after?: readonly string[];
      /** Its words are joined into a line a shell runs (`git submodule foreach`, `tmux new`, `watchexec`). */
      readonly shell?: boolean;
      /** Each of its operands is a line a shell runs (`hyperfine CMD…`). */
      readonly each?: boolean;
      /** What it is given on stdin is the shell text it runs (`at now <<< CMD`). */
      readonly stdin?: boolean;
    }
  | {
      readonly kind: 'option-text';
      /** The subcommand words the options belong to (`git rebase --exec CMD`); none: the program's own. */
      readonly path?: readonly string[];
      /** How the words after `path` are read (default: options up to the first operand). */
      readonly argv?: ArgvSpec;
      /** Options whose value is a command line the program hands to a shell (`tar --to-command CMD`). */
      readonly options?: readonly string[];
      /**
       * The value names its command after one of these keys, in any case, then `=` or a blank
       * (`--checkpoint-action=exec=CMD`, `ssh -o ProxyCommand=CMD`); other values run nothing.
       */
      readonly keys?: readonly string[];
      /** The operands after the option belong to the command (`env -S 'git push' -f`). */
      readonly rest?: boolean;
      /** Environment variables whose value is a command line it runs (`RSYNC_RSH`, `MANPAGER`). */
      readonly env?: readonly string[];
      /** Only the command's own assignments (`EDITOR=CMD tool`) count, not what was exported before it. */
      readonly own?: boolean;
      /** With `own`: its assignments to variables whose name ends so (`SUDO_EDITOR`, `SYSTEMD_PAGER`). */
      readonly suffixes?: readonly string[];
      /** Characters the value may start with that are not part of the command (`LESSOPEN='|cmd %s'`). */
      readonly strip?: string;
      /** The operand at this place is a command line (`trap 'cmd' EXIT`; `sqlite3 DB '.shell cmd'`). */
      readonly operand?: number;
      /** Operands `NAME=VALUE` whose value is a command line (`make SHELL=CMD`). */
      readonly assigned?: readonly string[];
      /**
       * The `keys` start any line or statement of the value, not only the value
       * (`psql -c 'select 1; \! cmd'`): the rest of that line is the command.
       */
      readonly lines?: boolean;
      /** Only the value's `$(…)` and backquoted commands run (`PS4='$(cmd)'`): the rest is text. */
      readonly substitutions?: boolean;
      /** The shell that reads the line runs the text itself, as `eval` does, with its variables (`trap`). */
      readonly same?: boolean;
      /** What it reads on stdin is read for `keys` the same way (`psql <<EOF` with a `\! cmd` line). */
      readonly stdin?: boolean;
    }
  /** git: its aliases (`-c alias.x=…`, `git config alias.x …`) and the commands its settings and environment name. */
  | { readonly kind: 'git' }
  /** vim, nvim, ex: `-c`/`--cmd`/`+` Ex commands (`:!cmd`, `:py3 …`), and Ex commands on stdin (`-es`, `ex`). */
  | { readonly kind: 'vim'; readonly ex?: boolean }
  /** sed: the `e` command and the `e` flag of `s///` run a command. */
  | { readonly kind: 'sed' }
  /** make: a Makefile from stdin (`-f -`), from a process substitution, or `--eval TEXT`: its recipes run. */
  | { readonly kind: 'make' }
  /** less: `+!cmd` runs a command when it starts. */
  | { readonly kind: 'pager' }
  /**
   * PowerShell's Start-Process (`saps`, `start`; cmd's `start` too): the file it starts and its
   * argument list make one command line, which the started program reads in turn.
   */
  | { readonly kind: 'start-process' };

/** What happens to a file: read, written, made, deleted, or run. */
export type FileOp = 'read' | 'write' | 'create' | 'delete' | 'exec';

/**
 * How a file is changed or read: `truncate` empties or replaces it (`>`), `append` (`>>`), `edit`
 * changes it in place, `move` takes it away from here (the source of `mv`), `copy` reads it to
 * elsewhere, `recursive` deletes a whole tree; `into` writes files whose names its input decides
 * (an archive unpacked, a patch applied, a checkout) anywhere in the folder named; `link` gives the
 * file another name (a hard link, a bind mount), so whatever is written there is written to it.
 */
export type FileHow = 'truncate' | 'append' | 'edit' | 'move' | 'copy' | 'recursive' | 'into' | 'link';

/**
 * What a program does to the files its words name, as data: one use names files by some of its
 * words (option values, operands, `KEY=FILE` words or URLs) and says what happens to them. The
 * analysis reads every use the same way (../analysis/effects.ts, `fileUses`). A word `-` (stdin or
 * stdout) names no file.
 */
export interface FileUse {
  readonly op: FileOp;
  readonly how?: FileHow;
  /** `append` rather than `how` when one of these options is given (`tee -a`). */
  readonly append?: readonly string[];
  /** What is read leaves the machine (`curl -T FILE`, `-d @FILE`). */
  readonly sends?: boolean;

  /** The values of these options name files (`curl -o FILE`, `-OutFile FILE`). */
  readonly options?: readonly string[];
  /**
   * Operands that name files: `all`, `rest` (all but the first), one by its place (0 is the
   * first), or a copy's `sources` and `destination` (the value of a `target` option, else the last
   * operand, when there is something to copy). With `options` as well, the operands count only
   * when none of those options is given: a PowerShell parameter by name or by place
   * (`Set-Content -Path x` or `Set-Content x`), where a place before it whose parameter is named
   * takes no operand (`Copy-Item -Path a b` copies to `b`, its second place).
   */
  readonly operands?: 'all' | 'rest' | 'sources' | 'destination' | number;
  /** Options whose value is a copy's destination (`cp -t DIR`, `-Destination DIR`): every operand is then a source. */
  readonly target?: readonly string[];
  /**
   * A copy between computers (`scp`, `rsync`): `host:path` operands are files on another computer,
   * none here, and what is copied to one is sent.
   */
  readonly remote?: boolean;
  /**
   * With none of its `options` given (and no operands named), the folder it runs in is the file
   * named (`tar -x` unpacks there, `git checkout` writes the checkout there).
   */
  readonly here?: boolean;
  /** Words `KEY=FILE` name files (dd's `if=` and `of=`). */
  readonly assigned?: string;
  /**
   * The URLs among the words name the files they are saved as: their last part (`index.html`
   * when the path has none), in the folder these options name (`wget -P dir`).
   */
  readonly urls?: { readonly folder?: readonly string[] };
  /**
   * Where the file is in a value: `at` after an `@` (`curl -d @body.json`, `-F f=@up.bin`);
   * `object` the path of git's `REV:PATH` (`git show HEAD:.env`); `ex` the file an Ex command
   * writes (`vim -c 'w! FILE'`).
   */
  readonly within?: 'at' | 'object' | 'ex';

  /** Only when one of these options is given (`rsync --delete`). */
  readonly when?: readonly string[];
  /** Never when one of these options is given (`git cat-file -t`). */
  readonly unless?: readonly string[];
}

/**
 * The files a program's own language names, read by code of its own in the analysis: `find`'s
 * expression (`-delete`, `-exec rm {} +`, `-exec cat {} ;`) deletes or reads what it picks; a sed
 * script's `w FILE`, `r FILE` and `s///w FILE`; an awk program's `print > "FILE"`.
 */
export interface FileLanguage {
  readonly language: 'find' | 'sed' | 'awk';
}

/** A subcommand with options of its own (`git push`, `docker compose`, `kubectl exec`). */
export interface SubcommandSpec {
  readonly argv?: ArgvSpec;
  /** Its own subcommands (`docker compose exec`, `git worktree add`). */
  readonly subcommands?: Readonly<Record<string, SubcommandSpec>>;
  /** What it does to the files its words name (`git clone URL DIR` writes DIR). */
  readonly files?: readonly FileUse[];
  /** It only shows things (`git status`, `git log`): a `looker` of its own. */
  readonly looks?: boolean;
  /** It reaches the remote its words name or write out: `fetches` from it (`git clone URL`), or `sends` to it (`git push URL`). */
  readonly remote?: 'fetches' | 'sends';
  /** Options whose value is a password or a key (`docker login -p SECRET`): see `ProgramSpec.secretOptions`. */
  readonly secretOptions?: readonly string[];
  /** Its options whose value is a command line it runs (`git rebase --exec CMD`, `git clone --upload-pack CMD`). */
  readonly runs?: readonly OptionText[];
}

/** An option or variable whose value is a command line the program hands to a shell. */
export type OptionText = Extract<Runs, { readonly kind: 'option-text' }>;

/**
 * Where a run finds project code beyond the files its words name, for code the chat wrote
 * (../context/chat-code.ts):
 * - `args`: its words name files or modules it runs or loads (`node -r ./hook.js app.js`, `python -m tool`);
 * - `package-scripts`: package.json's scripts (`npm test`, `yarn build`, an install's lifecycle scripts);
 * - `makefile`: the Makefile's recipes for the targets named, or for the first target;
 * - `pytest`: `conftest.py` and the test files (`test_*.py`, `*_test.py`) below its folder;
 * - `python`: the `.pth` files and `sitecustomize`/`usercustomize` modules every start of Python runs;
 * - `js-tests`: the test files (`*.test.js`, `*.spec.ts`) below its folder.
 */
export type ProjectCodeKind = 'args' | 'package-scripts' | 'makefile' | 'pytest' | 'python' | 'js-tests';

/** What project code a run executes (see `ProjectCodeKind`), and the files in its folder that hold more. */
export interface ProjectCode {
  readonly kinds: readonly ProjectCodeKind[];
  /** Files in its folder whose code it runs (`gulpfile.js`, `Rakefile`). */
  readonly files?: readonly string[];
  /** The language of those files; left out, guard does not read them, and a run of one the chat wrote asks. */
  readonly language?: ScriptLanguage;
}

/**
 * A command that prints a stored credential (a token, a password, a private key, or a state or
 * settings dump that holds them), so that what it prints lands in the chat and the logs:
 * `gh auth token`, `pass show NAME`, `terraform output -raw NAME`. Read by secrets.read.
 */
export interface CredentialPrint {
  /**
   * Its leading operands, as the program's grammar reads them (`['auth', 'token']`); `[]` for the
   * program itself; a word ending in `*` stands for every word it begins (`get-parameter*`).
   */
  readonly path: readonly string[];
  /** Only with one of these options (`security find-generic-password -w`, `kubectl config view --raw`). */
  readonly when?: readonly string[];
  /** Never with one of these options (`doppler secrets --only-names`, `sops -d --output FILE`). */
  readonly unless?: readonly string[];
  /**
   * The one operand after the path names the setting it prints, and only a setting named like a
   * secret counts (`aws configure get aws_secret_access_key`, not `… get region`); a second operand
   * is a value it sets.
   */
  readonly named?: true;
  /** An operand follows the path, and is none of these subcommands (`pass NAME` shows it; `pass ls` does not). */
  readonly not?: readonly string[];
  /** No operand follows the path (`doppler secrets` prints them all; `doppler secrets set X` does not). */
  readonly alone?: true;
}

/** One entry of the knowledge base, as written in ./entries. */
export interface ProgramSpec {
  /** Names it runs under, as `Invocation.name` has them (basename, lower case, no `.exe`). */
  readonly names: readonly string[];
  /** `python3.12`, `pip3.11`, `php8.2`: the names with a version after them are this program too. */
  readonly versioned?: boolean;
  /** PowerShell's aliases for it (cmdlets only: `ri`, `del`, `rm` for Remove-Item). */
  readonly aliases?: readonly string[];
  readonly roles?: readonly Role[];
  /** How its words are read (global options, before any subcommand). */
  readonly argv?: ArgvSpec;
  readonly subcommands?: Readonly<Record<string, SubcommandSpec>>;
  /** More subcommands, with no options of their own (`bun test`, `deno fmt`). */
  readonly commands?: readonly string[];
  /** How it takes the commands or code it runs (shells, interpreters, `eval`). */
  readonly source?: Source;
  /** The syntax of the commands it reads (shells). */
  readonly dialect?: Dialect;
  /** The language of its code (interpreters). */
  readonly language?: Language;
  readonly code?: CodeSpec;
  /** The language of the script file it runs (script runners). */
  readonly script?: ScriptLanguage;
  readonly prefix?: PrefixSpec;
  readonly runs?: readonly Runs[];
  /** Options that run this one command in another folder (`make -C dir`, `npm --prefix dir`). */
  readonly cwd?: readonly string[];
  /**
   * What it does to the files its words name, beyond what its roles say (a deleter deletes its
   * operands, a content reader reads them): `cp` reads its sources and writes its destination.
   */
  readonly files?: readonly (FileUse | FileLanguage)[];
  /**
   * A lister's folders are its operands (after its pattern: `fd PATTERN DIR`), or the folder it
   * runs in when it names none; what it prints names what they hold.
   */
  readonly lists?: { readonly pattern?: boolean };
  /** Options that make it change in place the files it would only read (`sed -i`, `perl -i`). */
  readonly edits?: readonly string[];
  /**
   * What it prints is text it decoded or unpacked: always (`zcat`, `gunzip`), or with one of these
   * options (`base64 -d`, `gzip -d`, `xxd -r`).
   */
  readonly decodes?: true | readonly string[];
  /** The packages it installs (package managers). */
  readonly ecosystem?: Ecosystem;
  /** The project code a run executes, read when the chat wrote it (../context/chat-code.ts). */
  readonly projectCode?: ProjectCode;
  /** Its commands that print a stored credential (`gh auth token`, `pass show NAME`). */
  readonly credentials?: readonly CredentialPrint[];
  /**
   * Options whose value is a password or a key, written glued (`mysql -pSECRET`, `--password=SECRET`)
   * or as the option's value (`sshpass -p SECRET`); in `user:SECRET` the part after the colon
   * (`curl -u user:SECRET`). Options named like a secret (`--api-key`, `--client-secret`) count for
   * every program without being listed.
   */
  readonly secretOptions?: readonly string[];
  /**
   * The subcommand paths after which `NAME VALUE` sets a setting (`aws configure set`, `npm config
   * set`, `git config`): a setting named like a secret set to a value written out is a secret in the command.
   */
  readonly secretSettings?: readonly (readonly string[])[];
}

/** An entry as the code asks it (the entries are read as written: see ./lookup.ts). */
export type Program = ProgramSpec;
