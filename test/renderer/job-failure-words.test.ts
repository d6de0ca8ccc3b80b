// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import type { CaptureJobFailure } from '../../server/contract/capture.contract.js';
import { jobFailureSentence } from '../../renderer/admin/components/job-failure.js';
import { setLocale } from '../../renderer/shared/i18n/index.js';
import { plain } from '../support/plain-spaces.js';

afterEach(() => setLocale('fr'));

const failure = (kind: CaptureJobFailure['trigger']['kind'], inARow: number, title: string | null = null): CaptureJobFailure => ({
  id: 1,
  at: '2026-11-28T13:48:45.000Z',
  trigger: { kind, index: 0 },
  name: null,
  title,
  in_a_row: inARow,
  reasons: [],
});

describe('a failed guest’s job in words', () => {
  it('says what the guest lost with the right French possessive, for one failure and for several', () => {
    setLocale('fr');
    expect(plain(jobFailureSentence(failure('animation', 1, 'GIF'), 'fr'))).toMatch(
      /^« GIF » \(Animation\) a échoué à \d\d:\d\d : l’invité n’a pas eu son animation\.$/,
    );
    expect(jobFailureSentence(failure('video', 1), 'fr')).toContain('l’invité n’a pas eu sa vidéo.');
    expect(jobFailureSentence(failure('collage', 1), 'fr')).toContain('l’invité n’a pas eu son collage.');
    expect(plain(jobFailureSentence(failure('animation', 3, 'GIF'), 'fr'))).toMatch(
      /^« GIF » \(Animation\) a échoué 3 fois de suite, la dernière à \d\d:\d\d : les invités qui appuient sur ce bouton n’ont pas leur animation\.$/,
    );
  });

  it('reads as English in English', () => {
    setLocale('en');
    expect(jobFailureSentence(failure('image', 1, 'Smile'), 'en')).toMatch(
      /^“Smile” \(Photo\) failed at .+: the guest did not get their photo\.$/,
    );
    expect(jobFailureSentence(failure('multicamera', 2), 'en')).toMatch(
      /failed 2 times in a row, last at .+: guests who press this button get no multi-camera shot\.$/,
    );
  });
});
