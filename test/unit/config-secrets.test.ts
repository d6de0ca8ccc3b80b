import { describe, expect, it } from 'vitest';
import { assertNoMaskedSecrets } from '../../server/capture/config-secrets.js';

describe('masked secrets never go back to the capture app', () => {
  const before = { common: { admin_password: 'real-one' }, share: { key: '' } };

  it('lets an unchanged secret through', () => {
    expect(() => assertNoMaskedSecrets(before, structuredClone(before))).not.toThrow();
  });

  it('refuses a secret replaced by its mask, naming where', () => {
    const after = { common: { admin_password: '**********' }, share: { key: '' } };
    expect(() => assertNoMaskedSecrets(before, after)).toThrow(/common\.admin_password/);
  });

  it('refuses a mask anywhere, in lists too', () => {
    expect(() => assertNoMaskedSecrets({ a: [{ token: 'x' }] }, { a: [{ token: '****' }] })).toThrow(/a\[0\]\.token/);
  });
});
