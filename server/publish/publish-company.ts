import { createHash } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { PublishSettings } from '../contract/publish.contract.js';
import { escapeHtml as esc } from '../core/util/html.js';
import type { EventRow } from '../events/event.repository.js';
import { dateLabel } from './publish-index.js';
import { TEXT } from './publish-page.js';
import type { PublishRepository } from './publish.repository.js';
import type { PublishTarget } from './publish-destination.js';
import { remoteJoin, type RclonePort } from './rclone.port.js';

/** The fleet's index folder at the destination's root: its key is the only way to find it (it lists every event's token). */
export const companyFolder = (key: string): string => `boothdeck-index-${key}`;

/** What the fleet's index says of an event with a password, in place of its name. */
const PROTECTED_NAME = { fr: 'Galerie protégée', en: 'Protected gallery' } as const;

/** One booth's entry: its events online, with paths relative to the index folder's parent. */
interface Entry {
  booth: string;
  events: { name: string; meta: string; path: string; protected: boolean }[];
}

/**
 * The page reads every booth's entry in the browser: a booth writes only its own file, so two
 * booths never overwrite each other's events. Entries are data from other booths: only a path of
 * the booth-name/token form becomes a link, and every text is set as text.
 */
const COMPANY_SCRIPT = `(function(){
var booths=JSON.parse(document.getElementById('booths').textContent),T=JSON.parse(document.getElementById('texts').textContent),list=document.getElementById('list');
Promise.all(booths.map(function(b){return fetch(encodeURIComponent(b)+'.json',{cache:'no-store'}).then(function(r){return r.ok?r.json():null;}).catch(function(){return null;});})).then(function(entries){
var n=0;entries.forEach(function(e){if(!e||typeof e.booth!=='string'||!Array.isArray(e.events))return;
var h=document.createElement('h2');h.textContent=e.booth;list.appendChild(h);var ul=document.createElement('ul');list.appendChild(ul);
e.events.forEach(function(ev){if(!ev||typeof ev.path!=='string'||!/^[a-z0-9][a-z0-9-]{0,39}\\/[A-Za-z0-9_-]{22}\\/$/.test(ev.path))return;
var li=document.createElement('li'),a=document.createElement('a'),m=document.createElement('span');a.href='../'+ev.path;a.textContent=String(ev.name)+(ev.protected?' 🔒':'');
a.setAttribute('data-testid','company-event');m.className='meta';m.textContent=' '+String(ev.meta);li.appendChild(a);li.appendChild(m);ul.appendChild(li);n++;});});
if(n===0){var p=document.createElement('p');p.textContent=T.none;list.appendChild(p);}});
})();`;

const SCRIPT_HASH = createHash('sha256').update(COMPANY_SCRIPT).digest('base64');
const CSP = `default-src 'none'; connect-src 'self'; style-src 'unsafe-inline'; script-src 'sha256-${SCRIPT_HASH}'; base-uri 'none'; form-action 'none'`;

export function renderCompanyPage(language: 'fr' | 'en', booths: readonly string[]): string {
  const title = language === 'fr' ? 'Événements en ligne de la flotte' : 'Events online across the fleet';
  const none = language === 'fr' ? 'Aucun événement en ligne pour le moment.' : 'No event online yet.';
  const json = (v: unknown): string => JSON.stringify(v).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="${language}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer"><meta http-equiv="Content-Security-Policy" content="${CSP}"><title>${esc(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:24px;color:#111}li{margin:6px 0}.meta{color:#666}h2{font-size:1.1rem;margin:18px 0 4px}</style></head>
<body><h1>${esc(title)}</h1><div id="list" data-testid="company-list"></div>
<script type="application/json" id="booths">${json(booths)}</script>
<script type="application/json" id="texts">${json({ none })}</script>
<script>${COMPANY_SCRIPT}</script>
</body></html>
`;
}

interface CompanyDeps {
  repo: PublishRepository;
  rclone: RclonePort;
  event: (id: number) => EventRow | undefined;
  stageDir: string;
}

/**
 * Keeps this booth's entry in the fleet's index and the index page in line. The entry is written
 * when it changed; the page when the booths listed changed, or on a full check (another booth may
 * have written the page without this one meanwhile: it converges within one periodic pass).
 */
export class CompanyIndex {
  private lastEntry: string | null = null;
  private lastPage: string | null = null;

  constructor(private readonly deps: CompanyDeps) {}

  async sync(target: PublishTarget, settings: PublishSettings & { company_index?: string | null }, full: boolean): Promise<void> {
    const key = settings.company_index ?? null;
    if (key === null) return;
    const { repo } = this.deps;
    const entry: Entry = { booth: settings.booth_name, events: [] };
    for (const pub of repo.publications()) {
      const event = this.deps.event(pub.event_id);
      if (!event || pub.state !== 'publishing' || pub.index_at === null) continue;
      const date = dateLabel(event.created_at, settings.language);
      // A protected event's page tells nothing without its password: its entry neither (no name, no count).
      if (repo.lock(pub.event_id) !== undefined) {
        entry.events.push({
          name: PROTECTED_NAME[settings.language],
          meta: date,
          path: `${settings.booth_name}/${pub.token}/`,
          protected: true,
        });
        continue;
      }
      const counts = repo.counts(pub.event_id);
      entry.events.push({
        name: event.name,
        meta: `${date} · ${TEXT[settings.language].photos(counts.online)}`,
        path: `${settings.booth_name}/${pub.token}/`,
        protected: false,
      });
    }
    const folder = remoteJoin(target.root, companyFolder(key));
    const text = JSON.stringify(entry);
    const where = `${key}:${settings.booth_name}`;
    const entryChanged = this.lastEntry !== `${where}\n${text}`;
    if (!entryChanged && !full) return;
    await mkdir(this.deps.stageDir, { recursive: true });
    const local = path.join(this.deps.stageDir, `company-${settings.booth_name}.json`);
    try {
      if (entryChanged) {
        await writeFile(local, text);
        await this.deps.rclone.replace(target, local, remoteJoin(folder, `${settings.booth_name}.json`));
        this.lastEntry = `${where}\n${text}`;
      }
      const booths = (await this.deps.rclone.listFiles(target, folder))
        .map((f) => f.path)
        .filter((p) => /^[a-z0-9][a-z0-9-]{0,39}\.json$/.test(p))
        .map((p) => p.slice(0, -5))
        .sort();
      const page = renderCompanyPage(settings.language, booths);
      if (page === this.lastPage && !full) return;
      await writeFile(local, page);
      await this.deps.rclone.replace(target, local, remoteJoin(folder, 'index.html'));
      this.lastPage = page;
    } finally {
      await rm(local, { force: true });
    }
  }
}
