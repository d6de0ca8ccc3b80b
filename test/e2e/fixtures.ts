import { test as base } from '@playwright/test';
import { startTestService, type TestService } from '../support/service.js';

export const ADMIN_PIN = '246810';

const serviceEnv = { BOOTHDECK_ADMIN_PIN: ADMIN_PIN, BOOTHDECK_SCREEN_REFRESH: '["wtype","-k","F5"]' };

/** A service per worker, with a known PIN; each call makes a fixture of its own, hence a service of its own. */
function workerService() {
  return base.extend<object, { service: TestService }>({
    service: [
      async ({}, use) => {
        const service = await startTestService(serviceEnv);
        await use(service);
        await service.close();
      },
      { scope: 'worker' },
    ],
    baseURL: async ({ service }, use) => {
      await use(service.localUrl);
    },
  });
}

/** One service per worker; each test gets a page on it. */
export const test = workerService();

/**
 * A second service per worker, apart from the common one: for the serial walks whose `beforeAll`
 * adds photos or changes the printer, so the other files never meet what they leave (each walk
 * counts its own photos and puts the printer back).
 */
export const fileTest = workerService();

/** A service of its own for each test, for tests that change what the others read. */
export const isolatedTest = base.extend<{ service: TestService }>({
  service: async ({}, use) => {
    const service = await startTestService(serviceEnv);
    await use(service);
    await service.close();
  },
  baseURL: async ({ service }, use) => {
    await use(service.localUrl);
  },
});

export { expect } from '@playwright/test';
