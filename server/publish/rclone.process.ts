import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { PublishFailure } from '../contract/publish.contract.js';
import type { CommandResult, SystemPort } from '../system/system.port.js';
import { PROBE_TIMEOUT_MS, RcloneError, type RclonePort, type RcloneTarget, type RemoteFile } from './rclone.port.js';

/** A batch may be hundreds of photos over a slow Wi-Fi; a run past this is stopped and retried later. */
const COPY_TIMEOUT_MS = 30 * 60_000;
const SMALL_TIMEOUT_MS = 90_000;

/**
 * Failing fast is the queue's business: it waits and tries again itself, so rclone gives up after
 * one retry instead of its usual three, and never asks for a password on a terminal.
 */
const COMMON = ['--retries', '1', '--low-level-retries', '2', '--contimeout', '15s', '--timeout', '60s', '--ask-password=false'];

/** rclone's exit codes (3: folder not found, 4: file not found) and the words of its usual failures. */
export function failureOf(result: CommandResult): PublishFailure {
  const text = `${result.stderr}\n${result.stdout}`.toLowerCase();
  if (result.code === 127) return 'missing_binary';
  if (result.code === 124) return 'unreachable';
  if (
    /didn't find section in config file|config file .*not found|unknown backend|couldn't find backend|failed to create file system for .*: .*(config|section)/.test(
      text,
    )
  )
    return 'config';
  if (/no space left|insufficient storage|quota ?exceeded|over quota|\b507\b/.test(text)) return 'no_space';
  if (/\b(401|403)\b|unauthori[sz]ed|forbidden|access ?denied|invalidaccesskeyid|signaturedoesnotmatch|permission denied/.test(text))
    return 'auth';
  if (
    /connection refused|no such host|network is unreachable|i\/o timeout|timeout|dial tcp|connection reset|no route to host|tls handshake|eof/.test(
      text,
    )
  )
    return 'unreachable';
  if (result.code === 3 || result.code === 4 || /not found|no such file/.test(text)) return 'not_found';
  return 'failed';
}

/** Only the end of rclone's own text, for the log: it may be long and is never shown to anyone. */
const tail = (text: string): string => text.trim().split('\n').slice(-4).join(' | ').slice(0, 600);

/** rclone run through the allowlisted system port, argv only, never a shell. */
export class RcloneProcess implements RclonePort {
  constructor(
    private readonly system: SystemPort,
    /** Where the lists of files handed to rclone are written (Boothdeck's data folder). */
    private readonly scratchDir: string = os.tmpdir(),
  ) {}

  private async run(target: RcloneTarget, args: string[], timeoutMs: number, okCodes: readonly number[] = [0]): Promise<CommandResult> {
    const config = target.configFile === null ? [] : ['--config', target.configFile];
    const result = await this.system.run('rclone', [...args, ...COMMON, ...config], { timeoutMs });
    if (okCodes.includes(result.code)) return result;
    throw new RcloneError(failureOf(result), `exit ${result.code}: ${tail(result.stderr || result.stdout)}`);
  }

  private async withList<T>(names: readonly string[], work: (listFile: string) => Promise<T>): Promise<T> {
    const listFile = path.join(this.scratchDir, `.rclone-list-${randomBytes(6).toString('hex')}.txt`);
    await writeFile(listFile, names.map((n) => `${n}\n`).join(''));
    try {
      return await work(listFile);
    } finally {
      await rm(listFile, { force: true });
    }
  }

  copyNew(target: RcloneTarget, sourceDir: string, names: readonly string[], dest: string): Promise<void> {
    if (names.length === 0) return Promise.resolve();
    return this.withList(names, async (list) => {
      // --size-only: a name holds one version of one photo, so a file of the right size is that
      // file (one cut short by a power failure has another size and is sent again).
      await this.run(target, ['copy', sourceDir, dest, '--files-from-raw', list, '--size-only'], COPY_TIMEOUT_MS);
    });
  }

  async replace(target: RcloneTarget, file: string, destFile: string): Promise<void> {
    await this.run(target, ['copyto', file, destFile, '--ignore-times'], SMALL_TIMEOUT_MS);
  }

  remove(target: RcloneTarget, dest: string, names: readonly string[]): Promise<void> {
    if (names.length === 0) return Promise.resolve();
    return this.withList(names, async (list) => {
      await this.run(target, ['delete', dest, '--files-from-raw', list], COPY_TIMEOUT_MS, [0, 3]);
    });
  }

  async purge(target: RcloneTarget, dest: string): Promise<void> {
    try {
      await this.run(target, ['purge', dest], COPY_TIMEOUT_MS, [0, 3]);
    } catch (err) {
      if (err instanceof RcloneError && err.reason === 'not_found') return;
      throw err;
    }
  }

  async read(target: RcloneTarget, destFile: string): Promise<string> {
    return (await this.run(target, ['cat', destFile], SMALL_TIMEOUT_MS)).stdout;
  }

  async removeFile(target: RcloneTarget, destFile: string): Promise<void> {
    await this.run(target, ['deletefile', destFile], SMALL_TIMEOUT_MS);
  }

  async listFiles(target: RcloneTarget, dest: string): Promise<RemoteFile[]> {
    let stdout: string;
    try {
      // `lsf` rather than `lsjson`: the same listing in a third of the bytes (size;path a line), so
      // an event of several thousand photos fits the system port's 1 MB of output.
      const args = ['lsf', dest, '--recursive', '--files-only', '--format', 'sp'];
      stdout = (await this.run(target, args, SMALL_TIMEOUT_MS, [0, 3])).stdout;
    } catch (err) {
      if (err instanceof RcloneError && err.reason === 'not_found') return [];
      throw err;
    }
    const files: RemoteFile[] = [];
    for (const line of stdout.split('\n')) {
      const cut = line.indexOf(';');
      const size = Number(line.slice(0, cut));
      if (cut > 0 && Number.isFinite(size)) files.push({ path: line.slice(cut + 1), size });
    }
    return files;
  }

  async probe(target: RcloneTarget, dest: string): Promise<void> {
    try {
      await this.run(target, ['lsf', dest, '--max-depth', '1', '--dirs-only'], PROBE_TIMEOUT_MS, [0, 3]);
    } catch (err) {
      if (err instanceof RcloneError && err.reason === 'not_found') return;
      throw err;
    }
  }

  async listRemotes(target: RcloneTarget): Promise<string[]> {
    const { stdout } = await this.run(target, ['listremotes'], SMALL_TIMEOUT_MS);
    return stdout
      .split('\n')
      .map((line) => line.trim().replace(/:$/, ''))
      .filter((name) => name !== '');
  }
}
