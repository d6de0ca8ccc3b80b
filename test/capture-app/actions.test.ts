import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaptureConfig } from '../../server/capture/capture.types.js';
import type { RestartStatus } from '../../server/contract/system.contract.js';
import { startBooth, until, type Booth, type JobRun } from './support/booth.js';

type Json = Record<string, unknown>;

let b: Booth;
/** The capture app's whole configuration as it started: every test leaves it as it found it. */
let initial: CaptureConfig;
beforeAll(async () => {
  b = await startBooth('actions');
  initial = await b.client.getConfig();
  expect((await b.operator.post('/api/admin/events', { name: 'Actions' })).status).toBe(201);
});
afterAll(async () => {
  await b?.close();
});

const lists = (config: CaptureConfig): Record<string, Json[]> => config.actions as Record<string, Json[]>;
const at = (entry: Json | undefined, ...keys: string[]): unknown =>
  keys.reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Json)[k] : undefined), entry);
const over = (state: string): boolean => !['pending', 'waiting', 'restarting', 'refreshing'].includes(state);

/** Waits until no restart is pending, waiting or under way, and gives how the last one ended. */
async function settled(): Promise<RestartStatus> {
  const res = await until(
    () => b.operator.get('/api/admin/system/capture-restart'),
    (r) => over(r.body.state),
    120_000,
    'the capture app’s restart to end',
  );
  return res.body as RestartStatus;
}

/** The app's configuration read both ways: its admin API and its config.json, which must agree. */
async function held(): Promise<CaptureConfig> {
  const api = await b.client.getConfig();
  expect(b.configFile()).toEqual(api);
  return api;
}

