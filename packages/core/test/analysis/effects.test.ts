import { describe, expect, it } from 'vitest';
import { changesFile } from '../../src/analysis/effects.js';
import { buildContext } from '../../src/context/build.js';
import type { FileEffect } from '../../src/context/types.js';
import { ENV, stepFrom } from '../rule-tester.js';

// What a shell command does to files, as the rules see it (`context.files`). Most of it is the
// program knowledge base's data (`files` and `edits` in an entry, read by one interpreter in
// analysis/effects.ts) and the roles (a deleter deletes its operands): one table per kind of use,
// each with the forms that name files and the near misses that name none.

const show = (effect: FileEffect): string =>
  `${effect.op} ${effect.path.raw}${effect.how ? ` (${effect.how})` : ''}${effect.sends ? ' sends' : ''} by ${effect.by}`;
const effectsOf = (line: string): string[] => buildContext(stepFrom(line), ENV).files.map(show);

function table(name: string, rows: readonly (readonly [string, readonly string[]])[]): void {
  describe(name, () => {
    it('has no duplicate rows', () => {
      expect(new Set(rows.map(([line]) => line)).size).toBe(rows.length);
    });
    it.for(rows)('%s', ([line, want]) => {
      expect(effectsOf(line)).toEqual(want);
    });
  });
}

table('a copy: sources read (or moved away), the destination written', [
  ['cp a.txt b.txt', ['read a.txt (copy) by cp', 'write b.txt by cp']],
  ['cp -r src dest/', ['read src (copy) by cp', 'write dest/ by cp']],
  ['cp -t out a b', ['read a (copy) by cp', 'read b (copy) by cp', 'write out by cp']],
  ['cp --target-directory=out a b', ['read a (copy) by cp', 'read b (copy) by cp', 'write out by cp']],
  ['install -m 755 tool /usr/local/bin/tool', ['read tool (copy) by install', 'write /usr/local/bin/tool by install']],
  ['copy a.txt b.txt', ['read a.txt (copy) by copy', 'write b.txt by copy']],
  ['mv old new', ['delete old (move) by mv', 'write new by mv']],
  ['mv a b dir/', ['delete a (move) by mv', 'delete b (move) by mv', 'write dir/ by mv']],
  ['mv -t dir a b', ['delete a (move) by mv', 'delete b (move) by mv', 'write dir by mv']],
  ['move a.txt b.txt', ['delete a.txt (move) by move', 'write b.txt by move']],
  ['ln -s target link', ['write link by ln']],
  // near misses: nothing to copy, or only the link's target named
  ['cp onlyone', []],
  ['ln target', []],
  ['mv --help', []],
]);

table("PowerShell's parameters, by name or by place", [
  ['Copy-Item a.txt b.txt', ['read a.txt (copy) by copy-item', 'write b.txt by copy-item']],
  ['Copy-Item -Path a.txt -Destination b.txt', ['read a.txt (copy) by copy-item', 'write b.txt by copy-item']],
  // -Path named: the one operand is the destination, in the second place
  ['Copy-Item -Path a.txt b.txt', ['read a.txt (copy) by copy-item', 'write b.txt by copy-item']],
  ['cpi a b', ['read a (copy) by cpi', 'write b by cpi']],
  ['Move-Item -Path a -Destination b', ['delete a (move) by move-item', 'write b by move-item']],
  ['mi a b', ['delete a (move) by mi', 'write b by mi']],
  ['Set-Content -Path x.txt -Value y', ['write x.txt (truncate) by set-content']],
  ['Set-Content x.txt y', ['write x.txt (truncate) by set-content']],
  ['Set-Content -Value y x.txt', ['write x.txt (truncate) by set-content']],
  ['sc x.txt y', ['write x.txt (truncate) by sc']],
  ['Add-Content -Path x.txt -Value y', ['write x.txt (append) by add-content']],
  ['ac x.txt y', ['write x.txt (append) by ac']],
  ['Out-File -FilePath x.txt', ['write x.txt (truncate) by out-file']],
  ['Out-File x.txt -Append', ['write x.txt (append) by out-file']],
  ['Tee-Object -FilePath x.txt', ['write x.txt (truncate) by tee-object']],
  ['Tee-Object x.txt', ['write x.txt (truncate) by tee-object']],
  ['New-Item -Path x.txt -Value hi', ['create x.txt by new-item']],
  ['ni x.txt', ['create x.txt by ni']],
  ['Invoke-WebRequest -Uri https://e.com -OutFile x.zip', ['write x.zip by invoke-webrequest']],
  ['iwr https://e.com -OutFile x', ['write x by iwr']],
  [
    'Invoke-RestMethod -Uri https://e.com -InFile body.json -Method Post',
    ['read body.json sends by invoke-restmethod'],
  ],
  // near misses: the value is text, not a file; a cmdlet that names no file
  ['Set-Content -Path x.txt hello', ['write x.txt (truncate) by set-content']],
  ['Tee-Object -Variable out', []],
  ['Invoke-WebRequest -Uri https://e.com', []],
]);

