import { test as base } from '@playwright/test';
import { startTestService, type TestService } from '../support/service.js';

export const ADMIN_PIN = '246810';

/** One service per worker, with a known PIN; each test gets a page on it. */
export const test = base.extend<object, { service: TestService }>({
  service: [
    async ({}, use) => {
      const service = await startTestService({ BOOTHDECK_ADMIN_PIN: ADMIN_PIN });
      await use(service);
      await service.close();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ service }, use) => {
    await use(service.localUrl);
  },
});

export { expect } from '@playwright/test';
