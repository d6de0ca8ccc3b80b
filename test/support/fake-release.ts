/**
 * The program a fake release runs (written into the fake board's bin/ as fake-release.cjs, started
 * by each stand-in AppImage with its version and behaviour): a real HTTP server on BOOTHDECK_PORT
 * answering /healthz as Boothdeck does, the event state read from the board's .event file. Started
 * by the unit it migrates the live database as the real migrator would (refusing a migration it
 * does not know that is not backward compatible); started for a trial it does the same to its copy.
 *
 * A trial records its arguments, environment and the modes of what it was given (.trial-args,
 * .trial-env, .trial-modes on the board).
 *
 * Behaviours: healthy; crash (exits at start, trial included); live-crash (exits at start under the
 * unit only); dies-after:N (under the unit, answers then exits N seconds after each start); hang
 * (under the unit, never answers); gate (the trial waits for a line on the board's .gate FIFO);
 * wrong:VERSION (answers another version).
 */
export function fakeReleaseProgram(betterSqlite3: string): string {
  return `'use strict';
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const [version, behaviour, knowsText, migrate, ...args] = process.argv.slice(2);
const board = process.env.FAKE_BOARD;
const trial = args.includes('--boothdeck-trial');
const live = !trial;
if (trial) {
  fs.writeFileSync(path.join(board, '.trial-args'), args.join(' ') + '\\n');
  fs.writeFileSync(path.join(board, '.trial-env'), Object.entries(process.env).map(([k, v]) => k + '=' + v).join('\\n') + '\\n');
  // The modes of what it was given (its folder, the data folder, the database copied), before it writes a byte there.
  try {
    const given = process.env.BOOTHDECK_DATA_DIR;
    const files = [path.dirname(given), given, ...fs.readdirSync(given).sort().map((f) => path.join(given, f))];
    fs.writeFileSync(path.join(board, '.trial-modes'), files.map((f) => (fs.statSync(f).mode & 0o777).toString(8) + ' ' + f).join('\\n') + '\\n');
  } catch {}
}
if (behaviour === 'crash') {
  console.error('SqliteError: database disk image is malformed');
  process.exit(1);
}
const dataDir = process.env.BOOTHDECK_DATA_DIR || path.join(process.env.HOME, '.config/Boothdeck/data');
const dbFile = path.join(dataDir, 'boothdeck.sqlite');
if (fs.existsSync(dbFile)) {
  const Database = require(${JSON.stringify(betterSqlite3)});
  const db = new Database(dbFile);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL, backward_compatible INTEGER NOT NULL DEFAULT 0)');
  const knows = Number(knowsText);
  const rows = db.prepare('SELECT version, backward_compatible AS c FROM schema_migrations').all();
  const unknown = rows.find((r) => r.version > knows && !r.c);
  if (unknown) {
    console.error('MigrationError: Database has migration ' + unknown.version + ' that this version of Boothdeck does not know; refusing to start');
    db.close();
    process.exit(3);
  }
  if (migrate) {
    const [v, c] = migrate.split(':');
    db.prepare('INSERT OR IGNORE INTO schema_migrations VALUES (?, ?, ?, ?)').run(Number(v), 'm' + v, 'now', Number(c));
  }
  db.close();
}
if (live && behaviour === 'live-crash') process.exit(1);
if (live && behaviour === 'hang') setInterval(() => undefined, 1 << 30);
else {
  if (trial && behaviour === 'gate') fs.readFileSync(path.join(board, '.gate'));
  const reported = behaviour.startsWith('wrong:') ? behaviour.slice('wrong:'.length) : version;
  const server = http.createServer((req, res) => {
    if (req.url !== '/healthz') return res.writeHead(404).end();
    let active = false, age = null, opened = null;
    try {
      [active, age, opened] = fs.readFileSync(path.join(board, '.event'), 'utf8').trim().split(' ').map((w) => (w === 'null' ? null : w === 'true' ? true : w === 'false' ? false : Number(w)));
    } catch {}
    const body = { ok: true, version: reported, simulator: false, event_active: active, last_photo_age_seconds: age, event_age_seconds: opened };
    const send = () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (fs.existsSync(path.join(board, '.slow'))) setTimeout(send, 5000);
    else send();
  });
  server.listen(Number(process.env.BOOTHDECK_PORT), '127.0.0.1');
  server.on('error', (err) => {
    console.error(String(err));
    process.exit(4);
  });
  const dies = /^dies-after:([0-9.]+)$/.exec(behaviour);
  if (live && dies) setTimeout(() => process.exit(1), Number(dies[1]) * 1000);
}
process.on('SIGTERM', () => process.exit(0));
`;
}
