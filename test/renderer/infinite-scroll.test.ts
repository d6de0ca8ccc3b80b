// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApp, defineComponent, h, ref, type App } from 'vue';
import { useInfiniteScroll } from '../../renderer/shared/composables/useInfiniteScroll.js';

/** Stands in for the browser's observer: the test says when the sentinel enters or leaves the screen. */
class ObserverStub {
  static last: ObserverStub | undefined;
  observed: Element[] = [];
  disconnected = false;
  constructor(private readonly callback: (entries: { isIntersecting: boolean }[]) => void) {
    ObserverStub.last = this;
  }
  observe(element: Element): void {
    this.observed.push(element);
  }
  disconnect(): void {
    this.disconnected = true;
  }
  show(visible: boolean): void {
    this.callback([{ isIntersecting: visible }]);
  }
}

let app: App | undefined;

function mountScroller(loadMore: () => Promise<boolean>): void {
  const Scroller = defineComponent(() => {
    const sentinel = ref<HTMLElement | null>(null);
    useInfiniteScroll(sentinel, loadMore);
    return () => h('div', [h('div', { ref: sentinel, 'data-testid': 'sentinel' })]);
  });
  const root = document.createElement('div');
  document.body.append(root);
  app = createApp(Scroller);
  app.mount(root);
}

/** Lets the pump's awaits and animation frames run. */
const settle = () => vi.advanceTimersByTimeAsync(100);

describe('infinite scroll', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal('IntersectionObserver', ObserverStub);
    vi.stubGlobal('requestAnimationFrame', (cb: () => void) => setTimeout(cb, 16));
  });
  afterEach(() => {
    app?.unmount();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('watches the sentinel and loads nothing until it comes near the screen', async () => {
    const loadMore = vi.fn(() => Promise.resolve(true));
    mountScroller(loadMore);
    expect(ObserverStub.last?.observed[0]?.getAttribute('data-testid')).toBe('sentinel');
    await settle();
    expect(loadMore).not.toHaveBeenCalled();
  });

  it('keeps loading pages while the sentinel stays in view, and stops at the last page', async () => {
    let pages = 3;
    const loadMore = vi.fn(() => Promise.resolve(--pages > 0));
    mountScroller(loadMore);
    ObserverStub.last?.show(true);
    await settle();
    expect(loadMore).toHaveBeenCalledTimes(3);
  });

  it('stops as soon as a page has pushed the sentinel beyond a screen, without waiting for the observer', async () => {
    const loadMore = vi.fn(() => {
      // The page just loaded fills the screen and more: the sentinel now sits far below.
      const sentinel = document.querySelector('[data-testid="sentinel"]') as HTMLElement;
      sentinel.getBoundingClientRect = () => ({ top: window.innerHeight + 2000 }) as DOMRect;
      return Promise.resolve(true);
    });
    mountScroller(loadMore);
    ObserverStub.last?.show(true);
    await settle();
    expect(loadMore).toHaveBeenCalledTimes(1);
  });

  it('stops when the sentinel leaves the screen, and resumes when it comes back', async () => {
    const loadMore = vi.fn(() => Promise.resolve(true));
    mountScroller(loadMore);
    ObserverStub.last?.show(true);
    await vi.advanceTimersByTimeAsync(40);
    ObserverStub.last?.show(false);
    const afterHide = loadMore.mock.calls.length;
    await settle();
    expect(loadMore.mock.calls.length).toBeLessThanOrEqual(afterHide + 1);
    const beforeShow = loadMore.mock.calls.length;
    ObserverStub.last?.show(true);
    await vi.advanceTimersByTimeAsync(40);
    expect(loadMore.mock.calls.length).toBeGreaterThan(beforeShow);
  });

  it('never asks for two pages at once when the observer speaks again mid-request', async () => {
    let inFlight = 0;
    let overlap = false;
    const loadMore = vi.fn(async () => {
      inFlight++;
      if (inFlight > 1) overlap = true;
      await new Promise((resolve) => setTimeout(resolve, 50));
      inFlight--;
      return loadMore.mock.calls.length < 4;
    });
    mountScroller(loadMore);
    ObserverStub.last?.show(true);
    ObserverStub.last?.show(true);
    await vi.advanceTimersByTimeAsync(10);
    ObserverStub.last?.show(true);
    await vi.advanceTimersByTimeAsync(1000);
    expect(overlap).toBe(false);
    expect(loadMore).toHaveBeenCalledTimes(4);
  });

  it('lets go of the observer when the page goes away', () => {
    mountScroller(() => Promise.resolve(false));
    const observer = ObserverStub.last;
    app?.unmount();
    app = undefined;
    expect(observer?.disconnected).toBe(true);
  });
});