table('writers: tee, dd, truncate, fallocate', [
  ['echo x | tee out.txt', ['write out.txt (truncate) by tee']],
  ['echo x | tee -a out.txt', ['write out.txt (append) by tee']],
  ['echo x | tee a b', ['write a (truncate) by tee', 'write b (truncate) by tee']],
  ['echo x | tee --append a', ['write a (append) by tee']],
  ['dd if=/dev/zero of=disk.img bs=1M', ['read /dev/zero by dd', 'write disk.img (truncate) by dd']],
  ['dd if=in.bin', ['read in.bin by dd']],
  ['truncate -s 0 log.txt', ['write log.txt (truncate) by truncate']],
  ['fallocate -l 1G big.img', ['write big.img (truncate) by fallocate']],
  // near misses: tee to stdout only, dd's other settings, the size is no file
  ['echo x | tee', []],
  ['dd bs=1M count=1', []],
  ['truncate -s 0', []],
]);

table("a file's mode or owner: the files after the first operand", [
  ['chmod 600 key.pem', ['write key.pem (edit) by chmod']],
  ['chmod -R 755 dir', ['write dir (edit) by chmod']],
  ['chown bob file', ['write file (edit) by chown']],
  ['chgrp staff a b', ['write a (edit) by chgrp', 'write b (edit) by chgrp']],
  ['setfacl -m u:bob:rw file', ['write file (edit) by setfacl']],
  ['chmod +x', []],
]);

table("archives: tar's modes (its old form too), zip, unzip", [
  ['tar czf out.tgz src', ['write out.tgz by tar', 'read src by tar']],
  ['tar -czf out.tgz src', ['write out.tgz by tar', 'read src by tar']],
  ['tar --create --file=x.tar a', ['write x.tar by tar', 'read a by tar']],
  ['tar -rf x.tar more', ['write x.tar by tar', 'read more by tar']],
  ['bsdtar -cf x.tar a', ['write x.tar by bsdtar', 'read a by bsdtar']],
  ['gtar -cf x.tar a', ['write x.tar by gtar', 'read a by gtar']],
  ['tar -cf - src', ['read src by tar']],
  ['tar -xzf a.tgz -C out', ['write out by tar']],
  ['tar xzf a.tgz -C out', ['write out by tar']],
  ['zip out.zip a b', ['write out.zip by zip', 'read a by zip', 'read b by zip']],
  ['zip -r out.zip dir', ['write out.zip by zip', 'read dir by zip']],
  ['unzip a.zip -d out', ['write out by unzip']],
  // near misses: extracting or listing into the current folder, a listing that names files
  ['tar xzf a.tgz', []],
  ['tar -tf a.tgz docs', []],
  ['unzip a.zip', []],
]);

table('downloads and uploads', [
  ['curl -o out.html https://example.com', ['write out.html by curl']],
  ['curl -O https://example.com/a.tgz', ['write a.tgz by curl']],
  ['curl --output=x https://e.com', ['write x by curl']],
  ['curl -T file.txt https://e.com', ['read file.txt sends by curl']],
  ['curl -d @body.json https://e.com', ['read body.json sends by curl']],
  ['curl -F file=@up.bin https://e.com', ['read up.bin sends by curl']],
  ['wget https://example.com/a.tgz', ['write a.tgz by wget']],
  ['wget https://e.com/', ['write index.html by wget']],
  ['wget -O out https://e.com/x', ['write out by wget']],
  ['wget -P dl https://e.com/x.zip', ['write dl/x.zip by wget']],
  ['wget --post-file=data.json https://e.com', ['write index.html by wget', 'read data.json sends by wget']],
  // near misses: stdout and stdin are no files, a body that is no file, a check that saves nothing
  ['curl -o - https://e.com', []],
  ['curl --data-binary @- https://e.com', []],
  ['curl -d a=b https://e.com', []],
  ['curl https://e.com', []],
  ['wget -qO- https://e.com/x', []],
  ['wget --spider https://e.com', []],
]);

table('copies between computers', [
  ['scp file.txt host:/tmp/', ['read file.txt (copy) sends by scp']],
  ['scp host:/etc/x local.txt', ['write local.txt by scp']],
  ['scp a b', ['read a (copy) by scp', 'write b by scp']],
  ['rsync -av src/ dest/', ['read src/ (copy) by rsync', 'write dest/ by rsync']],
  [
    'rsync -av --delete src/ dest/',
    ['read src/ (copy) by rsync', 'write dest/ by rsync', 'delete dest/ (recursive) by rsync'],
  ],
  ['rsync -av --delete-after src/ host:dest/', ['read src/ (copy) sends by rsync']],
  ['rsync src/ user@host:/x', ['read src/ (copy) sends by rsync']],
  ['rsync -e ssh a host:b', ['read a (copy) sends by rsync']],
  // near misses: sftp copies nothing by its words, a Windows drive is no host
  ['sftp host', []],
  ["scp 'C:\\x.txt' host:/tmp/", ['read C:\\x.txt (copy) sends by scp']],
]);

