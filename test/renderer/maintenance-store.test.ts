// @vitest-environment happy-dom
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DashboardStatus } from '../../server/contract/dashboard.contract.js';
import { dashboardService } from '../../renderer/admin/services/dashboard.service.js';
import { useDashboardStore } from '../../renderer/admin/stores/dashboard.store.js';
import { useDialogStore } from '../../renderer/admin/stores/dialog.store.js';
import { ApiError } from '../../renderer/shared/http.js';

vi.mock('../../renderer/admin/services/dashboard.service.js', () => ({
  dashboardService: { status: vi.fn(), logs: vi.fn(), run: vi.fn() },
}));

const status = (startedAt: string): DashboardStatus =>
  ({ started_at: startedAt, version: '1.0.0', disks: [], photos_per_hour: [] }) as unknown as DashboardStatus;

/** Presses a button and says yes to its question. */
async function pressAndConfirm(button: 'restart-boothdeck' | 'reboot'): Promise<void> {
  const store = useDashboardStore();
  const pressed = store.press(button);
  await vi.waitFor(() => expect(useDialogStore().pending).not.toBeNull());
  useDialogStore().answer(true);
  await pressed;
}

describe('the maintenance buttons', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    vi.useFakeTimers();
    vi.mocked(dashboardService.logs).mockResolvedValue({ lines: [] });
    vi.mocked(dashboardService.run).mockReset();
    vi.mocked(dashboardService.status).mockReset();
  });
  afterEach(() => vi.useRealTimers());

  it('after "Restart Boothdeck", the "will reconnect" words give way once a new Boothdeck answers', async () => {
    const store = useDashboardStore();
    vi.mocked(dashboardService.status).mockResolvedValue(status('2026-11-25T20:00:00.000Z'));
    await store.loadStatus();
    vi.mocked(dashboardService.run).mockResolvedValue({ action: 'restart-boothdeck', ok: true, message: '' });
    await pressAndConfirm('restart-boothdeck');
    expect(store.result?.text).toContain('se reconnectera');

    // Still the old process for a moment, then nothing answers, then a new one.
    await vi.advanceTimersByTimeAsync(1000);
    expect(store.result?.text).toContain('se reconnectera');
    vi.mocked(dashboardService.status).mockRejectedValueOnce(new ApiError(0, 'network', 'offline'));
    await vi.advanceTimersByTimeAsync(1000);
    vi.mocked(dashboardService.status).mockResolvedValue(status('2026-11-25T20:00:09.000Z'));
    await vi.advanceTimersByTimeAsync(1000);
    expect(store.result).toEqual({ ok: true, text: 'Boothdeck a redémarré et répond de nouveau.', detail: null });
  });

  it('a refused reboot is a sentence; the command and its output are kept for the details', async () => {
    const store = useDashboardStore();
    vi.mocked(dashboardService.status).mockResolvedValue(status('2026-11-25T20:00:00.000Z'));
    const said = 'systemctl reboot failed (exit code 1): Failed to connect to bus: No medium found';
    vi.mocked(dashboardService.run).mockRejectedValue(new ApiError(502, 'command_failed', said));
    await pressAndConfirm('reboot');
    expect(store.result?.ok).toBe(false);
    expect(store.result?.text).not.toMatch(/exit code|systemctl|Failed to/);
    expect(store.result?.detail).toBe(said);
  });
});
