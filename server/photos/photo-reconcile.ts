import type { CaptureAppPort } from '../capture/capture.port.js';

const PAGE = 500;

/**
 * The indexed ids the capture app no longer lists, read from its whole list (newest first,
 * `PAGE` at a time, at most `maxPages`). Undefined when the list could not be read to its end:
 * a partial list proves nothing about what it did not reach. Every item Boothdeck indexes came
 * from that list or from a DbInsert, both of which hold only items shown in the gallery, so an
 * indexed id missing from a whole list has been deleted at the booth.
 */
export async function unlistedIds(capture: CaptureAppPort, indexed: Iterable<string>, maxPages: number): Promise<string[] | undefined> {
  const listed = new Set<string>();
  for (let pageNo = 0; pageNo < maxPages; pageNo++) {
    const page = await capture.listMedia(pageNo * PAGE, PAGE);
    let fresh = 0;
    for (const item of page) {
      if (listed.has(item.id)) continue;
      listed.add(item.id);
      fresh++;
    }
    if (page.length < PAGE) return [...indexed].filter((id) => !listed.has(id));
    // A capture app that ignores `offset` answers the same page again: the end is never reached.
    if (fresh === 0) return undefined;
  }
  return undefined;
}