table("git's subcommands", [
  ['git clone https://github.com/a/b mydir', ['write mydir by git']],
  ['git clone --depth 1 https://github.com/a/b mydir', ['write mydir by git']],
  ['git worktree add ../wt', ['write ../wt by git']],
  ['git worktree add -b feat ../wt main', ['write ../wt by git']],
  ['git show HEAD:.env', ['read .env by git']],
  ['git show :0:a.txt', ['read a.txt by git']],
  ['git cat-file -p main:config/.env', ['read config/.env by git']],
  // near misses: a clone into the folder its name picks, a type check, a commit, a URL
  ['git clone https://github.com/a/b', []],
  ['git cat-file -t main:x', []],
  ['git show HEAD', []],
  ['git show https://example.com/x', []],
  ['git status', []],
  ['git worktree list', []],
]);

table("find's expression", [
  ['find . -name x -delete', ['delete ./**/x by find']],
  ['find build -delete', ['delete build (recursive) by find']],
  ['find . -mtime +3 -delete', ['delete . by find']],
  ["find . -name '*.log' -exec rm {} +", ['delete ./**/*.log by find']],
  ['find . -name .env -exec cat {} ;', ['read ./**/.env by find']],
  ['find . -name x', []],
]);

table('the first operand: a database, a cron table; openssl', [
  ['sqlite3 app.db', ['read app.db by sqlite3']],
  ["sqlite3 app.db 'select 1'", ['read app.db by sqlite3']],
  ['sqlite app.db', ['read app.db by sqlite']],
  ['duckdb x.db', ['read x.db by duckdb']],
  ['crontab mycron', ['read mycron by crontab']],
  ['crontab -u bob file', ['read file by crontab']],
  ['openssl rsa -in key.pem -text', ['read key.pem by openssl']],
  ['openssl req -new -out csr.pem', ['write csr.pem by openssl']],
  ['crontab -l', []],
  ['openssl version', []],
]);

table('roles, and edits in place', [
  ['cat a.txt', ['read a.txt by cat']],
  ['rm -rf x', ['delete x (recursive) by rm']],
  ['del /s /q x', ['delete x (recursive) by del']],
  ['rd /s /q dir', ['delete dir (recursive) by rd']],
  ['erase /q f', ['delete f by erase']],
  ['Remove-Item -Path x -Recurse', ['delete x (recursive) by remove-item']],
  ['touch a', ['create a by touch']],
  ['mkdir -p d', ['create d by mkdir']],
  ['sed -i s/a/b/ f.txt', ['write f.txt (edit) by sed']],
  ['perl -pi -e s/a/b/ f.txt', ['write f.txt (edit) by perl']],
  ['perl -i.bak -pe s/a/b/ a b', ['write a (edit) by perl', 'write b (edit) by perl']],
  ['perl -pi fix.pl f.txt', ['exec fix.pl by perl', 'write f.txt (edit) by perl']],
  ['grep -r --include=.env* KEY .', ['read . by grep', 'read ./.env* by grep']],
  ['bash x.sh', ['exec x.sh by bash']],
  ['python3 - < tool.py', ['exec tool.py by python3']],
  // near misses: no -i, so sed and perl only read or print; rm with no operand
  ['sed s/a/b/ f.txt', ['read f.txt by sed']],
  ['perl -pe s/a/b/ f.txt', []],
  ['perl fix.pl f.txt', ['exec fix.pl by perl']],
  ['rm -r', []],
]);

describe('changesFile: a change of what a file holds or whether it is there', () => {
  const changes = (line: string): boolean[] => buildContext(stepFrom(line), ENV).files.map(changesFile);
  it.for([
    ['echo x > a.txt', [true]],
    ['cp a b', [false, true]],
    ['rm a', [true]],
    ['New-Item -Path x.txt -Value hi', [true]],
    // near misses: a mode, an owner, an empty file or folder; a read
    ['chmod 600 key.pem', [false]],
    ['chown bob file', [false]],
    ['touch a', [false]],
    ['mkdir d', [false]],
    ['cat a', [false]],
  ] as const)('%s', ([line, want]) => {
    expect(changes(line)).toEqual(want);
  });
});

describe("a subcommand's remote: what git reaches", () => {
  const netOf = (line: string): string[] =>
    buildContext(stepFrom(line), ENV).net.map((net) => `${net.kind} ${net.host}${net.sends ? ' sends' : ''}`);
  it.for([
    ['git clone https://github.com/a/b', ['git github.com']],
    ['git -C src fetch https://gitlab.com/a/b main', ['git gitlab.com']],
    ['git pull git@github.com:a/b.git main', ['git github.com']],
    ['git ls-remote https://github.com/a/b', ['git github.com']],
    ['git push https://example.com/r.git main', ['git example.com sends']],
    // near misses: a URL in a subcommand that reaches nothing, a push to a remote by its name
    ['git log https://example.com/x', []],
    ['git commit -m https://example.com/x', []],
    ['git push origin main', []],
  ] as const)('%s', ([line, want]) => {
    expect(netOf(line)).toEqual(want);
  });
});