describe('the actions as the capture app holds them', () => {
  it('reads every action of the app, in its order, with its button', async () => {
    const res = await b.operator.get('/api/admin/actions');
    expect(res.status).toBe(200);
    const expected = Object.entries(lists(initial)).flatMap(([kind, entries]) => entries.map((entry) => ({ kind, entry })));
    expect(res.body.actions).toHaveLength(expected.length);
    res.body.actions.forEach((action: { general: Json; ui_trigger: Json }, i: number) => {
      const { kind, entry } = expected[i] ?? { kind: '', entry: {} };
      expect(action.general).toMatchObject({ kind, name: entry.name, countdown: at(entry, 'jobcontrol', 'countdown_capture') });
      expect(action.ui_trigger.title).toBe(at(entry, 'trigger', 'ui_trigger', 'title'));
    });
  });

  it('creates, edits, clones, reorders and deletes, keeping every field, and ends where it began', async () => {
    const frames = (await b.operator.get('/api/admin/userfiles?q=frames')).body;
    const frame = (frames.files ?? frames).map((f: { path: string }) => f.path).find((p: string) => p.endsWith('.png'));
    expect(frame).toBeTruthy();

    const created = await b.operator.post('/api/admin/actions/create', { 'general.kind': 'image', 'general.name': 'Contrat' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const idx = created.body.index as number;
    let images = lists(await held()).image ?? [];
    const fresh = images.at(-1);
    expect(fresh?.name).toBe('Contrat');

    const edit = await b.operator.put(`/api/admin/actions/${idx}`, {
      'ui_trigger.title': 'Souriez',
      'general.countdown': 3.5,
      'frame.enabled': true,
      'frame.file': frame,
      'background.fill_color': '#112233',
      'processing.image_filter': 'FilterPilgram2.inkwell',
    });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect(edit.body.not_kept).toEqual([]);
    expect(edit.body.action).toMatchObject({
      ui_trigger: { title: 'Souriez' },
      general: { countdown: 3.5 },
      frame: { enabled: true, file: frame },
    });
    images = lists(await held()).image ?? [];
    const edited = images.at(-1);
    expect(at(edited, 'trigger', 'ui_trigger', 'title')).toBe('Souriez');
    expect(at(edited, 'jobcontrol', 'countdown_capture')).toBe(3.5);
    expect(at(edited, 'processing', 'img_frame_file')).toBe(frame);
    expect(at(edited, 'processing', 'image_filter')).toBe('FilterPilgram2.inkwell');
    // Untouched fields are carried through as they were.
    expect(at(edited, 'trigger', 'gpio_trigger')).toEqual(at(fresh, 'trigger', 'gpio_trigger'));
    expect(at(edited, 'processing', 'texts')).toEqual(at(fresh, 'processing', 'texts'));

    const cloned = await b.operator.post(`/api/admin/actions/${idx}/clone`);
    expect(cloned.status).toBe(201);
    images = lists(await held()).image ?? [];
    expect(images.at(-1)).toEqual({ ...edited, name: 'Contrat (copie)' });

    // The copy before its original: the app's own list of photos changes order.
    const order = (created.body.actions as unknown[]).map((_, i) => i);
    const moved = [...order.slice(0, idx), idx + 1, idx, ...order.slice(idx + 1)];
    const reordered = await b.operator.put('/api/admin/actions/reorder', { order: moved });
    expect(reordered.status).toBe(200);
    images = lists(await held()).image ?? [];
    expect(images.slice(-2).map((e) => e.name)).toEqual(['Contrat (copie)', 'Contrat']);

    expect((await b.operator.del(`/api/admin/actions/${idx + 1}`)).status).toBe(200);
    expect((await b.operator.del(`/api/admin/actions/${idx}`)).status).toBe(200);
    expect(await held()).toEqual(initial);
    await settled();
  });

  it('names a write the app refuses, and changes nothing', async () => {
    const res = await b.operator.put('/api/admin/actions/0', { 'frame.enabled': true, 'frame.file': 'userdata/none/nothing.png' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('frame.file');
    expect(await held()).toEqual(initial);
  });
});

describe('presets, backups and the delete button', () => {
  it('a preset restores the actions saved in it', async () => {
    const saved = await b.operator.post('/api/admin/actions/presets', { name: 'Départ' });
    expect(saved.status).toBe(201);
    expect((await b.operator.put('/api/admin/actions/0', { 'ui_trigger.title': 'Changé' })).status).toBe(200);
    expect(at(lists(await held()).image?.[0], 'trigger', 'ui_trigger', 'title')).toBe('Changé');
    const restored = await b.operator.post(`/api/admin/actions/presets/${saved.body.preset.id}/restore`);
    expect(restored.status).toBe(200);
    expect(await held()).toEqual(initial);
    await settled();
  });

  it('a backup restores the actions it holds', async () => {
    const backup = await b.operator.get('/api/admin/backup');
    expect(backup.status).toBe(200);
    expect((await b.operator.put('/api/admin/actions/0', { 'general.countdown': 7 })).status).toBe(200);
    const restored = await b.operator.post('/api/admin/backup', backup.body);
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect(await held()).toEqual(initial);
    await settled();
  });

  it('the delete button setting goes both ways', async () => {
    for (const value of [false, true]) {
      const res = await b.operator.put('/api/admin/settings', { gallery: { show_delete: value } });
      expect(res.status).toBe(200);
      expect(at(await held(), 'uisettings', 'gallery_show_delete')).toBe(value);
      expect((await b.operator.get('/api/admin/settings')).body.gallery.show_delete).toBe(value);
    }
    expect(await held()).toEqual(initial);
  });
});

describe('restarting the capture app after a change', () => {
  it('reloads it when its restart endpoint restarts nothing (not a systemd unit), and says so', async () => {
    expect((await b.operator.put('/api/admin/actions/0', { 'ui_trigger.title': 'Rechargé' })).status).toBe(200);
    const status = await settled();
    expect(status).toMatchObject({ state: 'warning', method: 'reload', screen_refreshed: true, after_wait: null });
    expect(status.message).toMatch(/not run as a systemd service/);
    expect(b.system.calls.at(-1)).toMatchObject({ command: 'wtype', args: ['-k', 'F5'] });
    const buttons = await b.client.getConfig();
    expect(at(lists(buttons).image?.[0], 'trigger', 'ui_trigger', 'title')).toBe('Rechargé');
  });

  it('a change made during a guest’s countdown waits for the photo, which reaches the gallery, then restarts', async () => {
    // A long countdown, so that the change lands inside it whatever the machine's load.
    expect((await b.operator.put('/api/admin/actions/0', { 'general.countdown': 12 })).status).toBe(200);
    await settled();
    const statuses: RestartStatus[] = [];
    const off = b.service.services.restarter.onChange((s) => statuses.push(s));
    const counting = b.booth.nextState('counting');
    const job = b.booth.job('image', 0);
    await counting;
    const changed = await b.operator.put('/api/admin/actions/0', { 'ui_trigger.title': 'Pendant le décompte' });
    expect(changed.status).toBe(200);
    const run = await job;
    const final = await settled();
    off();
    expect(run.ok, run.states.join(', ')).toBe(true);
    const photo = run.inserted.at(-1);
    expect(photo?.media_type).toBe('image');
    // The restart waited for the guest's job, then went ahead once it had finished.
    expect(statuses.map((s) => s.state)).toContain('waiting');
    expect(final).toMatchObject({ state: 'warning', method: 'reload', after_wait: 'job_done' });
    const events = b.booth.stream.events;
    const finished = events.findLastIndex((e) => e.event === 'ProcessStateinfo' && (e.data as Json).target === 'finished');
    const reload = events.findLastIndex((e) => e.event === 'LogRecord' && String((e.data as Json).message).includes('param=reload'));
    expect(reload).toBeGreaterThan(finished);
    // The guest's photo is saved and reaches the gallery; the change is in the app's configuration.
    const guest = b.guest();
    await until(
      () => guest.get('/api/gallery/photos'),
      (r) => (r.body.photos ?? []).some((p: { id: string }) => p.id === photo?.id),
      60_000,
      'the guest’s photo in the gallery',
    );
    expect(await b.client.getMediaItem(photo?.id ?? '')).not.toBeNull();
    expect(at(lists(await held()).image?.[0], 'trigger', 'ui_trigger', 'title')).toBe('Pendant le décompte');
    expect(b.service.services.captureJobs.status().failures).toEqual([]);
  });

  it('a guest who presses the button while the restart looks for the app to go down is waited for before the reload', async () => {
    // Long enough to outlast what is left of the ten seconds the restart looks for a gap.
    expect((await b.operator.put('/api/admin/actions/0', { 'general.countdown': 15 })).status).toBe(200);
    await settled();
    const statuses: RestartStatus[] = [];
    let job: Promise<JobRun> | undefined;
    const off = b.service.services.restarter.onChange((s) => {
      statuses.push(s);
      // The restart endpoint is called now: it restarts nothing here, and the app stays up.
      if (s.state === 'restarting' && !job) job = b.booth.job('image', 0);
    });
    expect((await b.operator.put('/api/admin/actions/0', { 'ui_trigger.title': 'Pendant la recherche' })).status).toBe(200);
    await until(
      () => job !== undefined,
      (pressed) => pressed,
      30_000,
      'the restart to start',
    );
    if (!job) throw new Error('The guest never pressed the button');
    const run = await job;
    const final = await settled();
    off();
    expect(run.ok, run.states.join(', ')).toBe(true);
    const seen = statuses.map((s) => s.state);
    expect(seen.slice(seen.indexOf('restarting'))).toContain('waiting');
    expect(final).toMatchObject({ state: 'warning', method: 'reload', after_wait: 'job_done' });
    const photo = run.inserted.at(-1);
    expect(photo?.media_type).toBe('image');
    const guest = b.guest();
    await until(
      () => guest.get('/api/gallery/photos'),
      (r) => (r.body.photos ?? []).some((p: { id: string }) => p.id === photo?.id),
      60_000,
      'the guest’s photo in the gallery',
    );
    expect(at(lists(await held()).image?.[0], 'trigger', 'ui_trigger', 'title')).toBe('Pendant la recherche');
    expect(b.service.services.captureJobs.status().failures).toEqual([]);
  });
});
