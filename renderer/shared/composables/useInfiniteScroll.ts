import { onBeforeUnmount, onMounted, type Ref } from 'vue';

/** Calls `onVisible` whenever the sentinel element comes near the visible part of the page. */
export function useInfiniteScroll(sentinel: Ref<HTMLElement | null>, onVisible: () => void): void {
  let observer: IntersectionObserver | undefined;
  onMounted(() => {
    observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && onVisible(), { rootMargin: '600px 0px' });
    if (sentinel.value) observer.observe(sentinel.value);
  });
  onBeforeUnmount(() => observer?.disconnect());
}
