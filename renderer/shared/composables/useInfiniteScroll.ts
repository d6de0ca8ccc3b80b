import { onBeforeUnmount, onMounted, type Ref } from 'vue';

const MARGIN_PX = 600;
const nextFrame = (): Promise<void> => new Promise((resolve) => requestAnimationFrame(() => resolve()));

/**
 * Loads more while the sentinel element is near the visible part of the page. An observer only
 * speaks when visibility changes, so after each page the sentinel is checked again: a short
 * page that leaves it in view loads the next one too. `loadMore` says whether more remain.
 */
export function useInfiniteScroll(sentinel: Ref<HTMLElement | null>, loadMore: () => Promise<boolean>): void {
  let observer: IntersectionObserver | undefined;
  let visible = false;
  let pumping = false;

  /** Measured after the new page is laid out: the observer's own word may still be a frame late. */
  const stillNear = (): boolean => {
    const el = sentinel.value;
    if (!el || !visible) return false;
    const top = el.getBoundingClientRect().top;
    return top < window.innerHeight + MARGIN_PX;
  };

  const pump = async (): Promise<void> => {
    if (pumping) return;
    pumping = true;
    try {
      while (visible && (await loadMore())) {
        await nextFrame();
        if (!stillNear()) break;
      }
    } finally {
      pumping = false;
    }
  };

  onMounted(() => {
    observer = new IntersectionObserver(
      (entries) => {
        visible = entries.some((e) => e.isIntersecting);
        if (visible) void pump();
      },
      { rootMargin: `${MARGIN_PX}px 0px` },
    );
    if (sentinel.value) observer.observe(sentinel.value);
  });
  onBeforeUnmount(() => observer?.disconnect());
}
