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
  ['cp -r src dest/', ['read src (copy) by cp', 'write dest/ by cp', 'write dest/src by cp']],
  [
    'cp -t out a b',
    ['read a (copy) by cp', 'read b (copy) by cp', 'write out by cp', 'write out/a by cp', 'write out/b by cp'],
  ],
  [
    'cp --target-directory=out a b',
    ['read a (copy) by cp', 'read b (copy) by cp', 'write out by cp', 'write out/a by cp', 'write out/b by cp'],
  ],
  ['install -m 755 tool /usr/local/bin/tool', ['read tool (copy) by install', 'write /usr/local/bin/tool by install']],
  ['copy a.txt b.txt', ['read a.txt (copy) by copy', 'write b.txt by copy']],
  ['mv old new', ['delete old (move) by mv', 'write new by mv']],
  [
    'mv a b dir/',
    ['delete a (move) by mv', 'delete b (move) by mv', 'write dir/ by mv', 'write dir/a by mv', 'write dir/b by mv'],
  ],
  [
    'mv -t dir a b',
    ['delete a (move) by mv', 'delete b (move) by mv', 'write dir by mv', 'write dir/a by mv', 'write dir/b by mv'],
  ],
  // a copy into a folder writes the file of the source's name there (the reader has put the home folder in for `~`)
  ['cp .zshrc ~', ['read .zshrc (copy) by cp', 'write /home/dev by cp', 'write /home/dev/.zshrc by cp']],
  [
    'cp src/evil.sh ~/.bashrc.d/',
    ['read src/evil.sh (copy) by cp', 'write /home/dev/.bashrc.d/ by cp', 'write /home/dev/.bashrc.d/evil.sh by cp'],
  ],
  ['ln -s ../x.sh .', ['write . by ln', 'write ./x.sh by ln']],
  // near misses: a destination that may be a file, and rsync's trailing `/` (what the folder holds)
  ['cp a.txt docs', ['read a.txt (copy) by cp', 'write docs by cp']],
  ['rsync -a src/ dest/', ['read src/ (copy) by rsync', 'write dest/ by rsync']],
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
  ['tar -xzf a.tgz -C out', ['write out (into) by tar']],
  ['tar xzf a.tgz -C out', ['write out (into) by tar']],
  ['tar --extract --file=a.tar --directory=out', ['write out (into) by tar']],
  // extracting with no folder named unpacks in the one it runs in
  ['tar xzf a.tgz', ['write . (into) by tar']],
  ['unzip a.zip', ['write . (into) by unzip']],
  ['tar -cf b.tar --remove-files a', ['write b.tar by tar', 'read a by tar', 'delete a (move) by tar']],
  ['zip -m out.zip a', ['write out.zip by zip', 'read a by zip', 'delete a (move) by zip']],
  ['zip -rm out.zip dir', ['write out.zip by zip', 'read dir by zip', 'delete dir (move) by zip']],
  ['cpio -pdm dest', ['write dest (into) by cpio']],
  ['7z x -oout a.7z', ['write out (into) by 7z']],
  ['zip out.zip a b', ['write out.zip by zip', 'read a by zip', 'read b by zip']],
  ['zip -r out.zip dir', ['write out.zip by zip', 'read dir by zip']],
  ['unzip a.zip -d out', ['write out (into) by unzip']],
  // near misses: a listing that names files, listing or testing an archive, keeping the files
  ['tar -tf a.tgz docs', []],
  ['tar -tvf a.tar', []],
  ['unzip -l a.zip', []],
  ['unzip -t a.zip', []],
  ['7z l a.7z', []],
  ['zip out.zip a', ['write out.zip by zip', 'read a by zip']],
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

