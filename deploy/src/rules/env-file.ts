/**
 * KEY=VALUE files read as systemd's EnvironmentFile= reads them (boothdeck.env, deploy.env,
 * fleet.env): comments and malformed lines skipped, one pair of surrounding quotes removed, the
 * last value of a key winning. Never run as shell.
 */
const KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function parseEnvFile(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const raw of text.split('\n').slice(0, 10_000)) {
    const line = raw.replace(/\r$/, '');
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    const key = line.slice(0, eq).trim();
    if (!KEY.test(key)) continue;
    values[key] = unquote(line.slice(eq + 1).trim());
  }
  return values;
}

function unquote(value: string): string {
  if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.at(-1) === value[0]) return value.slice(1, -1);
  return value;
}
