/**
 * Where a notice goes: at the foot of the room above the on-screen keyboard (and above the
 * console's bar when the bar runs along the foot), unless that would lie over what the operator is
 * working on (the focused field), then at the top of the screen.
 */

export interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

export type NoticePlace = 'bottom' | 'top';

/** The gap between a notice and the edge of its room. */
export const NOTICE_MARGIN = 12;

const area = (a: Box, b: Box): number =>
  Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top)) * Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left));

/**
 * The notice's place for a notice of `notice`'s size: `room` is the screen above the keyboard,
 * `avoid` what it must not cover. The foot when it is free, else the top when that is free, else
 * whichever covers less.
 */
export function noticePlace(notice: { width: number; height: number }, room: Box, avoid: readonly Box[]): NoticePlace {
  const left = (room.left + room.right - notice.width) / 2;
  const at = (top: number): Box => ({ top, bottom: top + notice.height, left, right: left + notice.width });
  const bottom = at(room.bottom - NOTICE_MARGIN - notice.height);
  const top = at(room.top + NOTICE_MARGIN);
  const covered = (box: Box): number => avoid.reduce((sum, a) => sum + area(box, a), 0);
  return covered(bottom) <= covered(top) ? 'bottom' : 'top';
}

/**
 * The room a notice floats in: the screen above the on-screen keyboard, and beside the console's
 * bar of places, wherever the bar runs (down the left on a landscape screen, along the foot on a
 * portrait one), so that no notice lies over "Verrouiller" or "Accueil" and takes the tap meant
 * for them.
 */
export function noticeRoom(screen: { width: number; height: number }, keyboardHeight: number, bar: Box | null): Box {
  const room: Box = { top: 0, bottom: screen.height - keyboardHeight, left: 0, right: screen.width };
  if (bar === null) return room;
  const alongFoot = bar.bottom >= screen.height - 1 && bar.right - bar.left > screen.width / 2;
  const downLeft = bar.left <= 1 && bar.bottom - bar.top > screen.height / 2;
  if (alongFoot) room.bottom = Math.min(room.bottom, bar.top);
  else if (downLeft) room.left = Math.max(room.left, bar.right);
  return room;
}