table('writers the base declares: editors, converters, splitters, links, mounts', [
  ['ed -s notes.txt', ['write notes.txt (edit) by ed']],
  ['ex -sc wq notes.txt', ['write notes.txt (edit) by ex']],
  ["vim -es -c '%d' -c wq notes.txt", ['write notes.txt (edit) by vim']],
  ["vim -c 'w! out.txt' -c q in.txt", ['write in.txt (edit) by vim', 'write out.txt by vim']],
  ["view -c 'sav copy.txt|q' a.txt", ['write copy.txt by view']],
  ["gawk -i inplace '{ print }' a.txt", ['write a.txt (edit) by gawk']],
  ["yq -i '.a = 1' c.yaml", ['write c.yaml (edit) by yq']],
  ['prettier --write a.ts', ['write a.ts (edit) by prettier']],
  ['sponge out.txt', ['write out.txt (truncate) by sponge']],
  ['sponge -a out.txt', ['write out.txt (append) by sponge']],
  ['dos2unix a.txt', ['read a.txt by dos2unix', 'write a.txt (edit) by dos2unix']],
  ['dos2unix -n in.txt out.txt', ['read in.txt by dos2unix', 'read out.txt by dos2unix', 'write out.txt by dos2unix']],
  ['iconv -f latin1 -t utf8 -o out.txt in.txt', ['read in.txt by iconv', 'write out.txt by iconv']],
  // (the files the patch itself names are in the folder it runs in, or the one `-d` names)
  ['patch a.c fix.diff', ['write a.c (edit) by patch', 'write . (into) by patch']],
  ['patch -o out.c a.c fix.diff', ['write a.c (edit) by patch', 'write out.c by patch', 'write . (into) by patch']],
  ['patch -d sub -p1', ['write sub (into) by patch']],
  ['patch -p1', ['write . (into) by patch']],
  ['split -l 10 big.txt part.', ['read big.txt by split', 'write part. by split']],
  ['csplit -f part. big.txt 10', ['read big.txt by csplit', 'write part. by csplit']],
  ['gzip a.log', ['read a.log by gzip', 'delete a.log (move) by gzip']],
  ['xz -z a.log', ['read a.log by xz', 'delete a.log (move) by xz']],
  ['zstd --rm a.log', ['read a.log by zstd', 'delete a.log (move) by zstd']],
  ['gio trash a.txt', ['delete a.txt (move) by gio']],
  ['gio remove a.txt', ['delete a.txt by gio']],
  ['gio copy a.txt b.txt', ['read a.txt (copy) by gio', 'write b.txt by gio']],
  ['gio save out.txt', ['write out.txt (truncate) by gio']],
  ['rimraf dist', ['delete dist by rimraf']],
  [
    'rsync -a --remove-source-files a/ b/',
    ['read a/ (copy) by rsync', 'write b/ by rsync', 'delete a/ (move) by rsync'],
  ],
  [
    'rsync -a --link-dest=../prev a/ b/',
    ['read a/ (copy) by rsync', 'write b/ by rsync', 'write ../prev (link) by rsync'],
  ],
  ['ln a.txt b.txt', ['write b.txt by ln', 'write a.txt (link) by ln']],
  ['link a.txt b.txt', ['write a.txt (link) by link', 'write b.txt by link']],
  ['cp -al src dst', ['read src (copy) by cp', 'write dst by cp', 'write src (link) by cp']],
  ['cp --link a b', ['read a (copy) by cp', 'write b by cp', 'write a (link) by cp']],
  ['mount --bind /srv/a /mnt/b', ['write /mnt/b by mount', 'write /srv/a (link) by mount']],
  ['mount /dev/sdb1 /mnt/usb', ['write /mnt/usb by mount']],
  ['xxd -r dump.hex out.bin', ['read dump.hex by xxd', 'read out.bin by xxd', 'write out.bin by xxd']],
  ['shuf -o out.txt in.txt', ['read in.txt by shuf', 'write out.txt by shuf']],
  ["ruby -pi -e 'gsub(/a/, %q(b))' a.txt", ['write a.txt (edit) by ruby']],
  ['gpg -o out.txt -d in.gpg', ['write out.txt by gpg']],
  ['ditto a b', ['read a (copy) by ditto', 'write b by ditto']],
  ['chattr +i a.txt', ['write a.txt (edit) by chattr']],
  // near misses: read-only, printing, keeping, trying, a symbolic link, a listing
  ['view a.txt', []],
  ['vim -R a.txt', []],
  ["vim -c 'w !wc -l' -R a.txt", []],
  ["awk '{ print }' a.txt", ['read a.txt by awk']],
  ["yq '.a' c.yaml", ['read c.yaml by yq']],
  ['prettier --check a.ts', []],
  ['dos2unix -i a.txt', ['read a.txt by dos2unix']],
  ['patch --dry-run a.c fix.diff', []],
  ['gzip -c a.log', ['read a.log by gzip']],
  ['gzip -k a.log', ['read a.log by gzip']],
  ['zstd a.log', ['read a.log by zstd']],
  ['gio info a.txt', []],
  ['ln -s a.txt b.txt', ['write b.txt by ln']],
  ['cp a b', ['read a (copy) by cp', 'write b by cp']],
  ['mount', []],
  ['xxd a.bin', ['read a.bin by xxd']],
  ['shuf in.txt', ['read in.txt by shuf']],
  ["ruby -e 'puts 1' a.txt", []],
  ['gpg -d in.gpg', []],
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
  // the subcommands that change the working tree write into the folder git runs in
  // (`.` is the folder git runs in: the one `-C` or `--work-tree` names)
  ['git -C ../other checkout -- a.txt', ['write . (into) by git']],
  ['git --work-tree=../other checkout -f', ['write . (into) by git']],
  ['git restore a.txt', ['write . (into) by git']],
  ['git reset --hard', ['write . (into) by git']],
  ['git clean -fdx', ['write . (into) by git']],
  ['git stash pop', ['write . (into) by git']],
  ['git pull', ['write . (into) by git']],
  ['git apply fix.diff', ['write . (into) by git']],
  ['git rm a.txt', ['write . (into) by git']],
  ['git switch main', ['write . (into) by git']],
  // near misses: the index only, a dry run, a check, a soft reset
  ['git reset HEAD a.txt', []],
  ['git restore --staged a.txt', []],
  ['git clean -n', []],
  ['git apply --check fix.diff', []],
  ['git rm --cached a.txt', []],
  ['git -C ../other log', []],
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

table("files a script names in the program's own language: sed's `w` and `r`, awk's `print >`", [
  ["sed -n 'w out.txt' f", ['read f by sed', 'write out.txt by sed']],
  ["sed -n '/ERROR/W errors.txt' app.log", ['read app.log by sed', 'write errors.txt by sed']],
  ["sed 's/a/b/w changes.log' f", ['read f by sed', 'write changes.log by sed']],
  ["sed -e 's/a/b/gw changes.log' f", ['read f by sed', 'write changes.log by sed']],
  ["sed 'r header.txt' f", ['read f by sed', 'read header.txt by sed']],
  ["sed -e '1R extra.txt' f", ['read f by sed', 'read extra.txt by sed']],
  ["sed -i '$r footer.txt' f", ['write f (edit) by sed', 'read footer.txt by sed']],
  // sed and awk do not expand `~`: a folder named `~` here
  ["sed -n 'w ~/x' f", ['read f by sed', 'write ./~/x by sed']],
  ['awk \'{print > "out.txt"}\' f', ['read f by awk', 'write out.txt by awk']],
  ['awk \'{print $2 >> "out.log"}\' f', ['read f by awk', 'write out.log (append) by awk']],
  ['gawk \'{printf "%s", $1 > "/etc/x"}\' f', ['read f by gawk', 'write /etc/x by gawk']],
  ['awk \'{ if ($1 > 0) print > "pos.txt" }\' f', ['read f by awk', 'write pos.txt by awk']],
  // near misses: the output streams, a comparison, a label, a word of text, a script in a file
  ["sed 's/a/b/w /dev/stdout' f", ['read f by sed']],
  ["sed -n '/x/p' f", ['read f by sed']],
  ["sed ':a;N;ba' f", ['read f by sed']],
  ["sed 's/write/read/' f", ['read f by sed']],
  ['sed -f script.sed f', ['read f by sed', 'read script.sed by sed']],
  ['awk \'$3 > "m" {print $1}\' f', ['read f by awk']],
  ['awk \'{print ($1 > "m")}\' f', ['read f by awk']],
  ['awk \'{print "a > b"}\' f', ['read f by awk']],
  ['awk \'{print > "/dev/stderr"}\' f', ['read f by awk']],
  // find writes its list where `-fprint` and its kin say
  ["find . -name '*.log' -fprint logs.txt", ['write logs.txt by find']],
  ["find src -fprintf list.txt '%p\\n'", ['write list.txt by find']],
  ['find . -fls listing.txt', ['write listing.txt by find']],
  ["find . -name '*.log' -print", []],
]);

table('compilers and archivers that write what `-o` names', [
  ['gcc -o build/app main.c', ['write build/app by gcc']],
  ['gcc -O2 -Wall -o app main.c util.c', ['write app by gcc']],
  ['clang++ -std=c++17 -o bin/tool tool.cpp', ['write bin/tool by clang++']],
  ['rustc -o target/hello hello.rs', ['write target/hello by rustc']],
  ['go build -o bin/server ./cmd/server', ['write bin/server by go']],
  ['git archive -o dist.tar.gz HEAD', ['write dist.tar.gz by git']],
  // near misses: no output named
  ['gcc -c main.c', []],
  ['go build ./...', []],
  ['git archive HEAD', []],
]);
