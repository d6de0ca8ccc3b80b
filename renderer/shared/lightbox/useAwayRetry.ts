import { onBeforeUnmount, ref, type Ref } from 'vue';

/** A photo still not there after this long is treated as out of reach (a Wi-Fi that swallows requests). */
const STALL_MS = 8000;
/** How often the booth is tried again while it is away. */
const RETRY_MS = 3000;
/** A try that has not answered by then has failed. */
const PROBE_TIMEOUT_MS = 5000;

/** Loads `url` as an image: true once it is in the browser's cache, false when it fails or stalls. */
function probeImage(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const image = new Image();
    const done = (ok: boolean): void => {
      clearTimeout(timer);
      image.onload = null;
      image.onerror = null;
      if (!ok) image.src = '';
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), PROBE_TIMEOUT_MS);
    image.onload = () => done(true);
    image.onerror = () => done(false);
    image.src = url;
  });
}

export interface AwayRetry {
  /** The photo on screen could not be fetched: the lightbox says so instead of a broken image. */
  away: Ref<boolean>;
  /** viewerjs starts showing `image` (its `view` event). */
  viewing(image: HTMLImageElement): void;
  /** viewerjs has shown it (its `viewed` event). */
  viewed(): void;
  /** The lightbox closed. */
  stop(): void;
}

/**
 * A lightbox whose photo cannot be fetched (the guest's phone has left the booth's Wi-Fi, the
 * booth restarts): it hides the broken image, says so, and tries again by itself until the
 * photo comes, then shows it with `reView`.
 */
export function useAwayRetry(reView: () => void): AwayRetry {
  const away = ref(false);
  let image: HTMLImageElement | null = null;
  let stall: ReturnType<typeof setTimeout> | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;

  function clearTimers(): void {
    clearTimeout(stall);
    clearTimeout(retry);
  }

  function lost(failed: HTMLImageElement): void {
    if (failed !== image) return;
    clearTimers();
    failed.style.visibility = 'hidden';
    away.value = true;
    schedule(RETRY_MS);
  }

  function schedule(delay: number): void {
    clearTimeout(retry);
    retry = setTimeout(() => void tryAgain(), delay);
  }

  async function tryAgain(): Promise<void> {
    const tried = image;
    if (!tried || !away.value) return;
    const back = await probeImage(tried.src);
    if (tried !== image || !away.value) return;
    if (back) reView();
    else schedule(RETRY_MS);
  }

  // The phone says it is back on a network: no need to wait for the next try.
  const online = (): void => {
    if (away.value) schedule(0);
  };
  window.addEventListener('online', online);
  onBeforeUnmount(() => {
    clearTimers();
    window.removeEventListener('online', online);
  });

  return {
    away,
    viewing(next) {
      clearTimeout(stall);
      image = next;
      next.addEventListener('error', () => lost(next), { once: true });
      stall = setTimeout(() => lost(next), STALL_MS);
    },
    viewed() {
      clearTimers();
      if (image) image.style.visibility = '';
      away.value = false;
    },
    stop() {
      clearTimers();
      image = null;
      away.value = false;
    },
  };
}
